"""The clock belongs to the server: a reconnect finds it still running; a hand-over stops it.
An update lost on the way: the client's Watch opens again, and shows the table the server has;
updates a gateway missed while its NATS link was down reach its streams once it is back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncGenerator
from typing import Any
from urllib.parse import urlparse

import aiohttp
import grpc
import pytest

from clients.play import PlaySocket
from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from photofinish.game.v1 import bid_pb2, game_pb2
from services.common.identity import PLAYER_ID, PLAYER_NAME
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, next_update, player, until
from wire.metadata import CALLER_TOKEN

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


async def test_an_update_the_gateway_missed_while_its_nats_link_was_down_reaches_the_stream(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    """The gateway stopped (SIGSTOP) and its NATS sockets cut (``ss -K``), a step taken
    meanwhile past it (the arbitration's own gRPC, as another gateway would): core NATS
    delivers its update to nobody. Once the gateway's link is back, it asks for each
    stream's latest update: the step reaches the seat's stream, whole, with nothing else
    happening in the match."""
    stack, http = arena
    a, b = await player(http, stack, "Wyn"), await player(http, stack, "Xia")
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated=False)
    await first.submit(READY)
    await second.submit(READY)
    web = first.client.web
    socket = await PlaySocket.open(
        web.session, web.base_url, web.token, first.match_id, first.seat, changes=True
    )
    streams = [  # the seat's Watch over gRPC-web, and its play socket
        first.client.watch(first.match_id, first.seat, changes=True),
        socket.updates(),
    ]
    shown = [await anext(stream) for stream in streams]
    decider = first if shown[0].decision.seats[0] == first.seat else second
    latest = await next_update(decider.client.watch(decider.match_id, decider.seat))
    command = game_pb2.Command(bid=latest.view.bid.legal[0])
    gateway = stack.children["gateway"].process.pid
    os.kill(gateway, signal.SIGSTOP)
    try:
        assert cut_nats_sockets(gateway, stack.nats_url), "the gateway has no NATS socket"
        reply = await submit_past_the_gateway(stack, decider, command)
        await asyncio.sleep(0.5)  # its update is published: to no gateway
    finally:
        os.kill(gateway, signal.SIGCONT)
    for stream, before in zip(streams, shown, strict=True):
        try:
            caught_up = await asyncio.wait_for(anext(stream), 20)
        except TimeoutError:
            pytest.fail(f"the step after seq {before.seq} never reached the stream")
        assert caught_up.seq == reply.seq > before.seq
        assert caught_up.HasField("view")
    await streams[0].aclose()
    await socket.close()


async def submit_past_the_gateway(
    stack: Stack, seated: Seated, command: game_pb2.Command
) -> arbitration_pb2.SubmitReply:
    """Submit ``seated``'s command on the arbitration's gRPC, as a gateway does."""
    metadata = (
        (CALLER_TOKEN, stack.children["gateway"].env["PF_CALLER_TOKEN"]),
        (PLAYER_ID, seated.client.player_id),
        (PLAYER_NAME, seated.client.name),
    )
    request = arbitration_pb2.SubmitRequest(
        match_id=seated.match_id, seat=seated.seat, client_seq=10**6, command=command
    )
    async with grpc.aio.insecure_channel(stack.address("arbitration")) as channel:
        arbitration = arbitration_pb2_grpc.ArbitrationStub(channel)
        reply: arbitration_pb2.SubmitReply = await arbitration.Submit(
            request, metadata=metadata, timeout=10
        )
        return reply


def cut_nats_sockets(pid: int, nats_url: str) -> int:
    """Destroy process ``pid``'s TCP connections to the NATS server (what they hold unread
    is lost, as on a dropped link); return how many there were."""
    port = urlparse(nats_url).port
    listed = subprocess.run(["ss", "-tnpH"], capture_output=True, text=True, check=True)
    local = [
        line.split()[3]
        for line in listed.stdout.splitlines()
        if f"pid={pid}," in line and line.split()[4].endswith(f":{port}")
    ]
    for address in local:
        subprocess.run(["ss", "-K", "-t", "src", address], capture_output=True, check=True)
    return len(local)


async def aenumerate(items: AsyncGenerator[Any, None]) -> AsyncGenerator[tuple[int, Any], None]:
    number = 0
    async for item in items:
        yield number, item
        number += 1
