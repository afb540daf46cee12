"""The play socket (/play): a seat's updates and commands on one WebSocket, against a stack."""

from __future__ import annotations

import aiohttp
import pytest
import pytest_asyncio

from clients.grpcweb import CallError
from clients.play import PlaySocket, SocketArena
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import play_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, first_end, next_update, player, until

pytestmark = pytest.mark.asyncio(loop_scope="module")

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
DRAW = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))
RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))


@pytest_asyncio.fixture(loop_scope="module")
async def seated(arena: tuple[Stack, aiohttp.ClientSession]) -> tuple[Seated, Seated]:
    stack, http = arena
    a, b = await player(http, stack, "Alice"), await player(http, stack, "Bob")
    return await challenge(a, b, game_pb2.GAME_BID, rated=False)


async def open_socket(seated: Seated, seat: int | None = None) -> PlaySocket:
    web = seated.client.web
    chosen = seated.seat if seat is None else seat
    return await PlaySocket.open(web.session, web.base_url, web.token, seated.match_id, chosen)


async def closing_of(
    arena: tuple[Stack, aiohttp.ClientSession], *messages: bytes | str
) -> tuple[play_pb2.PlayOut | None, int | None]:
    """Send ``messages`` on a raw socket; return the gateway's last word and close code."""
    stack, http = arena
    async with http.ws_connect(stack.gateway_url.replace("http", "ws", 1) + "/play") as ws:
        for message in messages:
            if isinstance(message, str):
                await ws.send_str(message)
            else:
                await ws.send_bytes(message)
        said = None
        async for frame in ws:
            if frame.type is aiohttp.WSMsgType.BINARY:
                said = play_pb2.PlayOut.FromString(frame.data)
        return said, ws.close_code


def hello(token: str, match_id: str, seat: int) -> bytes:
    return play_pb2.PlayIn(
        hello=play_pb2.PlayHello(token=token, match_id=match_id, seat=seat)
    ).SerializeToString()


async def test_a_command_on_the_socket_is_answered_and_both_seats_see_it(
    seated: tuple[Seated, Seated],
) -> None:
    alice, bob = seated
    mine, theirs = await open_socket(alice), await open_socket(bob)
    my_updates, their_updates = mine.updates(), theirs.updates()
    first = await next_update(my_updates)
    assert (first.seat, first.status) == (alice.seat, arbitration_pb2.STATUS_LIVE)
    assert len(first.view.bid.hand) == 7  # the seat's own hand, and only its own
    reply = await mine.submit(1, READY)
    assert reply.seq > first.seq
    seen = await until(my_updates, lambda u: u.seq >= reply.seq)
    told = await until(their_updates, lambda u: u.seq >= reply.seq)
    assert (seen.seat, told.seat) == (alice.seat, bob.seat)
    assert {t.text for t in seen.view.bid.hand}.isdisjoint({t.text for t in told.view.bid.hand})
    again = await mine.submit(1, READY)  # a retry: answered as the first time, not applied
    assert again == reply
    with pytest.raises(CallError) as zero:
        await mine.submit(0, READY)
    assert zero.value.reason == "bad_client_seq"
    with pytest.raises(CallError) as empty:
        await mine.submit(5, game_pb2.Command())
    assert empty.value.code == 3
    with pytest.raises(CallError) as stale:
        await mine.submit(4, READY)
    assert stale.value.reason == "stale_client_seq"
    await mine.close()
    await theirs.close()


async def test_an_illegal_command_gets_the_rules_reason_and_changes_nothing(
    seated: tuple[Seated, Seated],
) -> None:
    alice, _ = seated
    socket = await open_socket(alice)
    updates = socket.updates()
    before = await next_update(updates)
    with pytest.raises(CallError) as refused:
        await socket.submit(1, DRAW)
    assert (refused.value.code, refused.value.reason) == (9, "at_gate")
    await socket.close()
    again = await open_socket(alice)
    assert (await next_update(again.updates())).seq == before.seq
    await again.close()


