"""Passkeys through the Accounts service over a real channel, on both databases, with a
software authenticator: added and used to sign in; and every answer that must not sign
anyone in (a wrong origin or RP ID, another challenge, a replay, a counter gone back, a
removed passkey, a deleted account) refused with its reason, changing nothing."""

from __future__ import annotations

import json

import grpc
import pytest

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from services.accounts.credentials import CHALLENGE_TTL_S
from tests.accounts.authenticator import SoftAuthenticator
from tests.accounts.calls import refusal
from tests.accounts.conftest import Clock

ORIGIN = "http://localhost:7100"
GOOD = "correct horse battery"


async def signed_up(
    stub: accounts_pb2_grpc.AccountsAsyncStub, name: str = "Ann"
) -> accounts_pb2.Session:
    return await stub.SignUp(
        accounts_pb2.SignUpRequest(username=name, password=GOOD, device="desktop")
    )


async def add_passkey(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
    player_id: str,
    authenticator: SoftAuthenticator,
    origin: str = ORIGIN,
) -> accounts_pb2.Passkey:
    begun = await stub.BeginAddPasskey(
        accounts_pb2.BeginAddPasskeyRequest(player_id=player_id, origin=origin)
    )
    return await stub.AddPasskey(
        accounts_pb2.AddPasskeyRequest(
            player_id=player_id,
            origin=origin,
            challenge_id=begun.challenge_id,
            credential_json=authenticator.create(begun.options_json, origin),
            name="laptop",
        )
    )


async def answer(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
    authenticator: SoftAuthenticator,
    page: str = ORIGIN,
    origin: str = ORIGIN,
) -> accounts_pb2.PasskeySignInRequest:
    """A sign-in challenge (the gateway's ``origin``) answered by the page at ``page``."""
    begun = await stub.BeginPasskeySignIn(accounts_pb2.BeginPasskeySignInRequest(origin=origin))
    return accounts_pb2.PasskeySignInRequest(
        origin=origin,
        challenge_id=begun.challenge_id,
        credential_json=authenticator.get(begun.options_json, page),
        device="phone",
    )


