"""The arbitration's match worker without a network: a rules table in-process, NATS and timers
left out.

Matches are opened through ``Matches.open`` and driven item by item through the match's worker,
with arrival stamps the test chooses, so logs come out exactly as the service makes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from games.decision import DEFAULT_LIFT_PAUSE_MS
from games.registry import Game
from games.seats import parse_seat
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.clock import starting_clock
from services.arbitration.faults import Fault, Tolerances
from services.arbitration.match import FaultNotice, Flag, Match, Nudge, Submission
from services.arbitration.matches import Matches
from services.arbitration.matchlog.writer import LogWriter, MemoryStore
from services.arbitration.publisher import build_update
from services.arbitration.rules_client import Request, RulesClient
from services.arbitration.timers import Timers
from services.common.replies import Answer
from services.rules.games import entry_for
from services.rules.held_calls import answer_batch
from services.rules.held_matches import HeldMatches

# The table's arbitration reads the table's own clock, which moves only when the test moves
# it: a flag is handled at its deadline exactly, so nothing sleeps; lateness is no fault
# here (the faults' tests').
NEVER_LATE = Tolerances(event_loop_lag_ms=1e15, timer_late_ms=1e15, forwarding_delay_ms=1e15)
OPENED_NS = 10**12  # the instant the table's match opens


def in_process(table: HeldMatches, instance: str = "in-process") -> Request:
    """Return a rules request function answered by ``table`` in this process, a turn later
    (as a reply read from NATS would come)."""

    def request(
        subject: str, data: bytes, timeout_s: float, then: Callable[[bytes | BaseException], None]
    ) -> None:
        asyncio.get_running_loop().call_soon(then, answer_batch(table, instance, data))

    return request


class Outbox:
    """A publisher that keeps what it would have sent, and the log's length when it did."""

    def __init__(self, store: MemoryStore, now: Callable[[], int]) -> None:
        self.store = store
        self._now = now
        self.results: list[tuple[str, int]] = []
        self.sent: list[arbitration_pb2.MatchUpdate] = []  # seat 0's updates
        self.judged_at_once = 0  # items judged with nothing held (a timer's)

    def updates(self, match: Match) -> None:
        self.sent.append(build_update(match, 0, self._now()))

    async def finished(self, match: Match, commands: int) -> None:
        self.results.append(("finished", len(self.store.logs.get(match.match_id, []))))

    async def voided(self, match: Match, reason: str, figures: str) -> None:
        self.results.append(("voided", len(self.store.logs.get(match.match_id, []))))

    @contextlib.contextmanager
    def at_once(self) -> Iterator[None]:
        self.judged_at_once += 1
        yield

    def opened(self, match: Match) -> None:
        return None


class NoTimers(Timers):
    """Timers that never fire: tests queue flags and nudges themselves."""

    def __init__(self) -> None:
        super().__init__(gate_timeout_s=1e9, now=lambda: 0)  # never schedules

    def schedule(self, match: Match) -> None:
        return None


