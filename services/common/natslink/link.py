"""A lean NATS connection for the hot path: messages handed over as they are read.

Every command crosses NATS several times (gateway → arbitration → rules and back, the log,
the views), and at a human pace each crossing wakes a process whose caches have gone
cold: what runs per message is what a command costs (docs/performance.md). nats-py hands
a message to a subscription through its read task, a parser, a queue and the
subscription's own task, and a publish through a future, a queue and a flusher task; this
connection runs the subscription's callback in the read itself and sends everything
published in one event-loop turn in one write; or, with ``coalesce_s``, everything
published within that long of the first, so that at a busy hop one write (and one wake of
the server and of each subscriber) carries several commands' messages (``at_once`` and
``send_now`` for what must not wait). It speaks only core NATS (publish, subscribe, queue
groups, headers, request/reply through :mod:`.requests`); JetStream management, key-value
buckets and consumers stay with nats-py, on a connection of their own.

A lost connection is dialled again (every server of the URL list in turn, with backoff),
its subscriptions made again; what is published meanwhile waits, up to
``MAX_PENDING_BYTES``. A callback must not block and must not raise (an error it raises is
logged, the connection goes on).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from services.common.natslink.frames import (
    PING,
    PONG,
    Frame,
    Info,
    Message,
    ProtocolError,
    Reader,
    ServerError,
    connect_frame,
    pub_frame,
    sub_frame,
    unsub_frame,
)
from services.common.natsmetrics import CONNECTED
from services.common.natsurl import credentials_of, servers_of
from wire.subjects import inboxes

log = logging.getLogger(__name__)

OnMessage = Callable[[Message], None]
OnEvent = Callable[[], None]

CONNECT_TIMEOUT_S = 2.0
RECONNECT_FIRST_S = 0.05
RECONNECT_MAX_S = 2.0
PING_EVERY_S = 20.0
MAX_OUTSTANDING_PINGS = 2
MAX_PENDING_BYTES = 8 * 1024 * 1024


class NotConnected(ConnectionError):
    """No server could be reached."""


@dataclass(slots=True)
class _Subscription:
    subject: str
    queue: str
    on_message: OnMessage


class NatsLink:
    """One connection: subscriptions called back as messages arrive, writes once per turn."""

    def __init__(
        self,
        url: str,
        name: str,
        on_disconnected: OnEvent | None = None,
        on_reconnected: OnEvent | None = None,
        coalesce_s: float = 0.0,
    ) -> None:
        self._servers = servers_of(url)
        self._user, self._password = credentials_of(url)
        self._name = name
        self._on_disconnected = on_disconnected
        self._on_reconnected = on_reconnected
        self._loop = asyncio.get_running_loop()
        self._subs: dict[int, _Subscription] = {}
        self._sids = itertools.count(1)
        self._transport: asyncio.Transport | None = None  # the socket being written to
        self._established: asyncio.BaseTransport | None = None  # once the server answered
        self._out: list[bytes] = []
        self._out_bytes = 0
        self._write_due = False
        self._coalesce_s = coalesce_s  # 0: each turn's messages leave at its end
        self._write_timer: asyncio.TimerHandle | None = None
        self._at_once = 0  # how many ``at_once`` are open: while any is, nothing is held
        # One per PING sent, in order: a flush's future, or None for a keepalive ping.
        self._pongs: deque[asyncio.Future[None] | None] = deque()
        self._outstanding_pings = 0
        self._max_payload = 1024 * 1024
        self._closing = False
        self._reconnecting: asyncio.Task[None] | None = None
        self._pinger: asyncio.TimerHandle | None = None
        self._inboxes = f"{inboxes(self._user)}.{secrets.token_hex(8)}"
        self._up = CONNECTED.labels(name)  # pf_nats_connected: 1 from a dial to its loss

    @classmethod
    async def connect(
        cls,
        url: str,
        name: str,
        on_disconnected: OnEvent | None = None,
        on_reconnected: OnEvent | None = None,
        coalesce_s: float = 0.0,
    ) -> NatsLink:
        """Return a link connected to the first server of ``url`` that answers; its writes
        wait ``coalesce_s`` for the messages that follow (0: to the end of the turn).

        Raises:
            NotConnected: when none does.
        """
        link = cls(url, name, on_disconnected, on_reconnected, coalesce_s)
        if not await link._dial_any():
            raise NotConnected(f"no NATS server answered at {link._servers}")  # no password
        link._arm_pinger()
        return link

    def call_when_reconnected(self, callback: OnEvent) -> None:
        """Call ``callback`` each time the link is back after a loss (in place of the one
        given to ``connect``): what the server had for it meanwhile never came."""
        self._on_reconnected = callback

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """Return the event loop the link runs on."""
        return self._loop

    @property
    def is_connected(self) -> bool:
        return self._transport is not None and not self._transport.is_closing()

    def new_inbox(self) -> str:
        """Return a subject no other connection receives on."""
        return f"{self._inboxes}.{secrets.token_hex(6)}"

    def subscribe(self, subject: str, on_message: OnMessage, queue: str = "") -> int:
        """Call ``on_message`` with every message on ``subject`` (one of ``queue``'s members
        gets each, when given); return the subscription's id."""
        sid = next(self._sids)
        self._subs[sid] = _Subscription(subject, queue, on_message)
        if self.is_connected:  # else the next connection subscribes it
            self._send(sub_frame(subject, sid, queue))
        return sid

    def unsubscribe(self, sid: int) -> None:
        if self._subs.pop(sid, None) is not None and self.is_connected:
            self._send(unsub_frame(sid))

    def publish(self, subject: str, payload: bytes, reply: str = "", headers: bytes = b"") -> None:
        """Send a message; everything published in this event-loop turn (or within the
        link's ``coalesce_s``) leaves in one write.

        Raises:
            ValueError: for a payload over the server's limit.
        """
        if len(payload) + len(headers) > self._max_payload:
            raise ValueError(f"{len(payload)} bytes are over the server's {self._max_payload}")
        self._send(pub_frame(subject, payload, reply, headers))

    @contextlib.contextmanager
    def at_once(self) -> Iterator[None]:
        """While open, each turn's messages leave at its end, held for nothing (a timer's
        item: its rules call and its news); what was held leaves now."""
        self._at_once += 1
        self.send_now()
        try:
            yield
        finally:
            self._at_once -= 1

    def send_now(self) -> None:
        """Write what is waiting now, not when its coalescing ends (a timer's news)."""
        if self._write_timer is not None:
            self._write_timer.cancel()
        self._write()

    async def flush(self, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        """Return once the server has read everything sent so far (a PING answered), sent
        at once.

        Raises:
            TimeoutError: when it does not answer in time.
        """
        pong: asyncio.Future[None] = self._loop.create_future()
        self._pongs.append(pong)
        self._send(PING)
        self.send_now()  # what waits goes with it, now: a flush is asked for
        await asyncio.wait_for(pong, timeout_s)

    async def close(self) -> None:
        """Send what is waiting and close; the link does not dial again."""
        self._closing = True
        if self._pinger is not None:
            self._pinger.cancel()
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        with contextlib.suppress(TimeoutError, ConnectionError):
            if self.is_connected:
                await self.flush()
        if self._transport is not None:
            self._transport.close()
        self._up.set(0)

    # -- the connection --------------------------------------------------------------------

    def _send(self, frame: bytes) -> None:
        if self._out_bytes + len(frame) > MAX_PENDING_BYTES and not self.is_connected:
            log.warning("NATS link down and its buffer full: a message is dropped")
            return
        self._out.append(frame)
        self._out_bytes += len(frame)
        if not self._write_due and self.is_connected:
            self._write_due = True
            if self._coalesce_s and not self._at_once:
                self._write_timer = self._loop.call_later(self._coalesce_s, self._write)
            else:
                self._loop.call_soon(self._write)

    def _write(self) -> None:
        self._write_due = False
        self._write_timer = None
        if not self._out or not self.is_connected:
            return
        assert self._transport is not None
        data = b"".join(self._out) if len(self._out) > 1 else self._out[0]
        self._out.clear()
        self._out_bytes = 0
        self._transport.write(data)

    async def _dial_any(self) -> bool:
        for host, port in self._servers:
            try:
                await self._dial(host, port)
                return True
            except (OSError, TimeoutError, ProtocolError) as error:
                log.warning("NATS %s:%s: %r", host, port, error)
        return False

    async def _dial(self, host: str, port: int) -> None:
        """Connect, say who we are, subscribe everything, and wait for the server's PONG."""
        transport, _ = await asyncio.wait_for(
            self._loop.create_connection(lambda: _Protocol(self), host, port), CONNECT_TIMEOUT_S
        )
        hello = [connect_frame(self._name, user=self._user, password=self._password)]
        hello += [sub_frame(s.subject, sid, s.queue) for sid, s in self._subs.items()]
        transport.write(b"".join(hello))
        self._transport = transport
        self._outstanding_pings = 0
        try:
            await self.flush()  # the publishes that waited go with its PING
        except (TimeoutError, ConnectionError):
            transport.abort()
            raise
        self._established = transport
        self._up.set(1)

    def _lost(self, transport: asyncio.BaseTransport, error: Exception | None) -> None:
        if transport is self._transport:
            self._transport = None
            while self._pongs:
                pong = self._pongs.popleft()
                if pong is not None and not pong.done():
                    pong.set_exception(ConnectionError("the NATS connection was lost"))
        if transport is not self._established or self._closing:
            return  # a dial that failed: its caller tries the next server
        self._established = None
        self._up.set(0)
        log.warning("NATS link lost: %r", error)
        if self._on_disconnected is not None:
            self._on_disconnected()
        self._reconnecting = self._loop.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        wait_s = RECONNECT_FIRST_S
        while not self._closing:
            await asyncio.sleep(wait_s)
            if await self._dial_any():
                log.info("NATS link back")
                if self._on_reconnected is not None:
                    self._on_reconnected()
                return
            wait_s = min(RECONNECT_MAX_S, wait_s * 2)

    def _arm_pinger(self) -> None:
        self._pinger = self._loop.call_later(PING_EVERY_S, self._ping)

    def _ping(self) -> None:
        """Ask the server for a PONG now and then: a silent server is a lost connection."""
        if self.is_connected:
            if self._outstanding_pings >= MAX_OUTSTANDING_PINGS:
                assert self._transport is not None
                self._transport.abort()  # stale: connection_lost dials again
            else:
                self._outstanding_pings += 1
                self._pongs.append(None)
                self._send(PING)
        self._arm_pinger()

    def _received(self, frames: list[Frame]) -> None:
        for frame in frames:
            if isinstance(frame, Message):
                sub = self._subs.get(frame.sid)
                if sub is not None:
                    try:
                        sub.on_message(frame)
                    except Exception:
                        log.exception("a NATS callback failed on %s", frame.subject)
            elif frame == PING:
                self._send(PONG)
            elif frame == PONG:
                self._outstanding_pings = 0
                pong = self._pongs.popleft() if self._pongs else None
                if pong is not None and not pong.done():
                    pong.set_result(None)
            elif isinstance(frame, Info):
                self._max_payload = frame.max_payload
            elif isinstance(frame, ServerError):
                log.warning("NATS server: %s", frame.text)


class _Protocol(asyncio.Protocol):
    """The socket's side: bytes in, frames to the link."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link
        self._reader = Reader()
        self._transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            frames = self._reader.feed(data)
        except ProtocolError:
            log.exception("NATS link: unreadable bytes; dialling again")
            assert self._transport is not None
            self._transport.abort()  # type: ignore[attr-defined]
            return
        self._link._received(frames)

    def connection_lost(self, error: Exception | None) -> None:
        if self._transport is not None:
            self._link._lost(self._transport, error)
