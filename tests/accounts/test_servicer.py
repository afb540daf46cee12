"""The Accounts gRPC service over a real channel, on both databases: the flows a client
uses, and every refusal with its reason and nothing changed."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from services.accounts.attempts import FREE_PER_NAME
from services.common.identity import CLIENT_ADDRESS
from tests.accounts.calls import refusal

GOOD = "correct horse battery"


def sign_up(name: str, password: str = GOOD, guest: str = "") -> accounts_pb2.SignUpRequest:
    return accounts_pb2.SignUpRequest(
        username=name, password=password, device="Chromium on Linux", guest_player_id=guest
    )


def sign_in(name: str, password: str = GOOD, device: str = "phone") -> accounts_pb2.SignInRequest:
    return accounts_pb2.SignInRequest(username=name, password=password, device=device)


async def test_sign_up_sign_in_elsewhere_a_reused_refresh_then_sign_out_everywhere(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    made = await stub.SignUp(sign_up("Ann", guest="g_guestann"))
    assert (made.player_id, made.username) == ("g_guestann", "Ann")
    assert made.refresh_expires_unix_s > time.time() + 29 * 86400
    phone = await stub.SignIn(sign_in("ann"))  # the name in any case
    assert (phone.player_id, phone.username) == (made.player_id, "Ann")
    assert phone.session_id != made.session_id
    devices = await stub.ListDevices(accounts_pb2.ListDevicesRequest(player_id=made.player_id))
    assert sorted(d.device for d in devices.devices) == ["Chromium on Linux", "phone"]
    turned = await stub.Refresh(accounts_pb2.RefreshRequest(refresh_token=phone.refresh_token))
    assert turned.session_id == phone.session_id and turned.refresh_token != phone.refresh_token
    reused = await refusal(
        stub.Refresh(accounts_pb2.RefreshRequest(refresh_token=phone.refresh_token))
    )
    assert reused[1:] == ("refresh_reused", {"ended_session_id": phone.session_id})
    ended = await stub.SignOut(accounts_pb2.SignOutRequest(player_id=made.player_id))
    assert list(ended.ended_session_ids) == [made.session_id]  # the phone's ended at the reuse
    for token in (made.refresh_token, turned.refresh_token):
        code, reason, _ = await refusal(
            stub.Refresh(accounts_pb2.RefreshRequest(refresh_token=token))
        )
        assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "session_ended")


async def test_only_sign_up_says_that_a_name_exists(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    await stub.SignUp(sign_up("Ann"))
    assert (await refusal(stub.SignUp(sign_up("Аnn"))))[:2] == (
        grpc.StatusCode.ALREADY_EXISTS,
        "taken",
    )
    unknown = await refusal(stub.SignIn(sign_in("Nobody")))
    wrong = await refusal(stub.SignIn(sign_in("Ann", "wrong password")))
    malformed = await refusal(stub.SignIn(sign_in("\u202eAnn")))
    assert unknown == wrong == malformed == (grpc.StatusCode.UNAUTHENTICATED, "bad_credentials", {})


@pytest.mark.parametrize(
    ("name", "password", "reason"),
    [
        ("Ann", "short", "password_length"),
        ("Ann", "password123", "password_common"),
        ("A", GOOD, "name_length"),
        ("A" * 500, GOOD, "name_length"),
        ("An\u202en", GOOD, "name_characters"),
        ("An\x00n", GOOD, "name_characters"),
    ],
)
async def test_a_bad_name_or_password_is_refused_and_nothing_is_made(
    stub: accounts_pb2_grpc.AccountsAsyncStub, name: str, password: str, reason: str
) -> None:
    assert (await refusal(stub.SignUp(sign_up(name, password))))[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        reason,
    )
    await refusal(stub.SignIn(sign_in(name, password)))  # no account came of it


async def test_guessing_is_slowed_with_retry_after_while_the_owner_signs_in(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    await stub.SignUp(sign_up("Ann"))
    guesser = ((CLIENT_ADDRESS, "203.0.113.9"),)
    for _ in range(FREE_PER_NAME):
        await refusal(stub.SignIn(sign_in("Ann", "guess guess"), metadata=guesser))
    code, reason, metadata = await refusal(
        stub.SignIn(sign_in("Ann", GOOD), metadata=guesser)  # even the right password waits
    )
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "too_many_attempts")
    assert 0 < int(metadata["retry_after_ms"]) <= 1000
    owner = ((CLIENT_ADDRESS, "198.51.100.7"),)
    assert (await stub.SignIn(sign_in("Ann"), metadata=owner)).username == "Ann"


async def test_a_deleted_account_is_refused_at_once_and_its_name_stays_taken(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    made = await stub.SignUp(sign_up("Ann"))
    wrong = accounts_pb2.DeleteAccountRequest(player_id=made.player_id, password="not it!!")
    assert (await refusal(stub.DeleteAccount(wrong)))[1] == "bad_credentials"
    await stub.Refresh(accounts_pb2.RefreshRequest(refresh_token=made.refresh_token))
    deleted = await stub.DeleteAccount(
        accounts_pb2.DeleteAccountRequest(player_id=made.player_id, password=GOOD)
    )
    assert list(deleted.ended_session_ids) == [made.session_id]
    assert (await refusal(stub.SignIn(sign_in("Ann"))))[1] == "bad_credentials"
    assert (await refusal(stub.SignUp(sign_up("ann"))))[1] == "taken"


async def test_malformed_ids_are_refused_with_a_reason(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    for call in (
        stub.ListDevices(accounts_pb2.ListDevicesRequest(player_id="")),
        stub.SignOut(accounts_pb2.SignOutRequest(player_id="x" * 65)),
        stub.SignOut(accounts_pb2.SignOutRequest(player_id="a", session_id="é")),
        stub.SignUp(sign_up("Ann", guest="g_" + "x" * 100)),
    ):
        assert (await refusal(call))[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "bad_request")
    code, reason, _ = await refusal(
        stub.SignOut(accounts_pb2.SignOutRequest(player_id="a_x", session_id="s_nope"))
    )
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "no_such_session")


async def test_sign_ins_at_once_each_get_their_own_session(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    await stub.SignUp(sign_up("Ann"))
    sessions = await asyncio.gather(*(stub.SignIn(sign_in("Ann")) for _ in range(8)))
    assert len({s.session_id for s in sessions}) == 8
