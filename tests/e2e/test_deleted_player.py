"""Guests marked and deleted accounts forgotten, through the whole stack.

A player deletes its account through the gateway; the accounts service tells the arena on
NATS, and ratings and tournaments blank its name: the ladder, its opponent's history and a
tournament's standings then say "deleted player" (deleted, name ""), with every number as
it was. A guest in the same tournament is marked as one. Rated results are published to
the results stream as the arbitration publishes them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import aiohttp
import nats
import pytest_asyncio

from clients.arena import ArenaClient
from games import registry
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.ratings.model import Finished, MatchId, Mode, Player, PlayerId
from services.stack.stack import Stack, StackConfig, run_stack
from tests.ratings.results import publish

BID = game_pb2.GAME_BID
PASSWORD = "correct horse battery"
WAIT_S = 30.0  # a guard against a hang, not a measured time
T = TypeVar("T")


@pytest_asyncio.fixture
async def arena(tmp_path: Path) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        yield stack, http


async def until(read: Callable[[], Awaitable[T]], holds: Callable[[T], bool]) -> T:
    """Read until ``holds`` is true of what was read; return it."""
    async with asyncio.timeout(WAIT_S):
        while not holds(found := await read()):
            await asyncio.sleep(0.05)
    return found


async def test_a_deleted_account_is_deleted_player_in_ladder_history_and_standings(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    ann, bob, cy = (ArenaClient(http, stack.gateway_url) for _ in range(3))
    await ann.sign_up_new("Ann")
    await bob.sign_up(bob_name := f"Bob{time.time_ns() % 10**8}", PASSWORD, "desktop")
    await cy.sign_in("Cy")  # a guest
    later_ms = int(time.time() * 1000) + 3_600_000
    made = await ann.create_tournament(
        tournaments_pb2.CreateTournamentRequest(
            name="Evening", game=BID, starts_at_unix_ms=later_ms, duration_s=600
        )
    )
    for player in (ann, bob, cy):
        await player.join_tournament(made.tournament_id)
    connection = await nats.connect(stack.nats_url)
    try:
        winner = Player(PlayerId(ann.player_id), ann.name)
        loser = Player(PlayerId(bob.player_id), bob_name)
        result = Finished(MatchId("m-1"), registry.BID, (winner, loser), 0, True, Mode.ONLINE)
        await publish(connection.jetstream(), result)
    finally:
        await connection.close()
    before = await until(lambda: ann.ladder(BID), lambda page: len(page.entries) == 2)
    assert [(e.name, e.deleted) for e in before.entries] == [
        (ann.name, False),
        (bob_name, False),
    ]
    standings = await ann.get_tournament(made.tournament_id)
    assert sorted((s.name, s.guest) for s in standings.standings.standings) == sorted(
        [(ann.name, False), (bob_name, False), ("Cy", True)]
    )

    await bob.delete_account(PASSWORD)

    ladder = await until(lambda: ann.ladder(BID), lambda page: page.entries[1].deleted)
    assert [(e.player_id, e.name, e.deleted) for e in ladder.entries] == [
        (ann.player_id, ann.name, False),
        (bob.player_id, "", True),
    ]
    for was, now in zip(before.entries, ladder.entries, strict=True):
        assert (now.rank, now.rating, now.rd, now.games, now.wins) == (
            was.rank,
            was.rating,
            was.rd,
            was.games,
            was.wins,
        )
    history = await ann.get_history(ann.player_id, BID)
    (line,) = history.entries
    assert (line.opponent_id, line.opponent_name, line.opponent_deleted) == (
        bob.player_id,
        "",
        True,
    )
    assert line.rated and line.change > 0
    record = await until(
        lambda: ann.get_tournament(made.tournament_id),
        lambda r: any(s.deleted for s in r.standings.standings),
    )
    lines = {s.player_id: s for s in record.standings.standings}
    gone = lines[bob.player_id]
    assert (gone.name, gone.deleted, gone.withdrawn) == ("", True, True)
    assert (lines[cy.player_id].name, lines[cy.player_id].guest) == ("Cy", True)
    assert (lines[ann.player_id].name, lines[ann.player_id].deleted) == (ann.name, False)
