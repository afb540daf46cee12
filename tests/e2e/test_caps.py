"""One token cannot fill the arena with what it creates (an attack through the public API).

The security issue's token made 100 tournaments, each batch in under half a second, and
filled 47 of the 50 places on the tournament list. Here one token sends a burst of
creations at once through the gateway: the cap's worth are made, every other is refused
with its reason and the sentence the page shows, and once one has ended the next is
allowed.
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
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.stack.stack import Stack
from tests.e2e.support import player
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

T = TypeVar("T")

FAILED_PRECONDITION = 9
BURST = 20
HOUR_MS = 3_600_000
OPEN_TOURNAMENTS = 2  # services/tournaments/servicer.py: MAX_OPEN_PER_CREATOR
TOURNAMENTS_SENTENCE = (
    "you have 2 tournaments that have not finished, the most at once:"
    " create another once one has finished"
)


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
    assert sum(t.created_by == "Flooder" for t in listed) == OPEN_TOURNAMENTS
    other = await player(http, stack, "Other")
    await other.create_tournament(tournament())  # each creator has a cap of their own

    await poll_until(
        "the 10 s tournament finishes", lambda: is_finished(flooder, short.tournament_id)
    )
    await flooder.create_tournament(tournament())
    _, refused = await burst([flooder.create_tournament(tournament())])
    assert_refused(refused, "too_many_tournaments", TOURNAMENTS_SENTENCE)
