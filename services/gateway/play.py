"""The play socket (``/play``): one seat of one match over a WebSocket.

What Watch and Submit do over gRPC-web, on one long-lived connection: the seat's updates
(the latest first, then each change, as published) and its commands with their answers.
A command costs the gateway one WebSocket message in and one out, where a Submit over
gRPC-web is an HTTP request and response (docs/performance.md has the figures).

The conversation (proto/photofinish/client/v1/play.proto, docs/protocol.md): the client's
first message is a ``PlayHello`` (token, match, seat) within ``HELLO_TIMEOUT_S``; the
gateway answers with the seat's latest update, then sends every change, and answers each
``PlaySubmit`` by its ``client_seq``. When the match ends the last update is followed by a
normal close (1000). A refusal that ends the conversation (bad token, not your seat, a
malformed message, a client that reads nothing) comes as ``PlayOut.closed``, then the
close. Published updates and answers are written in the read that brings them, straight
to the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import struct
import time

import grpc
from aiohttp import WSMessage, WSMsgType, web
from google.protobuf.message import DecodeError
from google.protobuf.wrappers_pb2 import BytesValue
from prometheus_client import Histogram

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import play_pb2
from photofinish.events.v1 import events_pb2
from services.common.rejection import Rejection
from services.common.replies import Answer, Reply
from services.common.watching import RENEW_S, SPECTATORS
from services.gateway.arbitration_channels import ArbitrationChannels
from services.gateway.auth import TokenCheck
from services.gateway.checked import follow_checked
from services.gateway.followed_matches import FollowedMatches, Unfollow
from services.gateway.grpcweb.metrics import OPEN_STREAMS, UNARY_SECONDS
from services.gateway.own_methods import is_newer, lead_of
from services.gateway.presence import Presence
from services.gateway.sessions import OpenSessions
from services.gateway.stream_limits import StreamLimits
from services.gateway.submits import SubmitForwarder
from services.gateway.tokens import Identity, InvalidToken
from wire import subjects

log = logging.getLogger(__name__)

HELLO_TIMEOUT_S = 10.0
HEARTBEAT_S = 20.0  # a ping this often: a connection that stopped answering is closed
# Bytes waiting to go to one client before it is cut off as not reading.
MAX_UNSENT_BYTES = 1 << 20

# WebSocket close codes (RFC 6455, 7.4.1).
NORMAL, GOING_AWAY, PROTOCOL_ERROR, POLICY, INTERNAL = 1000, 1001, 1002, 1008, 1011


class Ended(Exception):
    """The conversation ends: ``refusal`` says why, ``code`` is the WebSocket close code."""

    def __init__(self, refusal: events_pb2.Refusal, code: int) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.code = code


def _ended(code: grpc.StatusCode, reason: str, message: str, close_code: int) -> Ended:
    refusal = events_pb2.Refusal(code=code.value[0], reason=reason, message=message)
    return Ended(refusal, close_code)


def _binary_frame(payload: bytes) -> bytes:
    """Return ``payload`` as one unmasked binary WebSocket frame (a server's frame)."""
    size = len(payload)
    if size < 126:
        return bytes((0x82, size)) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", 0x82, 126, size) + payload
    return struct.pack("!BBQ", 0x82, 127, size) + payload


def _update_message(update: bytes) -> bytes:
    """Return ``PlayOut{update}`` around an update's bytes as published (not decoded).

    ``PlayOut.update`` is field 1, as ``BytesValue.value`` is: a BytesValue holding the
    update's bytes is, byte for byte, a PlayOut carrying that update.
    """
    return BytesValue(value=update).SerializeToString()


if play_pb2.PlayOut.DESCRIPTOR.fields_by_name["update"].number != 1:
    raise ImportError("PlayOut.update must stay field 1 (see _update_message)")


class PlayEndpoint:
    """The ``/play`` handler: checks each hello, then serves the seat's socket."""

    def __init__(
        self,
        tokens: TokenCheck,
        followed: FollowedMatches,
        arbitration: ArbitrationChannels,
        submits: SubmitForwarder,
        presence: Presence,
        max_message_bytes: int,
        inject_delay_s: float = 0.0,
        streams: StreamLimits | None = None,
        open_sessions: OpenSessions | None = None,
    ) -> None:
        self._open_sessions = OpenSessions() if open_sessions is None else open_sessions
        self._presence = presence
        self._streams = streams or StreamLimits()
        self._tokens = tokens
        self._followed = followed
        self._arbitration = arbitration
        self._submits = submits
        self._max_message_bytes = max_message_bytes
        self._inject_delay_s = inject_delay_s  # fault injection, as the gRPC-web hook's
        self._open: set[SeatSocket] = set()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(
            max_msg_size=self._max_message_bytes, heartbeat=HEARTBEAT_S, compress=False
        )
        await ws.prepare(request)
        socket: SeatSocket | None = None
        try:
            hello = await self._hello(ws)
            identity = self._identity(hello.token)
            player = identity.player_id
            if not subjects.is_match_id(hello.match_id):
                raise _ended(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "bad_match_id",
                    f"{hello.match_id[:80]!r} is no match id",
                    POLICY,
                )
            with contextlib.ExitStack() as held:
                try:
                    held.enter_context(self._streams.held(player, request.remote or ""))
                except Rejection as rejection:
                    raise Ended(rejection.to_refusal(), POLICY) from None
                # Signed out (here or on another gateway): the socket closes, saying why.
                held.enter_context(
                    self._open_sessions.hold(identity.session_id, lambda: _signed_out(ws))
                )
                socket = SeatSocket(self, ws, request, hello.match_id, hello.seat, player)
                self._open.add(socket)
                with OPEN_STREAMS.labels("Play").track_inprogress():
                    await socket.serve()
        except Ended as ended:
            if socket is not None:
                socket.flush()  # what the client was owed goes before the reason
            await _close(ws, ended)
        finally:
            if socket is not None:
                await socket.stop()
                self._open.discard(socket)
        return ws

    async def close_all(self) -> None:
        """Tell every open socket the gateway is stopping (worth reconnecting) and close it."""
        going = _ended(
            grpc.StatusCode.UNAVAILABLE,
            "gateway_stopping",
            "the gateway is shutting down; connect again",
            GOING_AWAY,
        )
        await asyncio.gather(*(_close(s.ws, going) for s in list(self._open)))

    async def _hello(self, ws: web.WebSocketResponse) -> play_pb2.PlayHello:
        try:
            async with asyncio.timeout(HELLO_TIMEOUT_S):
                message = await ws.receive()
        except TimeoutError:
            raise _ended(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                "no_hello",
                f"no PlayHello within {HELLO_TIMEOUT_S:g} s",
                POLICY,
            ) from None
        first = _parsed(message)
        if first is None:
            raise Ended(events_pb2.Refusal(), NORMAL)  # closed before a word
        if first.WhichOneof("kind") != "hello":
            raise _ended(
                grpc.StatusCode.INVALID_ARGUMENT,
                "hello_first",
                "the first message must be a PlayHello",
                POLICY,
            )
        return first.hello

    def _identity(self, token: str) -> Identity:
        try:
            return self._tokens.identity(token)
        except InvalidToken as error:
            raise _ended(grpc.StatusCode.UNAUTHENTICATED, "bad_token", str(error), POLICY) from None


class SeatSocket:
    """One open socket: the seat's updates out, its commands in."""

    def __init__(
        self,
        endpoint: PlayEndpoint,
        ws: web.WebSocketResponse,
        request: web.Request,
        match_id: str,
        seat: int,
        player_id: str,
    ) -> None:
        self.ws = ws
        self._endpoint = endpoint
        transport = request.transport
        assert transport is not None, "a prepared WebSocket has its connection"
        self._transport = transport
        self._match_id, self._seat, self._player = match_id, seat, player_id
        self._last_seq = -1
        self._present = False  # counted in the gateway's Presence
        self._unfollow: Unfollow | None = None
        self._renewal: asyncio.Task[None] | None = None
        self._ending: asyncio.Task[bool] | None = None
        self._over = False  # the match's last update has gone out
        self._unanswered = 0  # commands forwarded and not answered yet
        self._unsent: list[bytes] = []  # frames of this event-loop turn

    async def serve(self) -> None:
        """Send the latest update, then follow the match and take commands until the end."""
        # The seat is checked (the latest update is refused to anyone else) before
        # anything about it is subscribed (services/gateway/checked.py).
        followed = await follow_checked(
            self._endpoint._followed, self._match_id, self._seat, self._forward, self._latest
        )
        self._unfollow = followed.unfollow
        first = followed.first
        self._last_seq = first.seq
        self._send(_update_message(first.SerializeToString()))
        if followed.caught_up is not None:
            self._forward(followed.caught_up.SerializeToString())
        self._endpoint._presence.opened(self._match_id, self._seat)
        self._present = True
        if first.status != arbitration_pb2.STATUS_LIVE:
            self.flush()
            await self.ws.close(code=NORMAL, message=b"the match is over")
            return
        if self._seat == SPECTATORS:
            self._renewal = asyncio.create_task(self._renew())
        while True:
            message = await self.ws.receive()
            incoming = _parsed(message)
            if incoming is None:
                return  # the client closed, or the connection is gone
            kind = incoming.WhichOneof("kind")
            if kind == "submit":
                await self._submit(incoming.submit)
            elif kind == "hello":
                raise _ended(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "hello_twice",
                    "a socket follows one seat: PlayHello comes once, first",
                    POLICY,
                )
            else:
                raise _ended(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "empty_message",
                    "a PlayIn without a hello or a submit",
                    POLICY,
                )

    async def stop(self) -> None:
        """Stop following the match; let a closing that has begun finish."""
        if self._present:
            self._present = False
            self._endpoint._presence.closed(self._match_id, self._seat)
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None
        if self._renewal is not None:
            self._renewal.cancel()
        if self._ending is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._ending

    async def _submit(self, submit: play_pb2.PlaySubmit) -> None:
        received_ns = time.monotonic_ns()  # as the gRPC-web hook stamps a request's receipt
        started = time.perf_counter()
        endpoint = self._endpoint
        if endpoint._inject_delay_s:
            await asyncio.sleep(endpoint._inject_delay_s)
        request = arbitration_pb2.SubmitRequest(
            match_id=self._match_id,
            seat=self._seat,
            client_seq=submit.client_seq,
            command=submit.command,
        )
        subject = await endpoint._submits.subject_for(self._match_id)
        self._unanswered += 1
        # A seat's socket follows the match's seats until it closes: the answer may come
        # with the update it brings.
        endpoint._submits.forward(
            request,
            self._player,
            received_ns,
            self._reply_to(submit.client_seq, started),
            subject,
            follows=self._seat != SPECTATORS,
        )

    def _reply_to(self, client_seq: int, started: float) -> Reply:
        """Return the reply that sends command ``client_seq``'s answer down the socket."""

        def reply(outcome: Answer) -> None:
            if isinstance(outcome, Rejection):
                code = outcome.code.name
                played = play_pb2.PlayAnswer(client_seq=client_seq, refusal=outcome.to_refusal())
            else:
                code = "OK"
                played = play_pb2.PlayAnswer(client_seq=client_seq, reply=outcome)
            # The same figure as a Submit over gRPC-web: the command latency /ops shows.
            _submit_seconds(code).observe(time.perf_counter() - started)
            self._unanswered -= 1
            self._send(play_pb2.PlayOut(answer=played).SerializeToString())
            if self._over and not self._unanswered:
                self._close_after_turn()

        return reply

    def _forward(self, data: bytes) -> None:
        """Send a published update on to the client, if it is news."""
        lead = lead_of(data)
        if not is_newer(lead, self._last_seq):
            return
        self._last_seq = lead.seq
        self._send(_update_message(data))
        if lead.status != arbitration_pb2.STATUS_LIVE and not self._over:
            self._over = True
            # The answers still owed (the command that ended the match, say) go first;
            # each is sent or refused within the forwarder's timeout.
            if not self._unanswered:
                self._close_after_turn()

    def _close_after_turn(self) -> None:
        """Close normally once this turn's frames are written."""
        if self._ending is None:
            asyncio.get_running_loop().call_soon(self._close)

    def _close(self) -> None:
        if self._ending is None:
            self.flush()
            self._ending = asyncio.create_task(
                self.ws.close(code=NORMAL, message=b"the match is over")
            )

    async def _renew(self) -> None:
        """Keep a spectated match watched: its public view is built only while someone
        watches (services/common/watching.py); a renewal's update goes on if it is news."""
        while True:
            await asyncio.sleep(RENEW_S)
            try:
                latest = await self._latest()
            except Ended as ended:
                self.flush()
                await _close(self.ws, ended)
                return
            if is_newer(lead_of(latest.SerializeToString()), self._last_seq):
                self._last_seq = latest.seq
                self._send(_update_message(latest.SerializeToString()))

    async def _latest(self) -> arbitration_pb2.MatchUpdate:
        try:
            return await self._endpoint._arbitration.latest(
                self._match_id, self._seat, self._player
            )
        except Rejection as rejection:
            close_code = INTERNAL if rejection.code is grpc.StatusCode.UNAVAILABLE else POLICY
            raise Ended(rejection.to_refusal(), close_code) from None

    def _send(self, message: bytes) -> None:
        """Write one PlayOut at the end of this event-loop turn, with the others of the
        turn (an answer and the view it brings leave in one write)."""
        if not self._unsent:
            asyncio.get_running_loop().call_soon(self.flush)
        self._unsent.append(_binary_frame(message))

    def flush(self) -> None:
        """Write what this turn has for the client; one that lets too much pile up (it
        reads nothing) is cut off."""
        frames, self._unsent = self._unsent, []
        transport = self._transport
        if transport.is_closing() or self.ws.closed:
            return
        transport.write(b"".join(frames))
        if transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            log.warning(
                "play socket cut off: the client reads nothing",
                extra={"fields": {"match": self._match_id, "seat": self._seat}},
            )
            transport.abort()


@functools.cache
def _submit_seconds(code: str) -> Histogram:
    """Return the Submit series of ``code`` (found once: ``labels`` takes a lock and
    builds a key for every call)."""
    return UNARY_SECONDS.labels("Submit", code)


def _parsed(message: WSMessage) -> play_pb2.PlayIn | None:
    """Return the client's message, or None once the socket is closed.

    Raises:
        Ended: a message that is not one binary PlayIn, or a connection error.
    """
    if message.type is WSMsgType.BINARY:
        try:
            return play_pb2.PlayIn.FromString(message.data)
        except DecodeError:
            raise _ended(
                grpc.StatusCode.INVALID_ARGUMENT,
                "malformed_message",
                "a message is not a PlayIn",
                PROTOCOL_ERROR,
            ) from None
    if message.type is WSMsgType.TEXT:
        raise _ended(
            grpc.StatusCode.INVALID_ARGUMENT,
            "binary_only",
            "messages are binary protobuf PlayIn, not text",
            PROTOCOL_ERROR,
        )
    return None  # CLOSE, CLOSING, CLOSED, ERROR: aiohttp has closed or is closing it


async def _close(ws: web.WebSocketResponse, ended: Ended) -> None:
    """Say why (when there is a reason), then close with ``ended.code``."""
    if ws.closed:
        return
    with contextlib.suppress(ConnectionError, RuntimeError):
        if ended.refusal.reason:
            await ws.send_bytes(play_pb2.PlayOut(closed=ended.refusal).SerializeToString())
        await ws.close(code=ended.code, message=ended.refusal.reason.encode()[:120])


def _signed_out(ws: web.WebSocketResponse) -> None:
    """Close ``ws`` because its session was signed out (called from outside its handler)."""
    ended = _ended(
        grpc.StatusCode.UNAUTHENTICATED, "session_ended", "this session was signed out", POLICY
    )
    _CLOSING.add(task := asyncio.get_running_loop().create_task(_close(ws, ended)))
    task.add_done_callback(_CLOSING.discard)


_CLOSING: set[asyncio.Task[None]] = set()  # closes under way, kept from the collector
