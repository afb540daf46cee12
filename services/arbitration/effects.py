"""What the match's worker does with what was decided, in the one order the design allows:
store the entry, change the match by it, then show it (publish, set the next timer).

Shared by a player's commands (``player_commands.py``) and the server's own steps
(``server_steps.py``), so that both keep that order the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from photofinish.arbitration.v1 import log_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record, whole_views
from services.arbitration.deciding import Apply
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import bounds, entries
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.metrics import ASKED_DIRECTLY
from services.arbitration.publisher import Publisher
from services.arbitration.refusals import Reason
from services.arbitration.restoring import restore
from services.arbitration.rules_client import NotHeld, RulesClient
from services.common.watching import SPECTATORS


@dataclass(frozen=True, slots=True)
class Effects:
    """The rules service, the log, the publisher and the timers, as a match's worker uses
    them."""

    rules: RulesClient
    log_writer: LogWriter
    publisher: Publisher
    schedule: Callable[[Match], None]  # set the match's next timer (timers.py)

    async def record(
        self, match: Match, entry: log_pb2.LogEntry, now_ns: int | None = None
    ) -> None:
        """Store ``entry``, then change the match by it (nothing is shown before).

        The entry that judges a stored command takes the command's place: it is stored
        with the next entry, the command being in the log already (a new judge would judge
        it the same), unless it is one a new judge might not repeat (a refusal of the
        moment; whatever came of asking the rules directly) or an abort.
        """
        index = match.judging
        if index is None:
            await self.log_writer.append(match, entry)
        else:
            match.judging = None
            self.log_writer.judged(match.match_id, entry, index)
            if match.judged_alone or not _repeatable(entry):
                await self.log_writer.flush(match)
        record.apply(match, entry, now_ns)

    async def stepped(
        self, match: Match, call: Callable[[], Awaitable[rules_pb2.StepReply]]
    ) -> rules_pb2.StepReply:
        """Return the rules' step; a rules instance that lost the match gets it back first."""
        try:
            return await call()
        except NotHeld:
            await self.log_writer.flush(match)  # the log the match is rebuilt from is whole
            await restore(self.rules, self.log_writer, match)
            return await call()

    async def judged(
        self, match: Match, item: Submission, applied: Apply, deadline_ns: int | None, watched: bool
    ) -> rules_pb2.StepReply:
        """Return the rules' step for a player's command to apply.

        Stored first when it can be: the command goes to the log as a COMMAND on its
        holder's subject, the log feeds it to the holder once stored, and the holder's
        answer comes back (one wake here, and no acknowledgement to wait for). When the
        answer does not come in time, the command is stored for sure and the rules are
        asked directly. The entry that judges it then takes its place (``record``).

        Raises:
            Superseded: another instance runs the match.
            Rejection: as ``RulesClient.apply``.
        """

        def direct() -> Awaitable[rules_pb2.StepReply]:
            return self.rules.apply(
                match.match_id,
                match.version,
                item.seat,
                item.command,
                watched,
                resignation_only=applied.resignation_only,
            )

        holder = self.rules.holder_of(match.match_id)
        if holder is None or not self._stores_first(match, item.seat):
            return await self.stepped(match, direct)
        judgement = self.rules.judgement(watched, applied.resignation_only)
        entry = entries.command_entry(match, item, deadline_ns)
        sent = self.log_writer.send_command(match, entry, holder, judgement.call)
        match.judging = sent.index
        try:
            return await judgement.step()
        except (TimeoutError, NotHeld) as unanswered:
            ASKED_DIRECTLY.labels(
                "timeout" if isinstance(unanswered, TimeoutError) else "not_held"
            ).inc()
            await self.log_writer.confirm_command(sent)
            match.judged_alone = True
            return await self.stepped(match, direct)

    def _stores_first(self, match: Match, seat: int) -> bool:
        """Return whether a seat's command may be stored before it is judged: the log takes
        it that way, and has room for whatever it becomes (a refusal included)."""
        return (
            self.rules.judges_stored()
            and self.log_writer.can_send_commands()
            and not self.log_writer.is_full(match.match_id)
            and match.refusals.get(seat, 0) < bounds.REFUSALS_LOGGED_PER_SEAT
        )

    @staticmethod
    def show(match: Match, step: rules_pb2.StepReply) -> None:
        """Take the step's perspectives as the match's (only after its entry is stored)."""
        match.show(step.perspectives)

    async def published(self, match: Match, now_ns: int) -> None:
        """Publish the match as it now stands and set its next timer."""
        if match.is_watched(now_ns) and SPECTATORS not in match.perspectives:
            await self.whole_view(match, SPECTATORS)  # a watch began during the step
        self.publisher.updates(match)
        self.schedule(match)

    async def whole_view(self, match: Match, seat: int) -> None:
        """Put ``seat``'s (-1: the spectators') whole view of the match in ``match.views``,
        from the rules instance that holds it, given the match back first if it lost it;
        the spectators' is published from now on."""
        if seat not in match.views:
            try:
                reply = await self.rules.view(match.match_id, match.version, seat)
            except NotHeld:
                await self.log_writer.flush(match)  # the log the match is rebuilt from is whole
                await restore(self.rules, self.log_writer, match)  # with whole views
                if seat not in match.views:
                    reply = await self.rules.view(match.match_id, match.version, seat)
            if seat not in match.views:
                whole_views.keep(match, seat, reply.view)
        if seat == SPECTATORS:
            match.perspectives.setdefault(SPECTATORS, match.views[SPECTATORS])

    async def ended_without_result(self, match: Match) -> None:
        """Show a match that ended with no result (its end stored), and tell ratings why."""
        self.publisher.updates(match)
        await self.publisher.voided(match, match.void_kind, match.void_reason)
        self.schedule(match)


# Refusals a new judge of the same stored command might not give: they came of the moment
# (the rules service out of reach), not of the match.
_OF_THE_MOMENT = frozenset({Reason.RULES_UNAVAILABLE.value, Reason.INTERNAL_ERROR.value})


def _repeatable(entry: log_pb2.LogEntry) -> bool:
    """Return whether a judged entry is what judging its command again would give, and
    nothing must wait for it to be stored (a result goes out only once the end is)."""
    if entry.kind == log_pb2.ENTRY_KIND_ACCEPTED:
        return True
    return entry.kind == log_pb2.ENTRY_KIND_REFUSED and entry.reason not in _OF_THE_MOMENT
