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
from services.arbitration import record, spectator_view
from services.arbitration.match import Match
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.publisher import Publisher
from services.arbitration.restoring import restore
from services.arbitration.rules_client import NotHeld, RulesClient


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
        """Store ``entry``, then change the match by it (nothing is shown before)."""
        await self.log_writer.append(match, entry)
        record.apply(match, entry, now_ns)

    async def stepped(
        self, match: Match, call: Callable[[], Awaitable[rules_pb2.StepReply]]
    ) -> rules_pb2.StepReply:
        """Return the rules' step; a rules instance that lost the match gets it back first."""
        try:
            return await call()
        except NotHeld:
            await restore(self.rules, self.log_writer, match)
            return await call()

    @staticmethod
    def show(match: Match, step: rules_pb2.StepReply) -> None:
        """Take the step's perspectives as the match's (only after its entry is stored)."""
        match.perspectives = {p.seat: p.seen for p in step.perspectives}

    async def published(self, match: Match, now_ns: int) -> None:
        """Publish the match as it now stands and set its next timer."""
        if match.is_watched(now_ns):
            await spectator_view.refresh(match, self.rules)  # a watch began during the step
        self.publisher.updates(match)
        self.schedule(match)

    async def ended_without_result(self, match: Match) -> None:
        """Show a match that ended with no result (its end stored), and tell ratings why."""
        self.publisher.updates(match)
        await self.publisher.voided(match, match.void_kind, match.void_reason)
        self.schedule(match)
