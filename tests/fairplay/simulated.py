"""Test support: a Spit match between two simulated players, as its arbitration log.

Each player looks at the board after every change and, if a play or move is there, sends
it after its own reaction: ``Pace.answer`` after a change it did not make, ``Pace.chain``
after its own. The earlier arrival is applied (the server's order), the other player
looks again. Ready gates are pressed after a second; a blocked board is nudged after one.
The log has what the arbitration writes: the header, and ACCEPTED and NUDGE entries with
their stamps.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games import spit
from games.nudge import nudged
from games.seats import Seat
from games.spit import codec
from photofinish.arbitration.v1 import log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2

Draw = Callable[[random.Random], float]  # a reaction, in ms
GATE_MS = 1000.0
MAX_STEPS = 5000


@dataclass(frozen=True, slots=True)
class Pace:
    answer: Draw
    chain: Draw


def log_normal(median_ms: float, sigma: float) -> Draw:
    return lambda rng: rng.lognormvariate(math.log(median_ms), sigma)


def uniform(low_ms: float, high_ms: float) -> Draw:
    return lambda rng: rng.uniform(low_ms, high_ms)


def constant(ms: float) -> Draw:
    return lambda _rng: ms


PERSON = Pace(answer=log_normal(450, 0.35), chain=log_normal(200, 0.25))
FAST_CLIENT = Pace(answer=uniform(50, 100), chain=uniform(50, 100))


def play_match(seed: int, paces: tuple[Pace, Pace], rng: random.Random) -> list[log_pb2.LogEntry]:
    """The log of one whole match (or of its first MAX_STEPS entries)."""
    state = spit.new_match(spit.Options(), seed)
    created = events_pb2.MatchCreated(game=game_pb2.GAME_SPIT, seed=seed)
    log = [log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_OPENED, created=created, index=0)]
    now_ms, mover = 0.0, -1
    while spit.outcome(state) is None and len(log) < MAX_STEPS:
        if state.phase is spit.Phase.BLOCKED:  # the arbitration nudges the due spit
            now_ms += GATE_MS
            state = _entry(log, now_ms, -1, None, state)
            mover = -1
            continue
        planned = []
        for seat in (0, 1):
            command = _choice(state, Seat(seat), rng)
            if command is not None:
                pace = paces[seat]
                ready = isinstance(command, spit.Ready)
                delay = GATE_MS if ready else (pace.chain if mover == seat else pace.answer)(rng)
                planned.append((now_ms + delay, seat, command))
        if not planned:
            break
        now_ms, seat, command = min(planned, key=lambda p: (p[0], p[1]))
        state = _entry(log, now_ms, seat, command, state)
        mover = seat if isinstance(command, spit.Play | spit.Move) else -1
    return log


def _choice(state: spit.State, seat: Seat, rng: random.Random) -> spit.Command | None:
    legal = list(spit.legal_commands(state, seat))
    for kind in (spit.Ready, spit.Play, spit.Move):
        found = [command for command in legal if isinstance(command, kind)]
        if found:
            return rng.choice(found)
    return None


def _entry(
    log: list[log_pb2.LogEntry],
    now_ms: float,
    seat: int,
    command: spit.Command | None,
    state: spit.State,
) -> spit.State:
    entry = log_pb2.LogEntry(index=len(log), seat=seat, stamp_ns=int(now_ms * 1e6))
    entry.arrival_us = entry.stamp_ns // 1000
    if command is None:
        step = nudged(spit, state)
        assert step is not None
        entry.kind = log_pb2.ENTRY_KIND_NUDGE
        entry.command.CopyFrom(game_pb2.Command(nudge=game_pb2.Nudge()))
    else:
        step = spit.apply(state, Seat(seat), command)
        entry.kind = log_pb2.ENTRY_KIND_ACCEPTED
        entry.command.CopyFrom(codec.command_to_proto(command))
    log.append(entry)
    return step.state
