"""Serves GetReplay: a finished match step by step, each entry of its log with its boards.

Who may read it is GetMatchLog's rule (``matchlog.reader``): the match's players, once it
is over, so every seat's view may be shown. The arbitration names no game: the boards come
from the rules service, which rebuilds them from the log (NATS ``pf.rules.replay``), and
the decision times from this service's own clock arithmetic over the same log.
"""

from __future__ import annotations

from collections.abc import Sequence

from photofinish.arbitration.v1 import log_pb2, replay_pb2
from photofinish.rules.v1 import replay_pb2 as rules_replay_pb2
from services.arbitration.decision_times import decision_times
from services.arbitration.match import Match
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.refusals import Reason, refuse
from services.common.natslink.requests import NoResponders, Requests
from wire import subjects

PAGE_STEPS = 100  # steps per answer; the rules service may send fewer to fit NATS's limit
REPLAY_TIMEOUT_S = 10.0


class Replays:
    """Answers GetReplay from the stored log and the rules service's boards."""

    def __init__(
        self, log_reader: LogReader, requests: Requests, timeout_s: float = REPLAY_TIMEOUT_S
    ) -> None:
        self._log_reader = log_reader
        self._requests = requests
        self._timeout_s = timeout_s

    async def fetch(
        self,
        request: replay_pb2.GetReplayRequest,
        player_id: str,
        held: Match | None,
        operator: bool = False,
    ) -> replay_pb2.Replay:
        """Return the page of the replay from ``request.first_step`` for ``player_id``.

        Raises:
            Rejection: as ``LogReader.fetch``; OUT_OF_RANGE ``no_such_step`` past the last
                step; UNAVAILABLE ``rules_unavailable`` when no rules instance answers.
        """
        found = await self._log_reader.fetch(request.match_id, player_id, held, operator)
        log = found.entries
        first = request.first_step
        if first >= len(log):
            raise refuse(Reason.NO_SUCH_STEP, f"the log has {len(log)} steps")
        steps = min(PAGE_STEPS, len(log) - first)
        boards = await self._boards(log[: first + steps], first, steps)
        return assembled(request.match_id, log, first, boards)

    async def _boards(
        self, entries: Sequence[log_pb2.LogEntry], first: int, steps: int
    ) -> rules_replay_pb2.ReplayViews:
        asked = rules_replay_pb2.ReplayViewsRequest(entries=entries, first_step=first, steps=steps)
        try:
            reply = await self._requests.send(
                subjects.RULES_REPLAY, asked.SerializeToString(), self._timeout_s
            )
        except ValueError:  # the log is over NATS's payload limit
            raise refuse(Reason.LOG_TOO_LONG, "this log is too long to replay") from None
        except (NoResponders, TimeoutError):
            raise refuse(Reason.RULES_UNAVAILABLE, "no rules instance answered") from None
        return rules_replay_pb2.ReplayViews.FromString(reply.data)


def assembled(
    match_id: str,
    log: Sequence[log_pb2.LogEntry],
    first: int,
    boards: rules_replay_pb2.ReplayViews,
) -> replay_pb2.Replay:
    """Return the replay page: each step's entry, its boards and its decision time."""
    times = decision_times(log)
    return replay_pb2.Replay(
        match_id=match_id,
        total_steps=len(log),
        first_step=first,
        steps=[
            replay_pb2.ReplayStep(
                entry=log[step.index], views=step.views, decision_time=times.get(step.index)
            )
            for step in boards.steps
        ],
        divergence=boards.divergence,
        diverged_at=boards.diverged_at,
    )
