"""The gateway's Submit over NATS: answers matched to their commands (in a message of their
own, or with the update they bring), a missing owner told."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.futures import settling
from services.common.natslink.link import NatsLink
from services.common.placement import Directory, Owner, instances_bucket, owners_bucket
from services.common.rejection import Rejection
from services.gateway.followed_matches import FollowedMatches
from services.gateway.submits import SubmitForwarder
from services.stack.natsd import NatsServer, start_nats
from tests.matchmaking.responders import is_probe, until_listening
from wire import subjects


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    started = await start_nats(tmp_path / "nats")
    yield started
    await started.stop()


@pytest.fixture
async def nc(server: NatsServer) -> AsyncIterator[NATS]:
    connection = await nats.connect(server.url)
    yield connection
    await connection.close()


@pytest.fixture
async def gateway(server: NatsServer, nc: NATS) -> AsyncIterator[tuple[SubmitForwarder, NatsLink]]:
    """The gateway's forwarder (m1 owned by arb-a) and its link."""
    js = nc.jetstream()
    directory = Directory(await owners_bucket(js), await instances_bucket(js))
    await directory.start()
    directory.note_owner("m1", Owner("arb-a", 1))
    link = await NatsLink.connect(server.url, "gateway-link")
    forwarding = SubmitForwarder(link, directory)
    forwarding.start()
    await link.flush()
    yield forwarding, link
    forwarding.stop()
    await link.close()
    await directory.stop()


@pytest.fixture
def forwarder(gateway: tuple[SubmitForwarder, NatsLink]) -> SubmitForwarder:
    return gateway[0]


def submit(client_seq: int) -> arbitration_pb2.SubmitRequest:
    return arbitration_pb2.SubmitRequest(match_id="m1", seat=0, client_seq=client_seq)


async def test_each_command_gets_its_own_answer_whatever_the_order_they_come_in(
    nc: NATS, forwarder: SubmitForwarder
) -> None:
    batches: list[arbitration_pb2.Submits] = []

    async def arbitration(message: Msg) -> None:
        """Answers the batch's last command first, and refuses the even client_seqs."""
        if is_probe(message):
            await message.respond(b"")
            return
        batch = arbitration_pb2.Submits.FromString(message.data)
        batches.append(batch)
        for index in reversed(range(len(batch.submits))):
            sent = batch.submits[index]
            seq = sent.request.client_seq
            if seq % 2 == 0:
                refusal = Rejection(grpc.StatusCode.FAILED_PRECONDITION, "odd_only", f"{seq}")
                answer = arbitration_pb2.SubmitAnswer(index=index, refusal=refusal.to_refusal())
            else:
                answer = arbitration_pb2.SubmitAnswer(
                    index=index, reply=arbitration_pb2.SubmitReply(seq=seq * 10)
                )
            reply = arbitration_pb2.SubmitAnswers(answers=[answer])
            await nc.publish(message.reply, reply.SerializeToString())

    await nc.subscribe(subjects.submits("arb-a"), cb=arbitration)
    # The server routes to a subscription only once a probe gets through: SUB and its PONG
    # are not always enough (tests/matchmaking/responders.py; seen here in two soaks).
    await until_listening(nc, subjects.submits("arb-a"))
    first, second, third = await asyncio.gather(
        forwarder.submit(submit(1), "p1", 123),
        forwarder.submit(submit(2), "p1", 124),
        forwarder.submit(submit(3), "p1", 125),
        return_exceptions=True,
    )
    assert isinstance(first, arbitration_pb2.SubmitReply) and first.seq == 10
    assert isinstance(second, Rejection)
    assert (second.reason, second.message) == ("odd_only", "2")
    assert isinstance(third, arbitration_pb2.SubmitReply) and third.seq == 30
    # One message carried the three, in the order they were made, with who sent them.
    assert [[s.request.client_seq for s in b.submits] for b in batches] == [[1, 2, 3]]
    assert [s.player_id for s in batches[0].submits] == ["p1"] * 3
    assert [s.received_ns for s in batches[0].submits] == [123, 124, 125]


@pytest.mark.parametrize("match_id", ["m1", "unknown"])
async def test_a_match_nobody_runs_is_unavailable_at_once(
    forwarder: SubmitForwarder, match_id: str
) -> None:
    """Its owner gone (m1), or no owner known and no instance up: NATS says so at once."""
    request = arbitration_pb2.SubmitRequest(match_id=match_id, seat=0, client_seq=1)
    with pytest.raises(Rejection) as refused:
        await forwarder.submit(request, "p1", 1)
    assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    assert refused.value.reason == "arbitration_unavailable"


async def test_a_followed_matchs_answer_comes_with_its_update(
    nc: NATS, gateway: tuple[SubmitForwarder, NatsLink]
) -> None:
    """A play socket's command: the gateway follows the match, says so, and the answer
    arriving in the seats' update settles it; one addressed to another gateway does not."""
    forwarding, link = gateway
    followed = FollowedMatches(link, forwarding.settle)
    seen: list[bytes] = []
    unfollow = followed.follow("m1", 0, seen.append)
    await link.flush()
    batches: list[arbitration_pb2.Submits] = []

    async def arbitration(message: Msg) -> None:
        if is_probe(message):
            await message.respond(b"")
            return
        batch = arbitration_pb2.Submits.FromString(message.data)
        batches.append(batch)
        seats = arbitration_pb2.SeatUpdates(updates=[b"seat 0's", b"seat 1's"])
        elsewhere = arbitration_pb2.SubmitAnswer(
            index=0, reply=arbitration_pb2.SubmitReply(seq=666)
        )
        # Another gateway's batch of the same number: only the inbox differs.
        elsewhere_subject = "Z" + message.reply[1:]
        seats.answers.add(reply_subject=elsewhere_subject, answer=elsewhere)
        taken = arbitration_pb2.SubmitAnswer(index=0, reply=arbitration_pb2.SubmitReply(seq=7))
        seats.answers.add(reply_subject=message.reply, answer=taken)
        await nc.publish(subjects.match_seats("m1"), seats.SerializeToString())

    await nc.subscribe(subjects.submits("arb-a"), cb=arbitration)
    await until_listening(nc, subjects.submits("arb-a"))
    answered: asyncio.Future[arbitration_pb2.SubmitReply] = link.loop.create_future()
    forwarding.forward(submit(1), "p1", 1, settling(answered), subjects.submits("arb-a"), True)
    reply = await asyncio.wait_for(answered, 5)
    assert reply.seq == 7  # its own answer, not the other gateway's
    assert seen == [b"seat 0's"]  # the update, to its seat only
    assert [s.follows for s in batches[0].submits] == [True]
    unfollow()
