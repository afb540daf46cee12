"""Spit's cards: ranks that wrap from K to A, suits that only tell cards apart.

Rules §1: one 52-card deck; ranks A, 2 … 10, J, Q, K with **K and A adjacent**; suit and
colour do not matter for play. A card still carries its suit so that each of the 52 cards
has an identity (two eights are two different cards on the table).

Text forms: a rank prints as ``A 2 … 10 J Q K``; a card prints as rank + suit symbol
(``"Q♠"``, ``"10♥"``) and parses back from that or from ASCII (``"Qs"``, ``"10h"``,
``"Th"``), case-insensitively.
"""

from __future__ import annotations

import enum

import msgspec

from games.errors import Malformed, Reason
from games.identity_enum import IdentityEnum


class Rank(enum.IntEnum):
    """A card's rank, 1 (ace) to 13 (king). Values are stored: never renumber."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def __str__(self) -> str:
        return _RANK_TEXT[self]


class Suit(IdentityEnum):
    """A card's suit: identity only, never a rule (rules §1). Values are stored."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    def __str__(self) -> str:
        return _SUIT_SYMBOL[self]


_RANK_TEXT = {rank: str(rank.value) for rank in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANK_BY_TEXT = {text: rank for rank, text in _RANK_TEXT.items()} | {"T": Rank.TEN}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {symbol: suit for suit, symbol in _SUIT_SYMBOL.items()} | {
    suit.value.upper(): suit for suit in Suit
}


class Card(msgspec.Struct, frozen=True):
    """One of the 52 cards."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return _CARD_TEXT[self.rank, self.suit]


_CARD_TEXT = {(rank, suit): f"{rank}{suit}" for rank in Rank for suit in Suit}


def is_adjacent(a: Rank, b: Rank) -> bool:
    """Return whether two ranks are one apart, K and A included (rules §1, §3.2)."""
    return (a - b) % 13 in (1, 12)


def parse_rank(text: str) -> Rank:
    """Return the rank written as ``text`` (``"A"``, ``"10"``, ``"T"``, ``"q"``).

    Raises:
        Malformed: when ``text`` names no rank.
    """
    rank = _RANK_BY_TEXT.get(text.strip().upper())
    if rank is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r} is not a rank (A, 2 … 10, J, Q, K)")
    return rank


def parse_card(text: str) -> Card:
    """Return the card written as ``text`` (``"Q♠"``, ``"10♥"``, ``"Qs"``, ``"th"``).

    Raises:
        Malformed: when ``text`` names no card.
    """
    cleaned = text.strip().upper()
    suit = _SUIT_BY_TEXT.get(cleaned[-1:])
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    if suit is None or rank is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r} is not a card (e.g. 'Q♠' or 'Qs')")
    return Card(rank, suit)


def full_deck() -> tuple[Card, ...]:
    """Return the 52 cards in a fixed order (suit by suit, ace to king)."""
    return tuple(Card(rank, suit) for suit in Suit for rank in Rank)
