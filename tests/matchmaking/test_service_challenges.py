"""Challenges through the real service: create and accept, own, unknown, used, withdrawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

import grpc
import pytest

from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2 as pb
from services.matchmaking.codes import ALPHABET, LENGTH
from services.stack.processes import Child
from tests.matchmaking.conftest import (
    CALL_TIMEOUT_S,
    next_message,
    person,
    rejected,
    until_idle,
)
from tests.matchmaking.responders import ArbitrationStandIn

if TYPE_CHECKING:
    from photofinish.matchmaking.v1.matchmaking_pb2_grpc import MatchmakingAsyncStub

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("clean")]

SPIT = game_pb2.GAME_SPIT
Metadata = tuple[tuple[str, str], ...]


def create(
    stub: MatchmakingAsyncStub, who: Metadata, rated: bool = False
) -> grpc.aio.UnaryStreamCall[pb.CreateChallengeRequest, pb.ChallengeUpdate]:
    request = pb.CreateChallengeRequest(game=SPIT, rated=rated)
    return stub.CreateChallenge(request, metadata=who, timeout=CALL_TIMEOUT_S)


async def accept(stub: MatchmakingAsyncStub, who: Metadata, code: str) -> pb.MatchAssignment:
    request = pb.AcceptChallengeRequest(code=code)
    return await stub.AcceptChallenge(request, metadata=who, timeout=CALL_TIMEOUT_S)


async def after_the_probe(
    call: grpc.aio.UnaryStreamCall[pb.CreateChallengeRequest, pb.ChallengeUpdate], code: str
) -> pb.ChallengeUpdate:
    """Return the creator's next update after the code again: an accept asks the
    creator's stream whether it is still there by sending it the code once more."""
    assert (await next_message(call)).code == code
    return await next_message(call)


async def test_an_accepted_challenge_seats_both_players_at_one_match(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob = person("Ann"), person("Bob")
    challenge = create(stub, ann.metadata, rated=True)
    code = (await next_message(challenge)).code
    assert len(code) == LENGTH and set(code) <= set(ALPHABET)

    bob_match = await accept(stub, bob.metadata, code.lower())
    ann_match = (await after_the_probe(challenge, code)).match
    assert ann_match.match_id == bob_match.match_id
    assert sorted([*ann_match.seats, *bob_match.seats]) == [0, 1]
    assert ann_match.rated and bob_match.rated
    [created] = arbitration.received
    assert created.match_id == ann_match.match_id and created.mode == events_pb2.MODE_ONLINE
    assert created.players[ann_match.seats[0]].player_id == ann.id
    assert created.players[bob_match.seats[0]].player_id == bob.id
    assert await challenge.read() is grpc.aio.EOF


async def test_a_challenge_is_good_for_one_match_only(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob, cat = person("Ann"), person("Bob"), person("Cat")
    challenge = create(stub, ann.metadata)
    code = (await next_message(challenge)).code
    await accept(stub, bob.metadata, code)
    error = await rejected(accept(stub, cat.metadata, code))
    assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "no_such_challenge")
    assert len(arbitration.received) == 1


async def test_accepting_your_own_challenge_is_refused_and_leaves_it_open(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, bob = person("Ann"), person("Bob")
    challenge = create(stub, ann.metadata)
    code = (await next_message(challenge)).code
    error = await rejected(accept(stub, ann.metadata, code))
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "own_challenge")
    assert arbitration.received == []
    await accept(stub, bob.metadata, code)
    assert (await after_the_probe(challenge, code)).HasField("match")


async def test_rated_challenges_are_for_accounts_and_casual_ones_for_guests_too(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    ann, gus = person("Ann"), person("Gus", guest=True)
    refused = await rejected(next_message(create(stub, gus.metadata, rated=True)))
    assert (refused.code, refused.reason) == (grpc.StatusCode.PERMISSION_DENIED, "account_needed")
    rated = create(stub, ann.metadata, rated=True)
    code = (await next_message(rated)).code
    error = await rejected(accept(stub, gus.metadata, code))
    assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "account_needed")
    assert arbitration.received == []  # and the challenge stays open for an account
    await accept(stub, person("Bob").metadata, code)
    assert (await after_the_probe(rated, code)).match.rated
    casual = create(stub, ann.metadata)
    assert not (await accept(stub, gus.metadata, (await next_message(casual)).code)).rated


async def test_an_unknown_code_is_not_found(stub: MatchmakingAsyncStub) -> None:
    for code in ("ZZZZZZ", "not a code", ""):
        error = await rejected(accept(stub, person("Bob").metadata, code))
        assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "no_such_challenge")


async def test_closing_the_challenge_stream_withdraws_the_code(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn, service: Child
) -> None:
    ann, bob = person("Ann"), person("Bob")
    challenge = create(stub, ann.metadata)
    code = (await next_message(challenge)).code
    challenge.cancel()
    await until_idle(service)
    error = await rejected(accept(stub, bob.metadata, code))
    assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "no_such_challenge")
    assert arbitration.received == []


async def test_when_no_arbitration_answers_both_sides_of_a_challenge_are_told(
    stub: MatchmakingAsyncStub,
) -> None:
    ann, bob = person("Ann"), person("Bob")
    challenge = create(stub, ann.metadata)
    code = (await next_message(challenge)).code
    for error in (
        await rejected(accept(stub, bob.metadata, code)),
        await rejected(after_the_probe(challenge, code)),
    ):
        assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_arbitration")
