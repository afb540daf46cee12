"""The rules service's answer to GetReplay's request on NATS: a finished match's boards.

Any rules instance answers (queue group ``rules``): the request carries the log, so nothing
held is needed. Replaying a whole log takes the engines as long as the match took them, so
it runs in a worker process of its own: this process's event loop, which steps every live
match, never waits on a replay.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os

from photofinish.rules.v1 import replay_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.orphans import die_with
from services.rules.replay import replay_views
from wire import subjects

log = logging.getLogger("rules")

# Under NATS's default 1 MiB payload: a page that would not fit is cut to fewer steps (the
# caller asks for the rest from where the answer stops).
REPLY_BUDGET_BYTES = 900_000


def answer(request: bytes) -> bytes:
    """Return the encoded boards ``request`` (an encoded ReplayViewsRequest) asks for."""
    return fitted(replay_views(replay_pb2.ReplayViewsRequest.FromString(request)))


def replay_worker() -> concurrent.futures.ProcessPoolExecutor:
    """Return the pool of one worker process that replays, which dies with this process.

    Spawned, not forked: this process runs an event loop and threads. Without its death
    signal, a worker (and the resource tracker it keeps open) outlived a rules process
    killed with SIGKILL.
    """
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with,
        initargs=(os.getpid(),),
    )


class ReplayServer:
    """Answers the arbitration's replay requests, one worker process replaying."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link
        self._worker = replay_worker()

    def start(self) -> None:
        self._link.subscribe(subjects.RULES_REPLAY, self._on_request, queue=subjects.RULES_QUEUE)

    def stop(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)

    def _on_request(self, message: Message) -> None:
        reply = message.reply
        if not reply:
            return
        done = asyncio.get_running_loop().run_in_executor(self._worker, answer, message.data)
        done.add_done_callback(lambda future: self._answered(reply, future))

    def _answered(self, reply: str, future: asyncio.Future[bytes]) -> None:
        if future.cancelled():
            return
        if (error := future.exception()) is not None:
            log.warning("replay not built", extra={"fields": {"why": repr(error)}})
            return  # the asker times out: rules_unavailable
        self._link.publish(reply, future.result())


def fitted(reply: replay_pb2.ReplayViews, budget_bytes: int = REPLY_BUDGET_BYTES) -> bytes:
    """Return ``reply`` encoded, without its later steps while it is over the budget."""
    data = reply.SerializeToString()
    kept = replay_pb2.ReplayViews()
    kept.CopyFrom(reply)
    while len(data) > budget_bytes and len(kept.steps) > 1:
        del kept.steps[len(kept.steps) // 2 :]
        data = kept.SerializeToString()
    return data
