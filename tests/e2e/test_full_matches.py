"""Whole matches through the public API: two player processes, and people vs the computer.

Every message a player received is checked: its own view only, chips conserved, races
decided by arrival, and the result on the ladder exactly once.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from google.protobuf.message import Message

from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack
from tests.e2e.support import player
from tests.pace import FAST_PLAY_ENV

pytestmark = pytest.mark.asyncio(loop_scope="module")

MATCH_TIMEOUT_S = 240.0
FINISHED = arbitration_pb2.STATUS_FINISHED


# Computer players think at 1% of their pace, so whole matches fit in a test.
STACK_WITH_BOTS = True
STACK_ENV = (("PF_BOTS_THINK_SCALE", "0.01"), *FAST_PLAY_ENV)


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def updates(log: list[dict[str, Any]]) -> list[arbitration_pb2.MatchUpdate]:
    return [
        arbitration_pb2.MatchUpdate.FromString(base64.b64decode(entry["data"]))
        for entry in log
        if entry["kind"] == "update"
    ]


def walk(message: Message) -> Iterator[Message]:
    """Yield ``message`` and every message nested in it."""
    yield message
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        for item in value if field.is_repeated else [value]:
            yield from walk(item)


def view_tiles(update: arbitration_pb2.MatchUpdate) -> set[tuple[int, int]]:
    return {(m.low, m.high) for m in walk(update.view) if isinstance(m, bid_pb2.Tile)}


async def contest(stack: Stack, game: str, tmp: Path) -> tuple[list[dict[str, Any]], ...]:
    """Run two player processes that queue for a rated ``game`` and play it out."""
    logs = (tmp / f"{game}-a.jsonl", tmp / f"{game}-b.jsonl")
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.contender",
            stack.gateway_url,
            name,
            game,
            str(log),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        for name, log in zip((f"{game}-ann", f"{game}-bob"), logs, strict=True)
    ]
    outputs = await asyncio.wait_for(
        asyncio.gather(*(p.communicate() for p in processes)), MATCH_TIMEOUT_S
    )
    for process, (out, _) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, out.decode()
        assert b"DONE STATUS_FINISHED" in out
    return read_log(logs[0]), read_log(logs[1])


async def ladder_games(
    stack: Stack, http: aiohttp.ClientSession, game: game_pb2.Game.ValueType
) -> dict[str, int]:
    viewer = await player(http, stack, "viewer")
    for _ in range(100):
        ladder = await viewer.ladder(game)
        if len(ladder.entries) >= 2:
            return {entry.player_id: entry.games for entry in ladder.entries}
        await asyncio.sleep(0.1)
    raise AssertionError("the ladder never showed the result")


def check_same_end(logs: tuple[list[dict[str, Any]], ...]) -> list[arbitration_pb2.MatchUpdate]:
    finals = [updates(log)[-1] for log in logs]
    assert {f.status for f in finals} == {FINISHED}
    assert finals[0].outcome == finals[1].outcome
    assert finals[0].seq == finals[1].seq
    return finals


async def test_two_player_processes_play_a_whole_spit_match_with_races(
    arena: tuple[Stack, aiohttp.ClientSession], tmp_path: Path
) -> None:
    stack, http = arena
    logs = await contest(stack, "spit", tmp_path)
    check_same_end(logs)
    races = [
        entry
        for log in logs
        for entry in log
        if entry["kind"] == "refused" and "gap_us" in entry["metadata"]
    ]
    assert races, "no same-pile race happened"
    for race in races:
        # The refused card arrived later than the card that landed, by the server's stamps.
        assert int(race["metadata"]["gap_us"]) >= 0
        assert race["reason"] in {"pile_top_changed", "not_adjacent"}
    notices = [u.race for log in logs for u in updates(log) if u.HasField("race")]
    assert notices, "no player was shown a race"
    players = {log[0]["player_id"] for log in logs}
    assert await ladder_games(stack, http, game_pb2.GAME_SPIT) == dict.fromkeys(players, 1)


async def test_two_player_processes_play_a_whole_bid_match_with_an_auction(
    arena: tuple[Stack, aiohttp.ClientSession], tmp_path: Path
) -> None:
    stack, http = arena
    logs = await contest(stack, "bid", tmp_path)
    check_same_end(logs)
    seen = [updates(log) for log in logs]
    seats = [log[0]["seat"] for log in logs]
    hands = [{u.seq: {(t.low, t.high) for t in u.view.bid.hand} for u in us} for us in seen]
    for me in (0, 1):
        other = 1 - me
        for update in seen[me]:
            assert sum(update.view.bid.balances) == 300
            assert all(b >= 0 for b in update.view.bid.balances)
            hidden = hands[other].get(update.seq, set())
            assert not view_tiles(update) & hidden, f"seat {seats[me]} saw the other hand"
            for event in update.events:
                drew = event.bid.drew if event.bid.HasField("drew") else None
                if drew is not None and drew.seat != seats[me]:
                    assert not drew.tiles, "a drawn tile reached the other player"
    auction = [
        e for us in seen for u in us for e in u.events if e.bid.WhichOneof("kind") == "bid_made"
    ]
    assert auction, "no bid was made in the whole match"
    players = {log[0]["player_id"] for log in logs}
    assert await ladder_games(stack, http, game_pb2.GAME_BID) == dict.fromkeys(players, 1)


async def play_the_computer(
    stack: Stack,
    http: aiohttp.ClientSession,
    game: game_pb2.Game.ValueType,
    level: game_pb2.Level.ValueType,
    human_level: Level = Level.HARD,
) -> arbitration_pb2.MatchUpdate:
    human = await player(http, stack, "Human")
    assignment = await human.play_computer(game, level)
    seat = SeatPlayer(
        human,
        assignment.match_id,
        assignment.seats[0],
        GAMES[game],
        human_level,
        random.Random(assignment.match_id),
        Pace(think_scale=0.01),
        Reconnect(),
    )
    return await asyncio.wait_for(seat.play(), MATCH_TIMEOUT_S)


@pytest.mark.parametrize("level", [game_pb2.LEVEL_EASY, game_pb2.LEVEL_MEDIUM, game_pb2.LEVEL_HARD])
async def test_a_person_finishes_a_spit_match_against_the_computer(
    arena: tuple[Stack, aiohttp.ClientSession], level: game_pb2.Level.ValueType
) -> None:
    stack, http = arena
    final = await play_the_computer(stack, http, game_pb2.GAME_SPIT, level)
    assert final.status == FINISHED
    assert final.mode == 2  # MODE_COMPUTER: never rated
    assert not final.rated


async def test_a_person_finishes_a_bid_match_against_the_computer(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    # A medium player against the hard computer: a match of a few dozen rounds at most.
    final = await play_the_computer(
        stack, http, game_pb2.GAME_BID, game_pb2.LEVEL_HARD, human_level=Level.MEDIUM
    )
    assert final.status == FINISHED
    assert final.outcome.termination == game_pb2.TERMINATION_CHIPS
