"""A seat is followed only once it is the caller's: nothing about a seat is received or
queued for a stranger, not even while the check is pending (a real nats-server; the
seats' updates are published while the arbitration is being asked); a follower gets its
own seat's updates and no other's."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import grpc
import pytest

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.link import NatsLink
from services.common.rejection import Rejection
from services.gateway.checked import follow_checked
from services.gateway.followed_matches import FollowedMatches
from services.stack.natsd import NatsServer
from tests.waiting import poll_until

SEATS = "pf.match.m1.seats"
PUBLIC = "pf.match.m1.public"


def seat_updates(*updates: bytes) -> bytes:
    return arbitration_pb2.SeatUpdates(updates=updates).SerializeToString()


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
    arbitration.publish(SEATS, seat_updates(b"hand 0", b"hand 1"))
    arbitration.publish(CONTROL, b"after")  # one publisher: it arrives after the hand would
    await arbitration.flush()
    await poll_until("the control message arrives", lambda: heard)
    return heard


async def test_a_refused_seat_was_never_subscribed(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, arbitration = links
    received: list[bytes] = []

    async def refused_after_updates() -> arbitration_pb2.MatchUpdate:
        await published_then(arbitration, gateway)  # the seat moves while it is checked
        raise Rejection(grpc.StatusCode.PERMISSION_DENIED, "not_your_seat", "another's seat")

    with pytest.raises(Rejection):
        await follow_checked(
            FollowedMatches(gateway), "m1", 0, received.append, refused_after_updates
        )
    assert received == []


async def test_a_checked_seat_is_followed_and_caught_up(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, arbitration = links
    received: list[bytes] = []
    asked: list[int] = []

    async def latest() -> arbitration_pb2.MatchUpdate:
        asked.append(len(asked))
        return arbitration_pb2.MatchUpdate(seq=len(asked), status=arbitration_pb2.STATUS_LIVE)

    followed = await follow_checked(FollowedMatches(gateway), "m1", 1, received.append, latest)
    assert (followed.first.seq, followed.caught_up and followed.caught_up.seq) == (1, 2)
    assert followed.unfollow is not None
    arbitration.publish(SEATS, seat_updates(b"seat 0's", b"seat 1's"))
    await poll_until("the seat's update arrives", lambda: received)
    assert received == [b"seat 1's"]


async def test_after_a_reconnect_the_latest_is_handed_on_and_a_refusal_hands_nothing(
    links: tuple[NatsLink, NatsLink],
) -> None:
    gateway, _ = links
    received: list[bytes] = []
    answers = [1, 2, 3, None]  # the check, the ask after subscribing, two catch-ups

    async def latest() -> arbitration_pb2.MatchUpdate:
        seq = answers.pop(0)
        if seq is None:
            raise Rejection(grpc.StatusCode.UNAVAILABLE, "arbitration_unavailable", "away")
        return arbitration_pb2.MatchUpdate(seq=seq, status=arbitration_pb2.STATUS_LIVE)

    matches = FollowedMatches(gateway)
    followed = await follow_checked(matches, "m1", 0, received.append, latest)
    matches.catch_up()
    await poll_until("the latest handed on", lambda: received)
    assert [arbitration_pb2.MatchUpdate.FromString(data).seq for data in received] == [3]
    matches.catch_up()  # refused this time: nothing is handed on
    await poll_until("the refusal", lambda: not answers)
    await asyncio.sleep(0.05)
    assert len(received) == 1
    assert followed.unfollow is not None
    followed.unfollow()


async def test_an_ended_match_is_not_subscribed(links: tuple[NatsLink, NatsLink]) -> None:
    gateway, _ = links

    async def over() -> arbitration_pb2.MatchUpdate:
        return arbitration_pb2.MatchUpdate(seq=9, status=arbitration_pb2.STATUS_FINISHED)

    matches = FollowedMatches(gateway)
    followed = await follow_checked(matches, "m1", 0, lambda _: None, over)
    assert (followed.unfollow, followed.caught_up) == (None, None)
    assert matches.following() == 0


async def test_each_follower_gets_its_own_seat_from_one_subscription(
    links: tuple[NatsLink, NatsLink],
) -> None:
    gateway, arbitration = links
    matches = FollowedMatches(gateway)
    heard: dict[str, list[bytes]] = {"0": [], "0 again": [], "1": [], "spectator": []}
    unfollow_0 = matches.follow("m1", 0, heard["0"].append)
    matches.follow("m1", 0, heard["0 again"].append)  # a second tab of the same seat
    unfollow_1 = matches.follow("m1", 1, heard["1"].append)
    unfollow_spectator = matches.follow("m1", -1, heard["spectator"].append)
    assert matches.following() == 2  # the seats' subject and the public one, once each
    await matches.flush()
    arbitration.publish(SEATS, seat_updates(b"hand 0", b"hand 1"))
    arbitration.publish(PUBLIC, b"public")
    await arbitration.flush()
    await poll_until("every follower hears", lambda: all(heard.values()))
    assert heard == {
        "0": [b"hand 0"],
        "0 again": [b"hand 0"],
        "1": [b"hand 1"],
        "spectator": [b"public"],
    }
    unfollow_0()
    unfollow_1()
    unfollow_spectator()
    assert matches.following() == 1  # seat 0 is still followed (its second tab)


async def test_the_last_follower_gone_the_match_is_unsubscribed(
    links: tuple[NatsLink, NatsLink],
) -> None:
    gateway, arbitration = links
    matches = FollowedMatches(gateway)
    heard: list[bytes] = []
    unfollow = matches.follow("m1", 0, heard.append)
    await matches.flush()
    unfollow()
    unfollow()  # twice: nothing more happens
    assert matches.following() == 0
    await gateway.flush()  # the server has the unsubscription
    await published_then(arbitration, gateway)
    assert heard == []


async def test_after_a_reconnect_each_follower_still_there_is_asked_to_catch_up_once(
    links: tuple[NatsLink, NatsLink],
) -> None:
    gateway, _ = links
    matches = FollowedMatches(gateway)
    asked: list[str] = []
    for name, match_id, seat in (("ann", "m1", 0), ("ben", "m1", 1), ("cat", "m2", -1)):
        matches.follow(match_id, seat, lambda _: None, functools.partial(asked.append, name))
    gone = matches.follow("m2", 0, lambda _: None, lambda: asked.append("dan"))
    matches.catch_up()
    gone()  # the stream stopped before its turn came
    await poll_until("three asked", lambda: len(asked) >= 3)
    await asyncio.sleep(0.05)  # past the turn the stopped one would have had
    assert sorted(asked) == ["ann", "ben", "cat"]
