"""Bad input through the public API: clear errors, and nothing changes."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncGenerator

import aiohttp
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from clients.grpcweb import CallError, call_error
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.gateway.grpcweb.routes import ID_FIELDS
from services.gateway.routing import public_routes
from services.stack.stack import Stack
from tests.e2e.support import UPDATE_TIMEOUT_S, Seated, challenge, next_update, player, until
from tests.waiting import poll_until
from wire.grpcweb.framing import decode_frames, encode_frame, parse_trailer_block

pytestmark = pytest.mark.asyncio(loop_scope="module")

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
STREAMS_PER_PLAYER = 16  # the gateway's default (PF_STREAMS_PER_PLAYER)
FLOOD = 100  # commands at once from one token: the edge lets a burst of 20 through
SUBMIT = "/photofinish.client.v1.Arena/Submit"
GRPC_WEB = {"content-type": "application/grpc-web+proto", "x-grpc-web": "1"}


@pytest_asyncio.fixture(loop_scope="module")
async def seated(arena: tuple[Stack, aiohttp.ClientSession]) -> tuple[Seated, Seated]:
    stack, http = arena
    a, b = await player(http, stack, "Alice"), await player(http, stack, "Bob")
    return await challenge(a, b, game_pb2.GAME_BID, rated=False)


async def latest(seated: Seated) -> arbitration_pb2.MatchUpdate:
    return await anext(seated.client.watch(seated.match_id, seated.seat))


async def raw_call(
    http: aiohttp.ClientSession, stack: Stack, path: str, body: bytes, token: str = ""
) -> dict[str, str]:
    """Return the gRPC status (trailers) of a hand-made gRPC-web request."""
    headers = dict(GRPC_WEB, authorization=f"Bearer {token}") if token else GRPC_WEB
    async with http.post(stack.gateway_url + path, data=body, headers=headers) as response:
        assert response.status == 200
        status = {k.lower(): v for k, v in response.headers.items() if k.startswith("grpc-")}
        for frame in decode_frames(await response.read()):
            if frame.is_trailer:
                status.update(parse_trailer_block(frame.payload))
        return status


async def test_calls_without_a_valid_token_are_refused(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    anonymous = ArenaClient(http, stack.gateway_url)
    with pytest.raises(CallError) as refused:
        await anonymous.ladder(game_pb2.GAME_BID)
    assert (refused.value.code, refused.value.reason) == (16, "unauthenticated")
    anonymous.web.token = "e30.forged"
    with pytest.raises(CallError) as forged:
        await anonymous.play_hot_seat(game_pb2.GAME_BID)
    assert (forged.value.code, forged.value.reason) == (16, "bad_token")


async def test_a_token_cannot_act_in_another_players_seat(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    stack, http = arena
    alice, bob = seated
    before = await latest(alice)
    with pytest.raises(CallError) as other_seat:
        await alice.client.submit(alice.match_id, bob.seat, READY)
    assert (other_seat.value.code, other_seat.value.reason) == (7, "not_your_seat")
    mallory = await player(http, stack, "Mallory")
    with pytest.raises(CallError) as stranger:
        await mallory.submit(alice.match_id, 0, READY)
    assert stranger.value.reason == "not_your_seat"
    with pytest.raises(CallError) as peek:
        await anext(alice.client.watch(alice.match_id, bob.seat))
    assert peek.value.reason == "not_your_seat"
    with pytest.raises(CallError) as elsewhere:
        await alice.client.submit("no-such-match", 0, READY)
    assert (elsewhere.value.code, elsewhere.value.reason) == (5, "unknown_match")
    assert (await latest(alice)).seq == before.seq


async def test_a_replayed_client_seq_is_answered_not_applied_again(
    seated: tuple[Seated, Seated],
) -> None:
    alice, _ = seated
    request = arbitration_pb2.SubmitRequest(
        match_id=alice.match_id, seat=alice.seat, client_seq=1000, command=READY
    )
    first = await alice.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
    after_first = await latest(alice)
    replay = await alice.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
    assert replay == first
    assert (await latest(alice)).seq == after_first.seq
    request.client_seq = 999
    with pytest.raises(CallError) as stale:
        await alice.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
    assert stale.value.reason == "stale_client_seq"
    assert (await latest(alice)).seq == after_first.seq
    # A number far ahead is refused and spends nothing: the next number is still judged.
    request.client_seq = 2**64 - 1
    with pytest.raises(CallError) as far:
        await alice.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
    assert (far.value.code, far.value.reason) == (3, "bad_client_seq")
    assert (await latest(alice)).seq == after_first.seq
    request.client_seq = 1001
    try:
        await alice.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
    except CallError as judged:  # the rules may refuse a second Ready: not its number
        assert judged.reason not in ("stale_client_seq", "bad_client_seq")


async def test_garbage_unknown_and_oversize_requests_get_clear_errors(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    stack, http = arena
    alice, _ = seated
    token = alice.client.web.token
    before = await latest(alice)
    garbage = await raw_call(http, stack, SUBMIT, b"\x00\x00\x00\x00\x10abc", token)
    assert garbage["grpc-status"] == "3"
    not_proto = await raw_call(http, stack, SUBMIT, b"\x00\x00\x00\x00\x03\xff\xff\xff", token)
    assert not_proto["grpc-status"] == "3"
    assert "SubmitRequest" in not_proto["grpc-message"]
    unknown = await raw_call(http, stack, "/photofinish.client.v1.Arena/Nope", b"", token)
    assert unknown["grpc-status"] == "12"
    huge = b"\x00" + (200_000).to_bytes(4, "big") + b"\x00" * 200_000
    oversize = await raw_call(http, stack, SUBMIT, huge, token)
    assert oversize["grpc-status"] == "8"
    async with http.get(f"{stack.gateway_url}/{'a' * 300}") as response:
        assert response.status == 404  # a name no file system holds: not found, not a 500
    with pytest.raises(CallError) as empty:
        await alice.submit(game_pb2.Command())
    assert empty.value.code == 3
    assert (await latest(alice)).seq == before.seq


async def test_an_illegal_move_is_refused_with_the_rules_reason(
    seated: tuple[Seated, Seated],
) -> None:
    alice, _ = seated
    before = await latest(alice)
    draw = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))
    with pytest.raises(CallError) as refused:
        await alice.submit(draw)
    assert refused.value.code == 9
    assert refused.value.reason == "at_gate"
    assert (await latest(alice)).seq == before.seq


async def test_a_spectator_sees_the_match_move_without_any_hand(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    """Nobody watched until now, so no spectator view was built: the watch brings one."""
    stack, http = arena
    alice, bob = seated
    watcher = await player(http, stack, "Carol")
    updates = watcher.watch(alice.match_id, -1)
    first = await next_update(updates)
    assert first.seat == -1 and first.view.bid.seat == -1
    await alice.submit(READY)
    await bob.submit(READY)
    moved = await until(updates, lambda u: u.seq > first.seq and u.view.bid.version > 0)
    assert not moved.view.bid.hand and list(moved.view.bid.hand_counts) == [7, 7]
    await updates.aclose()


async def test_a_match_id_that_is_no_subject_token_is_refused_by_watch(
    seated: tuple[Seated, Seated],
) -> None:
    alice, _ = seated
    for bad in ("", " ", ">", "a b", "..", "pf.>", "x" * 65):
        with pytest.raises(CallError) as refused:
            await anext(alice.client.watch(bad, 0))
        assert (refused.value.code, refused.value.reason) == (3, "bad_match_id"), bad


async def test_a_flood_of_commands_is_cut_at_the_edge_and_leaves_the_log_small(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    flooder = await player(http, stack, "Flood")
    calm = await player(http, stack, "Calm")
    first, second = await challenge(flooder, calm, game_pb2.GAME_BID, rated=False)
    empty = game_pb2.Command()  # refused by the arbitration (bad_command) if it got there
    outcomes = await asyncio.gather(
        *(first.submit(empty) for _ in range(FLOOD)), return_exceptions=True
    )
    reasons = Counter(o.reason for o in outcomes if isinstance(o, CallError))
    assert reasons["rate_limited"] >= FLOOD - 25, reasons
    limited = next(o for o in outcomes if isinstance(o, CallError) and o.reason == "rate_limited")
    assert limited.code == 8 and int(limited.metadata["retry_after_ms"]) > 0
    await second.submit(game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign())))
    log = await first.client.match_log(first.match_id)
    refused = [e for e in log.entries if e.kind == log_pb2.ENTRY_KIND_REFUSED]
    assert len(refused) <= 25  # what got past the edge, not the flood


async def test_one_token_cannot_hold_more_than_its_share_of_streams(
    seated: tuple[Seated, Seated],
) -> None:
    alice, _ = seated
    streams = [alice.client.watch(alice.match_id, alice.seat) for _ in range(STREAMS_PER_PLAYER)]
    try:
        for stream in streams:
            await next_update(stream)
        extra = alice.client.watch(alice.match_id, alice.seat)
        with pytest.raises(CallError) as refused:
            await next_update(extra)
        assert (refused.value.code, refused.value.reason) == (8, "too_many_streams")
        await streams.pop().aclose()  # one closed: room for another, once the gateway sees it

        async def reopened() -> AsyncGenerator[arbitration_pb2.MatchUpdate, None] | None:
            stream = alice.client.watch(alice.match_id, alice.seat)
            try:
                await next_update(stream)
            except CallError as error:
                assert error.reason == "too_many_streams"
                return None
            return stream

        streams.append(await poll_until("a stream reopened", reopened))
    finally:
        for stream in streams:
            await stream.aclose()


async def test_an_oversized_id_is_refused_at_the_edge_on_every_method(
    arena: tuple[Stack, aiohttp.ClientSession], seated: tuple[Seated, Seated]
) -> None:
    """A 60,000-character id used to travel to the backend and back inside its error."""
    stack, http = arena
    alice, _ = seated
    checked = []
    for path, route in public_routes().items():
        assert route.request is not None
        fields = set(route.request.DESCRIPTOR.fields_by_name) & set(ID_FIELDS)
        for field in sorted(fields):
            request = route.request(**{field: "x" * 60_000})
            async with http.post(
                stack.gateway_url + path,
                data=encode_frame(request.SerializeToString()),
                headers={
                    "content-type": "application/grpc-web+proto",
                    "authorization": f"Bearer {alice.client.web.token}",
                },
            ) as response:
                await response.read()
                said = dict(response.headers)
            error = call_error(said)
            assert error is not None, path
            assert (error.code, error.reason) == (3, ID_FIELDS[field].value), path
            assert sum(len(k) + len(v) for k, v in said.items()) < 2048, path
            checked.append(f"{path} {field}")
    assert len(checked) >= 12, checked


async def test_every_kind_of_stream_counts_toward_a_players_limit(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    """Tournament watches, challenges and the queue count as Watch does (16 a player); one
    token held 200 tournament watches before."""
    stack, http = arena
    flo = await player(http, stack, "Flo")
    request = tournaments_pb2.CreateTournamentRequest(
        name="Streams", game=game_pb2.GAME_SPIT, rated=False, duration_s=600
    )
    tournament = await flo.create_tournament(request)
    watches = [flo.watch_tournament(tournament.tournament_id) for _ in range(16)]
    try:
        for watch in watches:
            await asyncio.wait_for(anext(watch), UPDATE_TIMEOUT_S)
        for over in (
            flo.watch_tournament(tournament.tournament_id),
            flo.create_challenge(game_pb2.GAME_BID, rated=False),
            flo.queue(game_pb2.GAME_BID, rated=False),
        ):
            with pytest.raises(CallError) as refused:
                await asyncio.wait_for(anext(over), UPDATE_TIMEOUT_S)
            assert refused.value.reason == "too_many_streams"
        await watches.pop().aclose()  # one closes: room for a challenge, once the gateway
        # has seen the browser go and ended its handler
        opened = await poll_until("a challenge opens", lambda: challenge_code(flo))
        assert opened
    finally:
        for watch in watches:
            await watch.aclose()


async def challenge_code(client: ArenaClient) -> str | None:
    """Open a challenge and close it again: its code, or None while no stream is free."""
    stream = client.create_challenge(game_pb2.GAME_BID, rated=False)
    try:
        return (await asyncio.wait_for(anext(stream), UPDATE_TIMEOUT_S)).code
    except CallError as error:
        assert error.reason == "too_many_streams", error
        return None
    finally:
        await stream.aclose()
