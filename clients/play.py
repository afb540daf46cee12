"""The play socket from a client's side: one seat's updates and commands on one WebSocket.

``PlaySocket`` speaks the gateway's ``/play`` (proto/photofinish/client/v1/play.proto);
``SocketArena`` is what a bot plays through: each watched seat on its socket, and a
command for a seat without one (or whose socket was just lost) over gRPC-web with the same
``client_seq``, so that it is answered, never applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator

import aiohttp

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from clients.kept_view import ChangeMissed, KeptView
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import play_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
NORMAL_CLOSE = 1000
ANSWER_WAIT_S = 12.0  # past the gateway's own wait for an answer (10 s)
_END = object()


def _call_error(refusal: events_pb2.Refusal) -> CallError:
    message = refusal.message
    if refusal.reason and message.startswith(f"{refusal.reason}: "):
        message = message[len(refusal.reason) + 2 :]
    return CallError(refusal.code, message, refusal.reason, dict(refusal.metadata))


class PlaySocket:
    """One seat of one match: read ``updates()``, send ``submit()``.

    Each update comes with its whole view; with ``changes``, as the gateway sent it (most
    with a change in place of a view: ``KeptView.keep``). Without ``changes``, an update
    whose change does not follow the last ends the socket: ``updates`` raises
    ``ChangeMissed``, and another socket begins with the whole view.
    """

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, changes: bool = False) -> None:
        self._ws = ws
        self._updates: asyncio.Queue[arbitration_pb2.MatchUpdate | object] = asyncio.Queue()
        self._answers: dict[int, asyncio.Future[arbitration_pb2.SubmitReply]] = {}
        # Why the conversation ended: the gateway's refusal, or a change that went missing.
        self._refusal: CallError | ChangeMissed | None = None
        self._kept = None if changes else KeptView()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        session: aiohttp.ClientSession,
        base_url: str,
        token: str,
        match_id: str,
        seat: int,
        changes: bool = False,
    ) -> PlaySocket:
        """Connect and say hello; the first update follows (``updates``).

        Raises:
            aiohttp.ClientError: the gateway cannot be reached.
        """
        url = base_url.rstrip("/").replace("http", "ws", 1) + "/play"
        ws = await session.ws_connect(url, max_msg_size=MAX_MESSAGE_BYTES)
        hello = play_pb2.PlayHello(token=token, match_id=match_id, seat=seat)
        await ws.send_bytes(play_pb2.PlayIn(hello=hello).SerializeToString())
        return cls(ws, changes)

    async def updates(self) -> AsyncGenerator[arbitration_pb2.MatchUpdate, None]:
        """Yield the seat's updates: the latest first, then each change, until the end.

        Raises:
            CallError: the gateway refused the conversation (bad token, not your seat...).
            ChangeMissed: an update's change did not follow the last (the socket is closed).
            aiohttp.ClientConnectionError: the connection was lost before the match ended.
        """
        while True:
            item = await self._updates.get()
            if item is _END:
                self._updates.put_nowait(_END)  # for anyone reading after the end
                if self._refusal is not None:
                    raise self._refusal
                if self._ws.close_code == NORMAL_CLOSE:
                    return
                raise aiohttp.ClientConnectionError(
                    f"the play socket closed (code {self._ws.close_code})"
                )
            assert isinstance(item, arbitration_pb2.MatchUpdate)
            yield item

    async def submit(
        self, client_seq: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        """Return the answer to the command.

        Raises:
            CallError: the server refused it (the reason says why).
            aiohttp.ClientConnectionError: the socket closed before the answer came.
        """
        if self._reader.done():
            raise aiohttp.ClientConnectionError("the play socket is closed")
        answer: asyncio.Future[arbitration_pb2.SubmitReply]
        answer = asyncio.get_running_loop().create_future()
        self._answers[client_seq] = answer
        submit = play_pb2.PlaySubmit(client_seq=client_seq, command=command)
        await self._ws.send_bytes(play_pb2.PlayIn(submit=submit).SerializeToString())
        return await answer

    async def close(self) -> None:
        """Close once the commands sent on it are answered (each is answered or refused
        within the gateway's own timeout), or at once when nothing is owed."""
        if self._answers and not self._reader.done():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ANSWER_WAIT_S):
                    await asyncio.wait(list(self._answers.values()))
        await self._ws.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader

    async def _read(self) -> None:
        try:
            async for message in self._ws:
                if message.type is not aiohttp.WSMsgType.BINARY:
                    break
                self._take(play_pb2.PlayOut.FromString(message.data))
        except ChangeMissed as missed:
            self._refusal = missed
            await self._ws.close()
        finally:
            lost = (
                self._refusal
                if isinstance(self._refusal, CallError)
                else aiohttp.ClientConnectionError("the play socket closed")
            )
            for answer in self._answers.values():
                if not answer.done():
                    answer.set_exception(lost)
            self._answers.clear()
            self._updates.put_nowait(_END)

    def _take(self, out: play_pb2.PlayOut) -> None:
        kind = out.WhichOneof("kind")
        if kind == "update":
            update = out.update
            self._updates.put_nowait(update if self._kept is None else self._kept.complete(update))
        elif kind == "answer":
            answer = self._answers.pop(out.answer.client_seq, None)
            if answer is None or answer.done():
                return
            if out.answer.HasField("refusal"):
                answer.set_exception(_call_error(out.answer.refusal))
            else:
                answer.set_result(out.answer.reply)
        elif kind == "closed":
            self._refusal = _call_error(out.closed)


class SocketArena:
    """A player's seats, each on its play socket (``clients.bots.watching.Arena``)."""

    def __init__(self, client: ArenaClient) -> None:
        self.client = client
        self._sockets: dict[tuple[str, int], PlaySocket] = {}

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncGenerator[arbitration_pb2.MatchUpdate, None]:
        """Yield the seat's updates from a fresh socket (as ``PlaySocket`` says of
        ``changes``; after a missed change, from another); its commands go on it meanwhile."""
        web = self.client.web
        while True:  # a change missed: another socket, whose first update is whole
            socket = await PlaySocket.open(
                web.session, web.base_url, web.token, match_id, seat, changes
            )
            self._sockets[(match_id, seat)] = socket
            try:
                async for update in socket.updates():
                    yield update
                return
            except ChangeMissed:
                pass
            finally:
                if self._sockets.get((match_id, seat)) is socket:
                    del self._sockets[(match_id, seat)]
                await socket.close()

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        """Send a command on the seat's socket (over gRPC-web when it has none or loses it,
        with the same client_seq).

        Raises:
            CallError: when the server refuses the command (the reason says why).
        """
        client_seq = self.client.next_client_seq()
        socket = self._sockets.get((match_id, seat))
        if socket is not None:
            try:
                return await socket.submit(client_seq, command)
            except aiohttp.ClientConnectionError:
                pass  # lost with the connection: ask again, it is answered once
        return await self.client.submit(match_id, seat, command, client_seq=client_seq)
