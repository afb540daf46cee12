"""Stand-ins for arbitration and the bot pool: real NATS responders that record requests.

They subscribe on the real subjects in the real queue groups and answer the way the real
services will (MatchOpened, BotReply), so the service under test speaks genuine NATS.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from photofinish.events.v1 import events_pb2
from services.common import subjects


@dataclass(slots=True)
class Arbiter:
    """Answers ``pf.match.create`` with MatchOpened (unless ``silent``) and keeps requests."""

    silent: bool = False
    received: list[events_pb2.MatchCreated] = field(default_factory=list)

    async def on_request(self, msg: Msg) -> None:
        created = events_pb2.MatchCreated.FromString(msg.data)
        self.received.append(created)
        if not self.silent:
            opened = events_pb2.MatchOpened(match_id=created.match_id, arbiter="test-arbiter")
            await msg.respond(opened.SerializeToString())


@dataclass(slots=True)
class BotPool:
    """Answers ``pf.bots.request`` with a bot of the level asked for and keeps requests."""

    received: list[events_pb2.BotRequest] = field(default_factory=list)

    async def on_request(self, msg: Msg) -> None:
        request = events_pb2.BotRequest.FromString(msg.data)
        self.received.append(request)
        number = len(self.received)
        bot = events_pb2.Player(player_id=f"bot-{number}", name=f"Robo {number}", bot=True)
        await msg.respond(events_pb2.BotReply(player=bot).SerializeToString())


async def listen_as_arbitration(nc: Client, arbiter: Arbiter) -> Subscription:
    """Return the subscription of ``arbiter``, known to the server when this returns."""
    sub = await nc.subscribe(
        subjects.MATCH_CREATE, queue=subjects.ARBITRATION_QUEUE, cb=arbiter.on_request
    )
    await nc.flush()
    return sub


async def listen_as_bot_pool(nc: Client, pool: BotPool) -> Subscription:
    """Return the subscription of ``pool``, known to the server when this returns."""
    sub = await nc.subscribe(subjects.BOTS_REQUEST, queue=subjects.BOTS_QUEUE, cb=pool.on_request)
    await nc.flush()
    return sub
