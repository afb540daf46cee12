"""Matches against the computer and on one device that their person left end by themselves:
voided as ``abandoned`` (no result, no rating), and their places among the person's live
matches come free; a person with a stream open is never ended. A short limit keeps it
quick: left alone after 3 s unheard, the gateway naming open streams every 0.3 s (the
defaults are 600 s and 5 s), and no Spit gate lifting itself meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

import aiohttp
import pytest

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.stack.stack import Stack
from tests.e2e.support import next_update, player
from tests.waiting import poll_until
from tools.replay import replay

pytestmark = pytest.mark.asyncio(loop_scope="module")

STACK_WITH_BOTS = True
LIMIT_S = 3
STACK_ENV = (
    ("PF_ABANDONED_S", str(LIMIT_S)),
    ("PF_PRESENCE_EVERY_S", "0.3"),
    ("PF_GATE_TIMEOUT_S", "600"),
)
LIVE_MATCHES = 3  # services/matchmaking/playing.py: MAX_LIVE_PER_PLAYER
ENDED_TIMEOUT_S = 30.0  # the limit, the sweep's second and the stack's hops, with room
UpdateStream = AsyncGenerator[arbitration_pb2.MatchUpdate, None]


async def ended_log(client: ArenaClient, match_id: str) -> log_pb2.MatchLog:
    """Return the match's log once the match is over (its log is refused while it is live)."""

    async def attempt() -> log_pb2.MatchLog | None:
        try:
            return await client.match_log(match_id)
        except CallError as error:
            if error.reason != "match_live":
                raise
            return None

    return await poll_until(f"match {match_id} ends", attempt, ENDED_TIMEOUT_S, 0.2)


async def is_live(client: ArenaClient, match_id: str) -> bool:
    try:
        await client.match_log(match_id)
    except CallError as error:
        if error.reason == "match_live":
            return True
        raise
    return False


async def computer_once(
    client: ArenaClient, refused: str, what: str
) -> matchmaking_pb2.MatchAssignment:
    """Return a new Spit match against the computer, asked for while it is ``refused``."""

    async def attempt() -> matchmaking_pb2.MatchAssignment | None:
        try:
            return await client.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_EASY)
        except CallError as error:
            if error.reason != refused:
                raise
            return None

    return await poll_until(what, attempt, ENDED_TIMEOUT_S)


async def watched(client: ArenaClient, seated: matchmaking_pb2.MatchAssignment) -> UpdateStream:
    """Return an open stream of the person's seat, its first update read (still live)."""
    updates = client.watch(seated.match_id, seated.seats[0])
    assert (await next_update(updates)).status == arbitration_pb2.STATUS_LIVE
    return updates


async def assert_abandoned(client: ArenaClient, seated: matchmaking_pb2.MatchAssignment) -> None:
    """Check that the match ended voided as abandoned, logged and shown as such."""
    log = await ended_log(client, seated.match_id)
    end = log.entries[-1]
    assert end.kind == log_pb2.ENTRY_KIND_VOIDED and end.reason == "abandoned"
    assert end.void_reason == f"abandoned: nobody played or watched the match for {LIMIT_S} s"
    assert not end.HasField("outcome")
    assert replay(log.entries).identical
    updates = client.watch(seated.match_id, seated.seats[0])  # the end, as a reload shows it
    try:
        final = await next_update(updates)
    finally:
        await updates.aclose()
    assert final.status == arbitration_pb2.STATUS_VOIDED
    assert final.void_kind == "abandoned" and not final.HasField("outcome")


async def test_computer_matches_left_alone_end_and_free_their_places_while_watched_ones_stay(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    solo = await player(http, stack, "Solo Leaves")
    first = await computer_once(solo, "no_bot_pool", "the bot pool is connected")
    streams = [await watched(solo, first)]  # a tab of each, open: the person is there
    more = await asyncio.gather(
        *(solo.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_EASY) for _ in range(2))
    )
    made = [first, *more]
    streams += [await watched(solo, m) for m in more]
    with pytest.raises(CallError) as full:
        await solo.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_EASY)
    assert full.value.reason == "too_many_matches"

    # Another person's hot-seat match with no stream open ends: the limit has passed for
    # a match opened after Solo's, and Solo's, watched all along, are still in play.
    other = await player(http, stack, "Other Leaves")
    unwatched = await other.play_hot_seat(game_pb2.GAME_BID)
    await assert_abandoned(other, unwatched)
    for match in made:
        assert await is_live(solo, match.match_id)

    for stream in streams:  # every tab closed
        await stream.aclose()
    for match in made:
        await assert_abandoned(solo, match)
    await computer_once(solo, "too_many_matches", "a place comes free")
