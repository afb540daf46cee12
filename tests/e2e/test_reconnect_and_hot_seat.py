"""The clock belongs to the server: a reconnect finds it still running; a hand-over stops it.
An update lost on the way: the client's Watch opens again, and shows the table the server has."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Any

import aiohttp
import pytest

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, next_update, player, until

pytestmark = pytest.mark.asyncio(loop_scope="module")

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
REVEAL = game_pb2.Command(reveal=game_pb2.Reveal())
PAUSE_S = 1.2


def running(update: arbitration_pb2.MatchUpdate) -> bool:
    return update.clock.running >= 0


async def test_reconnecting_resumes_the_match_with_the_clock_still_running(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    a, b = await player(http, stack, "Ria"), await player(http, stack, "Sol")
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated=False)
    await first.submit(READY)
    await second.submit(READY)
    stream = first.client.watch(first.match_id, first.seat)
    before = await until(stream, running)
    await stream.aclose()  # the connection drops
    mover = before.clock.running
    await asyncio.sleep(PAUSE_S)
    after = await next_update(first.client.watch(first.match_id, first.seat))
    assert after.seq == before.seq
    assert after.clock.running == mover
    spent_ms = before.clock.seats[mover].grace_ms - after.clock.seats[mover].grace_ms
    assert spent_ms >= PAUSE_S * 1000 - 1  # the server's clock never stopped


async def test_a_hot_seat_hand_over_stops_both_clocks_until_the_reveal(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    host = await player(http, stack, "Pat")
    assignment = await host.play_hot_seat(game_pb2.GAME_BID)
    assert list(assignment.seats) == [0, 1]
    seats = [Seated(host, assignment.match_id, s) for s in (0, 1)]
    for seat in seats:
        await seat.submit(READY)
    stream = host.watch(assignment.match_id, 0)
    handover = await until(stream, lambda u: u.decision.gate == game_pb2.GATE_HANDOVER)
    assert handover.clock.running == -1
    waiting = handover.decision.seats[0]
    await asyncio.sleep(PAUSE_S)
    still = await next_update(host.watch(assignment.match_id, waiting))
    assert still.clock.running == -1
    assert still.clock.seats[waiting].bank_ms == handover.clock.seats[waiting].bank_ms
    await seats[waiting].submit(REVEAL)
    revealed = await until(stream, running)
    assert revealed.clock.running == waiting
    assert revealed.decision.gate == game_pb2.GATE_NONE


async def test_an_update_lost_on_the_way_has_the_watch_open_again_with_the_whole_view(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    """As a gateway whose NATS link dropped for a moment loses one: here the client's
    transport drops the first stream's first change. The next change does not follow the
    view kept, so the Watch opens again: the update it yields holds the whole view."""
    stack, http = arena
    a, b = await player(http, stack, "Uma"), await player(http, stack, "Val")
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated=False)
    web = first.client.web
    real_stream = web.stream
    watches = 0  # Watch calls (a unary call is a stream of one here too)

    async def losing_one(path: str, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        nonlocal watches
        watches += path.endswith("/Watch")
        losing = watches == 1 and path.endswith("/Watch")  # the first Watch loses one
        async with contextlib.aclosing(real_stream(path, *args, **kwargs)) as replies:
            async for number, reply in aenumerate(replies):
                if losing and number == 1:
                    continue  # the first change never comes
                yield reply

    web.stream = losing_one  # type: ignore[method-assign]
    stream = first.client.watch(first.match_id, first.seat)
    start = await anext(stream)
    await first.submit(READY)  # its update is lost on the way
    last = (await second.submit(READY)).seq  # its change does not follow the view kept
    shown = [await anext(stream)]
    while shown[-1].seq < last:
        shown.append(await anext(stream))
    await stream.aclose()
    web.stream = real_stream  # type: ignore[method-assign]
    assert watches == 2
    assert all(update.HasField("view") for update in shown)
    fresh = await next_update(first.client.watch(first.match_id, first.seat))
    assert (shown[-1].seq, shown[-1].view) == (fresh.seq, fresh.view)
    assert start.seq < last


async def aenumerate(items: AsyncGenerator[Any, None]) -> AsyncGenerator[tuple[int, Any], None]:
    number = 0
    async for item in items:
        yield number, item
        number += 1