async def test_a_passkey_added_signs_in_with_no_name_and_no_password(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    ann = await signed_up(stub)
    authenticator = SoftAuthenticator()
    added = await add_passkey(stub, ann.player_id, authenticator)
    assert added.name == "laptop" and added.last_used_unix_s == 0
    signed = await stub.PasskeySignIn(await answer(stub, authenticator))
    assert (signed.player_id, signed.username) == (ann.player_id, "Ann")
    assert signed.session_id != ann.session_id and signed.refresh_token
    listed = await stub.ListPasskeys(accounts_pb2.ListPasskeysRequest(player_id=ann.player_id))
    assert [p.credential_id for p in listed.passkeys] == [added.credential_id]
    assert listed.passkeys[0].last_used_unix_s > 0
    devices = await stub.ListDevices(accounts_pb2.ListDevicesRequest(player_id=ann.player_id))
    assert sorted(d.device for d in devices.devices) == ["desktop", "phone"]


async def test_the_options_ask_for_a_discoverable_passkey_of_this_account(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    ann = await signed_up(stub)
    authenticator = SoftAuthenticator()
    await add_passkey(stub, ann.player_id, authenticator)
    begun = await stub.BeginAddPasskey(
        accounts_pb2.BeginAddPasskeyRequest(player_id=ann.player_id, origin=ORIGIN)
    )
    options = json.loads(begun.options_json)
    assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "Ann"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert len(options["excludeCredentials"]) == 1  # no second passkey on one authenticator
    sign_in = await stub.BeginPasskeySignIn(accounts_pb2.BeginPasskeySignInRequest(origin=ORIGIN))
    assert json.loads(sign_in.options_json)["allowCredentials"] == []  # any account's passkey


async def test_an_answer_replayed_is_refused(stub: accounts_pb2_grpc.AccountsAsyncStub) -> None:
    ann = await signed_up(stub)
    authenticator = SoftAuthenticator()
    await add_passkey(stub, ann.player_id, authenticator)
    request = await answer(stub, authenticator)
    await stub.PasskeySignIn(request)
    assert (await refusal(stub.PasskeySignIn(request)))[:2] == (
        grpc.StatusCode.UNAUTHENTICATED,
        "challenge_unknown",
    )
    # The same signed answer sent with a new challenge id: signed over another challenge.
    begun = await stub.BeginPasskeySignIn(accounts_pb2.BeginPasskeySignInRequest(origin=ORIGIN))
    request.challenge_id = begun.challenge_id
    assert (await refusal(stub.PasskeySignIn(request)))[1] == "passkey_refused"


@pytest.mark.parametrize(
    ("page", "why"),
    [
        ("https://evil.example", "passkey_refused"),  # another site's page answered
        ("http://localhost:7101", "passkey_refused"),  # another port is another origin
    ],
)
async def test_an_answer_from_another_origin_is_refused(
    stub: accounts_pb2_grpc.AccountsAsyncStub, page: str, why: str
) -> None:
    ann = await signed_up(stub)
    authenticator = SoftAuthenticator()
    await add_passkey(stub, ann.player_id, authenticator)
    before = await stub.ListDevices(accounts_pb2.ListDevicesRequest(player_id=ann.player_id))
    request = await answer(stub, authenticator, page=page)
    assert (await refusal(stub.PasskeySignIn(request)))[1] == why
    after = await stub.ListDevices(accounts_pb2.ListDevicesRequest(player_id=ann.player_id))
    assert after == before  # no session began


async def test_a_passkey_of_another_rp_id_is_refused(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    ann = await signed_up(stub)
    elsewhere = SoftAuthenticator()
    await add_passkey(stub, ann.player_id, elsewhere, origin="http://arena.example")
    request = await answer(stub, elsewhere, page="http://localhost:7100")
    assert (await refusal(stub.PasskeySignIn(request)))[1] == "passkey_refused"


@pytest.mark.parametrize("origin", ["http://127.0.0.1:7100", "ftp://localhost", "localhost", ""])
async def test_an_origin_with_no_name_gets_bad_origin(
    stub: accounts_pb2_grpc.AccountsAsyncStub, origin: str
) -> None:
    ann = await signed_up(stub)
    request = accounts_pb2.BeginAddPasskeyRequest(player_id=ann.player_id, origin=origin)
    assert (await refusal(stub.BeginAddPasskey(request)))[:2] == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "bad_origin",
    )


async def test_a_challenge_expires_and_serves_only_its_account(
    stub: accounts_pb2_grpc.AccountsAsyncStub, clock: Clock
) -> None:
    ann, bea = await signed_up(stub), await signed_up(stub, "Bea")
    authenticator = SoftAuthenticator()
    begun = await stub.BeginAddPasskey(
        accounts_pb2.BeginAddPasskeyRequest(player_id=ann.player_id, origin=ORIGIN)
    )
    made = authenticator.create(begun.options_json, ORIGIN)
    theft = accounts_pb2.AddPasskeyRequest(
        player_id=bea.player_id,
        origin=ORIGIN,
        challenge_id=begun.challenge_id,
        credential_json=made,
    )
    assert (await refusal(stub.AddPasskey(theft)))[1] == "challenge_unknown"
    late = await stub.BeginAddPasskey(
        accounts_pb2.BeginAddPasskeyRequest(player_id=ann.player_id, origin=ORIGIN)
    )
    clock.now += CHALLENGE_TTL_S
    request = accounts_pb2.AddPasskeyRequest(
        player_id=ann.player_id,
        origin=ORIGIN,
        challenge_id=late.challenge_id,
        credential_json=authenticator.create(late.options_json, ORIGIN),
    )
    assert (await refusal(stub.AddPasskey(request)))[1] == "challenge_unknown"
    held = await stub.ListPasskeys(accounts_pb2.ListPasskeysRequest(player_id=ann.player_id))
    assert list(held.passkeys) == []


async def test_a_counter_that_goes_back_is_a_copied_passkey(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    ann = await signed_up(stub)
    authenticator = SoftAuthenticator(counting=True)
    await add_passkey(stub, ann.player_id, authenticator)
    await stub.PasskeySignIn(await answer(stub, authenticator))
    await stub.PasskeySignIn(await answer(stub, authenticator))
    next(iter(authenticator.held.values())).counter = 0  # the copy signs with an older count
    assert (await refusal(stub.PasskeySignIn(await answer(stub, authenticator))))[1] == (
        "passkey_refused"
    )


async def test_removed_passkeys_and_deleted_accounts_sign_nobody_in(
    stub: accounts_pb2_grpc.AccountsAsyncStub,
) -> None:
    ann, bea = await signed_up(stub), await signed_up(stub, "Bea")
    ann_key, bea_key = SoftAuthenticator(), SoftAuthenticator()
    added = await add_passkey(stub, ann.player_id, ann_key)
    await add_passkey(stub, bea.player_id, bea_key)
    not_hers = accounts_pb2.RemovePasskeyRequest(
        player_id=bea.player_id, credential_id=added.credential_id
    )
    assert (await refusal(stub.RemovePasskey(not_hers)))[1] == "passkey_unknown"
    left = await stub.RemovePasskey(
        accounts_pb2.RemovePasskeyRequest(
            player_id=ann.player_id, credential_id=added.credential_id
        )
    )
    assert list(left.passkeys) == []
    assert (await refusal(stub.PasskeySignIn(await answer(stub, ann_key))))[1] == (
        "passkey_unknown"
    )
    await stub.DeleteAccount(
        accounts_pb2.DeleteAccountRequest(player_id=bea.player_id, password=GOOD)
    )
    assert (await refusal(stub.PasskeySignIn(await answer(stub, bea_key))))[1] == (
        "passkey_unknown"
    )


@pytest.mark.parametrize(
    "credential_json",
    ["", "not json", "[]", '{"id": 1}', json.dumps({"id": "x" * 20_000}), "{" * 10_000],
)
async def test_a_malformed_answer_is_refused(
    stub: accounts_pb2_grpc.AccountsAsyncStub, credential_json: str
) -> None:
    begun = await stub.BeginPasskeySignIn(accounts_pb2.BeginPasskeySignInRequest(origin=ORIGIN))
    request = accounts_pb2.PasskeySignInRequest(
        origin=ORIGIN, challenge_id=begun.challenge_id, credential_json=credential_json
    )
    assert (await refusal(stub.PasskeySignIn(request)))[1] == "passkey_refused"
