"""One token cannot fill the arena with what it creates (an attack through the public API).

The security issue's token made 100 tournaments, 100 hot-seat and 40 computer matches,
each batch in under half a second, and filled 47 of the 50 places on the tournament list.
Here one token sends a burst of creations at once through the gateway: the cap's worth are
made, every other is refused with its reason and the sentence the page shows, and once one
has ended the next is allowed, after a restart of matchmaking too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence
from typing import TypeVar

import aiohttp
import pytest

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, first_end, player
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

STACK_WITH_BOTS = True

T = TypeVar("T")

FAILED_PRECONDITION = 9
BURST = 20
HOUR_MS = 3_600_000
OPEN_TOURNAMENTS = 2  # services/tournaments/servicer.py: MAX_OPEN_PER_CREATOR
TOURNAMENTS_SENTENCE = (
    "you have 2 tournaments that have not finished, the most at once:"
    " create another once one has finished"
)
LIVE_MATCHES = 3  # services/matchmaking/playing.py: MAX_LIVE_PER_PLAYER
MATCHES_SENTENCE = (
    "you have 3 matches against the computer or on one device in play, the most at once:"
    " finish or resign one to start another"
)
SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
BID_RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
UNAVAILABLE = 14


def tournament(
    duration_s: int = 600, ahead_ms: int = HOUR_MS
) -> tournaments_pb2.CreateTournamentRequest:
    """Return a request for a Bid tournament starting ``ahead_ms`` from now (0: now)."""
    starts = int(time.time() * 1000) + ahead_ms if ahead_ms else 0
    return tournaments_pb2.CreateTournamentRequest(
        name="Flood", game=game_pb2.GAME_BID, starts_at_unix_ms=starts, duration_s=duration_s
    )


async def burst(calls: Sequence[Awaitable[T]]) -> tuple[list[T], list[CallError]]:
    """Return what a burst of calls made at once answered, and what it refused."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    refused = [r for r in results if isinstance(r, CallError)]
    made = [r for r in results if not isinstance(r, BaseException)]
    assert len(made) + len(refused) == len(results), results
    return made, refused


def assert_refused(refused: list[CallError], reason: str, sentence: str) -> None:
    assert {(e.code, e.reason, e.message) for e in refused} == {
        (FAILED_PRECONDITION, reason, sentence)
    }


async def is_finished(client: ArenaClient, tournament_id: str) -> bool:
    record = await client.get_tournament(tournament_id)
    return record.standings.tournament.status == tournaments_pb2.STATUS_FINISHED


async def test_one_token_holds_two_open_tournaments_and_another_once_one_finishes(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    flooder = await player(http, stack, "Flooder")
    short = await flooder.create_tournament(tournament(duration_s=10, ahead_ms=0))

    made, refused = await burst([flooder.create_tournament(tournament()) for _ in range(BURST)])

    assert len(made) == OPEN_TOURNAMENTS - 1 and len(refused) == BURST - len(made)
    assert_refused(refused, "too_many_tournaments", TOURNAMENTS_SENTENCE)
    listed = (await flooder.list_tournaments()).tournaments
    assert sum(t.created_by == flooder.name for t in listed) == OPEN_TOURNAMENTS
    other = await player(http, stack, "Other")
    await other.create_tournament(tournament())  # each creator has a cap of their own

    await poll_until(
        "the 10 s tournament finishes", lambda: is_finished(flooder, short.tournament_id)
    )
    await flooder.create_tournament(tournament())
    _, refused = await burst([flooder.create_tournament(tournament())])
    assert_refused(refused, "too_many_tournaments", TOURNAMENTS_SENTENCE)


def seated(client: ArenaClient, match: matchmaking_pb2.MatchAssignment) -> Seated:
    return Seated(client, match.match_id, match.seats[0])


async def resign(at: Seated, command: game_pb2.Command) -> None:
    """Resign ``at``'s match and return once its seat sees it over."""
    updates = at.client.watch(at.match_id, at.seat)
    try:
        await at.submit(command)
        await first_end(updates)
    finally:
        await updates.aclose()


async def hot_seat_once_allowed(client: ArenaClient) -> matchmaking_pb2.MatchAssignment:
    """Return a new hot-seat match, asked for until the end of one has reached matchmaking
    (through the live list: a moment after the seat saw it)."""

    async def attempt() -> matchmaking_pb2.MatchAssignment | None:
        try:
            return await client.play_hot_seat(game_pb2.GAME_BID)
        except CallError as error:
            if error.reason != "too_many_matches":
                raise
            return None

    return await poll_until("a place comes free", attempt)


async def test_one_token_holds_three_live_matches_and_another_once_one_is_resigned(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    solo = await player(http, stack, "Solo")
    easy = game_pb2.LEVEL_EASY

    made, refused = await burst([solo.play_computer(game_pb2.GAME_SPIT, easy) for _ in range(10)])

    assert len(made) == LIVE_MATCHES, [(e.reason, e.message) for e in refused]
    assert_refused(refused, "too_many_matches", MATCHES_SENTENCE)
    _, refused = await burst([solo.play_hot_seat(game_pb2.GAME_BID) for _ in range(10)])
    assert len(refused) == 10  # the two kinds share the cap
    assert_refused(refused, "too_many_matches", MATCHES_SENTENCE)
    other = await player(http, stack, "Other")
    await other.play_hot_seat(game_pb2.GAME_BID)  # each player has a cap of their own

    await resign(seated(solo, made[0]), SPIT_RESIGN)
    hot = await hot_seat_once_allowed(solo)
    _, refused = await burst([solo.play_hot_seat(game_pb2.GAME_BID)])
    assert_refused(refused, "too_many_matches", MATCHES_SENTENCE)

    await resign(seated(solo, hot), BID_RESIGN)
    await hot_seat_once_allowed(solo)


async def refused_after_restart(client: ArenaClient) -> CallError:
    """Return the refusal of one more hot-seat match, asked for until matchmaking answers."""

    async def attempt() -> CallError | None:
        try:
            made = await client.play_hot_seat(game_pb2.GAME_BID)
        except CallError as error:
            if error.code == UNAVAILABLE:
                return None
            return error
        raise AssertionError(f"a match past the cap was opened: {made.match_id}")

    return await poll_until("matchmaking answers again", attempt)


async def test_the_cap_holds_across_a_restart_of_matchmaking(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    host = await player(http, stack, "Host")
    made, failed = await burst([host.play_hot_seat(game_pb2.GAME_BID) for _ in range(LIVE_MATCHES)])
    assert len(made) == LIVE_MATCHES, [(e.reason, e.message) for e in failed]

    await stack.restart("matchmaking")

    assert_refused([await refused_after_restart(host)], "too_many_matches", MATCHES_SENTENCE)
    await resign(seated(host, made[0]), BID_RESIGN)
    await hot_seat_once_allowed(host)
