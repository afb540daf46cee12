"""Engine results -> rules replies: a step with its three perspectives, a view, legal commands.

Secrets leave only through the engine's ``view`` and ``events_for``, called once per
recipient: seat 0, seat 1 and the spectators (-1), in that order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.codec import decision_to_proto, outcome_to_proto, seat_to_proto
from games.contract import Claim
from games.decision import DEFAULT_LIFT_PAUSE_MS, Step, Termination
from games.protowire import message_field
from games.registry import Game
from games.seats import SEATS, Seat
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2

RECIPIENTS: tuple[Seat | None, ...] = (*SEATS, None)


def step_reply(
    entry: Game,
    step: Step[Any, Any],
    claim: Claim | None = None,
    lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS,
    spectators: bool = True,
    with_state: bool = True,
) -> rules_pb2.StepReply:
    """Return the reply for ``step``: the new state, decision, outcome and perspectives.

    ``lift_pause_ms`` is the pause the decision asks of the server before it takes a due
    action (see ``Decision.lift`` in game.proto); the spectators' perspective is built
    only when ``spectators`` (someone watches); the state is encoded only ``with_state``
    (the held path keeps it here).
    """
    engine, state = entry.engine, step.state
    outcome = engine.outcome(state)
    recipients: tuple[Seat | None, ...] = RECIPIENTS if spectators else SEATS
    views = entry.codec.views_to_bytes(engine.views(state, recipients))
    heard = Heard(entry, step.events)
    return rules_pb2.StepReply(
        state=engine.encode_state(state) if with_state else b"",
        decision=decision_to_proto(step.decision, lift_pause_ms),
        outcome=None if outcome is None else outcome_to_proto(outcome),
        perspectives=[
            rules_pb2.Perspective(seat=seat_to_proto(seat), seen=seen(view, heard.by(seat)))
            for seat, view in zip(recipients, views, strict=True)
        ],
        version=state.version,  # every engine's state counts its applied commands
        claim="" if claim is None else claim.key,
        claim_label="" if claim is None else claim.label,
        claim_slot=0 if claim is None else claim.slot,
        clocked=entry.clocked,
        # A step that ends the match by resignation is the acting seat's resignation.
        resignation=outcome is not None and outcome.termination is Termination.RESIGN,
    )


_SEEN_VIEW = game_pb2.Seen.DESCRIPTOR.fields_by_name["view"].number


class Heard:
    """A step's events as each recipient may hear them, each distinct telling encoded once
    (in Spit every seat hears the same; in Bid a drawn tile only its drawer)."""

    def __init__(self, entry: Game, events: tuple[Any, ...]) -> None:
        self._entry = entry
        self._events = events
        self._encoded: dict[int, tuple[tuple[Any, ...], bytes]] = {}  # by the telling's id

    def by(self, seat: Seat | None) -> bytes:
        """Return the encoded ``Seen.events`` of what ``seat`` (None: spectators) may hear."""
        told = self._entry.engine.events_for(self._events, seat)
        known = self._encoded.get(id(told))
        if known is not None and known[0] is told:
            return known[1]
        shown = [self._entry.codec.event_to_proto(event) for event in told]
        data = game_pb2.Seen(events=shown).SerializeToString() if shown else b""
        self._encoded[id(told)] = (told, data)
        return data


def seen(view: bytes, events: bytes) -> bytes:
    """Return one encoded ``Seen`` (see game.proto): an encoded view, and encoded events."""
    return message_field(_SEEN_VIEW, view) + events


def view_reply(
    entry: Game, state: Any, seat: Seat | None, lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS
) -> rules_pb2.ViewReply:
    """Return ``seat``'s view of ``state`` and the decision."""
    return rules_pb2.ViewReply(
        view=entry.codec.view_to_proto(entry.engine.view(state, seat)),
        decision=decision_to_proto(entry.engine.decision(state), lift_pause_ms),
    )


def legal_reply(entry: Game, commands: Iterable[Any]) -> rules_pb2.LegalCommandsReply:
    """Return ``commands`` as wire commands."""
    return rules_pb2.LegalCommandsReply(
        commands=[entry.codec.command_to_proto(command) for command in commands]
    )
