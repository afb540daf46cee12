"""A finished match's boards, step by step, rebuilt from its arbitration log. Pure.

The engines step the log the way the replay tool does (``tools/replay.py``) and the rules
service does live: from the header's seed and options, then over every entry that changed
the state — accepted commands (a claim ends the match against the away seat), flags (a
forfeit on time) and nudges. After each entry the state's version, and its sha256 where
the entry carries one, must be the log's: what the replay shows is what the arbitration
decided, or it says where the two part. A match's log is read only once it is over, so
every seat's view is shown: both hands (the arbitration enforces that before asking).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from games.decision import Termination
from games.errors import EngineError
from games.registry import Game
from games.seats import SEATS, parse_seat
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import replay_pb2
from services.common.rejection import Rejection
from services.rules import steps
from services.rules.games import entry_for

NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())


class Diverged(Exception):
    """The engines do not reproduce an entry of the log."""


def replay_views(request: replay_pb2.ReplayViewsRequest) -> replay_pb2.ReplayViews:
    """Return the boards (every seat's view) after the steps ``request`` asks for.

    Steps that changed nothing on the board carry no views. A log the engines part from
    yields the steps before the divergence and says where and why.
    """
    entries = request.entries
    last = min(len(entries), request.first_step + request.steps)
    reply = replay_pb2.ReplayViews()
    position = 0
    try:
        game, state = _opening(entries)
        for position in range(last):
            logged = entries[position]
            if logged.index != position:
                raise Diverged(f"index {logged.index} stands where {position} belongs")
            changed = position == 0 or logged.kind in _APPLIED
            if position > 0:
                state = _step(game, state, logged) if changed else state
                _check(game, state, logged)
            if position >= request.first_step:
                views = _views(game, state) if changed else []
                reply.steps.append(replay_pb2.StepViews(index=position, views=views))
    except (Diverged, Rejection, EngineError) as error:
        reply.divergence, reply.diverged_at = str(error), position
    return reply


_APPLIED = frozenset(
    {log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_FLAG, log_pb2.ENTRY_KIND_NUDGE}
)


def _opening(entries: Sequence[log_pb2.LogEntry]) -> tuple[Game, Any]:
    """Return the game and its state as dealt from the header's seed and options."""
    if not entries or entries[0].kind != log_pb2.ENTRY_KIND_OPENED:
        raise Diverged("the log does not open with its header")
    header = entries[0]
    game = entry_for(header.created.game)
    options = game.codec.options_from_proto(header.created.options)
    state = game.engine.new_match(options, header.created.seed)
    _check(game, state, header)
    return game, state


def _step(game: Game, state: Any, logged: log_pb2.LogEntry) -> Any:
    """Return the state after ``logged``, one of the entries that change it."""
    if logged.kind == log_pb2.ENTRY_KIND_ACCEPTED and logged.command.HasField("claim"):
        # The away opponent lost by the claim (docs/arbitration-log.md).
        opponent = parse_seat(1 - logged.seat)
        return game.engine.forfeit(state, opponent, Termination.ABANDONED).state
    if logged.kind == log_pb2.ENTRY_KIND_ACCEPTED:
        return steps.apply(game, state, logged.seat, logged.command).step.state
    if logged.kind == log_pb2.ENTRY_KIND_NUDGE:
        return steps.apply(game, state, 0, NUDGE).step.state  # for whoever has not pressed
    loser = parse_seat(logged.flag.seat)  # a flag
    return game.engine.forfeit(state, loser, Termination.TIME).state


def _check(game: Game, state: Any, logged: log_pb2.LogEntry) -> None:
    """Return if ``state`` is the one the log says ``logged`` left.

    Raises:
        Diverged: for another version, or another sha256 where the entry has one.
    """
    if state.version != logged.version:
        raise Diverged(f"version {state.version}, the log says {logged.version}")
    if not logged.state_sha256:
        return
    digest = hashlib.sha256(game.engine.encode_state(state)).digest()
    if digest != logged.state_sha256:
        raise Diverged(f"state sha256 {digest.hex()[:16]}…, the log's is another")


def _views(game: Game, state: Any) -> list[game_pb2.View]:
    """Return every seat's view of ``state``, by seat."""
    return [game.codec.view_to_proto(game.engine.view(state, seat)) for seat in SEATS]
