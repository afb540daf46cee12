"""One live match as the arbitration holds it: order and time, never its cards or tiles.

The rules service holds the match's state; the record here changes only by the entries
of the match's log (``record.apply``), so a takeover rebuilds it from the log alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.decision_facts import Decision
from services.arbitration.faults import Exposure, Fault
from services.arbitration.timing import Timing
from services.common.replies import Answer, Reply


class Landing(msgspec.Struct, frozen=True):
    """What last landed on a claimed resource, when it arrived, and its sequence number."""

    seat: int
    label: str
    arrival_ns: int
    seq: int


class Submission(msgspec.Struct, frozen=True):
    """A player's command, stamped on arrival, waiting its turn in the match's queue.

    ``reply`` takes its answer back to the sender (the gateway's batch over NATS, a gRPC
    call); the match's worker calls it once, right after publishing what the command changed, so
    the answer leaves with the views (in their message, for a gateway that follows the
    match: ``submits.py``). A reply never raises, and a second one is ignored.
    """

    arrival_ns: int
    seat: int
    client_seq: int
    command: game_pb2.Command
    reply: Reply


class Flag(msgspec.Struct, frozen=True):
    """The server's timer: the running player's deadline has passed."""

    deadline_ns: int


class FaultNotice(msgspec.Struct, frozen=True):
    """A timing fault the process measured: judge what it means for this match."""

    fault: Fault


class Nudge(msgspec.Struct, frozen=True):
    """A gate nobody lifted in time, or a due spit: the arbitration presses itself."""

    version: int  # the state version the timer was set for; stale nudges do nothing
    due_ns: int  # when the timer was due (monotonic), for its lateness


class AwayChange(msgspec.Struct, frozen=True):
    """A seat of an online match went away (nothing heard for the away limit), or came
    back: the worker logs it, and both players see it."""

    seat: int
    away: bool


class LeftAlone(msgspec.Struct, frozen=True):
    """A match against the computer or on one device whose person was not heard from for
    the abandon limit: the worker ends it with no result, unless they came back."""


class WholeView(msgspec.Struct, frozen=True):
    """A stream's first update needs ``seat``'s whole view, and the rules instance that held
    the match lost it: the worker gives it the match back, between the match's own items,
    and keeps the view; ``done`` is resolved either way."""

    seat: int
    done: asyncio.Future[None]


Item = Submission | Flag | Nudge | FaultNotice | AwayChange | LeftAlone | WholeView
# A retry resends one of a client's last few commands; older answers are not kept.
ANSWERS_KEPT_PER_SEAT = 32


@dataclass(slots=True, eq=False)
class Match:
    """A match's live record. Only its own worker task changes it, one item at a time."""

    created: events_pb2.MatchCreated
    opened_ns: int
    version: int  # the rules state's version (the rules service holds the state itself)
    decision: Decision
    decision_proto: game_pb2.Decision
    timing: Timing
    seq: int = 0
    status: arbitration_pb2.Status.ValueType = arbitration_pb2.STATUS_LIVE
    outcome: game_pb2.Outcome | None = None
    # By seat (-1: spectators), the encoded events and view, or change of view, the rules
    # sent for it with the last step (a Seen): what the match's updates carry.
    perspectives: dict[int, bytes] = field(default_factory=dict)
    # By seat, a Seen holding the whole view at ``version``, where one is known (the last
    # step sent it, or a GetUpdate fetched it): what a stream's first update carries.
    views: dict[int, bytes] = field(default_factory=dict)
    # The index of the COMMAND stored for the item being judged: the entry that judges it
    # takes that place in the log (None: the item's entries are appended as they come).
    judging: int | None = None
    # That entry is stored on its own, before anything of it is shown: the rules were asked
    # directly, and their answer may have been of the moment (unreachable), which judging
    # the stored command again might not repeat.
    judged_alone: bool = False
    match_id: str = field(init=False)  # the created match's, read on every item (kept here)
    update_heads: dict[int, bytes] = field(default_factory=dict)  # see publisher.update_bytes
    # An unclocked game's clocks as an update shows them: the same every time (publisher).
    shown_clock: bytes | None = None
    # Per seat, the latest answers by client_seq, oldest first (client_seq only grows).
    answers: dict[int, dict[int, Answer]] = field(default_factory=dict)
    last_client_seq: dict[int, int] = field(default_factory=dict)
    claims: dict[str, Landing] = field(default_factory=dict)
    race: arbitration_pb2.Race | None = None
    flag: log_pb2.FlagRecord | None = None  # the flag that ended the match, its figures
    queue: asyncio.Queue[Item] = field(default_factory=asyncio.Queue)
    timer: asyncio.TimerHandle | None = None
    timer_due_ns: int = 0  # when ``timer`` fires (monotonic)
    # What the match's state calls for: when, and the item then queued (timers.Timers).
    wanted_timer: tuple[int, Flag | Nudge] | None = None
    finished_ns: int | None = None
    exposure: Exposure = field(default_factory=Exposure)
    faults: tuple[Fault, ...] = ()  # faults that overlapped this match's exposure
    void_reason: str = ""
    void_kind: str = ""  # the kind of the fault that voided the match
    state_sha256: bytes = b""  # of the rules state after the last step (for the log)
    closed: bool = False  # the log holds the match's last entry (FINISHED or VOIDED)
    seats_by_player: dict[str, frozenset[int]] = field(default_factory=dict)
    # Until when (monotonic ns) someone watches as a spectator: the spectators' view is
    # built and published only until then (each spectator stream renews it).
    spectators_until_ns: int = 0
    # Who is there (services/arbitration/attendance.py): when each seat was last heard
    # from (a command, or a stream open on a gateway); in online matches the seats away
    # now (from the log), the seats that made a move (an accepted command outside a gate:
    # from the log), and the seats whose going or coming back is queued and not yet
    # logged; against the computer or on one device, whether its end is queued (LeftAlone).
    seen_ns: dict[int, int] = field(default_factory=dict)
    away: frozenset[int] = frozenset()
    moved: frozenset[int] = frozenset()
    attendance_queued: set[int] = field(default_factory=set)
    person_seats: tuple[int, ...] = ()  # whose silence ends it (attendance.person_seats)
    left_alone_queued: bool = False
    # By seat, the players' commands the log stores as accepted and as refused, and the
    # refusals answered past the log's bound, counted in memory only (matchlog/bounds.py).
    accepted: dict[int, int] = field(default_factory=dict)
    refusals: dict[int, int] = field(default_factory=dict)
    not_logged: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.match_id = self.created.match_id

    @property
    def game(self) -> game_pb2.Game.ValueType:
        return self.created.game

    def is_over(self) -> bool:
        return self.status != arbitration_pb2.STATUS_LIVE

    def is_watched(self, now_ns: int) -> bool:
        """Return whether a spectator watches the match now."""
        return now_ns < self.spectators_until_ns

    def is_exposed(self) -> bool:
        """Return whether timing matters now: a clock runs, or an unclocked game is in play."""
        if self.is_over():
            return False
        if self.timing.clocked:
            return self.timing.clock.running is not None
        return not self.decision.gated and bool(self.decision.seats)

    def show(self, perspectives: Iterable[rules_pb2.Perspective]) -> None:
        """Take a step's perspectives as the match's, and the whole views among them."""
        self.perspectives = {p.seat: p.seen for p in perspectives}
        self.views = {p.seat: p.seen for p in perspectives if p.whole_view}

    def answer_to(self, seat: int, client_seq: int) -> Answer | None:
        """Return the answer a command already got (a retry), or None."""
        return self.answers.get(seat, {}).get(client_seq)

    def remember(self, seat: int, client_seq: int, answer: Answer) -> None:
        """Keep a command's answer for its retries, dropping the seat's oldest past the limit."""
        kept = self.answers.setdefault(seat, {})
        kept[client_seq] = answer
        if len(kept) > ANSWERS_KEPT_PER_SEAT:
            del kept[next(iter(kept))]

    def player_seats(self, player_id: str) -> frozenset[int]:
        """Return the seats ``player_id`` holds (both on a hot-seat device)."""
        seats = self.seats_by_player.get(player_id)
        if seats is None:  # the players never change: looked up once each
            players = self.created.players
            seats = frozenset(s for s, p in enumerate(players) if p.player_id == player_id)
            if seats:
                self.seats_by_player[player_id] = seats
        return seats
