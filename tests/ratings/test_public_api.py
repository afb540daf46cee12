"""Ratings through the whole stack: the public API's history, rating and ladder page, and
the queue seating players by the ratings the ratings service holds.

Results are published to the results stream as arbitration publishes them, for a signed-in
player against made-up opponents; everything else goes through the gateway.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import nats
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from games import registry
from photofinish.game.v1 import game_pb2
from services.ratings.model import Finished as Result
from services.ratings.model import MatchId, Mode, Player, PlayerId
from services.stack.stack import Stack, StackConfig, run_stack
from tests.ratings.results import publish

BID = game_pb2.GAME_BID
WINS = 5
WAIT_S = 20.0


@pytest_asyncio.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    config = StackConfig(tmp_path, with_bots=False)
    async with run_stack(config) as running, aiohttp.ClientSession() as http:
        yield running, http


async def signed_in(http: aiohttp.ClientSession, stack: Stack, name: str) -> ArenaClient:
    """A player with an account of its own: rated play is for accounts."""
    client = ArenaClient(http, stack.gateway_url)
    await client.sign_up_new(name)
    return client


async def rate_up(stack: Stack, client: ArenaClient) -> None:
    """Publish ``WINS`` rated Bid wins of ``client``'s player; return once all are counted."""
    winner = Player(PlayerId(client.player_id), client.name)
    connection = await nats.connect(stack.nats_url)
    try:
        js = connection.jetstream()
        for number in range(WINS):
            loser = Player(PlayerId(f"made-up-{number}"), f"Opponent {number}")
            result = Result(
                MatchId(f"m-{number}"), registry.BID, (winner, loser), 0, True, Mode.ONLINE
            )
            await publish(js, result)
    finally:
        await connection.close()
    async with asyncio.timeout(WAIT_S):
        while (await client.get_rating(client.player_id, BID)).games < WINS:
            await asyncio.sleep(0.05)


async def test_anyone_reads_a_players_history_rating_and_ladder_page(
    stack: tuple[Stack, aiohttp.ClientSession],
) -> None:
    running, http = stack
    ann, bob = await signed_in(http, running, "Ann"), await signed_in(http, running, "Bob")
    await rate_up(running, ann)

    history = await bob.get_history(ann.player_id, BID)
    assert [line.match_id for line in history.entries] == [f"m-{n}" for n in range(WINS)][::-1]
    assert all(line.rated and line.change > 0 for line in history.entries)
    rating = await bob.get_rating(ann.player_id, BID)
    assert rating.rating == history.entries[0].rating_after and rating.games == WINS
    # Ann leads; the page around the leader is the top of the ladder, still full.
    page = await bob.ladder_around(BID, ann.player_id, limit=3)
    assert [e.rank for e in page.entries] == [1, 2, 3]
    assert page.entries[0].player_id == ann.player_id
    with pytest.raises(CallError) as error:
        await ann.ladder_around(BID, bob.player_id)
    assert error.value.reason == "not_ranked"
    newcomer = await ann.get_rating(bob.player_id, BID)
    assert (newcomer.rating, newcomer.provisional, newcomer.games) == (1500, True, 0)

    profile = await bob.get_profile(ann.player_id)
    assert (profile.name, profile.guest, profile.deleted) == (ann.name, False, False)
    (bid,) = profile.games
    assert (bid.game, bid.rated, bid.rank, bid.wins, bid.losses, bid.voids) == (
        BID,
        True,
        1,
        WINS,
        0,
        0,
    )
    assert bid.rating == rating.rating and bid.rd == rating.rd
    assert [p.rating for p in bid.points] == [line.rating_after for line in history.entries][::-1]
    assert not (await ann.get_profile(bob.player_id)).games  # never played: nothing to show


async def test_the_rated_queue_seats_players_by_their_ratings(
    stack: tuple[Stack, aiohttp.ClientSession],
) -> None:
    running, http = stack
    ann, bob, cat = [await signed_in(http, running, name) for name in ("Ann", "Bob", "Cat")]
    await rate_up(running, ann)
    assert (await ann.get_rating(ann.player_id, BID)).rating > 1500 + 200

    ann_queue = ann.queue(BID, rated=True)
    assert (await anext(ann_queue)).waiting == 1
    bob_queue = bob.queue(BID, rated=True)
    # Two in the line and no match: Ann's rating is far outside a fresh ticket's ±50.
    assert (await anext(bob_queue)).waiting == 2
    cat_queue = cat.queue(BID, rated=True)
    # The stream opens at its first read: Cat joins here and meets Bob (both 1500) at once.
    cat_match = (await anext(cat_queue)).match
    bob_match = (await anext(bob_queue)).match
    assert bob_match.match_id and bob_match.match_id == cat_match.match_id
    assert [(await anext(ann_queue)).waiting for _ in range(2)] == [2, 1]  # Ann waits on
    for stream in (ann_queue, bob_queue, cat_queue):
        await stream.aclose()