class Table:
    """One match on an in-process arbitration, and its log in memory."""

    def __init__(
        self,
        game: game_pb2.Game.ValueType,
        seed: int,
        bank_ms: int = 60,
        rated: bool = False,
        store: MemoryStore | None = None,
        entries_per_match: int = 0,  # the log stream's limit for one match; 0: none
        tolerances: Tolerances = NEVER_LATE,
        tick_ns: int = 0,  # how far the clock moves on each reading (0: only when moved)
    ) -> None:
        self.store = store or MemoryStore()
        self.now_ns = OPENED_NS
        self.tick_ns = tick_ns
        self.clock_reads = 0  # the arbitration's readings of the clock (not the outbox's)
        self.outbox = Outbox(self.store, lambda: self.now_ns)
        self.log_writer = LogWriter(self.store, "test", entries_per_match)
        self.rules = HeldMatches(DEFAULT_LIFT_PAUSE_MS)
        self.matches = Matches(
            "test",
            RulesClient(in_process(self.rules)),
            self.outbox,  # type: ignore[arg-type]
            NoTimers(),
            starting_clock(bank_ms, 20),
            tolerances,
            self.log_writer,
            now=self.now,
        )
        self.created = events_pb2.MatchCreated(
            match_id=f"m{seed}",
            game=game,
            players=[events_pb2.Player(player_id="p0"), events_pb2.Player(player_id="p1")],
            seed=seed,
            mode=events_pb2.MODE_ONLINE,
            rated=rated,
        )
        self.entry: Game = entry_for(game)
        self.client_seq = [0, 0]
        self.answers: list[Answer] = []  # every answer a submission got, in order
        self._match: Match | None = None

    def now(self) -> int:
        """Return the table's clock: the instant the test has moved it to, then moved on by
        ``tick_ns`` (as a real clock moves between two readings)."""
        self.clock_reads += 1
        reading = self.now_ns
        self.now_ns += self.tick_ns
        return reading

    async def open(self) -> Match:
        self._match = await self.matches.open(self.created)
        return self._match

    @property
    def match(self) -> Match:
        assert self._match is not None
        return self._match

    def state(self) -> Any:
        """Return the match's state as the rules table holds it."""
        return self.rules.state_of(self.match.match_id)

    def state_sha256(self) -> bytes:
        """Return the hash of the match's encoded state, as the log records it."""
        return hashlib.sha256(self.entry.engine.encode_state(self.state())).digest()

    def legal(self, seat: int) -> list[game_pb2.Command]:
        """Return ``seat``'s legal commands now, resignations left out."""
        commands = self.entry.engine.legal_commands(self.state(), parse_seat(seat))
        wire = [self.entry.codec.command_to_proto(c) for c in commands]
        return [c for c in wire if "resign" not in str(c)]

    def stamp(self, step_us: int = 100) -> int:
        self.now_ns += step_us * 1000
        return self.now_ns

    def submission(
        self, seat: int, command: game_pb2.Command, client_seq: int | None = None
    ) -> Submission:
        if client_seq is None:
            self.client_seq[seat] += 1
            client_seq = self.client_seq[seat]
        return Submission(self.stamp(), seat, client_seq, command, self._kept)

    def _kept(self, answer: Answer) -> None:
        self.answers.append(answer)

    async def submit(
        self, seat: int, command: game_pb2.Command, client_seq: int | None = None
    ) -> Answer:
        """Judge one command now; return the reply or the refusal."""
        item = self.submission(seat, command, client_seq)
        await self.matches._worker.handle(self.match, item)
        return self.answers[-1]

    async def nudge(self) -> None:
        nudge = Nudge(self.match.version, self.now_ns)  # due now
        await self.matches._worker.handle(self.match, nudge)

    async def flag(self) -> None:
        deadline = self.match.timing.deadline_ns()
        assert deadline is not None
        self.now_ns = max(self.now_ns, deadline)  # time runs to the deadline
        await self.matches._worker.handle(self.match, Flag(deadline))

    async def fault(self, fault: Fault) -> None:
        await self.matches._worker.handle(self.match, FaultNotice(fault))

    async def log(self) -> list[log_pb2.LogEntry]:
        return self.store.entries(self.match.match_id)

    async def close(self) -> None:
        await self.matches.close()


def races(table: Table) -> Iterator[tuple[game_pb2.Command, game_pb2.Command]]:
    """Yield pairs of plays, one per seat, that go onto the same Spit pile now."""
    plays = [[c for c in table.legal(seat) if c.spit.HasField("play")] for seat in (0, 1)]
    for first in plays[0]:
        for second in plays[1]:
            if first.spit.play.pile == second.spit.play.pile:
                yield first, second


async def play_randomly(table: Table, rng: random.Random, commands: int) -> list[log_pb2.LogEntry]:
    """Play ``commands`` random commands (legal mostly), with races, nudges and refusals."""
    for _ in range(commands):
        if table.match.is_over():
            break
        await _one_move(table, rng)
    return await table.log()


async def _one_move(table: Table, rng: random.Random) -> None:
    if table.match.decision.gated and rng.random() < 0.3:
        await table.nudge()  # nobody pressed in time, or the server makes the due spit
        return
    race = next(races(table), None)
    if race is not None and rng.random() < 0.7:
        await table.submit(0, race[0])
        await table.submit(1, race[1])  # lands after seat 0's play: refused, a race
        return
    seat = rng.randrange(2)
    legal = table.legal(seat)
    if not legal or rng.random() < 0.1:
        other = table.legal(1 - seat) or [game_pb2.Command()]
        await table.submit(seat, rng.choice(other))  # most likely refused
        return
    await table.submit(seat, rng.choice(legal))
