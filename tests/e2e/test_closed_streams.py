"""A closed queue ticket or challenge is gone at once, through the real gateway.

The attack: a player opens a ticket or a challenge, their browser closes the stream, and
at once someone else queues or accepts the code. Nobody may meet the player who left:
the security issue saw a closed challenge accepted 0.2 s after its creator closed it, and
a closed ticket paired 8 times out of 8 within 0.3 s.

"Closed" here is a browser going away: the player's connection is closed, and then the
next player makes one round trip through the gateway (a list of live matches, which the
gateway answers itself) before queueing or accepting. Sent after the close, that round
trip is read no earlier than the close and answered turns of the gateway's event loop
later, so what follows comes after the gateway has seen the close. Without it, a request
reaching the gateway in the very turn in which the close does can still be forwarded
first: once in 50 on a loaded machine. The half-second poll the gateway had before let
these through all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator

import aiohttp
import pytest

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.stack.stack import Stack
from tests.e2e.support import UPDATE_TIMEOUT_S, metric, player
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROUNDS = 50
BID = game_pb2.GAME_BID
NOT_FOUND = 5


@contextlib.asynccontextmanager
async def browser(stack: Stack, signed_in: ArenaClient) -> AsyncIterator[ArenaClient]:
    """Yield ``signed_in`` on connections of its own, all closed when the block ends."""
    async with aiohttp.ClientSession() as http:
        client = ArenaClient(http, stack.gateway_url)
        client.web.token = signed_in.web.token
        client.player_id, client.name = signed_in.player_id, signed_in.name
        yield client


async def first_update(
    client: ArenaClient,
) -> tuple[matchmaking_pb2.QueueUpdate, AsyncGenerator[matchmaking_pb2.QueueUpdate, None]]:
    """Queue ``client`` casually for Bid; return the first update and the open stream."""
    updates = client.queue(BID, rated=False)
    async with asyncio.timeout(UPDATE_TIMEOUT_S):
        return await anext(updates), updates


async def after_a_round_trip(client: ArenaClient) -> None:
    """Return once ``client`` has had an answer the gateway makes itself."""
    await client.list_live_matches()


async def queue_is_empty(http: aiohttp.ClientSession, stack: Stack) -> bool:
    lengths = await metric(http, stack, "matchmaking", "pf_matchmaking_queue_length")
    return lengths["game=bid,rated=false"] == 0


async def test_a_closed_challenge_cannot_be_accepted_at_once(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    ann, bob = await player(http, stack, "Ann"), await player(http, stack, "Bob")
    accepted = []
    for _ in range(ROUNDS):
        async with browser(stack, ann) as gone:
            challenge = gone.create_challenge(BID, rated=False)
            async with asyncio.timeout(UPDATE_TIMEOUT_S):
                code = (await anext(challenge)).code
        await after_a_round_trip(bob)
        try:
            assignment = await bob.accept_challenge(code)
        except CallError as refused:
            assert (refused.code, refused.reason) == (NOT_FOUND, "no_such_challenge"), refused
        else:
            accepted.append(assignment.match_id)
        finally:
            await challenge.aclose()
    assert not accepted, f"{len(accepted)} of {ROUNDS} closed challenges were accepted"


async def test_a_closed_ticket_is_never_paired(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    """Two players take turns: one queues and leaves, the other queues at once and must
    find the queue empty."""
    stack, http = arena
    cat, dan = await player(http, stack, "Cat"), await player(http, stack, "Dan")
    met = []
    for turn in range(ROUNDS):
        leaver, stayer = (cat, dan) if turn % 2 == 0 else (dan, cat)
        await poll_until("the Bid queue is empty", lambda: queue_is_empty(http, stack))
        async with browser(stack, leaver) as gone:
            alone, closed = await first_update(gone)
        await after_a_round_trip(stayer)
        assert alone.waiting == 1, alone
        update, waiting = await first_update(stayer)
        await waiting.aclose()
        await closed.aclose()
        if update.WhichOneof("kind") != "waiting" or update.waiting != 1:
            met.append(update)
    assert not met, f"{len(met)} of {ROUNDS} players met a closed ticket"


async def test_a_cancelled_ticket_is_never_paired(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    """CancelQueue takes the ticket out before it answers: whoever queues after the answer
    finds the queue empty, though the cancelled ticket's stream is still open."""
    stack, http = arena
    eve, fay = await player(http, stack, "Eve"), await player(http, stack, "Fay")
    met = []
    for turn in range(ROUNDS):
        leaver, stayer = (eve, fay) if turn % 2 == 0 else (fay, eve)
        await poll_until("the Bid queue is empty", lambda: queue_is_empty(http, stack))
        alone, cancelled = await first_update(leaver)
        assert alone.waiting == 1, alone
        assert await leaver.cancel_queue(BID)
        update, waiting = await first_update(stayer)
        await waiting.aclose()
        await cancelled.aclose()
        if update.WhichOneof("kind") != "waiting" or update.waiting != 1:
            met.append(update)
    assert not met, f"{len(met)} of {ROUNDS} players met a cancelled ticket"
