"""The public methods the gateway answers itself: SignIn, Submit (over NATS) and Watch.

They run in the gateway's own process, called by the gRPC-web translator with the request
it parsed and the metadata its hook added (the player it authenticated). A refusal is
the same rich status a backend would send (google.rpc.Status with ErrorInfo).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterator

import grpc
from google.protobuf.message import Message

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import arena_pb2
from services.common.identity import CLIENT_ADDRESS, PLAYER_ID, RECEIVED_NS, SESSION_ID, text_values
from services.common.rejection import Rejection
from services.common.watching import RENEW_S, SPECTATORS
from services.gateway.arbitration_channels import ArbitrationChannels
from services.gateway.checked import follow_checked
from services.gateway.followed_matches import FollowedMatches
from services.gateway.grpcweb import RequestRefused, end_stream
from services.gateway.grpcweb.config import LocalMethod
from services.gateway.presence import Presence
from services.gateway.ratelimit import CommandRate, sign_in_rate
from services.gateway.routing import ARENA
from services.gateway.sessions import OpenSessions
from services.gateway.stream_limits import StreamLimits
from services.gateway.submits import SubmitForwarder
from services.gateway.tokens import Keys, issue
from wire import subjects
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code
from wire.grpcweb.status import refused as refused_status
from wire.updates import Lead, read_lead

SIGNED_OUT = refused_status(
    Code.UNAUTHENTICATED, "session_ended", "this session was signed out: sign in again"
)


def is_newer(update: Lead, last_seq: int) -> bool:
    """Return whether a published update is news after the one at ``last_seq``.

    A race notice repeats the sequence number of the step it follows.
    """
    return update.seq > last_seq or (update.seq == last_seq and update.race)


def lead_of(data: bytes) -> Lead:
    """Return a published update's lead; an update without one is decoded whole."""
    found = read_lead(data)
    if found is not None:
        return found
    update = arbitration_pb2.MatchUpdate.FromString(data)
    return Lead(update.seq, update.status, update.HasField("race"))


def refused(rejection: Rejection) -> RequestRefused:
    """Return the gRPC-web ending for ``rejection``: its code, message and ErrorInfo."""
    code = Code(rejection.code.value[0])
    return RequestRefused(
        refused_status(code, rejection.reason, rejection.message, rejection.metadata)
    )


