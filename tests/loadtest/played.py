"""A real arbitration log made with the engines: random legal commands from a seed."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from games.seats import Seat
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.rules import steps
from services.rules.games import entry_for

SKIPPED = ("resign", "pause", "resume")


@dataclass(slots=True)
class Played:
    log: list[log_pb2.LogEntry]
    updates: list[arbitration_pb2.MatchUpdate]  # each step's view, as each seat receives it


def play(game: game_pb2.Game.ValueType, seed: int, moves: int, match_id: str = "m1") -> Played:
    """Return the log and both seats' updates of ``moves`` random legal commands."""
    entry = entry_for(game)
    options = entry.codec.options_from_proto(game_pb2.Options())
    state: Any = entry.engine.new_match(options, seed)
    created = events_pb2.MatchCreated(match_id=match_id, game=game, seed=seed)
    log = [_entry(entry, state, match_id, 0, log_pb2.ENTRY_KIND_OPENED, seq=0, created=created)]
    played = Played(log, _updates(entry, state, match_id, 0, game))
    rng = random.Random(seed)
    for seq in range(1, moves + 1):
        choices = [
            (seat, command)
            for seat in (0, 1)
            for command in entry.engine.legal_commands(state, Seat(seat))
            if not any(skip in type(command).__name__.lower() for skip in SKIPPED)
        ]
        if not choices:
            break
        seat, command = rng.choice(choices)
        proto = entry.codec.command_to_proto(command)
        state = steps.apply(entry, state, seat, proto).step.state
        log.append(
            _entry(
                entry,
                state,
                match_id,
                seq,
                log_pb2.ENTRY_KIND_ACCEPTED,
                seq=seq,
                seat=seat,
                command=proto,
                arrival_us=1000 * seq,
            )
        )
        played.updates += _updates(entry, state, match_id, seq, game)
    return played


def _entry(
    entry: Any, state: Any, match_id: str, index: int, kind: int, **fields: Any
) -> log_pb2.LogEntry:
    encoded = entry.engine.encode_state(state)
    return log_pb2.LogEntry(
        match_id=match_id,
        index=index,
        kind=kind,  # type: ignore[arg-type]
        version=state.version,
        state_sha256=hashlib.sha256(encoded).digest(),
        **fields,
    )


def _updates(
    entry: Any, state: Any, match_id: str, seq: int, game: game_pb2.Game.ValueType
) -> list[arbitration_pb2.MatchUpdate]:
    return [
        arbitration_pb2.MatchUpdate(
            match_id=match_id,
            seq=seq,
            seat=seat,
            game=game,
            view=entry.codec.view_to_proto(entry.engine.view(state, Seat(seat))),
        )
        for seat in (0, 1)
    ]
