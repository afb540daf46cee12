"""The rules service as a real process, called as the arbitration calls it: over NATS.

One process serves the whole module (started on port 0 with a nats-server of the module's
own, stopped with SIGTERM at the end); LegalCommands is called over its gRPC port.
The service is stateless: a refused command answers with an error and no state, and the
caller's state bytes stay what they were.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import TypeAlias

import grpc
import nats
import pytest
import pytest_asyncio
from aiohttp import ClientSession
from nats.aio.client import Client as NATS

from games import bid, spit
from games.bid import codec as bid_codec
from games.registry import BY_NUMBER as REGISTRY
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2, rules_pb2_grpc
from services.arbitration.rules import Rejection, RulesClient
from services.stack.natsd import start_nats
from services.stack.processes import Child, start_child
from tests.rules.walks import bid_hidden, choices, reach, shown, spit_hidden, spit_race

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAMES: list[game_pb2.Game.ValueType] = [game_pb2.GAME_BID, game_pb2.GAME_SPIT]
Game: TypeAlias = game_pb2.Game.ValueType
NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())
NO_OPTIONS = game_pb2.Options()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def nats_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    server = await start_nats(tmp_path_factory.mktemp("nats"))
    yield server.url
    await server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def child(tmp_path_factory: pytest.TempPathFactory, nats_url: str) -> AsyncIterator[Child]:
    log_dir: Path = tmp_path_factory.mktemp("rules")
    env = {"PF_HOST": "127.0.0.1", "PF_GRPC_PORT": "0", "PF_METRICS_PORT": "0"}
    env["NATS_URL"] = nats_url
    process = await start_child("rules", "services.rules", env=env, log_dir=log_dir)
    yield process
    assert await process.stop() == 0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def nc(child: Child, nats_url: str) -> AsyncIterator[NATS]:
    connection = await nats.connect(nats_url)
    yield connection
    await connection.drain()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def channel(child: Child) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(child.address()) as opened:
        yield opened


@pytest.fixture
def rules(nc: NATS) -> RulesClient:
    return RulesClient(nc)


async def _refusal(call: Awaitable[object]) -> Rejection:
    with pytest.raises(Rejection) as error:
        await call
    return error.value


@pytest.mark.parametrize("game", GAMES)
async def test_a_new_match_waits_at_the_start_gate_for_both(rules: RulesClient, game: Game) -> None:
    reply = await rules.new_match(game, NO_OPTIONS, 42)
    assert reply.decision.gate == game_pb2.GATE_START
    assert list(reply.decision.seats) == [0, 1]
    assert [p.seat for p in reply.perspectives] == [0, 1, -1]
    assert not reply.HasField("outcome")
    assert reply.clocked is (game == game_pb2.GAME_BID)
    assert reply.version == 0


@pytest.mark.parametrize("game", GAMES)
async def test_a_nudge_at_the_start_gate_presses_for_both(rules: RulesClient, game: Game) -> None:
    start = await rules.new_match(game, NO_OPTIONS, 42)
    reply = await rules.apply(game, start.state, 0, NUDGE)
    kind = "bid" if game == game_pb2.GAME_BID else "spit"
    events = [getattr(e, kind) for e in game_pb2.Seen.FromString(reply.perspectives[0].seen).events]
    assert [e.pressed.seat for e in events if e.WhichOneof("kind") == "pressed"] == [0, 1]
    assert reply.decision.gate == game_pb2.GATE_NONE
    assert reply.version == 2


async def test_a_legal_command_applies(rules: RulesClient, channel: grpc.aio.Channel) -> None:
    start = await rules.new_match(game_pb2.GAME_BID, NO_OPTIONS, 7)
    going = await rules.apply(game_pb2.GAME_BID, start.state, 0, NUDGE)
    seat = going.decision.seats[0]
    stub = rules_pb2_grpc.RulesStub(channel)
    legal = await stub.LegalCommands(
        rules_pb2.LegalCommandsRequest(game=game_pb2.GAME_BID, state=going.state, seat=seat)
    )
    assert legal.commands
    reply = await rules.apply(game_pb2.GAME_BID, going.state, seat, legal.commands[0])
    assert reply.version == going.version + 1
    assert reply.state != going.state


async def test_an_illegal_command_is_refused_with_its_reason(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_BID, NO_OPTIONS, 7)
    draw = bid_codec.command_to_proto(bid.Draw())
    refusal = await _refusal(rules.apply(game_pb2.GAME_BID, start.state, 0, draw))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "at_gate")
    # Nothing changed: the same state still takes the same next step.
    again = await rules.apply(game_pb2.GAME_BID, start.state, 0, NUDGE)
    assert again.version == start.version + 2


async def test_a_malformed_command_is_an_invalid_argument(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_SPIT, NO_OPTIONS, 7)
    play = game_pb2.Command.FromString(
        spit_codec.command_to_proto(spit.Play(stock=0, pile=0)).SerializeToString()
    )
    play.spit.play.stock = 9
    refusal = await _refusal(rules.apply(game_pb2.GAME_SPIT, start.state, 0, play))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_such_pile")


async def test_the_second_play_onto_a_pile_loses_the_race(rules: RulesClient) -> None:
    state = reach(spit, spit.new_match(spit.Options(), 5), lambda s: spit_race(s) is not None)
    race = spit_race(state)
    assert race is not None
    first, second = race
    landed = await rules.apply(
        game_pb2.GAME_SPIT, spit.encode_state(state), 0, spit_codec.command_to_proto(first)
    )
    assert landed.claim == f"pile:{first.pile}"
    assert landed.claim_label == str(state.sides[0].stock[first.stock][-1])
    refusal = await _refusal(
        rules.apply(game_pb2.GAME_SPIT, landed.state, 1, spit_codec.command_to_proto(second))
    )
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "pile_top_changed",
    )
    refused_card = str(state.sides[1].stock[second.stock][-1])
    assert refusal.metadata == {
        "claim": f"pile:{second.pile}",
        "claim_slot": str(second.pile),
        "label": refused_card,
        "lost_race": "true",
    }


@pytest.mark.parametrize("game", GAMES)
async def test_a_forfeit_ends_the_match_with_the_other_seat_winning(
    rules: RulesClient, game: Game
) -> None:
    start = await rules.new_match(game, NO_OPTIONS, 3)
    over = await rules.forfeit(game, start.state, 0, game_pb2.TERMINATION_TIME)
    assert over.outcome == game_pb2.Outcome(winner=1, termination=game_pb2.TERMINATION_TIME)
    assert list(over.decision.seats) == []
    again = await _refusal(rules.forfeit(game, over.state, 1, game_pb2.TERMINATION_TIME))
    assert again.reason == "match_over"


async def test_a_forfeit_must_name_a_seat_and_a_termination(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_BID, NO_OPTIONS, 3)
    unnamed = rules.forfeit(game_pb2.GAME_BID, start.state, 0, game_pb2.TERMINATION_UNSPECIFIED)
    refusal = await _refusal(unnamed)
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_argument")
    nobody = rules.forfeit(game_pb2.GAME_BID, start.state, -1, game_pb2.TERMINATION_RESIGN)
    assert (await _refusal(nobody)).reason == "no_such_seat"


async def test_a_resign_command_ends_the_match(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_SPIT, NO_OPTIONS, 3)
    resign = spit_codec.command_to_proto(spit.Resign())
    over = await rules.apply(game_pb2.GAME_SPIT, start.state, 1, resign)
    assert over.outcome == game_pb2.Outcome(winner=0, termination=game_pb2.TERMINATION_RESIGN)


@pytest.mark.parametrize("game", GAMES)
async def test_garbage_state_bytes_are_an_invalid_argument(rules: RulesClient, game: Game) -> None:
    refusal = await _refusal(rules.apply(game, b"\xffnot a state", 0, NUDGE))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_state")


async def test_an_unknown_game_is_an_invalid_argument(rules: RulesClient) -> None:
    refusal = await _refusal(rules.new_match(game_pb2.GAME_UNSPECIFIED, NO_OPTIONS, 1))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_game")
    start = await rules.new_match(game_pb2.GAME_BID, NO_OPTIONS, 1)
    refusal = await _refusal(rules.apply(77, start.state, 0, NUDGE))  # type: ignore[arg-type]
    assert refusal.reason == "unknown_game"


async def test_a_reveal_and_a_needless_nudge_are_refused(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_SPIT, NO_OPTIONS, 1)
    reveal = game_pb2.Command(reveal=game_pb2.Reveal())
    refusal = await _refusal(rules.apply(game_pb2.GAME_SPIT, start.state, 0, reveal))
    assert refusal.code is grpc.StatusCode.INVALID_ARGUMENT
    playing = await rules.apply(game_pb2.GAME_SPIT, start.state, 0, NUDGE)
    refusal = await _refusal(rules.apply(game_pb2.GAME_SPIT, playing.state, 0, NUDGE))
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "nothing_to_nudge",
    )


async def test_a_spectator_view_shows_no_hand(rules: RulesClient) -> None:
    start = await rules.new_match(game_pb2.GAME_BID, NO_OPTIONS, 1)
    spectator = await rules.view(game_pb2.GAME_BID, start.state, -1)
    assert spectator.view.bid.seat == -1
    assert not spectator.view.bid.hand
    assert spectator.decision.gate == game_pb2.GATE_START
    seat = await rules.view(game_pb2.GAME_BID, start.state, 1)
    assert len(seat.view.bid.hand) == 7
    refusal = await _refusal(rules.view(game_pb2.GAME_BID, start.state, 2))
    assert refusal.reason == "no_such_seat"


@pytest.mark.parametrize("game", GAMES)
async def test_perspectives_never_show_a_recipient_what_it_may_not_see(
    rules: RulesClient, game: Game
) -> None:
    entry = REGISTRY[game]
    hidden_from = bid_hidden if game == game_pb2.GAME_BID else spit_hidden
    reply = await rules.new_match(game, NO_OPTIONS, 9)
    rng = random.Random(9)
    for _ in range(60):
        state = entry.engine.decode_state(reply.state)
        for perspective in reply.perspectives:
            seat = None if perspective.seat == -1 else Seat(perspective.seat)
            view = game_pb2.Seen.FromString(perspective.seen).view.SerializeToString()
            assert shown(view, hidden_from(state, seat)) == set()
        chosen = choices(entry.engine, state, rng)
        if chosen is None:
            break
        seat, command = chosen
        wire = entry.codec.command_to_proto(command)
        reply = await rules.apply(game, reply.state, seat, wire)


async def test_metrics_count_applied_commands_by_result(rules: RulesClient, child: Child) -> None:
    start = await rules.new_match(game_pb2.GAME_SPIT, NO_OPTIONS, 1)
    await rules.apply(game_pb2.GAME_SPIT, start.state, 0, NUDGE)
    spit_now = spit_codec.command_to_proto(spit.Spit())
    await _refusal(rules.apply(game_pb2.GAME_SPIT, start.state, 0, spit_now))
    url = f"http://{child.address('metrics')}/metrics"
    async with ClientSession() as session, session.get(url) as response:
        text = await response.text()
    assert 'pf_rules_commands_total{game="spit",result="accepted"}' in text
    assert 'pf_rules_commands_total{game="spit",result="refused"}' in text
    assert "pf_rules_apply_seconds_bucket" in text
