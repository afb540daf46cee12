"""Matches against the computer and hot-seat, identity and timeouts through the real service."""

from __future__ import annotations

from typing import TYPE_CHECKING

import grpc
import pytest

from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2 as pb
from services.stack.processes import Child
from tests.matchmaking.conftest import CALL_TIMEOUT_S, metrics, person, rejected
from tests.matchmaking.responders import ArbitrationStandIn, BotPool
from tests.waiting import poll_until

if TYPE_CHECKING:
    from photofinish.matchmaking.v1.matchmaking_pb2_grpc import MatchmakingAsyncStub

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("clean")]

SPIT, BID = game_pb2.GAME_SPIT, game_pb2.GAME_BID
Metadata = tuple[tuple[str, str], ...]


async def play_computer(
    stub: MatchmakingAsyncStub, who: Metadata, game: int, level: int
) -> pb.MatchAssignment:
    request = pb.PlayComputerRequest(
        game=game_pb2.Game.ValueType(game), level=game_pb2.Level.ValueType(level)
    )
    return await stub.PlayComputer(request, metadata=who, timeout=CALL_TIMEOUT_S)


async def play_hotseat(stub: MatchmakingAsyncStub, who: Metadata, game: int) -> pb.MatchAssignment:
    request = pb.PlayHotSeatRequest(game=game_pb2.Game.ValueType(game))
    return await stub.PlayHotSeat(request, metadata=who, timeout=CALL_TIMEOUT_S)


@pytest.mark.parametrize(("game", "pausable"), [(SPIT, True), (BID, False)])
async def test_playing_the_computer_seats_a_bot_in_an_unrated_match(
    stub: MatchmakingAsyncStub,
    arbitration: ArbitrationStandIn,
    bot_pool: BotPool,
    game: int,
    pausable: bool,
) -> None:
    ann = person("Ann")
    match = await play_computer(stub, ann.metadata, game, game_pb2.LEVEL_EASY)

    assert len(match.seats) == 1 and not match.rated
    [asked] = bot_pool.received
    assert (asked.game, asked.level) == (game, game_pb2.LEVEL_EASY)
    [created] = arbitration.received
    assert created.match_id == match.match_id and created.mode == events_pb2.MODE_COMPUTER
    assert not created.rated and created.options.pausable is pausable
    assert created.bot_level == game_pb2.LEVEL_EASY
    human, bot = created.players[match.seats[0]], created.players[1 - match.seats[0]]
    assert (human.player_id, human.name, human.bot) == (ann.id, "Ann", False)
    assert bot.bot and bot.player_id == "bot-1"
    assert list(match.player_names) == [player.name for player in created.players]


async def test_the_pool_that_named_the_bot_is_told_of_its_match(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn, bot_pool: BotPool
) -> None:
    match = await play_computer(stub, person("Ann").metadata, BID, game_pb2.LEVEL_MEDIUM)
    [opened] = await poll_until("the pool is told the match opened", lambda: bot_pool.opened)
    assert opened == arbitration.received[0] and opened.match_id == match.match_id
    assert bot_pool.dropped == []


async def test_a_bot_whose_match_did_not_open_is_dropped_by_its_pool(
    stub: MatchmakingAsyncStub, silent_arbitration: ArbitrationStandIn, bot_pool: BotPool
) -> None:
    error = await rejected(play_computer(stub, person("Ann").metadata, SPIT, game_pb2.LEVEL_EASY))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_arbitration")
    dropped = await poll_until("the pool is told to drop its bot", lambda: bot_pool.dropped)
    assert dropped == ["bot-1"] and bot_pool.opened == []


async def test_playing_the_computer_without_a_bot_pool_is_unavailable(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn
) -> None:
    error = await rejected(play_computer(stub, person("Ann").metadata, SPIT, game_pb2.LEVEL_HARD))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_bot_pool")
    assert "no pool is connected" in error.message
    assert arbitration.received == []


async def test_playing_the_computer_at_no_level_is_invalid(
    stub: MatchmakingAsyncStub, bot_pool: BotPool
) -> None:
    unspecified = game_pb2.LEVEL_UNSPECIFIED
    error = await rejected(play_computer(stub, person("Ann").metadata, SPIT, unspecified))
    assert (error.code, error.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_such_level")
    assert bot_pool.received == []


async def test_hot_seat_gives_the_caller_both_seats_of_an_unrated_match(
    stub: MatchmakingAsyncStub, arbitration: ArbitrationStandIn, service: Child
) -> None:
    counter = "pf_matchmaking_matches_created_total{mode=hotseat}"
    before = (await metrics(service)).get(counter, 0.0)
    ann = person("Ann")
    match = await play_hotseat(stub, ann.metadata, BID)

    assert list(match.seats) == [0, 1] and not match.rated
    assert list(match.player_names) == ["Ann (1)", "Ann (2)"]
    [created] = arbitration.received
    assert created.match_id == match.match_id and created.mode == events_pb2.MODE_HOTSEAT
    assert not created.rated and created.game == BID
    assert [player.player_id for player in created.players] == [ann.id, ann.id]
    assert (await metrics(service))[counter] == before + 1


async def test_hot_seat_without_arbitration_is_unavailable(stub: MatchmakingAsyncStub) -> None:
    error = await rejected(play_hotseat(stub, person("Ann").metadata, SPIT))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_arbitration")


async def test_an_arbitration_that_never_answers_is_unavailable_after_the_timeout(
    stub: MatchmakingAsyncStub, silent_arbitration: ArbitrationStandIn
) -> None:
    error = await rejected(play_hotseat(stub, person("Ann").metadata, SPIT))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "no_arbitration")
    assert "within 3 s" in error.message
    assert len(silent_arbitration.received) == 1


def every_call(stub: MatchmakingAsyncStub, who: Metadata) -> list[object]:
    """Return one call of every RPC, the streams' first reads included."""
    t = CALL_TIMEOUT_S
    return [
        stub.Queue(pb.QueueRequest(game=SPIT), metadata=who, timeout=t).read(),
        stub.CancelQueue(pb.CancelQueueRequest(game=SPIT), metadata=who, timeout=t),
        stub.CreateChallenge(pb.CreateChallengeRequest(game=SPIT), metadata=who, timeout=t).read(),
        stub.AcceptChallenge(pb.AcceptChallengeRequest(code="ABCDEF"), metadata=who, timeout=t),
        stub.PlayComputer(pb.PlayComputerRequest(game=SPIT), metadata=who, timeout=t),
        stub.PlayHotSeat(pb.PlayHotSeatRequest(game=SPIT), metadata=who, timeout=t),
    ]


@pytest.mark.parametrize(
    "who",
    [
        (),
        (("x-pf-player-name", "Ann"),),
        (("x-pf-player-id", "ann-1"),),
        (("x-pf-player-id", " "), ("x-pf-player-name", "Ann")),
    ],
    ids=["nothing", "no id", "no name", "blank id"],
)
async def test_every_call_without_a_player_identity_is_unauthenticated(
    stub: MatchmakingAsyncStub, who: Metadata
) -> None:
    for call in every_call(stub, who):
        error = await rejected(call)
        assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "missing_identity")
