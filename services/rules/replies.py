"""Engine results -> rules replies: a step with its three perspectives, a view, legal commands.

Secrets leave only through the engine's ``view`` and ``events_for``, called once per
recipient: seat 0, seat 1 and the spectators (-1), in that order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from games.codec import decision_to_proto, outcome_to_proto, seat_to_proto
from games.contract import Claim
from games.decision import DEFAULT_LIFT_PAUSE_MS, Decision, Outcome, Step, Termination
from games.protowire import field_numbers, int_field, message_field, string_field
from games.registry import BY_NUMBER, Game
from games.seats import SEATS, Seat
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2

RECIPIENTS: tuple[Seat | None, ...] = (*SEATS, None)
# A step's perspectives hold the events and what a view shows beyond them, and every this
# many steps the whole views: a client that lost its way is back in step within that.
WHOLE_VIEW_EVERY = 16


def step_reply(
    entry: Game,
    step: Step[Any, Any],
    claim: Claim | None = None,
    lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS,
    spectators: bool = True,
    with_state: bool = True,
    since: int = -1,
) -> rules_pb2.StepReply:
    """Return the reply for ``step``: the new state, decision, outcome and perspectives
    (``encoded_step``'s, decoded; the state encoded only ``with_state``)."""
    state = entry.engine.encode_state(step.state) if with_state else b""
    encoded = encoded_step(entry, step, claim, lift_pause_ms, spectators, state, since=since)
    return rules_pb2.StepReply.FromString(encoded)


_STEP = field_numbers(rules_pb2.StepReply)
_PERSPECTIVE = field_numbers(rules_pb2.Perspective)


def encoded_step(
    entry: Game,
    step: Step[Any, Any],
    claim: Claim | None = None,
    lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS,
    spectators: bool = True,
    state: bytes = b"",
    state_sha256: bytes = b"",
    since: int = -1,
) -> bytes:
    """Return the encoded StepReply for ``step``: its decision, outcome and perspectives.

    ``since`` is the version of the state the step was taken from (-1: not known); the
    perspectives hold changes from it (``whole_view`` says when they hold whole views).

    ``lift_pause_ms`` is the pause the decision asks of the server before it takes a due
    action (see ``Decision.lift`` in game.proto); the spectators' perspective is built
    only when ``spectators`` (someone watches). Written by hand (``games.protowire``):
    each perspective's encoded view and events go in as they are, not copied into a
    message and out again.
    """
    engine = entry.engine
    outcome = engine.outcome(step.state)
    recipients: tuple[Seat | None, ...] = RECIPIENTS if spectators else SEATS
    version = step.state.version
    whole = whole_view(step, since)
    if whole:
        views = entry.codec.views_to_bytes(engine.views(step.state, recipients))
        shown = [message_field(_SEEN_VIEW, view) for view in views]
        versions = int_field(_SEEN_VERSION, version)
    else:  # a change: the events, and what a view shows beyond them
        tolds = engine.tolds(step.state, recipients)
        shown = [message_field(_SEEN_TOLD, entry.codec.told_to_bytes(told)) for told in tolds]
        versions = int_field(_SEEN_VERSION, version) + int_field(_SEEN_SINCE, since)
    heard = Heard(entry, step.events)
    perspectives = [
        message_field(
            _STEP["perspectives"],
            int_field(_PERSPECTIVE["seat"], seat_to_proto(seat))
            + message_field(_PERSPECTIVE["seen"], part + heard.by(seat) + versions)
            + int_field(_PERSPECTIVE["whole_view"], whole),
        )
        for seat, part in zip(recipients, shown, strict=True)
    ]
    # A step that ends the match by resignation is the acting seat's resignation.
    resignation = outcome is not None and outcome.termination is Termination.RESIGN
    return b"".join(
        (
            message_field(_STEP["state"], state) if state else b"",
            _decision_field(step.decision, lift_pause_ms),
            b"" if outcome is None else _outcome_field(outcome),
            *perspectives,
            int_field(_STEP["version"], step.state.version),  # every state counts its steps
            b"" if claim is None else string_field(_STEP["claim"], claim.key),
            b"" if claim is None else string_field(_STEP["claim_label"], claim.label),
            int_field(_STEP["clocked"], entry.clocked),
            b"" if claim is None else int_field(_STEP["claim_slot"], claim.slot),
            int_field(_STEP["resignation"], resignation),
            message_field(_STEP["state_sha256"], state_sha256) if state_sha256 else b"",
        )
    )


def whole_view(step: Step[Any, Any], since: int) -> bool:
    """Return whether ``step``'s perspectives hold whole views: a step taken from a version
    not known (``since`` -1) or that changed nothing (an opening, a restore), and every
    ``WHOLE_VIEW_EVERY``-th; the others hold changes."""
    return since < 0 or not step.events or step.state.version % WHOLE_VIEW_EVERY == 0


@functools.lru_cache(maxsize=256)
def _decision_field(decision: Decision, lift_pause_ms: int) -> bytes:
    """Return a decision as the reply's field (a match reaches the same few again and again)."""
    encoded = decision_to_proto(decision, lift_pause_ms).SerializeToString()
    return message_field(_STEP["decision"], encoded)


def _outcome_field(outcome: Outcome) -> bytes:
    return message_field(_STEP["outcome"], outcome_to_proto(outcome).SerializeToString())


_SEEN_VIEW = game_pb2.Seen.DESCRIPTOR.fields_by_name["view"].number
_SEEN_TOLD = game_pb2.Seen.DESCRIPTOR.fields_by_name["told"].number
_SEEN_VERSION = game_pb2.Seen.DESCRIPTOR.fields_by_name["version"].number
_SEEN_SINCE = game_pb2.Seen.DESCRIPTOR.fields_by_name["since"].number


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
        game = self._entry.number
        data = b"".join([_event_field(game, event) for event in told])
        self._encoded[id(told)] = (told, data)
        return data


_SEEN_EVENTS = game_pb2.Seen.DESCRIPTOR.fields_by_name["events"].number


@functools.lru_cache(maxsize=8192)
def _event_field(game: int, event: Any) -> bytes:
    """Return an event of ``game`` (its number) as a field of ``Seen``: a match's plays
    recur (the same card from the same pile, the same tile on the same end), so most are
    encoded once."""
    encoded = BY_NUMBER[game].codec.event_to_proto(event).SerializeToString()
    return message_field(_SEEN_EVENTS, encoded)


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
