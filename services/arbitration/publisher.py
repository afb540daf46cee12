"""Views out: the seats' updates in one NATS message, the spectators' on its own subject;
results to JetStream."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator

from nats.js import JetStreamContext

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.listing import Listing
from services.arbitration.match import Match
from services.arbitration.timing import remaining_ms
from services.common.jsretry import until_done
from services.common.natslink.link import NatsLink
from services.common.natsmetrics import StreamPublishes
from services.common.watching import SPECTATORS
from wire import subjects
from wire.updates import lead

SEATS = (0, 1)
RESULT_RETRY_S = 120.0  # a results stream without a leader for longer is an outage to page about
RESULT_PUBLISHES = StreamPublishes(subjects.RESULTS_STREAM)  # each try's time or error


def decision_shown(match: Match) -> game_pb2.Decision:
    """Return the decision players see: a pending hot-seat hand-over is a gate of its own."""
    if match.timing.handover is not None:
        return game_pb2.Decision(
            seats=[match.timing.handover], fresh=True, gate=game_pb2.GATE_HANDOVER
        )
    return match.decision_proto


def clock_view(match: Match, now_ns: int) -> arbitration_pb2.ClockView:
    """Return both clocks as the server measures them at ``now_ns``."""
    running = match.timing.clock.running
    return arbitration_pb2.ClockView(
        seats=[
            arbitration_pb2.SeatClock(grace_ms=grace, bank_ms=bank)
            for grace, bank in remaining_ms(match.timing, now_ns)
        ],
        running=-1 if running is None or not match.timing.clocked else running,
        enabled=match.timing.clocked,
    )


def update_bytes(match: Match, seat: int, now_ns: int) -> bytes:
    """Return the encoded update ``seat`` (-1: spectators) may see of the match now, with
    its whole view where the match holds it (see ``whole_views``)."""
    return Shown(match, now_ns).to(seat, whole=True)


class Shown:
    """The match as it stands at ``now_ns``, encoded for each seat that sees it.

    Each update opens with its lead (number, status, race: ``wire/updates.py``), which
    the gateway reads without decoding the rest. The match's fixed fields (its id, the
    players, the mode) are encoded once per seat and kept; what changes (the decision,
    the clocks, the end) is encoded once for every seat; the rules service's encoded view
    and events for the seat are appended unread (see ``Seen`` in game.proto).
    """

    def __init__(self, match: Match, now_ns: int) -> None:
        self._match = match
        self._lead = lead(match.seq, match.status, match.race)
        self._changing = _decision_part(match) + _clock_part(match, now_ns) + _ending_part(match)

    def to(self, seat: int, whole: bool = False) -> bytes:
        """Return the update ``seat`` (-1: spectators) may see: with the last step's events
        and view or change, or ``whole``, with its whole view where the match holds it."""
        match = self._match
        head = match.update_heads.get(seat)
        if head is None:
            head = match.update_heads[seat] = arbitration_pb2.MatchUpdate(
                match_id=match.match_id,
                seat=seat,
                game=match.game,
                mode=match.created.mode,
                rated=match.created.rated,
                players=match.created.players,
            ).SerializeToString()
        seen = match.views.get(seat) if whole else None
        if seen is None:
            seen = match.perspectives.get(seat, b"")
        return self._lead + head + self._changing + seen


def _decision_part(match: Match) -> bytes:
    """Return the update's decision, encoded once for each decision the match reaches."""
    if match.timing.handover is not None:
        return arbitration_pb2.MatchUpdate(decision=decision_shown(match)).SerializeToString()
    return _decision_update(match.decision_proto.SerializeToString())


@functools.lru_cache(maxsize=1024)
def _decision_update(decision: bytes) -> bytes:
    """Return an encoded decision as an update's field (a match reaches the same few)."""
    shown = game_pb2.Decision.FromString(decision)
    return arbitration_pb2.MatchUpdate(decision=shown).SerializeToString()


def _clock_part(match: Match, now_ns: int) -> bytes:
    """Return the update's clocks: read now in a clocked game, the same every time in
    another (no clock runs there)."""
    if match.timing.clocked:
        return arbitration_pb2.MatchUpdate(clock=clock_view(match, now_ns)).SerializeToString()
    if match.shown_clock is None:
        clock = clock_view(match, now_ns)
        match.shown_clock = arbitration_pb2.MatchUpdate(clock=clock).SerializeToString()
    return match.shown_clock


def _ending_part(match: Match) -> bytes:
    """Return what the update says of an end, a flag or someone away: nothing, mostly."""
    if not (match.away or match.outcome or match.flag or match.void_reason or match.void_kind):
        return b""
    return arbitration_pb2.MatchUpdate(
        void_reason=match.void_reason,
        void_kind=match.void_kind,
        outcome=match.outcome,
        flag=match.flag,
        away_seats=sorted(match.away),
        claim_aborts=any(seat not in match.moved for seat in match.away),
    ).SerializeToString()


