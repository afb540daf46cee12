"""The arbitration's own work on a player's command, in process: CPU per command, by game.

Run with ``make bench`` (or ``python -m bench.arbitration_path``). Bot matches are recorded
first; each is then opened on a real ``Matches`` (its workers, timers, publisher and log
writer) and its commands taken in as the gateway's batches are (``take_in``, each awaited
to its answer): admitted, planned, sent to the rules, settled, stored, applied, shown. Two
ways, each timed on its own: ``stored``, the hot path (each command stored in the log
first, the log feeding it to the rules, the judged entry carried by the next entry), and
``direct`` (the rules called, the judged entry stored and waited for: the way when the
holder is unknown or gone). What stands in for the network: the rules are the rules
service's own table answering in this process, a turn later (their CPU is measured apart
and taken off), the log is kept in memory (a stored command is fed to the rules a turn
after it is sent), and what the publisher sends is dropped. So this is the arbitration's
Python for a command, warm (docs/performance.md). Process CPU time, the best of
``--passes`` passes, on the event loop the services run (``runtime.loops``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from bench.drive import Log
from bench.engines import record
from games.codec import seat_to_proto
from games.decision import DEFAULT_LIFT_PAUSE_MS
from games.registry import GAMES, Game
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from runtime import loops
from services.arbitration.clock import starting_clock
from services.arbitration.faults import Tolerances
from services.arbitration.intake import take_in
from services.arbitration.matches import Matches
from services.arbitration.matchlog.writer import LogWriter, MemoryStore, SentCommand, StreamStore
from services.arbitration.publisher import Publisher
from services.arbitration.rules_client import RulesClient
from services.arbitration.timers import Timers
from services.common.matchlogs import Stored
from services.common.natslink.frames import Message, header_block
from services.common.natslink.link import NatsLink
from services.common.rejection import Rejection
from services.common.replies import Answer
from services.rules.held_calls import answer_batch, answer_stored
from services.rules.held_matches import HeldMatches

NEVER_LATE = Tolerances(event_loop_lag_ms=1e15, timer_late_ms=1e15, forwarding_delay_ms=1e15)


@dataclass(frozen=True, slots=True)
class Timed:
    """One pass over a game's recorded matches."""

    commands: int
    refused: int
    cpu_s: float  # the whole pass
    rules_cpu_s: float  # of which the rules' answers
    fed: int = 0  # commands stored first and fed to the rules from the log


