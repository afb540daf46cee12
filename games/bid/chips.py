"""Chips: the two balances, the capped transfers between them, and the block award.

Rules §1: balances start at 150 each and always sum to 300; points only move from one
player to the other, each transfer is capped by the payer's balance, and a balance of 0
loses at once. Balances are therefore never negative.
"""

from __future__ import annotations

from games.seats import Seat, other

Balances = tuple[int, int]


def transfer(balances: Balances, payer: Seat, amount: int) -> tuple[Balances, int]:
    """Return the balances after ``payer`` pays up to ``amount``, and what actually moved.

    The payment is capped by the payer's balance (rules §1: a score of 20 moves only 5 if
    the payer has only 5 left).
    """
    moved = min(amount, balances[payer])
    if moved <= 0:
        return balances, 0
    if payer == 0:
        return (balances[0] - moved, balances[1] + moved), moved
    return (balances[0] + moved, balances[1] - moved), moved


def broke(balances: Balances) -> Seat | None:
    """Return the seat whose balance reached 0 (it has lost), or None."""
    for seat in (Seat(0), Seat(1)):
        if balances[seat] <= 0:
            return seat
    return None


def round_to_five(total: int) -> int:
    """Return ``total`` rounded to the nearest multiple of 5 (rules §4: 18 → 20, 17 → 15).

    Pip totals are whole numbers, so no total is ever halfway between two multiples.
    """
    return (total + 2) // 5 * 5


def block_award(pips: tuple[int, int]) -> tuple[Seat | None, int]:
    """Return who wins a blocked round and the award before capping (rules §4).

    The lighter hand receives the opponent's whole total rounded to the nearest 5,
    without subtracting its own; equal totals move nothing (winner None, award 0).
    """
    if pips[0] == pips[1]:
        return None, 0
    winner = Seat(0) if pips[0] < pips[1] else Seat(1)
    return winner, round_to_five(pips[other(winner)])