class OwnMethods:
    """SignIn issues guest tokens; Submit goes to the match's arbitration over NATS; Watch
    streams one seat's updates, its own only, straight from NATS."""

    def __init__(
        self,
        token_keys: Keys,
        followed: FollowedMatches,
        arbitration: ArbitrationChannels,
        submits: SubmitForwarder,
        presence: Presence | None = None,
        streams: StreamLimits | None = None,
        sign_ins: CommandRate | None = None,
        open_sessions: OpenSessions | None = None,
    ) -> None:
        self._open_sessions = OpenSessions() if open_sessions is None else open_sessions
        self._sign_ins = sign_ins or sign_in_rate()
        self._presence = presence
        self._streams = streams or StreamLimits()
        self._key = token_keys
        self._followed = followed
        self._arbitration = arbitration
        self._submits = submits

    def methods(self) -> dict[str, LocalMethod]:
        """Return the methods by public path, for the gRPC-web translator's ``local``."""
        return {
            f"{ARENA}/SignIn": self.sign_in,
            f"{ARENA}/Submit": self.submit,
            f"{ARENA}/Watch": self.watch,
        }

    async def sign_in(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, arena_pb2.SignInRequest)
        self.check_sign_in(metadata)
        try:
            token, identity = issue(self._key, request.display_name, int(time.time()))
        except ValueError as error:
            raise refused(
                Rejection(grpc.StatusCode.INVALID_ARGUMENT, "bad_name", str(error))
            ) from None
        return arena_pb2.SignInReply(
            token=token,
            player_id=identity.player_id,
            display_name=identity.name,
            expires_at_unix=identity.expires_at,
        ).SerializeToString()

    def check_sign_in(self, metadata: Metadata) -> dict[str, str]:
        """Count a sign-in of any kind (a guest's, an account's, a sign-up) against its
        address's one budget; return the request's metadata.

        Raises:
            RequestRefused: RESOURCE_EXHAUSTED past the budget.
        """
        values = text_values(metadata)
        address = values.get(CLIENT_ADDRESS, "")
        if address not in self._streams.unlimited:  # the same addresses for every limit
            try:
                self._sign_ins.check(address)
            except Rejection as rejection:
                raise refused(rejection) from None
        return values

    async def submit(self, request: Message, metadata: Metadata) -> bytes:
        assert isinstance(request, arbitration_pb2.SubmitRequest)
        values = text_values(metadata)
        received = values.get(RECEIVED_NS, "")
        try:
            reply = await self._submits.submit(
                request, values.get(PLAYER_ID, ""), int(received) if received.isdigit() else 0
            )
        except Rejection as rejection:
            raise refused(rejection) from None
        return reply.SerializeToString()

    async def watch(self, request: Message, metadata: Metadata) -> AsyncIterator[bytes]:
        """Stream the seat's updates as published: each is read for its number and status
        only, and passed on in the bytes it came in (never encoded again)."""
        assert isinstance(request, arena_pb2.WatchRequest)
        values = text_values(metadata)
        player = values.get(PLAYER_ID, "")
        if not subjects.is_match_id(request.match_id):  # it becomes a subject's token
            raise refused(
                Rejection(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "bad_match_id",
                    f"{request.match_id[:80]!r} is no match id",
                )
            )
        # aclosing: closed here, the follow's finally (unsubscribe, the seat no longer
        # present) runs at once, not when a collector gets to a generator left suspended
        # at its yield by a cancel that landed while its update was being written.
        with self.stream_slot(metadata):
            async with contextlib.aclosing(self._follow(request, player)) as updates:
                async for data in updates:
                    yield data

    @contextlib.contextmanager
    def stream_slot(self, metadata: Metadata) -> Iterator[None]:
        """Hold one of the caller's streams (player and address) for the context: every
        server stream the gateway serves or forwards counts, Watch and the queue alike.

        Raises:
            RequestRefused: RESOURCE_EXHAUSTED ``too_many_streams`` past either limit.
        """
        values = text_values(metadata)
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(
                    self._streams.held(values.get(PLAYER_ID, ""), values.get(CLIENT_ADDRESS, ""))
                )
            except Rejection as rejection:
                raise refused(rejection) from None
            # Signed out (here or on another gateway): the stream ends, saying why, and its
            # backend call is cancelled.
            task = asyncio.current_task()
            if task is not None:
                held.enter_context(
                    self._open_sessions.hold(
                        values.get(SESSION_ID, ""), lambda: end_stream(task, SIGNED_OUT)
                    )
                )
            yield

    async def _follow(
        self, request: arena_pb2.WatchRequest, player: str
    ) -> AsyncGenerator[bytes, None]:
        published: asyncio.Queue[bytes] = asyncio.Queue()
        # The seat is checked (the latest update is refused to anyone else) before
        # anything about it is subscribed (services/gateway/checked.py).
        followed = await follow_checked(
            self._followed,
            request.match_id,
            request.seat,
            published.put_nowait,
            lambda: self._latest(request, player),
        )
        if followed.caught_up is not None:
            # In line with what was published meanwhile: whichever is older is skipped.
            published.put_nowait(followed.caught_up.SerializeToString())
        present = False
        try:
            first = followed.first
            if self._presence is not None:
                self._presence.opened(request.match_id, request.seat)
                present = True
            yield first.SerializeToString()
            last_seq = first.seq
            if first.status != arbitration_pb2.STATUS_LIVE:
                return
            async for data, update in self._published(published, request, player):
                if not is_newer(update, last_seq):
                    continue
                yield data
                last_seq = update.seq
                if update.status != arbitration_pb2.STATUS_LIVE:
                    return
        finally:
            if followed.unfollow is not None:
                followed.unfollow()
            if present and self._presence is not None:
                self._presence.closed(request.match_id, request.seat)

    async def _published(
        self, published: asyncio.Queue[bytes], request: arena_pb2.WatchRequest, player: str
    ) -> AsyncIterator[tuple[bytes, Lead]]:
        """Yield each update published for the stream, as bytes and decoded.

        A spectator stream also renews its watch every ``RENEW_S`` without news (the
        arbitration builds the spectators' view only while someone watches); a renewal
        brings the latest update, which goes on if it is news.
        """
        if request.seat != SPECTATORS:
            while True:
                data = await published.get()
                yield data, lead_of(data)
        while True:
            try:
                # asyncio.timeout, not wait_for, which can lose a cancel on Python 3.11.
                async with asyncio.timeout(RENEW_S):
                    data = await published.get()
            except TimeoutError:
                latest = await self._latest(request, player)
                yield latest.SerializeToString(), Lead(latest.seq, latest.status, False)
            else:
                yield data, lead_of(data)

    async def _latest(
        self, request: arena_pb2.WatchRequest, player: str
    ) -> arbitration_pb2.MatchUpdate:
        """Return the match's latest update for the seat (a spectator's also renews its
        watch); a refusal ends the stream with its status."""
        try:
            return await self._arbitration.latest(request.match_id, request.seat, player)
        except Rejection as rejection:
            raise refused(rejection) from None
