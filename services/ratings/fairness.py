"""Fair play behind the event loop: each call one unit of work on the ratings database
(measurements in ``measured.py``, the queue and its actions in ``moderation.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from services.common.database import Database, Session
from services.fairplay.flags import Thresholds
from services.fairplay.races import Race
from services.fairplay.reactions import Reaction
from services.ratings import measured, moderation
from services.ratings.model import Finished, MatchId, PlayerId

DEFAULT_THRESHOLDS = Thresholds()


class Fairness:
    """Stores what the fair-play reader measured, judges it, and serves the queue."""

    def __init__(
        self,
        database: Database,
        thresholds: Thresholds = DEFAULT_THRESHOLDS,
        reports_per_day: int = 5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.database = database
        self._thresholds = thresholds
        self._per_day = reports_per_day
        self._clock = clock

    async def record(
        self,
        result: Finished,
        played_unix_s: float,
        reactions: Sequence[Reaction],
        races: Sequence[Race],
    ) -> tuple[str, ...] | None:
        """Store one rated match's measurements and judge both players again; return the
        flags this opened (None: the match was stored already, nothing changed)."""
        seats = (result.players[0].player_id, result.players[1].player_id)
        now = self._clock()

        def write(session: Session) -> tuple[str, ...] | None:
            with session.transaction():
                stored = measured.store(
                    session, result.match_id, seats, played_unix_s, reactions, races
                )
                if not stored:
                    return None
                opened = (
                    moderation.judge_player(session, player, self._thresholds, now)
                    for player in sorted(seats)
                )
                return tuple(flag for flag in opened if flag is not None)

        return await self.database.run(write)

    async def report(
        self, reporter: PlayerId, match_id: MatchId, reason: moderation.ReportReason
    ) -> str:
        """File ``reporter``'s report (``moderation.report``); return its flag's id."""
        now = self._clock()

        def write(session: Session) -> str:
            with session.transaction():
                return moderation.report(session, reporter, match_id, reason, now, self._per_day)

        return await self.database.run(write)

    async def queue(self) -> tuple[moderation.Flag, ...]:
        return await self.database.run(moderation.queue)

    async def case(self, flag_id: str) -> moderation.Case:
        return await self.database.run(lambda s: moderation.case(s, flag_id))

    async def settle(
        self,
        flag_id: str,
        action: moderation.Action,
        operator: moderation.Operator,
        why: str,
    ) -> int:
        """Clear or mark a flag (``moderation.settle``); return the refunds given."""
        now = self._clock()

        def write(session: Session) -> int:
            with session.transaction():
                return moderation.settle(session, flag_id, action, operator, why, now)

        return await self.database.run(write)

    async def match_reactions(self, match_id: MatchId) -> list[tuple[PlayerId, Reaction]]:
        return await self.database.run(lambda s: measured.of_match(s, match_id))
