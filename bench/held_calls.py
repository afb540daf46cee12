"""The rules service's answer to a command, in process: CPU per command, by game.

Run with ``make bench`` (or ``python -m bench.held_calls``). Bot matches are recorded
first; each is then opened on a :class:`~services.rules.held_matches.HeldMatches` table and
its commands sent both ways the arbitration sends them, each timed on its own: as held
calls (one encoded ``HeldCalls`` batch per command, answered by the service's own
``answer_batch``), and as stored commands the match log feeds the rules (a COMMAND entry
with the headers the stream republishes it with, answered by ``answer_stored``: the hot
path). Either way: decode, step, both seats' views and events, the state's hash, encode.
Process CPU time over every command, the best of ``--passes`` passes (the others met a
busier machine); no network and a warm cache, so this is the floor of what the rules
process spends per command (``bench.stack`` measures it under load).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from bench.drive import Log
from bench.engines import record
from games.codec import seat_to_proto
from games.registry import GAMES, Game
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import header_block
from services.common.stored_commands import REPLY
from services.rules.held_calls import answer_batch, answer_stored
from services.rules.held_matches import HeldMatches
from wire import subjects

INSTANCE = "bench"


@dataclass(frozen=True, slots=True)
class Timed:
    """One pass over a game's recorded matches."""

    calls: int
    refused: int
    cpu_s: float


def opened(game: Game, logs: list[Log]) -> HeldMatches:
    """Return a table holding every recorded match of ``game``, dealt and not yet played."""
    table = HeldMatches(lift_pause_ms=0)
    on_wire = game_pb2.Game.ValueType(game.number)
    for index, log in enumerate(logs):
        request = rules_pb2.NewMatchRequest(game=on_wire, seed=log.seed)
        call = rules_pb2.HeldCall(match_id=f"{game.name}-{index}", open=request)
        answer_batch(table, INSTANCE, rules_pb2.HeldCalls(calls=[call]).SerializeToString())
    return table


def held_applies(game: Game, log: Log) -> list[rules_pb2.HeldApply]:
    """Return a recorded match's commands as the arbitration sends them to the rules."""
    return [
        rules_pb2.HeldApply(seat=seat_to_proto(seat), command=game.codec.command_to_proto(command))
        for seat, command in log.commands
    ]


def batches(game: Game, logs: list[Log]) -> list[bytes]:
    """Return every command of the recorded matches as an encoded one-call batch, in the
    order of each match (matches one after another)."""
    encoded = []
    for index, log in enumerate(logs):
        for version, apply in enumerate(held_applies(game, log)):
            call = rules_pb2.HeldCall(match_id=f"{game.name}-{index}", version=version, apply=apply)
            encoded.append(rules_pb2.HeldCalls(calls=[call]).SerializeToString())
    return encoded


def stored_commands(game: Game, logs: list[Log]) -> list[tuple[bytes, bytes]]:
    """Return every command of the recorded matches as a stored COMMAND entry and the
    headers the log stream republishes it with, in the order of each match."""
    stored = []
    for index, log in enumerate(logs):
        match_id = f"{game.name}-{index}"
        for version, apply in enumerate(held_applies(game, log)):
            entry = log_pb2.LogEntry(
                match_id=match_id,
                kind=log_pb2.ENTRY_KIND_COMMAND,
                seat=apply.seat,
                client_seq=version + 1,
                command=apply.command,
                version=version,
            )
            stored.append((entry.SerializeToString(), _republished(match_id, version)))
    return stored


def _republished(match_id: str, index: int) -> bytes:
    return header_block(
        {
            "Nats-Msg-Id": f"{match_id}.{index}",
            "Nats-Expected-Stream": subjects.LOG_STREAM,
            "Nats-Expected-Last-Subject-Sequence": "1",
            "Nats-Expected-Last-Subject-Sequence-Subject": subjects.match_log(match_id),
            REPLY: f"_INBOX_arbitration.bench.{index}",
            "Nats-Stream": subjects.LOG_STREAM,
            "Nats-Subject": subjects.match_commands(INSTANCE, match_id),
            "Nats-Sequence": str(index + 2),
            "Nats-Time-Stamp": "2026-12-06T00:00:00.000000000Z",
            "Nats-Last-Sequence": str(index + 1),
        }
    )


def time_pass(game: Game, logs: list[Log], calls: list[bytes]) -> Timed:
    """Answer every call once on a freshly dealt table; return the CPU it took."""
    table = opened(game, logs)
    refused = 0
    started = time.process_time()
    for data in calls:
        answers = rules_pb2.HeldAnswers.FromString(answer_batch(table, INSTANCE, data))
        refused += answers.answers[0].HasField("refusal")
    return Timed(len(calls), refused, time.process_time() - started)


def time_stored_pass(game: Game, logs: list[Log], stored: list[tuple[bytes, bytes]]) -> Timed:
    """Answer every stored command once on a freshly dealt table; return the CPU it took."""
    table = opened(game, logs)
    refused = 0
    started = time.process_time()
    for data, headers in stored:
        answer = answer_stored(table, INSTANCE, data, headers)
        assert answer is not None, "a stored command names whom to answer"
        refused += rules_pb2.HeldAnswers.FromString(answer.data).answers[0].HasField("refusal")
    return Timed(len(stored), refused, time.process_time() - started)


def _line(game: Game, what: str, passes: list[Timed], matches: int) -> str:
    best = min(passes, key=lambda timed: timed.cpu_s)
    spread = [f"{1e6 * p.cpu_s / p.calls:.1f}" for p in passes]
    return (
        f"{game.name:5} {what}: {1e6 * best.cpu_s / best.calls:6.1f} µs of CPU per command "
        f"(best of {len(passes)} passes over {best.calls} commands from {matches} matches; "
        f"passes {', '.join(spread)} µs; refused {best.refused})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20, help="bot matches per game")
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    for game in GAMES:
        logs = record(game, args.matches)
        calls, stored = batches(game, logs), stored_commands(game, logs)
        held = [time_pass(game, logs, calls) for _ in range(args.passes)]
        fed = [time_stored_pass(game, logs, stored) for _ in range(args.passes)]
        print(_line(game, "held call     ", held, len(logs)))
        print(_line(game, "stored command", fed, len(logs)))


if __name__ == "__main__":
    main()
