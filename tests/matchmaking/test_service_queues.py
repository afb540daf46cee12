"""Queues through the real service: pairing, replacement, cancel, close, no arbitration."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

import grpc
import pytest

from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2 as pb
from services.stack.processes import Child
from tests.matchmaking.conftest import (
    CALL_TIMEOUT_S,
    metrics,
    next_message,
    person,
    rejected,
    until_idle,
)
from tests.matchmaking.responders import ArbitrationStandIn

if TYPE_CHECKING:
    from photofinish.matchmaking.v1.matchmaking_pb2_grpc import MatchmakingAsyncStub

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("clean")]

SPIT, BID = game_pb2.GAME_SPIT, game_pb2.GAME_BID
URL_SAFE = set(string.ascii_letters + string.digits + "-_")


def queue(
    stub: MatchmakingAsyncStub, who: tuple[tuple[str, str], ...], game: int, rated: bool = False
) -> grpc.aio.UnaryStreamCall[pb.QueueRequest, pb.QueueUpdate]:
    request = pb.QueueRequest(game=game_pb2.Game.ValueType(game), rated=rated)
    return stub.Queue(request, metadata=who, timeout=CALL_TIMEOUT_S)


async def test_two_players_queueing_get_the_same_match_in_seats_0_and_1(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob = person("Ann"), person("Bob")
    ann_call = queue(stub, ann.metadata, BID, rated=True)
    assert await ann_call.read() == pb.QueueUpdate(waiting=1)
    bob_call = queue(stub, bob.metadata, BID, rated=True)
    ann_match = (await next_message(ann_call)).match
    bob_match = (await next_message(bob_call)).match

    assert ann_match.match_id == bob_match.match_id
    assert sorted([*ann_match.seats, *bob_match.seats]) == [0, 1]
    assert ann_match.rated and bob_match.rated
    [created] = arbitration.received
    assert created.match_id == ann_match.match_id
    assert set(created.match_id) <= URL_SAFE
    assert created.game == BID and created.rated and created.mode == events_pb2.MODE_ONLINE
    assert 0 <= created.seed < 2**63
    assert created.players[ann_match.seats[0]].player_id == ann.id
    assert created.players[bob_match.seats[0]].player_id == bob.id
    names = [player.name for player in created.players]
    assert list(ann_match.player_names) == list(bob_match.player_names) == names
    assert await ann_call.read() is grpc.aio.EOF
    assert await bob_call.read() is grpc.aio.EOF


async def test_a_second_queue_call_replaces_the_first_and_the_player_never_meets_themselves(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob = person("Ann"), person("Bob")
    first = queue(stub, ann.metadata, SPIT)
    assert await first.read() == pb.QueueUpdate(waiting=1)
    second = queue(stub, ann.metadata, SPIT)
    assert await second.read() == pb.QueueUpdate(waiting=1)
    replaced = await rejected(first.read())
    assert (replaced.code, replaced.reason) == (grpc.StatusCode.ABORTED, "ticket_replaced")
    assert arbitration.received == []

    bob_call = queue(stub, bob.metadata, SPIT)
    assert (await next_message(second)).match.match_id == (
        await next_message(bob_call)
    ).match.match_id
    [created] = arbitration.received
    assert {player.player_id for player in created.players} == {ann.id, bob.id}


async def test_a_ticket_for_the_other_queue_of_the_same_game_replaces_it_too(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann = person("Ann")
    casual = queue(stub, ann.metadata, SPIT, rated=False)
    assert await casual.read() == pb.QueueUpdate(waiting=1)
    rated = queue(stub, ann.metadata, SPIT, rated=True)
    assert await rated.read() == pb.QueueUpdate(waiting=1)
    assert (await rejected(casual.read())).reason == "ticket_replaced"
    rated.cancel()


async def test_cancel_queue_removes_the_ticket_and_ends_its_stream(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob = person("Ann"), person("Bob")
    ann_call = queue(stub, ann.metadata, SPIT)
    assert await ann_call.read() == pb.QueueUpdate(waiting=1)

    cancel = pb.CancelQueueRequest(game=SPIT)
    reply = await stub.CancelQueue(cancel, metadata=ann.metadata, timeout=CALL_TIMEOUT_S)
    assert reply.cancelled
    assert await ann_call.read() is grpc.aio.EOF
    again = await stub.CancelQueue(cancel, metadata=ann.metadata, timeout=CALL_TIMEOUT_S)
    assert not again.cancelled

    bob_call = queue(stub, bob.metadata, SPIT)
    assert await bob_call.read() == pb.QueueUpdate(waiting=1)
    bob_call.cancel()
    assert arbitration.received == []


async def test_closing_the_queue_stream_removes_the_ticket(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn, service: Child
) -> None:
    ann, bob = person("Ann"), person("Bob")
    ann_call = queue(stub, ann.metadata, BID)
    assert await ann_call.read() == pb.QueueUpdate(waiting=1)
    assert (await metrics(service))["pf_matchmaking_queue_length{game=bid,rated=false}"] == 1

    ann_call.cancel()
    await until_idle(service)
    bob_call = queue(stub, bob.metadata, BID)
    assert await bob_call.read() == pb.QueueUpdate(waiting=1)
    bob_call.cancel()
    assert arbitration.received == []


async def test_when_no_arbitration_answers_both_queued_players_are_told_unavailable(
    stub: MatchmakingAsyncStub, service: Child
) -> None:
    ann, bob = person("Ann"), person("Bob")
    ann_call = queue(stub, ann.metadata, SPIT)
    assert await ann_call.read() == pb.QueueUpdate(waiting=1)
    bob_call = queue(stub, bob.metadata, SPIT)

    for call in (ann_call, bob_call):
        error = await rejected(call.read())
        assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_arbitration")
        assert "pf.match.create" in error.message
    failures = (await metrics(service))["pf_matchmaking_open_failures_total{reason=no_arbitration}"]
    assert failures >= 1


async def test_a_guest_queues_casual_and_is_refused_a_rated_queue(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    gus = person("Gus", guest=True)
    rated = stub.Queue(pb.QueueRequest(game=SPIT, rated=True), metadata=gus.metadata)
    error = await rejected(next_message(rated))
    assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "account_needed")
    casual = stub.Queue(pb.QueueRequest(game=SPIT), metadata=gus.metadata)
    assert (await next_message(casual)).HasField("waiting")
    casual.cancel()


async def test_queueing_for_no_game_is_invalid(stub: MatchmakingAsyncStub) -> None:
    error = await rejected(queue(stub, person("Ann").metadata, game_pb2.GAME_UNSPECIFIED).read())
    assert (error.code, error.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_such_game")