class Dropped:
    """Where the publisher's updates go: nowhere (the network is not measured here)."""

    def publish(self, subject: str, payload: bytes, reply: str = "", headers: bytes = b"") -> None:
        return None

    def at_once(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()


class ResultsDropped:
    """Where a finished match's result goes: nowhere (JetStream is not measured here)."""

    async def publish(self, subject: str, payload: bytes, headers: dict[str, str]) -> None:
        return None


class RulesHere:
    """The rules service's table answering in this process, a turn later (as a reply read
    from NATS comes), its CPU counted apart."""

    def __init__(self) -> None:
        self.table = HeldMatches(DEFAULT_LIFT_PAUSE_MS)  # as the rules service runs
        self.cpu_s = 0.0

    def request(
        self, subject: str, data: bytes, timeout_s: float, then: Callable[[bytes], None]
    ) -> None:
        started = time.process_time()
        answer = answer_batch(self.table, "bench", data)
        self.cpu_s += time.process_time() - started
        asyncio.get_running_loop().call_soon(then, answer)


class RepliesHere:
    """The arbitration's inbox in this process: each reply subject ``expect`` gives out,
    and what takes the one message sent to it (as ``Requests.expect`` does over NATS; no
    expiry: every stored command here is answered)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._waiting: dict[str, Callable[[Message | BaseException], None]] = {}
        self._numbers = itertools.count()

    def expect(self, timeout_s: float, then: Callable[[Message | BaseException], None]) -> str:
        subject = f"_INBOX_bench.{next(self._numbers)}"
        self._waiting[subject] = then
        return subject

    def deliver(self, subject: str, data: bytes) -> None:
        """Hand the message sent to ``subject`` to what waits for it, a turn later."""
        self.loop.call_soon(self._waiting.pop(subject), Message(1, subject, "", data))


class LogHere(StreamStore):
    """The match log in memory, feeding each stored command to the rules a turn later (as
    the stream republishes it) and handing their answer back a turn after that."""

    def __init__(self, rules: RulesHere, replies: RepliesHere) -> None:
        self._memory = MemoryStore(keep=False)
        self._rules = rules
        self._replies = replies
        self.fed = 0

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        return await self._memory.put(match_id, index, data, after_seq, key)

    async def read(self, match_id: str) -> Stored:
        return await self._memory.read(match_id)

    def send_command(self, sent: SentCommand, after_seq: int) -> None:
        self._replies.loop.call_soon(self._feed, sent)

    def _feed(self, sent: SentCommand) -> None:
        self.fed += 1
        started = time.process_time()
        answer = answer_stored(self._rules.table, "bench", sent.data, header_block(sent.call))
        self._rules.cpu_s += time.process_time() - started
        assert answer is not None
        self._replies.deliver(answer.subject, answer.data)


async def time_pass(game: Game, logs: list[Log], stored: bool = True) -> Timed:
    """Open every recorded match on a fresh arbitration and play it through (each command
    ``stored`` first, or the rules called directly); return the CPU it took and how much
    of it was the rules'."""
    rules = RulesHere()
    replies = RepliesHere()
    rules_client = RulesClient(rules.request, expect=replies.expect)
    store = LogHere(rules, replies)
    matches = Matches(
        "bench",
        rules_client,
        Publisher(cast(NatsLink, Dropped()), cast(Any, ResultsDropped()), time.monotonic_ns),
        Timers(gate_timeout_s=3600.0, now=time.monotonic_ns),
        starting_clock(3_600_000, 10_000),  # no flag falls while the bench plays
        NEVER_LATE,
        LogWriter(store if stored else MemoryStore(keep=False)),
        now=time.monotonic_ns,
    )
    opened = []
    for index, log in enumerate(logs):
        created = events_pb2.MatchCreated(
            match_id=f"{game.name}-{index}",
            game=game_pb2.Game.ValueType(game.number),
            players=[events_pb2.Player(player_id="p0"), events_pb2.Player(player_id="p1")],
            seed=log.seed,
            mode=events_pb2.MODE_ONLINE,
        )
        opened.append(await matches.open(created))
    loop = asyncio.get_running_loop()
    commands = refused = 0
    rules.cpu_s = 0.0
    started = time.process_time()
    for match, log in zip(opened, logs, strict=True):
        seqs = [0, 0]
        for seat, command in log.commands:
            seqs[seat] += 1
            request = arbitration_pb2.SubmitRequest(
                match_id=match.match_id,
                seat=seat_to_proto(seat),
                client_seq=seqs[seat],
                command=game.codec.command_to_proto(command),
            )
            answer: asyncio.Future[Answer] = loop.create_future()
            now_ns = time.monotonic_ns()
            take_in(matches, request, f"p{seat}", now_ns, now_ns, answer.set_result)
            refused += isinstance(await answer, Rejection)
            commands += 1
    cpu_s = time.process_time() - started
    await matches.close()
    return Timed(commands, refused, cpu_s, rules.cpu_s, store.fed if stored else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20, help="bot matches per game")
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    for game in GAMES:
        logs = record(game, args.matches)
        for way, stored in (("stored", True), ("direct", False)):
            passes = [loops.run(time_pass(game, logs, stored)) for _ in range(args.passes)]
            best = min(passes, key=lambda timed: timed.cpu_s - timed.rules_cpu_s)
            own = [1e6 * (p.cpu_s - p.rules_cpu_s) / p.commands for p in passes]
            print(
                f"{game.name:5} arbitration, {way:6}: {min(own):6.1f} µs of CPU per command "
                f"besides the rules' {1e6 * best.rules_cpu_s / best.commands:.1f} (best of "
                f"{args.passes} passes over {best.commands} commands from {len(logs)} "
                f"matches; passes {', '.join(f'{o:.1f}' for o in own)} µs; refused "
                f"{best.refused})"
            )


if __name__ == "__main__":
    main()
