"""The rules service's answer to GetReplay's request on NATS: a finished match's boards.

Any rules instance answers (queue group ``rules``): the request carries the log, so nothing
held is needed. Each request is answered in the read that brings it, like ``hop``.
"""

from __future__ import annotations

from photofinish.rules.v1 import replay_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.rules.replay import replay_views
from wire import subjects

# Under NATS's default 1 MiB payload: a page that would not fit is cut to fewer steps (the
# caller asks for the rest from where the answer stops).
REPLY_BUDGET_BYTES = 900_000


class ReplayHop:
    """Answers the arbitration's replay requests until its link closes."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link

    def start(self) -> None:
        self._link.subscribe(subjects.RULES_REPLAY, self._on_request, queue=subjects.RULES_QUEUE)

    def _on_request(self, message: Message) -> None:
        if not message.reply:
            return
        request = replay_pb2.ReplayViewsRequest.FromString(message.data)
        self._link.publish(message.reply, fitted(replay_views(request)))


def fitted(reply: replay_pb2.ReplayViews, budget_bytes: int = REPLY_BUDGET_BYTES) -> bytes:
    """Return ``reply`` encoded, without its later steps while it is over the budget."""
    data = reply.SerializeToString()
    kept = replay_pb2.ReplayViews()
    kept.CopyFrom(reply)
    while len(data) > budget_bytes and len(kept.steps) > 1:
        del kept.steps[len(kept.steps) // 2 :]
        data = kept.SerializeToString()
    return data
