"""Ratings cannot be farmed with a second identity (an attack through the public API).

Two guests play rated challenges and one of them gives the game away. Resigning at the
opening gate aborts the match: no result, no rating. Resigning after one move is a result,
but the same two players count only 5 rated games in any 24 hours.
"""

from __future__ import annotations

import functools

import aiohttp
import pytest

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.ratings.v1 import ratings_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, first_end, next_update, player
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
PER_PAIR = 5  # ratings' default (PF_RATED_PER_PAIR_PER_DAY)


async def final(seated: Seated) -> arbitration_pb2.MatchUpdate:
    updates = seated.client.watch(seated.match_id, seated.seat)
    try:
        return await first_end(updates)
    finally:
        await updates.aclose()


async def line(seated: Seated) -> ratings_pb2.HistoryEntry | None:
    """Return the seat's history line of its match, once the ratings have it."""
    history = await seated.client.get_history(seated.client.player_id, game_pb2.GAME_BID, 20)
    found = [e for e in history.entries if e.match_id == seated.match_id]
    return found[0] if found else None


async def recorded(seated: Seated) -> ratings_pb2.HistoryEntry:
    return await poll_until("the result reaches the ratings", functools.partial(line, seated))


async def test_resigning_at_the_opening_gate_aborts_the_rated_match(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    farmer, feeder = await player(http, stack, "Farmer"), await player(http, stack, "Feeder")
    for _ in range(3):
        gets, gives = await challenge(farmer, feeder, game_pb2.GAME_BID, rated=True)
        await gets.submit(READY)
        await gives.submit(RESIGN)  # before any move of the feeder's
        end = await final(gets)
        assert end.status == arbitration_pb2.STATUS_VOIDED
        assert end.void_reason == f"aborted: {feeder.name} resigned before making a move"
        assert not end.HasField("outcome")
        for seated in (gets, gives):
            entry = await recorded(seated)
            assert entry.verdict == ratings_pb2.VERDICT_VOID and not entry.rated
    rating = await farmer.get_rating(farmer.player_id, game_pb2.GAME_BID)
    assert (rating.rating, rating.games) == (1500, 0)


async def test_a_pair_counts_five_rated_games_a_day_however_many_they_play(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    farmer, feeder = await player(http, stack, "Grower"), await player(http, stack, "Giver")
    entries = []
    for _ in range(PER_PAIR + 2):
        gets, gives = await challenge(farmer, feeder, game_pb2.GAME_BID, rated=True)
        await move_then_resign(gives, gets)
        end = await final(gets)
        assert end.outcome == game_pb2.Outcome(
            winner=gets.seat, termination=game_pb2.TERMINATION_RESIGN
        )
        entries.append(await recorded(gets))
    assert [e.rated for e in entries] == [True] * PER_PAIR + [False, False]
    for entry in entries[PER_PAIR:]:
        assert entry.change == 0
        assert entry.uncounted_reason in (
            f"{first} and {second} already have 5 rated games counted in the last 24 hours,"
            " the most that count"
            for first, second in ((farmer.name, feeder.name), (feeder.name, farmer.name))
        )
    rating = await farmer.get_rating(farmer.player_id, game_pb2.GAME_BID)
    assert rating.games == PER_PAIR
    assert rating.rating == pytest.approx(entries[PER_PAIR - 1].rating_after)


async def move_then_resign(gives: Seated, gets: Seated) -> None:
    """Both press Ready; the giver makes a legal move when its turn comes, then resigns."""
    await gets.submit(READY)
    await gives.submit(READY)
    updates = gives.client.watch(gives.match_id, gives.seat)
    try:
        while True:
            update = await next_update(updates)
            if update.decision.gate or not update.decision.seats:
                continue
            if gives.seat in update.decision.seats:
                await gives.submit(game_pb2.Command(bid=update.view.bid.legal[0]))
                break
            # The other seat decides first: it makes a legal move of its own.
            mine = gets.client.watch(gets.match_id, gets.seat)
            latest = await next_update(mine)  # a new stream starts with the match as it is
            await mine.aclose()
            await gets.submit(game_pb2.Command(bid=latest.view.bid.legal[0]))
    finally:
        await updates.aclose()
    await gives.submit(RESIGN)