async def test_the_last_update_is_followed_by_a_normal_close(
    seated: tuple[Seated, Seated],
) -> None:
    alice, bob = seated
    socket, resigning = await open_socket(bob), await open_socket(alice)
    updates = socket.updates()
    await next_update(updates)
    # The command that ends the match is answered on its socket before the close.
    reply = await resigning.submit(1, RESIGN)
    last = await first_end(updates)
    assert last.status == arbitration_pb2.STATUS_FINISHED and last.seq == reply.seq
    assert [u.status async for u in resigning.updates()][-1] == arbitration_pb2.STATUS_FINISHED
    with pytest.raises(StopAsyncIteration):
        await next_update(updates)
    after = await open_socket(bob)  # a finished match: its last update, then the close
    assert [u.status async for u in after.updates()] == [arbitration_pb2.STATUS_FINISHED]


async def test_a_spectator_socket_shows_no_hand(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    stack, http = arena
    alice, bob = seated
    carol = Seated(await player(http, stack, "Carol"), alice.match_id, -1)
    socket = await open_socket(carol)
    updates = socket.updates()
    first = await next_update(updates)
    assert first.seat == -1 and not first.view.bid.hand
    await alice.submit(READY)
    await bob.submit(READY)
    moved = await until(updates, lambda u: u.view.bid.version > 0)
    assert not moved.view.bid.hand and list(moved.view.bid.hand_counts) == [7, 7]
    with pytest.raises(CallError) as spectating:
        await socket.submit(1, DRAW)
    assert spectating.value.reason == "not_your_seat"
    await socket.close()


async def test_a_bot_plays_through_the_socket_arena(seated: tuple[Seated, Seated]) -> None:
    alice, _ = seated
    arena = SocketArena(alice.client)
    updates = arena.watch(alice.match_id, alice.seat)
    first = await next_update(updates)
    reply = await arena.submit(alice.match_id, alice.seat, READY)
    assert reply.seq > first.seq
    await updates.aclose()
    # Without a socket the command goes over gRPC-web, numbered by the same counter.
    with pytest.raises(CallError) as gate:
        await arena.submit(alice.match_id, alice.seat, READY)
    assert gate.value.code == 9


async def test_who_may_follow_a_seat_is_checked_at_hello(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    alice, bob = seated
    token = alice.client.web.token
    cases = {
        "bad_token": hello("e30.forged", alice.match_id, alice.seat),
        "not_your_seat": hello(token, alice.match_id, bob.seat),
        "unknown_match": hello(token, "no-such-match", 0),
    }
    for reason, message in cases.items():
        said, code = await closing_of(arena, message)
        assert said is not None and said.closed.reason == reason, reason
        assert code == 1008
    for bad in ("", " ", ">", "a b", "..", "pf.>"):
        said, code = await closing_of(arena, hello(token, bad, 0))
        assert said is not None and said.closed.reason == "bad_match_id"


async def test_malformed_messages_end_the_conversation_with_a_reason(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    alice, _ = seated
    greeting = hello(alice.client.web.token, alice.match_id, alice.seat)
    submit = play_pb2.PlayIn(submit=play_pb2.PlaySubmit(client_seq=1, command=READY))
    cases: dict[str, tuple[bytes | str, ...]] = {
        "hello_first": (submit.SerializeToString(),),
        "malformed_message": (b"\xff\xff\xff",),
        "binary_only": ("hello",),
        "hello_twice": (greeting, greeting),
        "empty_message": (greeting, b""),
    }
    for reason, messages in cases.items():
        said, code = await closing_of(arena, *messages)
        assert said is not None and said.closed.reason == reason, reason
        assert code in (1002, 1008)
    socket = await open_socket(alice)  # nothing changed: the seat is still at the gate
    with pytest.raises(CallError) as gate:
        await socket.submit(100, DRAW)
    assert gate.value.reason == "at_gate"
    await socket.close()
