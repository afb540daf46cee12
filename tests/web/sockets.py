"""What a page says on its play sockets (each frame decoded) and which Arena methods it calls
over gRPC-web: where its commands and updates really went."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

from playwright.async_api import Page, Request, WebSocket

from clients.kept_view import KeptView
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import play_pb2

ARENA = "/photofinish.client.v1.Arena/"
GRPC_WEB_PREFIX = 5  # a gRPC-web data frame's flags and length, before the message


@dataclass
class Socket:
    """One /play WebSocket of the page, its frames as they went (decoded when read)."""

    frames_sent: list[bytes | str] = field(default_factory=list)
    frames_received: list[bytes | str] = field(default_factory=list)

    @property
    def sent(self) -> list[play_pb2.PlayIn]:
        return [play_pb2.PlayIn.FromString(_binary(frame)) for frame in self.frames_sent]

    @property
    def received(self) -> list[play_pb2.PlayOut]:
        return [play_pb2.PlayOut.FromString(_binary(frame)) for frame in self.frames_received]

    def hello(self) -> play_pb2.PlayHello:
        sent = self.sent
        assert sent and sent[0].WhichOneof("kind") == "hello", sent[:1]
        return sent[0].hello

    def submits(self) -> list[play_pb2.PlaySubmit]:
        return [m.submit for m in self.sent if m.WhichOneof("kind") == "submit"]

    def answers(self) -> dict[int, play_pb2.PlayAnswer]:
        return {
            m.answer.client_seq: m.answer for m in self.received if m.WhichOneof("kind") == "answer"
        }

    def updates(self) -> list[arbitration_pb2.MatchUpdate]:
        """Return the updates as they came, most of them a step's change (no view)."""
        return [m.update for m in self.received if m.WhichOneof("kind") == "update"]

    def views(self) -> list[arbitration_pb2.MatchUpdate]:
        """Return the updates each with its whole view, as the page brings them forward."""
        kept = KeptView()
        return [kept.complete(update) for update in self.updates()]


def _binary(frame: bytes | str) -> bytes:
    assert isinstance(frame, bytes), f"a text frame on the play socket: {frame!r}"
    return frame


class Traffic:
    """Records the page's play sockets and its gRPC-web calls from now on (reloads too)."""

    def __init__(self, page: Page) -> None:
        self.sockets: list[Socket] = []
        self.calls: list[str] = []  # Arena method names, in the order they were requested
        self.grpc_web_submits: list[int] = []  # the client_seq of each Submit over gRPC-web
        page.on("websocket", self._on_socket)
        page.on("request", self._on_request)

    def submits(self) -> list[play_pb2.PlaySubmit]:
        return [submit for socket in self.sockets for submit in socket.submits()]

    def unanswered(self) -> list[int]:
        """The client_seq of each command sent on a socket with no answer on it (yet)."""
        missing = []
        for socket in self.sockets:
            answers = socket.answers()
            missing += [s.client_seq for s in socket.submits() if s.client_seq not in answers]
        return missing

    def _on_socket(self, ws: WebSocket) -> None:
        if urlparse(ws.url).path != "/play":
            return
        socket = Socket()
        self.sockets.append(socket)

        def sent(frame: bytes | str) -> None:
            socket.frames_sent.append(frame)

        def received(frame: bytes | str) -> None:
            socket.frames_received.append(frame)

        ws.on("framesent", sent)
        ws.on("framereceived", received)

    def _on_request(self, request: Request) -> None:
        path = urlparse(request.url).path
        if not path.startswith(ARENA):
            return
        self.calls.append(path.removeprefix(ARENA))
        body = request.post_data_buffer
        if path.endswith("/Submit") and body:
            request_message = arbitration_pb2.SubmitRequest.FromString(body[GRPC_WEB_PREFIX:])
            self.grpc_web_submits.append(request_message.client_seq)