def build_update(match: Match, seat: int, now_ns: int) -> arbitration_pb2.MatchUpdate:
    """Return the update ``seat`` (-1: spectators) may see of the match now, decoded."""
    return arbitration_pb2.MatchUpdate.FromString(update_bytes(match, seat, now_ns))


class Publisher:
    """Publishes a match's updates on the hot path's link and its results to JetStream;
    lists it as live from its opening to its result (``listing``: never on a command's way)."""

    def __init__(
        self,
        link: NatsLink,
        js: JetStreamContext,
        now: Callable[[], int],
        listing: Listing | None = None,
    ) -> None:
        self._link = link
        self._js = js
        self._now = now  # the arbitration's monotonic clock (an update's clock readings)
        self._listing = listing
        # By match: the seats' update of this event-loop turn, sent at its end with the
        # answers that came meanwhile (``answer_with_update``).
        self._turns: dict[str, arbitration_pb2.SeatUpdates] = {}
        self._at_once = 0

    def updates(self, match: Match) -> None:
        """Publish the current update of each seat (in one message, at the end of this
        event-loop turn), and the spectators' if any watch.

        The clocks are read as the update leaves the match's worker, not at its item's
        reading (a rules call and a log store lie between): a player's countdown starts
        from what is true then.
        """
        shown = Shown(match, self._now())
        perspectives = match.perspectives
        seats = [shown.to(seat) if seat in perspectives else b"" for seat in SEATS]
        if any(seats):
            self._seats(match.match_id, arbitration_pb2.SeatUpdates(updates=seats))
        if SPECTATORS in perspectives:  # only while someone watches
            self._link.publish(subjects.match_public(match.match_id), shown.to(SPECTATORS))

    def answer_with_update(
        self, match_id: str, reply_subject: str, answer: arbitration_pb2.SubmitAnswer
    ) -> bool:
        """Put ``answer`` in the match's seats' update of this turn, if one is yet to leave
        (the gateway that follows the match settles it from there); return whether it was."""
        seats = self._turns.get(match_id)
        if seats is None:
            return False
        seats.answers.add(reply_subject=reply_subject, answer=answer)
        return True

    def _seats(self, match_id: str, seats: arbitration_pb2.SeatUpdates) -> None:
        earlier = self._turns.pop(match_id, None)
        if earlier is not None:  # the match changed twice this turn: in order, both
            self._send_seats(match_id, earlier)
        if self._at_once:
            self._send_seats(match_id, seats)
            return
        if not self._turns:
            self._link.loop.call_soon(self._send_turns)
        self._turns[match_id] = seats

    def _send_turns(self) -> None:
        turns, self._turns = self._turns, {}
        for match_id, seats in turns.items():
            self._send_seats(match_id, seats)

    def _send_seats(self, match_id: str, seats: arbitration_pb2.SeatUpdates) -> None:
        self._link.publish(subjects.match_seats(match_id), seats.SerializeToString())

    @contextlib.contextmanager
    def at_once(self) -> Iterator[None]:
        """While open, nothing sent is held for the messages that follow (a timer's item: a
        flag is announced at its deadline, its rules call made at once)."""
        self._at_once += 1
        try:
            with self._link.at_once():
                yield
        finally:
            self._at_once -= 1

    async def finished(self, match: Match, commands: int) -> None:
        """Publish the result once; the match id deduplicates any resend."""
        assert match.outcome is not None
        if self._listing is not None:
            self._listing.ended(match.match_id)
        result = events_pb2.MatchFinished(
            match_id=match.match_id,
            game=match.game,
            players=match.created.players,
            rated=match.created.rated,
            mode=match.created.mode,
            outcome=match.outcome,
            commands=commands,
        )
        await self._result(subjects.RESULTS_FINISHED, result.SerializeToString(), match.match_id)

    async def voided(self, match: Match, reason: str, figures: str) -> None:
        """Publish the void once: no rating result, with the reason and the figures."""
        if self._listing is not None:
            self._listing.ended(match.match_id)
        void = events_pb2.MatchVoided(
            match_id=match.match_id,
            game=match.game,
            players=match.created.players,
            reason=reason,
            figures=figures,
        )
        await self._result(subjects.RESULTS_VOIDED, void.SerializeToString(), match.match_id)

    async def _result(self, subject: str, data: bytes, match_id: str) -> None:
        """Store a result, trying again while the results stream has no leader: a result
        lost there would leave its ratings and its tournament waiting for ever. The match
        id deduplicates a try that was stored but not acknowledged."""
        await until_done(
            f"result of {match_id}",
            lambda: RESULT_PUBLISHES.timed(
                self._js.publish(subject, data, headers={"Nats-Msg-Id": match_id})
            ),
            RESULT_RETRY_S,
        )

    def opened(self, match: Match) -> None:
        """List the open match among the live ones (ListLiveMatches)."""
        if self._listing is not None:
            self._listing.opened(match.created)
