"""The rules service as a real process, called as the arbitration calls it: over NATS.

One process serves the whole module (started on port 0 with a nats-server of the module's
own, stopped with SIGTERM at the end). It holds the state of each match it serves: a call
carries the command and the version the caller last heard of, a refused command leaves
the held state as it was, and a match it does not hold is rebuilt from its steps
(Restore). LegalCommands, stateless, is called over its gRPC port.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any, TypeAlias

import grpc
import pytest
import pytest_asyncio
from aiohttp import ClientSession

from games import bid, spit
from games.bid import codec as bid_codec
from games.registry import BY_NUMBER as REGISTRY
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2, rules_pb2_grpc
from services.arbitration.rules_client import NotHeld, Rejection, RulesClient, over_nats
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import Requests
from services.stack.natsd import start_nats
from services.stack.processes import Child, start_child
from tests.rules.walks import bid_hidden, choices, route, shown, spit_hidden, spit_race

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAMES: list[game_pb2.Game.ValueType] = [game_pb2.GAME_BID, game_pb2.GAME_SPIT]
Game: TypeAlias = game_pb2.Game.ValueType
NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())
_IDS = itertools.count()


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
async def link(child: Child, nats_url: str) -> AsyncIterator[NatsLink]:
    connection = await NatsLink.connect(nats_url, "test")
    yield connection
    await connection.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def channel(child: Child) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(child.address()) as opened:
        yield opened


@pytest.fixture
def rules(link: NatsLink) -> RulesClient:
    return RulesClient(over_nats(Requests(link)))


class Held:
    """One match the rules process holds, called as the arbitration calls it."""

    def __init__(self, rules: RulesClient, game: Game, seed: int) -> None:
        self.rules = rules
        self.created = events_pb2.MatchCreated(
            match_id=f"m{next(_IDS)}", game=game, seed=seed, options=game_pb2.Options()
        )
        self.version = 0

    @property
    def match_id(self) -> str:
        return self.created.match_id

    async def open(self) -> rules_pb2.StepReply:
        return self._took(await self.rules.open(self.match_id, self.created))

    async def apply(
        self, seat: int, command: game_pb2.Command, **options: bool
    ) -> rules_pb2.StepReply:
        return self._took(
            await self.rules.apply(self.match_id, self.version, seat, command, **options)
        )

    async def forfeit(
        self, loser: int, termination: game_pb2.Termination.ValueType
    ) -> rules_pb2.StepReply:
        return self._took(await self.rules.forfeit(self.match_id, self.version, loser, termination))

    async def view(self, seat: int) -> rules_pb2.ViewReply:
        return await self.rules.view(self.match_id, self.version, seat)

    async def restore(self, steps: list[rules_pb2.RestoreStep]) -> rules_pb2.StepReply:
        return self._took(await self.rules.restore(self.match_id, self.created, steps))

    def _took(self, reply: rules_pb2.StepReply) -> rules_pb2.StepReply:
        self.version = reply.version
        return reply


async def opened(rules: RulesClient, game: Game, seed: int) -> Held:
    held = Held(rules, game, seed)
    await held.open()
    return held


def sha(engine: Any, state: Any) -> bytes:
    return hashlib.sha256(engine.encode_state(state)).digest()


async def _refusal(call: Awaitable[object]) -> Rejection:
    with pytest.raises(Rejection) as error:
        await call
    return error.value


@pytest.mark.parametrize("game", GAMES)
async def test_a_new_match_waits_at_the_start_gate_for_both(rules: RulesClient, game: Game) -> None:
    reply = await Held(rules, game, 42).open()
    assert reply.decision.gate == game_pb2.GATE_START
    assert list(reply.decision.seats) == [0, 1]
    assert [p.seat for p in reply.perspectives] == [0, 1]  # spectators' only when asked
    assert not reply.HasField("outcome")
    assert reply.clocked is (game == game_pb2.GAME_BID)
    assert reply.version == 0 and reply.state == b""
    engine = REGISTRY[game].engine
    assert reply.state_sha256 == sha(engine, engine.new_match(REGISTRY[game].options, 42))


@pytest.mark.parametrize("game", GAMES)
async def test_a_nudge_at_the_start_gate_presses_for_both(rules: RulesClient, game: Game) -> None:
    held = await opened(rules, game, 42)
    reply = await held.apply(0, NUDGE)
    kind = "bid" if game == game_pb2.GAME_BID else "spit"
    events = [getattr(e, kind) for e in game_pb2.Seen.FromString(reply.perspectives[0].seen).events]
    assert [e.pressed.seat for e in events if e.WhichOneof("kind") == "pressed"] == [0, 1]
    assert reply.decision.gate == game_pb2.GATE_NONE
    assert reply.version == 2


async def test_a_legal_command_applies(rules: RulesClient, channel: grpc.aio.Channel) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 7)
    going = await held.apply(0, NUDGE)
    seat = going.decision.seats[0]
    state = bid.new_match(bid.Options(), 7)
    for pressing in (0, 1):
        state = bid.apply(state, Seat(pressing), bid.Ready()).state
    stub = rules_pb2_grpc.RulesStub(channel)  # the stateless gRPC method, state in hand
    legal = await stub.LegalCommands(
        rules_pb2.LegalCommandsRequest(
            game=game_pb2.GAME_BID, state=bid.encode_state(state), seat=seat
        )
    )
    assert legal.commands
    reply = await held.apply(seat, legal.commands[0])
    assert reply.version == going.version + 1
    assert reply.state_sha256 != going.state_sha256


async def test_an_illegal_command_is_refused_and_the_held_state_stays(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 7)
    draw = bid_codec.command_to_proto(bid.Draw())
    refusal = await _refusal(held.apply(0, draw))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "at_gate")
    # Nothing changed: the held state, still at its version, takes the next step.
    again = await held.apply(0, NUDGE)
    assert again.version == 2


async def test_a_call_about_another_version_or_an_unknown_match_is_not_held(
    rules: RulesClient,
) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 7)
    with pytest.raises(NotHeld):
        await rules.apply(held.match_id, 5, 0, NUDGE)  # a version it never reached
    assert (await held.apply(0, NUDGE)).version == 2  # and the held state is untouched
    with pytest.raises(NotHeld):
        await rules.apply("never-opened", 0, 0, NUDGE)


async def test_a_malformed_command_is_an_invalid_argument(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_SPIT, 7)
    play = game_pb2.Command.FromString(
        spit_codec.command_to_proto(spit.Play(stock=0, pile=0)).SerializeToString()
    )
    play.spit.play.stock = 9
    refusal = await _refusal(held.apply(0, play))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_such_pile")


def _steps(moves: list[Any], codec: Any) -> list[rules_pb2.RestoreStep]:
    return [
        rules_pb2.RestoreStep(seat=move.seat, command=codec.command_to_proto(move.command))
        for move in moves
    ]


async def test_the_second_play_onto_a_pile_loses_the_race(rules: RulesClient) -> None:
    start = spit.new_match(spit.Options(), 5)
    moves = route(spit, start, lambda s: spit_race(s) is not None)
    state = moves[-1].step.state
    race = spit_race(state)
    assert race is not None
    first, second = race
    held = Held(rules, game_pb2.GAME_SPIT, 5)
    restored = await held.restore(_steps(moves, spit_codec))  # the match, rebuilt there
    assert restored.state_sha256 == sha(spit, state)
    landed = await held.apply(0, spit_codec.command_to_proto(first))
    assert landed.claim == f"pile:{first.pile}"
    assert landed.claim_label == str(state.sides[0].stock[first.stock][-1])
    refusal = await _refusal(held.apply(1, spit_codec.command_to_proto(second)))
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


async def test_a_restore_rebuilds_flags_and_nudges_too(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 11)
    await held.apply(0, NUDGE)
    over = await held.forfeit(1, game_pb2.TERMINATION_TIME)
    steps = [
        rules_pb2.RestoreStep(seat=-1, command=NUDGE),
        rules_pb2.RestoreStep(seat=1, forfeit=game_pb2.TERMINATION_TIME),
    ]
    again = await Held(rules, game_pb2.GAME_BID, 11).restore(steps)
    assert (again.version, again.state_sha256) == (over.version, over.state_sha256)
    assert again.outcome == over.outcome


@pytest.mark.parametrize("game", GAMES)
async def test_a_forfeit_ends_the_match_with_the_other_seat_winning(
    rules: RulesClient, game: Game
) -> None:
    held = await opened(rules, game, 3)
    over = await held.forfeit(0, game_pb2.TERMINATION_TIME)
    assert over.outcome == game_pb2.Outcome(winner=1, termination=game_pb2.TERMINATION_TIME)
    assert list(over.decision.seats) == []
    again = await _refusal(held.forfeit(1, game_pb2.TERMINATION_TIME))
    assert again.reason == "match_over"


async def test_a_forfeit_must_name_a_seat_and_a_termination(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 3)
    refusal = await _refusal(held.forfeit(0, game_pb2.TERMINATION_UNSPECIFIED))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_argument")
    nobody = held.forfeit(-1, game_pb2.TERMINATION_RESIGN)
    assert (await _refusal(nobody)).reason == "no_such_seat"


async def test_a_resign_command_ends_the_match(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_SPIT, 3)
    resign = spit_codec.command_to_proto(spit.Resign())
    over = await held.apply(1, resign)
    assert over.outcome == game_pb2.Outcome(winner=0, termination=game_pb2.TERMINATION_RESIGN)
    assert over.resignation


async def test_only_a_resignation_is_taken_when_only_one_may_be(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 3)
    refusal = await _refusal(held.apply(0, NUDGE, resignation_only=True))
    assert refusal.reason == "not_a_resignation"
    assert (await held.apply(0, NUDGE)).version == 2  # the refused step was not taken
    resign = bid_codec.command_to_proto(bid.Resign())
    over = await held.apply(1, resign, resignation_only=True)
    assert over.outcome.termination == game_pb2.TERMINATION_RESIGN


async def test_an_unknown_game_is_an_invalid_argument(rules: RulesClient) -> None:
    refusal = await _refusal(Held(rules, game_pb2.GAME_UNSPECIFIED, 1).open())
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_game")


async def test_a_reveal_and_a_needless_nudge_are_refused(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_SPIT, 1)
    reveal = game_pb2.Command(reveal=game_pb2.Reveal())
    refusal = await _refusal(held.apply(0, reveal))
    assert refusal.code is grpc.StatusCode.INVALID_ARGUMENT
    await held.apply(0, NUDGE)
    refusal = await _refusal(held.apply(0, NUDGE))
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "nothing_to_nudge",
    )


async def test_a_spectator_view_shows_no_hand(rules: RulesClient) -> None:
    held = await opened(rules, game_pb2.GAME_BID, 1)
    spectator = await held.view(-1)
    assert spectator.view.bid.seat == -1
    assert not spectator.view.bid.hand
    assert spectator.decision.gate == game_pb2.GATE_START
    seat = await held.view(1)
    assert len(seat.view.bid.hand) == 7
    refusal = await _refusal(held.view(2))
    assert refusal.reason == "no_such_seat"


@pytest.mark.parametrize("game", GAMES)
async def test_perspectives_never_show_a_recipient_what_it_may_not_see(
    rules: RulesClient, game: Game
) -> None:
    entry = REGISTRY[game]
    hidden_from = bid_hidden if game == game_pb2.GAME_BID else spit_hidden
    held = Held(rules, game, 9)
    reply = await held.open()
    state = entry.engine.new_match(entry.options, 9)  # the same match, stepped here too
    rng = random.Random(9)
    for _ in range(60):
        for perspective in reply.perspectives:
            seat = None if perspective.seat == -1 else Seat(perspective.seat)
            view = game_pb2.Seen.FromString(perspective.seen).view.SerializeToString()
            assert shown(view, hidden_from(state, seat)) == set()
        chosen = choices(entry.engine, state, rng)
        if chosen is None:
            break
        seat, command = chosen
        state = entry.engine.apply(state, seat, command).state
        reply = await held.apply(seat, entry.codec.command_to_proto(command), spectators=True)
        assert [p.seat for p in reply.perspectives] == [0, 1, -1]
        assert reply.state_sha256 == sha(entry.engine, state)


async def test_metrics_count_applied_commands_by_result(rules: RulesClient, child: Child) -> None:
    held = await opened(rules, game_pb2.GAME_SPIT, 1)
    spit_now = spit_codec.command_to_proto(spit.Spit())
    await _refusal(held.apply(0, spit_now))
    await held.apply(0, NUDGE)
    url = f"http://{child.address('metrics')}/metrics"
    async with ClientSession() as session, session.get(url) as response:
        text = await response.text()
    assert 'pf_rules_commands_total{game="spit",result="accepted"}' in text
    assert 'pf_rules_commands_total{game="spit",result="refused"}' in text
    assert "pf_rules_apply_seconds_bucket" in text
