"""What a client needs to bring its Spit view forward without a new one: the step's events
decoded (SpitEvent -> the engine's events), and ``Told`` <-> a SpitView holding only its
gate and Ready presses.
"""

from __future__ import annotations

import functools

from games.codec import (
    gate_from_proto,
    gate_to_proto,
    pair_from_proto,
    result_from_proto,
    seats_from_proto,
    seats_to_proto,
)
from games.decision import Gate
from games.errors import Malformed, Reason
from games.protowire import field_numbers, int_field, message_field, packed_field
from games.seats import Seat, parse_seat
from games.spit import events as ev
from games.spit.codec.cards import card_from_proto, maybe_card_from_proto
from games.spit.codec.view import pile_top
from games.spit.view import Told
from photofinish.game.v1 import game_pb2, spit_pb2


def told_to_proto(told: Told) -> game_pb2.View:
    """Return ``told`` as a View envelope whose SpitView holds only its version, gate and
    presses."""
    return game_pb2.View(
        spit=spit_pb2.SpitView(
            version=told.version,
            gate=gate_to_proto(told.gate),
            must_press=seats_to_proto(told.must_press),
        )
    )


def told_to_bytes(told: Told) -> bytes:
    """Return ``told_to_proto(told)`` encoded: the version, and the gate and presses (a
    match's few, each encoded once)."""
    return message_field(
        _SPIT_FIELD,
        int_field(_VIEW["version"], told.version) + _gate_and_presses(told.gate, told.must_press),
    )


@functools.cache
def _gate_and_presses(gate: Gate | None, must_press: frozenset[Seat]) -> bytes:
    return int_field(_VIEW["gate"], gate_to_proto(gate)) + packed_field(
        _VIEW["must_press"], seats_to_proto(must_press)
    )


_SPIT_FIELD = field_numbers(game_pb2.View)["spit"]
_VIEW = field_numbers(spit_pb2.SpitView)


def told_from_proto(message: game_pb2.View) -> Told:
    """Return the ``Told`` a View envelope carries (the inverse of :func:`told_to_proto`).

    Raises:
        Malformed: BAD_ARGUMENT when it holds no Spit view or an unknown gate.
    """
    if message.WhichOneof("kind") != "spit":
        raise Malformed(
            Reason.BAD_ARGUMENT, f"expected a Spit view, not {message.WhichOneof('kind')}"
        )
    wire = message.spit
    must_press = frozenset(seats_from_proto(wire.must_press))
    return Told(wire.version, gate_from_proto(wire.gate), must_press)


def event_from_proto(message: game_pb2.Event, seat: Seat | None) -> ev.Event:
    """Return the engine event an Event envelope carries (the inverse of ``event_to_proto``);
    every recipient hears a Spit event alike, so ``seat`` changes nothing.

    Raises:
        Malformed: BAD_ARGUMENT for an event no Spit step makes; NO_SUCH_SEAT for a seat.
    """
    del seat
    if message.WhichOneof("kind") != "spit":
        kind = message.WhichOneof("kind")
        raise Malformed(Reason.BAD_ARGUMENT, f"expected a Spit event, not {kind}")
    event = message.spit
    match event.WhichOneof("kind"):
        case "pressed":
            return ev.Pressed(parse_seat(event.pressed.seat))
        case "dealt":
            dealt = event.dealt
            tops = tuple(maybe_card_from_proto(pile_top(pile)) for pile in dealt.stock)
            hidden = tuple(p.hidden for p in dealt.stock)
            return ev.Dealt(dealt.round_no, parse_seat(dealt.seat), tops, hidden, dealt.spit_count)
        case "spat":
            spat = event.spat
            return ev.Spat(parse_seat(spat.seat), spat.pile, card_from_proto(spat.card))
        case "reshuffled":
            return ev.Reshuffled(pair_from_proto(event.reshuffled.spit_counts, "spit counts"))
        case "blocked":
            return ev.Blocked()
        case "played":
            played = event.played
            card = card_from_proto(played.card)
            return ev.Played(parse_seat(played.seat), played.stock, played.pile, card)
        case "moved":
            moved = event.moved
            return ev.Moved(
                parse_seat(moved.seat), moved.src, moved.dst, card_from_proto(moved.card)
            )
        case "revealed":
            revealed = event.revealed
            card = card_from_proto(revealed.card)
            return ev.Revealed(parse_seat(revealed.seat), revealed.stock, card)
        case "round_ended":
            ended = event.round_ended
            counts = pair_from_proto(ended.card_counts, "card counts")
            return ev.RoundEnded(ended.round_no, parse_seat(ended.finisher), ended.taken, counts)
        case "paused":
            return ev.PausedBy(parse_seat(event.paused.seat))
        case "resumed":
            return ev.ResumedBy(parse_seat(event.resumed.seat))
        case "ended":
            outcome = result_from_proto(event.ended.winner, event.ended.termination)
            if outcome is None:
                raise Malformed(Reason.BAD_ARGUMENT, "an end without a winner")
            return ev.Ended(outcome)
    raise Malformed(Reason.BAD_ARGUMENT, f"not a Spit event: {event.WhichOneof('kind')}")
