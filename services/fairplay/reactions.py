"""Reaction times in a Spit match, from its arbitration log alone (docs/fair-play.md).

A play's reaction is the time from the entry after which that play first became possible
to the play's arrival, both stamped by the server's one clock. "Possible" is a card on a
stock top that fits a centre pile's top: the key is (card, pile, top card), so a play that
stays possible while nothing it depends on changes keeps its first moment, and one whose
pile got a new top starts again.

What made it possible decides its population. A play the player's own previous play or
move made possible (a second card freed, a pile topped with a card the next one follows)
is a **chain**: planned, and quick for a person too. Any other (the opponent's play, a
round's start, a spit, a nudge, the player's own Ready) is an **answer** to a change on
the board, which a person must first see.

The stamp of the entry is when the server decided it; the view that showed it left a
little later (the log is stored first). Measured from the decision, a reaction can only
come out longer than the person's, never shorter: the safe side for a flag.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from games import spit
from games.nudge import nudged
from games.seats import Seat
from games.spit import codec
from games.spit.cards import Card
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2

# What a player's own command can make possible for them: a play or move frees a stock top.
_OWN_MOVES = (spit.Play, spit.Move)
_ENDS = (log_pb2.ENTRY_KIND_FINISHED, log_pb2.ENTRY_KIND_VOIDED, log_pb2.ENTRY_KIND_FLAG)

Key = tuple[Card, int, Card]  # the card, the centre pile, the pile's top


@dataclass(frozen=True, slots=True)
class Reaction:
    """One accepted play: who, how long after it became possible, and whether the player's
    own previous command made it possible (a chain) or something else did (an answer)."""

    seat: int
    ms: float
    chain: bool
    index: int  # the play's log entry


@dataclass(slots=True)
class _Since:
    at_ns: int
    chain: bool


def spit_reactions(log: Sequence[log_pb2.LogEntry]) -> list[Reaction]:
    """Every accepted Spit play of the match ``log`` holds, with its reaction.

    Raises:
        ValueError: for a log that does not open a Spit match.
    """
    if not log or log[0].kind != log_pb2.ENTRY_KIND_OPENED:
        raise ValueError("the log does not open with its header")
    created = log[0].created
    if created.game != game_pb2.GAME_SPIT:
        raise ValueError(f"not a Spit match: game {created.game}")
    state = spit.new_match(codec.options_from_proto(created.options), created.seed)
    since: dict[tuple[int, Key], _Since] = {}
    _refresh(since, state, at_ns=0, mover=None)
    reactions = []
    for entry in log[1:]:
        if entry.kind in _ENDS:
            break
        if entry.kind == log_pb2.ENTRY_KIND_NUDGE:
            step = nudged(spit, state)
            if step is not None:
                state = step.state
                _refresh(since, state, entry.stamp_ns, mover=None)
            continue
        if entry.kind != log_pb2.ENTRY_KIND_ACCEPTED or entry.command.HasField("claim"):
            continue
        command = codec.command_from_proto(entry.command)
        seat = Seat(entry.seat)
        if isinstance(command, spit.Play):
            first = since.get((entry.seat, _key(state, seat, command)))
            if first is not None:
                ms = (entry.stamp_ns - first.at_ns) / 1e6
                reactions.append(Reaction(entry.seat, ms, first.chain, int(entry.index)))
        state = spit.apply(state, seat, command).state
        mover = entry.seat if isinstance(command, _OWN_MOVES) else None
        _refresh(since, state, entry.stamp_ns, mover)
    return reactions


def _key(state: spit.State, seat: Seat, play: spit.Play) -> Key:
    return (state.sides[seat].stock[play.stock][-1], play.pile, state.centre[play.pile][-1])


def _possible(state: spit.State) -> Iterator[tuple[int, Key]]:
    for seat in (Seat(0), Seat(1)):
        for command in spit.legal_commands(state, seat):
            if isinstance(command, spit.Play):
                yield int(seat), _key(state, seat, command)


def _refresh(
    since: dict[tuple[int, Key], _Since], state: spit.State, at_ns: int, mover: int | None
) -> None:
    """Keep the first moment of every play still possible; a play possible from now on is
    dated ``at_ns``, a chain of ``mover``'s if it is that seat's."""
    now = set(_possible(state))
    for gone in since.keys() - now:
        del since[gone]
    for new in now - since.keys():
        since[new] = _Since(at_ns, chain=new[0] == mover)
