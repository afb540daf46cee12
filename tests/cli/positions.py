"""Test support: MatchUpdates built from real engine states, views and events via the codecs."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games import bid, spit
from games.bid import codec as bid_codec
from games.codec import decision_to_proto, outcome_to_proto
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2

NAMES = ("Ada", "Bea")
_QUIET = (bid.Resign, spit.Resign, spit.Pause, spit.Resume)


def step_once(engine: Any, state: Any, rng: random.Random) -> tuple[Any, tuple[Any, ...]] | None:
    """Return the state and events after one random legal command (None at the end)."""
    seats = sorted(engine.decision(state).seats)
    rng.shuffle(seats)
    for seat in seats:
        legal = [c for c in engine.legal_commands(state, seat) if not isinstance(c, _QUIET)]
        if legal:
            step = engine.apply(state, seat, rng.choice(legal))
            return step.state, step.events
    return None


def walk_until(
    engine: Any, state: Any, found: Callable[[Any], bool], seed: int = 0, steps: int = 3000
) -> tuple[Any, tuple[Any, ...]]:
    """Return the first state of a seeded random walk where ``found`` holds, and its events."""
    rng = random.Random(seed)
    events: tuple[Any, ...] = ()
    for _ in range(steps):
        if found(state):
            return state, events
        stepped = step_once(engine, state, rng)
        if stepped is None:
            break
        state, events = stepped
    raise AssertionError("the walk never reached the position")


def clock(
    times: Sequence[tuple[int, int]] = ((10_000, 120_000), (10_000, 120_000)),
    running: int = -1,
    enabled: bool = True,
) -> arbitration_pb2.ClockView:
    """Return a ClockView of (grace ms, bank ms) by seat."""
    return arbitration_pb2.ClockView(
        seats=[arbitration_pb2.SeatClock(grace_ms=g, bank_ms=b) for g, b in times],
        running=running,
        enabled=enabled,
    )


def bid_update(
    state: bid.State,
    seat: int,
    events: tuple[Any, ...] = (),
    seq: int = 7,
    clock_view: arbitration_pb2.ClockView | None = None,
) -> arbitration_pb2.MatchUpdate:
    """Return the update ``seat`` (-1 spectators) would get of a Bid ``state``."""
    viewer = None if seat < 0 else Seat(seat)
    own_events = bid.events_for(events, viewer)
    return _update(
        game_pb2.GAME_BID,
        seat,
        seq,
        bid_codec.view_to_proto(bid.view(state, viewer)),
        [bid_codec.event_to_proto(event) for event in own_events],
        decision_to_proto(bid.decision(state)),
        clock_view or clock(),
        bid.outcome(state),
    )


def spit_update(
    state: spit.State, seat: int, events: tuple[Any, ...] = (), seq: int = 7
) -> arbitration_pb2.MatchUpdate:
    """Return the update ``seat`` (-1 spectators) would get of a Spit ``state``."""
    viewer = None if seat < 0 else Seat(seat)
    own_events = spit.events_for(events, viewer)
    return _update(
        game_pb2.GAME_SPIT,
        seat,
        seq,
        spit_codec.view_to_proto(spit.view(state, viewer)),
        [spit_codec.event_to_proto(event) for event in own_events],
        decision_to_proto(spit.decision(state)),
        clock(((0, 0), (0, 0)), enabled=False),
        spit.outcome(state),
    )


def _update(
    game: game_pb2.Game.ValueType,
    seat: int,
    seq: int,
    view: game_pb2.View,
    events: list[game_pb2.Event],
    decision: game_pb2.Decision,
    clock_view: arbitration_pb2.ClockView,
    outcome: Any,
) -> arbitration_pb2.MatchUpdate:
    update = arbitration_pb2.MatchUpdate(
        match_id="m1",
        seq=seq,
        seat=seat,
        game=game,
        mode=events_pb2.MODE_ONLINE,
        players=[events_pb2.Player(player_id=f"p{i}", name=name) for i, name in enumerate(NAMES)],
        view=view,
        events=events,
        decision=decision,
        clock=clock_view,
        status=arbitration_pb2.STATUS_LIVE,
    )
    if outcome is not None:
        update.status = arbitration_pb2.STATUS_FINISHED
        update.outcome.CopyFrom(outcome_to_proto(outcome))
    return update
