"""Stand-ins for arbitration and a bot pool that record what they are asked.

The arbitration stand-in subscribes on the real subject in the real queue group and
answers as the real service does (MatchOpened), so the service under test speaks genuine
NATS. nats-server (2.15) does not route to a subscription in the instant after SUB +
PING/PONG every time: about one request in a hundred still saw "no responders" (and,
after UNSUB, was still routed to the gone subscription). So a responder counts as
listening only once a probe request (header ``Pf-Probe``, answered but not recorded) gets
through, and as gone once a probe gets "no responders".

The bot pool stand-in holds the real ``BotPools.Serve`` stream open to the service, as
clients/bots does, and answers each ``bot`` order with a made-up computer player.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import grpc
import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from photofinish.events.v1 import events_pb2
from photofinish.matchmaking.v1 import bots_pb2, bots_pb2_grpc
from wire import subjects

PROBE = {"Pf-Probe": "1"}
PROBE_TIMEOUT_S = 0.2
SETTLE_TIMEOUT_S = 10.0


def is_probe(msg: Msg) -> bool:
    return bool(msg.headers and msg.headers.get("Pf-Probe"))


@dataclass(slots=True)
class ArbitrationStandIn:
    """Answers ``pf.match.create`` with MatchOpened (unless ``silent``) and keeps requests.

    While ``held`` is set and not yet released, each answer waits for it: a match being
    opened slowly.
    """

    silent: bool = False
    received: list[events_pb2.MatchCreated] = field(default_factory=list)
    held: asyncio.Event | None = None

    async def on_request(self, msg: Msg) -> None:
        if is_probe(msg):
            await msg.respond(b"")
            return
        created = events_pb2.MatchCreated.FromString(msg.data)
        self.received.append(created)
        if self.held is not None:
            await self.held.wait()
        if not self.silent:
            opened = events_pb2.MatchOpened(match_id=created.match_id, instance="test-arbitration")
            await msg.respond(opened.SerializeToString())


@dataclass(slots=True)
class BotPool:
    """Answers each ``bot`` order with a bot of the level asked for; keeps every order."""

    received: list[events_pb2.BotRequest] = field(default_factory=list)
    opened: list[events_pb2.MatchCreated] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    async def serve(self, address: str) -> None:
        """Hold the stream to matchmaking at ``address`` until cancelled."""
        async with grpc.aio.insecure_channel(address) as channel:
            call = bots_pb2_grpc.BotPoolsStub(channel).Serve()
            async for order in call:
                await self._obey(order, call)

    async def _obey(self, order: bots_pb2.PoolOrder, call: Any) -> None:
        kind = order.WhichOneof("kind")
        if kind == "bot":
            self.received.append(order.bot)
            number = len(self.received)
            bot = events_pb2.Player(player_id=f"bot-{number}", name=f"Robo {number}", bot=True)
            reply = events_pb2.BotReply(player=bot)
            await call.write(bots_pb2.PoolAnswer(ask=order.ask, reply=reply))
        elif kind == "opened":
            self.opened.append(order.opened)
        elif kind == "dropped":
            self.dropped.append(order.dropped)


async def listen_as_arbitration(nc: Client, arbitration: ArbitrationStandIn) -> Subscription:
    """Return the subscription of ``arbitration`` once requests reach it."""
    sub = await nc.subscribe(
        subjects.MATCH_CREATE, queue=subjects.ARBITRATION_QUEUE, cb=arbitration.on_request
    )
    await until_listening(nc, subjects.MATCH_CREATE)
    return sub


async def stop_listening(nc: Client, sub: Subscription) -> None:
    """Unsubscribe ``sub``; return once requests on its subject find no responders."""
    await sub.unsubscribe()
    async with asyncio.timeout(SETTLE_TIMEOUT_S):
        while True:
            try:
                await nc.request(sub.subject, b"", timeout=PROBE_TIMEOUT_S, headers=PROBE)
            except nats.errors.NoRespondersError:
                return
            except nats.errors.TimeoutError:
                pass


async def until_listening(nc: Client, subject: str) -> None:
    """Return once a probe on ``subject`` is answered."""
    async with asyncio.timeout(SETTLE_TIMEOUT_S):
        while True:
            try:
                await nc.request(subject, b"", timeout=PROBE_TIMEOUT_S, headers=PROBE)
                return
            except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
                await asyncio.sleep(0.005)
