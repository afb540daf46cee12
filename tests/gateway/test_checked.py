"""A seat's subject is subscribed only once the seat is the caller's: nothing about a seat
is received or queued for a stranger, not even while the check is pending (a real
nats-server; the seat's updates are published while the arbitration is being asked)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.rejection import Rejection
from services.gateway.checked import follow_checked
from services.stack.natsd import NatsServer
from tests.waiting import poll_until

SEAT = "pf.match.m1.view.0"
CONTROL = "pf.control"


@pytest.fixture
async def links(nats_server: NatsServer) -> AsyncIterator[tuple[NatsLink, NatsLink]]:
    gateway = await NatsLink.connect(nats_server.url, "gateway")
    arbitration = await NatsLink.connect(nats_server.url, "arbitration")
    yield gateway, arbitration
    await gateway.close()
    await arbitration.close()


async def published_then(arbitration: NatsLink, gateway: NatsLink) -> list[bytes]:
    """Publish a hand on the seat, then a control message the gateway link hears; return,
    once the control has arrived, what the gateway link heard of the control."""
    heard: list[bytes] = []
    gateway.subscribe(CONTROL, lambda message: heard.append(message.data))
    await gateway.flush()
    arbitration.publish(SEAT, b"hand")
    arbitration.publish(CONTROL, b"after")  # one publisher: it arrives after the hand would
    await arbitration.flush()
    await poll_until("the control message arrives", lambda: heard)
    return heard


async def test_a_refused_seat_was_never_subscribed(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, arbitration = links
    received: list[Message] = []

    async def refused_after_updates() -> arbitration_pb2.MatchUpdate:
        await published_then(arbitration, gateway)  # the seat moves while it is checked
        raise Rejection(grpc.StatusCode.PERMISSION_DENIED, "not_your_seat", "another's seat")

    with pytest.raises(Rejection):
        await follow_checked(gateway, SEAT, received.append, refused_after_updates)
    assert received == []


async def test_a_checked_seat_is_followed_and_caught_up(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, arbitration = links
    received: list[Message] = []
    asked: list[int] = []

    async def latest() -> arbitration_pb2.MatchUpdate:
        asked.append(len(asked))
        return arbitration_pb2.MatchUpdate(seq=len(asked), status=arbitration_pb2.STATUS_LIVE)

    followed = await follow_checked(gateway, SEAT, received.append, latest)
    assert (followed.first.seq, followed.caught_up and followed.caught_up.seq) == (1, 2)
    assert followed.sid is not None
    arbitration.publish(SEAT, b"update")
    await poll_until("the seat's update arrives", lambda: received)
    assert received[0].data == b"update"


async def test_an_ended_match_is_not_subscribed(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, _ = links

    async def over() -> arbitration_pb2.MatchUpdate:
        return arbitration_pb2.MatchUpdate(seq=9, status=arbitration_pb2.STATUS_FINISHED)

    followed = await follow_checked(gateway, SEAT, lambda _: None, over)
    assert (followed.sid, followed.caught_up) == (None, None)
