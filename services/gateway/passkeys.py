"""The public passkey methods: the accounts service checks WebAuthn; the gateway names the
page's origin it serves, and signs the session's access token as for a password sign-in.

Adding, listing and removing passkeys take an account's token; the passkey sign-in takes
none, and counts against the address's sign-in budget as every sign-in does.
"""

from __future__ import annotations

from google.protobuf.message import Message

from photofinish.accounts.v1 import accounts_pb2
from photofinish.client.v1 import account_pb2
from services.gateway.accounts import CALL_TIMEOUT_S, AccountDesk, account_of
from services.gateway.grpcweb.config import LocalMethod
from services.gateway.routing import ARENA, PASSKEY_METHODS
from wire.grpcweb.metadata import Metadata


class PasskeyDesk:
    """Passkeys through the accounts service, for pages served at ``origin``."""

    def __init__(self, desk: AccountDesk, origin: str = "") -> None:
        self._desk = desk
        self._accounts = desk.accounts  # the one stub of the one channel
        # The page's origin (PF_PASSKEY_ORIGIN); set once the gateway's port is known.
        self.origin = origin

    def methods(self) -> dict[str, LocalMethod]:
        """Return the methods by public path, for the gRPC-web translator's ``local``."""
        if not self._desk.offered:
            return self._desk.not_offered(PASSKEY_METHODS)
        return {
            f"{ARENA}/BeginAddPasskey": self.begin_adding,
            f"{ARENA}/AddPasskey": self.add,
            f"{ARENA}/ListPasskeys": self.list,
            f"{ARENA}/RemovePasskey": self.remove,
            f"{ARENA}/BeginPasskeySignIn": self.begin_sign_in,
            f"{ARENA}/PasskeySignIn": self.sign_in,
        }

    async def begin_adding(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.BeginAddPasskeyRequest)
        player_id, _ = account_of(metadata)
        begun = await self._desk.call(
            self._accounts.BeginAddPasskey(
                accounts_pb2.BeginAddPasskeyRequest(player_id=player_id, origin=self.origin),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return _challenge(begun)

    async def add(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.AddPasskeyRequest)
        player_id, _ = account_of(metadata)
        added = await self._desk.call(
            self._accounts.AddPasskey(
                accounts_pb2.AddPasskeyRequest(
                    player_id=player_id,
                    origin=self.origin,
                    challenge_id=request.challenge_id,
                    credential_json=request.credential_json,
                    name=request.name,
                ),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return _passkey(added).SerializeToString()

    async def list(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.ListPasskeysRequest)
        player_id, _ = account_of(metadata)
        held = await self._desk.call(
            self._accounts.ListPasskeys(
                accounts_pb2.ListPasskeysRequest(player_id=player_id), timeout=CALL_TIMEOUT_S
            )
        )
        return _passkeys(held)

    async def remove(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.RemovePasskeyRequest)
        player_id, _ = account_of(metadata)
        left = await self._desk.call(
            self._accounts.RemovePasskey(
                accounts_pb2.RemovePasskeyRequest(
                    player_id=player_id, credential_id=request.credential_id
                ),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return _passkeys(left)

    async def begin_sign_in(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.BeginPasskeySignInRequest)
        self._desk.check_sign_in(metadata)
        begun = await self._desk.call(
            self._accounts.BeginPasskeySignIn(
                accounts_pb2.BeginPasskeySignInRequest(origin=self.origin),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return _challenge(begun)

    async def sign_in(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, account_pb2.PasskeySignInRequest)
        session = await self._desk.call(
            self._accounts.PasskeySignIn(
                accounts_pb2.PasskeySignInRequest(
                    origin=self.origin,
                    challenge_id=request.challenge_id,
                    credential_json=request.credential_json,
                    device=request.device,
                ),
                timeout=CALL_TIMEOUT_S,
            )
        )
        return self._desk.signed_in(session)


def _challenge(begun: accounts_pb2.PasskeyChallenge) -> bytes:
    return account_pb2.PasskeyChallenge(
        challenge_id=begun.challenge_id, options_json=begun.options_json
    ).SerializeToString()


def _passkey(passkey: accounts_pb2.Passkey) -> account_pb2.Passkey:
    return account_pb2.Passkey(
        credential_id=passkey.credential_id,
        name=passkey.name,
        added_at_unix=passkey.added_unix_s,
        last_used_at_unix=passkey.last_used_unix_s,
    )


def _passkeys(held: accounts_pb2.ListPasskeysReply) -> bytes:
    return account_pb2.ListPasskeysReply(
        passkeys=[_passkey(p) for p in held.passkeys]
    ).SerializeToString()
