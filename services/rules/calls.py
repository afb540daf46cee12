"""The rules service's calls as pure functions: decode the request, call the game, encode.

The game comes from the registry (``games``), so nothing here names one. Both transports
answer with these: the gRPC servicer one call at a time, the NATS hop a batch at a time.
Every refusal is a :class:`Rejection` raised below (see ``errors`` for the codes).

``lift_pause_ms`` is the pause a due action waits before the server takes it (the timer a
decision asks for; see ``Decision.lift``).
"""

from __future__ import annotations

from typing import Any

from games.codec import seat_from_proto, termination_from_proto
from games.decision import Step
from games.seats import parse_seat
from photofinish.rules.v1 import rules_pb2
from services.rules import errors, replies, steps
from services.rules.games import decode_state, entry_for
from services.rules.metrics import Applying


def new_match(request: rules_pb2.NewMatchRequest, lift_pause_ms: int) -> rules_pb2.StepReply:
    entry = entry_for(request.game)
    with errors.engine_errors():
        options = entry.codec.options_from_proto(request.options)
        state = entry.engine.new_match(options, request.seed)
    step: Step[Any, Any] = Step(state, (), entry.engine.decision(state))
    return replies.step_reply(entry, step, lift_pause_ms=lift_pause_ms)


def apply(request: rules_pb2.ApplyRequest, lift_pause_ms: int) -> rules_pb2.StepReply:
    with Applying(request.game):
        entry = entry_for(request.game)
        state = decode_state(entry, request.state)
        applied = steps.apply(entry, state, request.seat, request.command)
        return replies.step_reply(
            entry,
            applied.step,
            applied.claim,
            lift_pause_ms,
            request.spectators,
            since=state.version,
        )


def forfeit(request: rules_pb2.ForfeitRequest, lift_pause_ms: int) -> rules_pb2.StepReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        loser = parse_seat(request.loser)
        termination = termination_from_proto(request.termination)
        step = entry.engine.forfeit(state, loser, termination)
    return replies.step_reply(
        entry, step, lift_pause_ms=lift_pause_ms, spectators=request.spectators, since=state.version
    )


def view(request: rules_pb2.ViewRequest, lift_pause_ms: int) -> rules_pb2.ViewReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        seat = seat_from_proto(request.seat)
    return replies.view_reply(entry, state, seat, lift_pause_ms)


def legal(request: rules_pb2.LegalCommandsRequest) -> rules_pb2.LegalCommandsReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        seat = parse_seat(request.seat)
    return replies.legal_reply(entry, entry.engine.legal_commands(state, seat))
