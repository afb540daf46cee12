"""The list of matches in play, through the public API on a real stack.

A match appears in ListLiveMatches while it runs and goes when it ends; tournament games
come first; each carries its spectators, counted over every spectator stream; and what
a spectator stream brings never holds a hand or a drawn tile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import arena_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.common.watching import SPECTATORS
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import Seated, challenge, player
from tests.waiting import poll_until

BID = game_pb2.GAME_BID
SPIT = game_pb2.GAME_SPIT
BID_RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
BID_READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


@pytest_asyncio.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    config = StackConfig(tmp_path, with_bots=False)
    async with run_stack(config) as running, aiohttp.ClientSession() as http:
        yield running, http


async def live_ids(
    client: ArenaClient, game: game_pb2.Game.ValueType = game_pb2.GAME_UNSPECIFIED
) -> list[str]:
    return [shown.match.match_id for shown in await client.list_live_matches(game)]


async def watchers_of(client: ArenaClient, match_id: str) -> int | None:
    shown = await client.list_live_matches(match_id=match_id)
    return shown[0].watchers if shown else None


async def tournament_game(
    stack: Stack, http: aiohttp.ClientSession, creator: ArenaClient
) -> tuple[tournaments_pb2.Tournament, Seated, Seated]:
    """Return a casual Spit tournament that started now and its first game, both players
    (guests: a casual tournament is open to them) seated."""
    cat, dan = (
        await player(http, stack, "Cat", guest=True),
        await player(http, stack, "Dan", guest=True),
    )
    request = tournaments_pb2.CreateTournamentRequest(
        name="Tuesday Spit", game=SPIT, rated=False, duration_s=600
    )
    tournament = await creator.create_tournament(request)
    for entrant in (cat, dan):
        await entrant.join_tournament(tournament.tournament_id)

    async def first_game() -> tournaments_pb2.TournamentGame | None:
        record = await creator.get_tournament(tournament.tournament_id)
        return record.games[0] if record.games else None

    game = await poll_until("the tournament pairs Cat and Dan", first_game)
    seats = {player_id: seat for seat, player_id in enumerate(game.player_ids)}
    return (
        tournament,
        Seated(cat, game.match_id, seats[cat.player_id]),
        Seated(dan, game.match_id, seats[dan.player_id]),
    )


def assert_public(update: arbitration_pb2.MatchUpdate) -> None:
    """A spectator's update: no hand, no legal moves, no drawn tile named."""
    assert update.seat == SPECTATORS
    if update.view.HasField("bid"):
        assert not update.view.bid.hand, "a spectator saw a hand"
        assert not update.view.bid.legal, "a spectator saw a player's moves"
        for private in ("must_play", "must_open_with"):
            assert not update.view.bid.HasField(private), f"a spectator saw {private}"
        for event in update.events:
            if event.bid.HasField("drew"):
                assert not event.bid.drew.tiles, "a spectator saw a drawn tile"


@pytest.mark.asyncio(loop_scope="function")
async def test_live_matches_are_listed_tournament_games_first_and_go_when_over(
    stack: tuple[Stack, aiohttp.ClientSession],
) -> None:
    running, http = stack
    eve = await player(http, running, "Eve")
    ann, ben = await player(http, running, "Ann"), await player(http, running, "Ben")
    casual, _ = await challenge(ann, ben, BID, rated=False)
    tournament, cat, _ = await tournament_game(running, http, eve)

    listed = await poll_until(
        "both matches listed",
        lambda: _both(eve, casual.match_id, cat.match_id),
    )
    assert [s.match.match_id for s in listed] == [cat.match_id, casual.match_id]
    first = listed[0].match
    assert first.tournament_id == tournament.tournament_id
    assert first.tournament_name == "Tuesday Spit"
    assert first.game == SPIT and {p.name for p in first.players} == {"Cat", "Dan"}
    assert listed[1].match.tournament_id == "" and not listed[1].match.rated
    assert await live_ids(eve, BID) == [casual.match_id]
    assert await live_ids(eve, SPIT) == [cat.match_id]

    await casual.submit(BID_RESIGN)
    await poll_until("the resigned match leaves the list", lambda: _gone(eve, casual.match_id))
    assert await live_ids(eve) == [cat.match_id]
    await cat.submit(SPIT_RESIGN)
    await poll_until("the tournament game leaves the list", lambda: _gone(eve, cat.match_id))
    assert await eve.list_live_matches(match_id=cat.match_id) == []


@pytest.mark.asyncio(loop_scope="function")
async def test_spectators_are_counted_and_see_only_the_public_view(
    stack: tuple[Stack, aiohttp.ClientSession],
) -> None:
    running, http = stack
    ann, ben = await player(http, running, "Ann"), await player(http, running, "Ben")
    eve, fay = await player(http, running, "Eve"), await player(http, running, "Fay")
    a, b = await challenge(ann, ben, BID, rated=False)
    await poll_until("the match is listed", lambda: _count_is(eve, a.match_id, 0))
    seen: list[arbitration_pb2.MatchUpdate] = []
    async with contextlib.AsyncExitStack() as streams:
        for spectator in (eve, fay):
            updates = spectator.watch(a.match_id, SPECTATORS)
            streams.push_async_callback(updates.aclose)
            seen.append(await anext(updates))
            streams.push_async_callback(_follow(updates, seen).cancel_and_wait)
        await poll_until("two watchers", lambda: _count_is(eve, a.match_id, 2))
        with pytest.raises(CallError) as refused:
            await eve.submit(a.match_id, SPECTATORS, BID_READY)
        assert refused.value.reason == "not_your_seat"
        for player_ in (a, b):
            await player_.submit(BID_READY)
        await poll_until("the play begins for the spectators", lambda: _playing(seen))
    await poll_until("the watchers left", lambda: _count_is(eve, a.match_id, 0))
    for update in seen:
        assert_public(update)
    assert all(update.view.bid.hand_counts == [7, 7] for update in seen)
    await a.submit(BID_RESIGN)


class _follow:
    """Reads a spectator stream into ``seen`` in the background until cancelled."""

    def __init__(
        self,
        updates: AsyncIterator[arbitration_pb2.MatchUpdate],
        seen: list[arbitration_pb2.MatchUpdate],
    ) -> None:
        self._task = asyncio.create_task(self._read(updates, seen))

    @staticmethod
    async def _read(
        updates: AsyncIterator[arbitration_pb2.MatchUpdate],
        seen: list[arbitration_pb2.MatchUpdate],
    ) -> None:
        async for update in updates:
            seen.append(update)

    async def cancel_and_wait(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def _both(client: ArenaClient, *match_ids: str) -> list[arena_pb2.LiveMatchShown] | None:
    shown = await client.list_live_matches()
    ids = {s.match.match_id for s in shown}
    return shown if ids >= set(match_ids) else None


def _playing(seen: list[arbitration_pb2.MatchUpdate]) -> bool:
    return any(u.view.bid.gate == game_pb2.GATE_NONE and u.view.bid.decide for u in seen)


async def _gone(client: ArenaClient, match_id: str) -> bool:
    return match_id not in await live_ids(client)


async def _count_is(client: ArenaClient, match_id: str, count: int) -> bool:
    return await watchers_of(client, match_id) == count
