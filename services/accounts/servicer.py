"""The Accounts gRPC service: decode the request, run the flow, encode the reply.

Every refusal leaves through ``abort``, the one place that maps a reason to a status code.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, NoReturn, TypeVar

import grpc

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from services.accounts.credentials import Passkey
from services.accounts.model import Reason, Refused, SignedIn
from services.accounts.names import BadName
from services.accounts.passkeys import Passkeys
from services.accounts.passwords import BadPassword
from services.accounts.signing import Signing
from services.common.identity import CLIENT_ADDRESS, text_values
from services.common.rejection import Rejection

T = TypeVar("T")
Context = grpc.aio.ServicerContext[Any, Any]
MAX_ID_CHARS = 64
MAX_CREDENTIAL_ID_CHARS = 1368  # WebAuthn's 1023 bytes at most, in base64url

_CODES = {
    Reason.TAKEN: grpc.StatusCode.ALREADY_EXISTS,
    Reason.GUEST_CLAIMED: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.BAD_CREDENTIALS: grpc.StatusCode.UNAUTHENTICATED,
    Reason.REFRESH_UNKNOWN: grpc.StatusCode.UNAUTHENTICATED,
    Reason.REFRESH_EXPIRED: grpc.StatusCode.UNAUTHENTICATED,
    Reason.REFRESH_REUSED: grpc.StatusCode.UNAUTHENTICATED,
    Reason.SESSION_ENDED: grpc.StatusCode.UNAUTHENTICATED,
    Reason.NO_SUCH_SESSION: grpc.StatusCode.NOT_FOUND,
    Reason.TOO_MANY_ATTEMPTS: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Reason.BAD_ORIGIN: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.CHALLENGE_UNKNOWN: grpc.StatusCode.UNAUTHENTICATED,
    Reason.PASSKEY_UNKNOWN: grpc.StatusCode.UNAUTHENTICATED,
    Reason.PASSKEY_REFUSED: grpc.StatusCode.UNAUTHENTICATED,
}


class AccountsServicer(accounts_pb2_grpc.AccountsServicer):
    def __init__(self, signing: Signing, passkeys: Passkeys) -> None:
        self._signing = signing
        self._passkeys = passkeys

    async def SignUp(
        self, request: accounts_pb2.SignUpRequest, context: Context
    ) -> accounts_pb2.Session:
        guest = await _checked(context, request.guest_player_id, "guest_player_id", empty=True)
        signed = await _answer(
            context,
            self._signing.sign_up(request.username, request.password, request.device, guest),
        )
        return _session(signed)

    async def SignIn(
        self, request: accounts_pb2.SignInRequest, context: Context
    ) -> accounts_pb2.Session:
        # The player's address, as the gateway saw it: the per-address back-off is theirs.
        address = text_values(context.invocation_metadata()).get(CLIENT_ADDRESS, "")
        signed = await _answer(
            context,
            self._signing.sign_in(request.username, request.password, request.device, address),
        )
        return _session(signed)

    async def Refresh(
        self, request: accounts_pb2.RefreshRequest, context: Context
    ) -> accounts_pb2.Session:
        return _session(await _answer(context, self._signing.refresh(request.refresh_token)))

    async def ListDevices(
        self, request: accounts_pb2.ListDevicesRequest, context: Context
    ) -> accounts_pb2.ListDevicesReply:
        player_id = await _checked(context, request.player_id, "player_id")
        devices = await _answer(context, self._signing.devices(player_id))
        return accounts_pb2.ListDevicesReply(
            devices=[
                accounts_pb2.Device(
                    session_id=d.session_id,
                    device=d.device,
                    signed_in_unix_s=int(d.created_unix_s),
                    last_seen_unix_s=int(d.last_seen_unix_s),
                )
                for d in devices
            ]
        )

    async def SignOut(
        self, request: accounts_pb2.SignOutRequest, context: Context
    ) -> accounts_pb2.SignOutReply:
        player_id = await _checked(context, request.player_id, "player_id")
        session_id = await _checked(context, request.session_id, "session_id", empty=True)
        ended = await _answer(context, self._signing.sign_out(player_id, session_id or None))
        return accounts_pb2.SignOutReply(ended_session_ids=ended)

    async def DeleteAccount(
        self, request: accounts_pb2.DeleteAccountRequest, context: Context
    ) -> accounts_pb2.SignOutReply:
        player_id = await _checked(context, request.player_id, "player_id")
        ended = await _answer(context, self._signing.delete(player_id, request.password))
        return accounts_pb2.SignOutReply(ended_session_ids=ended)

    async def BeginAddPasskey(
        self, request: accounts_pb2.BeginAddPasskeyRequest, context: Context
    ) -> accounts_pb2.PasskeyChallenge:
        player_id = await _checked(context, request.player_id, "player_id")
        begun = await _answer(context, self._passkeys.begin_adding(player_id, request.origin))
        return accounts_pb2.PasskeyChallenge(challenge_id=begun[0], options_json=begun[1])

    async def AddPasskey(
        self, request: accounts_pb2.AddPasskeyRequest, context: Context
    ) -> accounts_pb2.Passkey:
        player_id = await _checked(context, request.player_id, "player_id")
        challenge_id = await _checked(context, request.challenge_id, "challenge_id")
        added = await _answer(
            context,
            self._passkeys.add(
                player_id, request.origin, challenge_id, request.credential_json, request.name
            ),
        )
        return _passkey(added)

    async def ListPasskeys(
        self, request: accounts_pb2.ListPasskeysRequest, context: Context
    ) -> accounts_pb2.ListPasskeysReply:
        player_id = await _checked(context, request.player_id, "player_id")
        held = await _answer(context, self._passkeys.of(player_id))
        return accounts_pb2.ListPasskeysReply(passkeys=[_passkey(p) for p in held])

    async def RemovePasskey(
        self, request: accounts_pb2.RemovePasskeyRequest, context: Context
    ) -> accounts_pb2.ListPasskeysReply:
        player_id = await _checked(context, request.player_id, "player_id")
        credential_id = await _checked(context, request.credential_id, "credential_id", long=True)
        left = await _answer(context, self._passkeys.remove(player_id, credential_id))
        return accounts_pb2.ListPasskeysReply(passkeys=[_passkey(p) for p in left])

    async def BeginPasskeySignIn(
        self, request: accounts_pb2.BeginPasskeySignInRequest, context: Context
    ) -> accounts_pb2.PasskeyChallenge:
        begun = await _answer(context, self._passkeys.begin_sign_in(request.origin))
        return accounts_pb2.PasskeyChallenge(challenge_id=begun[0], options_json=begun[1])

    async def PasskeySignIn(
        self, request: accounts_pb2.PasskeySignInRequest, context: Context
    ) -> accounts_pb2.Session:
        challenge_id = await _checked(context, request.challenge_id, "challenge_id")
        signed = await _answer(
            context,
            self._passkeys.sign_in(
                request.origin, challenge_id, request.credential_json, request.device
            ),
        )
        return _session(signed)


def _passkey(passkey: Passkey) -> accounts_pb2.Passkey:
    return accounts_pb2.Passkey(
        credential_id=passkey.credential_id,
        name=passkey.name,
        added_unix_s=int(passkey.added_unix_s),
        last_used_unix_s=int(passkey.last_used_unix_s),
    )


def _session(signed: SignedIn) -> accounts_pb2.Session:
    return accounts_pb2.Session(
        player_id=signed.player_id,
        username=signed.username,
        session_id=signed.session_id,
        refresh_token=signed.refresh_token,
        refresh_expires_unix_s=int(signed.refresh_expires_unix_s),
        operator=signed.operator,
    )


async def _answer(context: Context, work: Awaitable[T]) -> T:
    """Return what ``work`` returns; end the call with its refusal, if it is refused."""
    try:
        return await work
    except Refused as refused:
        code = _CODES[refused.reason]
        await abort(context, code, refused.reason.value, str(refused), refused.metadata)
    except (BadName, BadPassword) as bad:
        await abort(context, grpc.StatusCode.INVALID_ARGUMENT, bad.problem.value, str(bad))


async def _checked(
    context: Context, value: str, field: str, empty: bool = False, long: bool = False
) -> str:
    """``value``, an id of at most 64 ASCII characters (``long``: a credential id's 1023)
    or "" when ``empty``; else the call ends INVALID_ARGUMENT ``bad_request``."""
    most = MAX_CREDENTIAL_ID_CHARS if long else MAX_ID_CHARS
    if (not value and not empty) or len(value) > most or not value.isascii():
        await abort(
            context, grpc.StatusCode.INVALID_ARGUMENT, "bad_request", f"{field} is malformed"
        )
    return value


async def abort(
    context: Context,
    code: grpc.StatusCode,
    reason: str,
    message: str,
    metadata: dict[str, str] | None = None,
) -> NoReturn:
    await context.abort_with_status(Rejection(code, reason, message, metadata).to_status())
