"""Reading a match's arbitration log back from JetStream, and who may read it.

The stream is the only source: a log reads the same from any arbitration instance and
after a restart. A log is readable once it holds its last entry (the match finished or
was voided), and only by the match's players, and by operators weighing a fair-play flag:
nothing in it is secret after the end, but there is no public-match setting yet, so the
narrower rule holds until one exists.
"""

from __future__ import annotations

from collections.abc import Sequence

import nats.errors
import nats.js.errors
from nats.js import JetStreamContext

from photofinish.arbitration.v1 import log_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration.match import Match
from services.arbitration.refusals import Reason, refuse
from services.common.matchlogs import is_closed, read_entries
from services.common.rejection import Rejection
from wire import subjects

ANSWER_RETRY_S = 5.0  # a player waiting for a log is told it is unavailable sooner


def check_reader(
    players: Sequence[events_pb2.Player], player_id: str, closed: bool, operator: bool = False
) -> None:
    """Return if ``player_id`` (an ``operator``: any match's) may read the log now.

    Raises:
        Rejection: PERMISSION_DENIED ``not_your_match`` for anyone but the players;
            FAILED_PRECONDITION ``match_live`` before the match is over.
    """
    if not operator:
        check_player(players, player_id)
    if not closed:
        raise refuse(
            Reason.MATCH_LIVE,
            "the log is readable once the match is over",
        )


def check_player(players: Sequence[events_pb2.Player], player_id: str) -> None:
    """Return if ``player_id`` is one of the match's players.

    Raises:
        Rejection: PERMISSION_DENIED ``not_your_match`` otherwise.
    """
    if player_id not in {p.player_id for p in players}:
        raise refuse(Reason.NOT_YOUR_MATCH, "only its players read a log")


def check_match_id(match_id: str) -> None:
    """Return if ``match_id`` can name a match.

    Raises:
        Rejection: INVALID_ARGUMENT ``bad_match_id`` otherwise.
    """
    if not subjects.is_match_id(match_id):
        raise refuse(Reason.BAD_MATCH_ID, f"{match_id[:80]!r} is no match id")


async def first_entry(js: JetStreamContext, match_id: str) -> log_pb2.LogEntry | None:
    """Return the match's first stored entry (None: the stream holds none of it)."""
    try:
        stored = await js.get_msg(
            subjects.LOG_STREAM, seq=1, subject=subjects.match_log(match_id), next=True
        )
    except nats.js.errors.NotFoundError:
        return None
    return log_pb2.LogEntry.FromString(stored.data or b"")


class LogReader:
    """Serves GetMatchLog: the stored log of a finished match, to its players."""

    def __init__(self, js: JetStreamContext) -> None:
        self._js = js

    async def fetch(
        self, match_id: str, player_id: str, held: Match | None, operator: bool = False
    ) -> log_pb2.MatchLog:
        """Return the match's whole log for ``player_id``.

        ``held`` is the match when this instance runs it (it may still be live). An
        ``operator`` (the fair-play queue's) reads any finished match's, to weigh a flag.

        Raises:
            Rejection: as ``check_match_id`` and ``check_reader``; NOT_FOUND
                ``unknown_match`` when no log of the match is stored.
        """
        check_match_id(match_id)
        try:
            if held is not None:
                check_reader(held.created.players, player_id, held.is_over(), operator)
            else:
                # Its first entry names the players: a stranger's ask reads that alone,
                # never a whole log.
                header = await first_entry(self._js, match_id)
                if header is None or header.kind != log_pb2.ENTRY_KIND_OPENED:
                    raise _unknown(match_id)
                if not operator:
                    check_player(header.created.players, player_id)
            log = await read_entries(self._js, match_id, ANSWER_RETRY_S)
        except (nats.errors.Error, OSError) as error:
            raise refuse(Reason.LOG_UNAVAILABLE, f"the log store: {error!r}") from None
        if not log or log[0].kind != log_pb2.ENTRY_KIND_OPENED:
            raise _unknown(match_id)
        check_reader(log[0].created.players, player_id, is_closed(log), operator)
        return log_pb2.MatchLog(match_id=match_id, entries=log)


def _unknown(match_id: str) -> Rejection:
    return refuse(Reason.UNKNOWN_MATCH, f"no log of {match_id!r}")
