"""The public account methods: the gateway asks the accounts service, then signs the access
token itself, so that every other call is checked here, with no call to accounts.

Sign-up and sign-in are limited per client address like a guest's sign-in; the accounts
service slows repeated failures itself. A session that ends here (signed out, deleted, a
refresh token used twice) is told to every gateway on NATS, which refuses its tokens and
closes its streams from then on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from photofinish.accounts.v1 import accounts_pb2, accounts_pb2_grpc
from photofinish.client.v1 import account_pb2
from services.common.identity import CLIENT_ADDRESS, PLAYER_ID, SESSION_ID, text_values
from services.common.rejection import Rejection
from services.gateway.grpcweb import RequestRefused
from services.gateway.grpcweb.calls import status_of
from services.gateway.grpcweb.config import LocalMethod
from services.gateway.own_methods import refused
from services.gateway.routing import ACCOUNT_METHODS, ARENA
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import STATUS_DETAILS

# The access token for a session: (token, expiry in unix s), signed by the gateway's key.
Mint = Callable[[str, str, str, bool], tuple[str, int]]
# Tells every gateway (this one included) that these sessions have ended.
Announce = Callable[[Sequence[str]], Awaitable[None]]
CALL_TIMEOUT_S = 10.0
T = TypeVar("T")


class AccountDesk:
    """Signs players up, in and out through the accounts service; mints their tokens."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        mint: Mint,
        announce: Announce,
        check_sign_in: Callable[[Metadata], dict[str, str]],
        offered: bool = True,
    ) -> None:
        self.channel = channel
        self.offered = offered
        self.accounts = accounts_pb2_grpc.AccountsStub(channel)
        self._mint = mint
        self._announce = announce
        self.check_sign_in = check_sign_in  # the guest's sign-in budget: one per address

    async def close(self) -> None:
        await self.channel.close()

    @staticmethod
    def not_offered(names: Sequence[str]) -> dict[str, LocalMethod]:
        """The methods ``names``, each refused: this gateway has no accounts service."""
        return {f"{ARENA}/{name}": _not_offered for name in names}

    def methods(self) -> dict[str, LocalMethod]:
        """Return the methods by public path, for the gRPC-web translator's ``local``."""
        if not self.offered:
            return self.not_offered(ACCOUNT_METHODS)
        return {
            f"{ARENA}/SignUp": self.sign_up,
            f"{ARENA}/SignInAccount": self.sign_in,
            f"{ARENA}/RefreshSession": self.refresh,
            f"{ARENA}/ListDevices": self.list_devices,
            f"{ARENA}/SignOut": self.sign_out,
            f"{ARENA}/DeleteAccount": self.delete_account,
        }

    async def sign_up(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.SignUpRequest)
        values = self.check_sign_in(metadata)
        guest = values.get(PLAYER_ID, "") if not values.get(SESSION_ID) else ""
        session = await self.call(
            self.accounts.SignUp(
                accounts_pb2.SignUpRequest(
                    username=request.username,
                    password=request.password,
                    device=request.device,
                    guest_player_id=guest if guest.startswith("g_") else "",
                ),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return self.signed_in(session)

    async def sign_in(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.AccountSignInRequest)
        values = self.check_sign_in(metadata)
        session = await self.call(
            self.accounts.SignIn(
                accounts_pb2.SignInRequest(
                    username=request.username, password=request.password, device=request.device
                ),
                metadata=((CLIENT_ADDRESS, values.get(CLIENT_ADDRESS, "")),),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return self.signed_in(session)

    async def refresh(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.RefreshSessionRequest)
        try:
            session = await self.accounts.Refresh(
                accounts_pb2.RefreshRequest(refresh_token=request.refresh_token),
                timeout=CALL_TIMEOUT_S,
            )
        except grpc.aio.AioRpcError as error:
            # A refresh token used twice was copied: the accounts service has ended its
            # session, and every gateway must stop honouring its access tokens now.
            ended = _error_metadata(error).get("ended_session_id", "")
            if ended:
                await self._announce((ended,))
            raise RequestRefused(status_of(error)) from None
        return self.signed_in(session)

    async def list_devices(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.ListDevicesRequest)
        player_id, session_id = account_of(metadata)
        reply = await self.call(
            self.accounts.ListDevices(
                accounts_pb2.ListDevicesRequest(player_id=player_id), timeout=CALL_TIMEOUT_S
            )
        )
        return account_pb2.ListDevicesReply(
            devices=[
                account_pb2.Device(
                    session_id=d.session_id,
                    device=d.device,
                    signed_in_at_unix=d.signed_in_unix_s,
                    last_seen_at_unix=d.last_seen_unix_s,
                    this_device=d.session_id == session_id,
                )
                for d in reply.devices
            ]
        ).SerializeToString()

    async def sign_out(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.SignOutRequest)
        player_id, session_id = account_of(metadata)
        chosen = "" if request.everywhere else (request.session_id or session_id)
        reply = await self.call(
            self.accounts.SignOut(
                accounts_pb2.SignOutRequest(player_id=player_id, session_id=chosen),
                timeout=CALL_TIMEOUT_S,
            )
        )
        await self._announce(tuple(reply.ended_session_ids))
        return account_pb2.SignOutReply(
            ended_session_ids=reply.ended_session_ids
        ).SerializeToString()

    async def delete_account(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.DeleteAccountRequest)
        player_id, _ = account_of(metadata)
        reply = await self.call(
            self.accounts.DeleteAccount(
                accounts_pb2.DeleteAccountRequest(player_id=player_id, password=request.password),
                timeout=CALL_TIMEOUT_S,
            )
        )
        await self._announce(tuple(reply.ended_session_ids))
        return account_pb2.SignOutReply(
            ended_session_ids=reply.ended_session_ids
        ).SerializeToString()

    async def call(self, call: Awaitable[T]) -> T:
        """What the accounts service answers; its refusal, passed on to the client."""
        try:
            return await call
        except grpc.aio.AioRpcError as error:
            raise RequestRefused(status_of(error)) from None

    def signed_in(self, session: accounts_pb2.Session) -> bytes:
        """The client's AccountSession: the accounts service's, with an access token."""
        access, expires = self._mint(
            session.player_id, session.username, session.session_id, session.operator
        )
        return account_pb2.AccountSession(
            access_token=access,
            access_expires_at_unix=expires,
            refresh_token=session.refresh_token,
            refresh_expires_at_unix=session.refresh_expires_unix_s,
            player_id=session.player_id,
            username=session.username,
            session_id=session.session_id,
            operator=session.operator,
        ).SerializeToString()


async def _not_offered(request: Message, metadata: Metadata) -> bytes:
    raise refused(
        Rejection(
            grpc.StatusCode.UNAVAILABLE,
            "accounts_unavailable",
            "this gateway offers no accounts: play as a guest",
        )
    )


def account_of(metadata: Metadata) -> tuple[str, str]:
    """The caller's player id and session; a guest is refused (accounts only)."""
    values = text_values(metadata)
    session_id = values.get(SESSION_ID, "")
    if not session_id:
        raise refused(
            Rejection(
                grpc.StatusCode.PERMISSION_DENIED,
                "account_needed",
                "this is for accounts: sign up or sign in first",
            )
        )
    return values.get(PLAYER_ID, ""), session_id


def _error_metadata(error: grpc.aio.AioRpcError) -> dict[str, str]:
    """The ErrorInfo metadata of a service's refusal ({} when it has none)."""
    for key, value in error.trailing_metadata() or ():
        if key == STATUS_DETAILS and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return dict(info.metadata)
    return {}
