"""Accounts through the real gateway and the real accounts service, on SQLite and on
PostgreSQL: a guest who signs up keeps its games, sessions on two devices, refresh
rotation and reuse, and a session ended on one gateway closing its streams."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import aiohttp
import psycopg
import pytest
import pytest_asyncio

from clients.arena import ArenaClient, CallError
from clients.play import PlaySocket
from photofinish.game.v1 import game_pb2
from services.stack.stack import Stack, StackConfig, run_stack
from tests.accounts.authenticator import SoftAuthenticator
from tests.conftest import POSTGRES_URL

pytestmark = pytest.mark.asyncio(loop_scope="module")

PASSWORD = "correct horse battery"
ENDED_WITHIN_S = 20.0  # a guard against a hang, not a measured time


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A DATABASE_URL whose tables live in a fresh schema, dropped after."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest_asyncio.fixture(loop_scope="module", scope="module", params=["sqlite", "postgresql"])
async def arena(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    with contextlib.ExitStack() as schemas:
        url = schemas.enter_context(postgres_schema()) if request.param == "postgresql" else ""
        config = StackConfig(Path(tmp_path_factory.mktemp("stack")), database_url=url)
        async with run_stack(config) as stack, aiohttp.ClientSession() as http:
            yield stack, http


def client(arena: tuple[Stack, aiohttp.ClientSession]) -> ArenaClient:
    stack, http = arena
    return ArenaClient(http, stack.gateway_url)


async def refused(call: object) -> CallError:
    assert asyncio.iscoroutine(call)
    with pytest.raises(CallError) as error:
        await call
    return error.value


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


async def test_a_guest_who_signs_up_keeps_its_id_and_signs_in_on_a_second_device(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    desktop = client(arena)
    guest = await desktop.sign_in("Ann")
    await desktop.play_hot_seat(game_pb2.GAME_SPIT)  # a game the guest played
    name = unique("Ann")
    made = await desktop.sign_up(name, PASSWORD, "Chromium on Linux")
    assert (made.player_id, made.username) == (guest.player_id, name)
    phone = client(arena)
    session = await phone.sign_in_account(name.upper(), PASSWORD, "Chromium on Android")
    assert session.player_id == guest.player_id and session.session_id != made.session_id
    devices = (await phone.list_devices()).devices
    assert sorted((d.device, d.this_device) for d in devices) == [
        ("Chromium on Android", True),
        ("Chromium on Linux", False),
    ]
    # Both devices are the same player: the same rating and the same history.
    assert await desktop.get_rating(made.player_id, game_pb2.GAME_SPIT) == await phone.get_rating(
        made.player_id, game_pb2.GAME_SPIT
    )


async def test_only_sign_up_says_a_name_exists(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    name = unique("Bo")
    await client(arena).sign_up(name, PASSWORD, "desktop")
    taken = await refused(client(arena).sign_up(name.lower(), PASSWORD, "desktop"))
    assert taken.reason == "taken"
    unknown = await refused(client(arena).sign_in_account(unique("Zed"), PASSWORD, "phone"))
    wrong = await refused(client(arena).sign_in_account(name, "not the password", "phone"))
    assert (unknown.reason, unknown.code, unknown.message) == (
        wrong.reason,
        wrong.code,
        wrong.message,
    )
    assert wrong.reason == "bad_credentials"


async def test_a_guest_has_no_devices_and_cannot_sign_out_an_account(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    guest = client(arena)
    await guest.sign_in("Cy")
    assert (await refused(guest.list_devices())).reason == "account_needed"
    assert (await refused(guest.sign_out(everywhere=True))).reason == "account_needed"


async def test_a_refresh_token_reused_ends_its_session_at_once(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    name = unique("Di")
    first = client(arena)
    made = await first.sign_up(name, PASSWORD, "desktop")
    other = client(arena)
    await other.sign_in_account(name, PASSWORD, "phone")
    turned = await first.refresh_session(made.refresh_token)
    assert turned.session_id == made.session_id and turned.refresh_token != made.refresh_token
    await first.list_devices()  # the new access token works
    thief = client(arena)
    assert (await refused(thief.refresh_session(made.refresh_token))).reason == "refresh_reused"
    # The session's latest access token is refused from now on; the other device plays on.
    assert (await refused(first.list_devices())).reason == "bad_token"
    assert (await refused(first.refresh_session(turned.refresh_token))).reason == ("session_ended")
    assert len((await other.list_devices()).devices) == 1


async def test_sign_out_everywhere_closes_the_other_device_s_stream_and_play_socket(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    name = unique("Ed")
    desktop, phone = client(arena), client(arena)
    await desktop.sign_up(name, PASSWORD, "desktop")
    await phone.sign_in_account(name, PASSWORD, "phone")
    match = await phone.play_hot_seat(game_pb2.GAME_BID)
    updates = phone.watch(match.match_id, match.seats[0])
    await anext(updates)  # the stream is open and has its first update

    async def until_closed() -> CallError | None:
        try:
            async for _ in updates:
                pass
        except CallError as error:
            return error
        return None

    watching = asyncio.create_task(until_closed())
    web = phone.web
    socket = await PlaySocket.open(web.session, web.base_url, web.token, match.match_id, 1)
    await anext(socket.updates())  # the socket is open and has its first update

    async def until_socket_closed() -> CallError | None:
        try:
            async for _ in socket.updates():
                pass
        except CallError as error:
            return error
        return None

    playing = asyncio.create_task(until_socket_closed())
    ended = await desktop.sign_out(everywhere=True)
    assert len(ended.ended_session_ids) == 2
    stream_end = await asyncio.wait_for(watching, ENDED_WITHIN_S)
    socket_end = await asyncio.wait_for(playing, ENDED_WITHIN_S)
    assert isinstance(stream_end, CallError) and stream_end.reason == "session_ended"
    assert isinstance(socket_end, CallError) and socket_end.reason == "session_ended"
    assert (await refused(phone.list_devices())).reason == "bad_token"
    assert (await refused(phone.play_hot_seat(game_pb2.GAME_BID))).reason == "bad_token"


async def test_a_deleted_account_is_refused_and_its_name_stays_taken(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    name = unique("Fa")
    player = client(arena)
    await player.sign_up(name, PASSWORD, "desktop")
    assert (await refused(player.delete_account("not the password"))).reason == ("bad_credentials")
    await player.delete_account(PASSWORD)
    again = await refused(client(arena).sign_in_account(name, PASSWORD, "desktop"))
    assert again.reason == "bad_credentials"
    assert (await refused(client(arena).sign_up(name, PASSWORD, "desktop"))).reason == "taken"


async def test_a_passkey_added_on_one_device_signs_in_on_another(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, _ = arena
    # The gateway names its page's origin http://localhost:<port> (PF_PASSKEY_ORIGIN unset).
    origin = stack.gateway_url.replace("127.0.0.1", "localhost")
    desktop, phone = client(arena), client(arena)
    made = await desktop.sign_up(unique("Pk"), PASSWORD, "desktop")
    authenticator = SoftAuthenticator()
    begun = await desktop.begin_adding_passkey()
    assert json.loads(begun.options_json)["rp"]["id"] == "localhost"
    added = await desktop.add_passkey(
        begun.challenge_id, authenticator.create(begun.options_json, origin), "laptop"
    )
    assert [p.name for p in (await desktop.list_passkeys()).passkeys] == ["laptop"]
    asked = await phone.begin_passkey_sign_in()
    signed = await phone.passkey_sign_in(
        asked.challenge_id, authenticator.get(asked.options_json, origin), "phone"
    )
    assert (signed.player_id, signed.username) == (made.player_id, made.username)
    assert len((await phone.list_devices()).devices) == 2
    # A page elsewhere that got the same answer signed gets nothing.
    asked = await client(arena).begin_passkey_sign_in()
    forged = authenticator.get(asked.options_json, "http://localhost:1")
    error = await refused(client(arena).passkey_sign_in(asked.challenge_id, forged, "phone"))
    assert error.reason == "passkey_refused"
    await desktop.remove_passkey(added.credential_id)
    asked = await phone.begin_passkey_sign_in()
    answer = authenticator.get(asked.options_json, origin)
    assert (await refused(phone.passkey_sign_in(asked.challenge_id, answer, "phone"))).reason == (
        "passkey_unknown"
    )


async def test_a_guest_cannot_add_a_passkey(arena: tuple[Stack, aiohttp.ClientSession]) -> None:
    guest = client(arena)
    await guest.sign_in("Gus")
    assert (await refused(guest.begin_adding_passkey())).reason == "account_needed"
