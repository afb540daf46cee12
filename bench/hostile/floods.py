"""Hostile clients that hold on: bursts, stream floods, connection floods, slow bodies.

Each returns what happened, counted; a request that got no clean answer is a fault in
the ``Tally`` as for single probes. Raw sockets where a well-behaved HTTP client would
not do the harm (headers that never end, a body sent a byte at a time).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp

from bench.hostile.answers import Tally, judge, send
from bench.hostile.probes import ARENA, Probe, Target, frame, grpc_web
from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.client.v1 import arena_pb2
from photofinish.game.v1 import bid_pb2, game_pb2

TRICKLE_S = 0.5  # one byte every so often: a slow client's pace
CLOSE_WAIT_S = 60.0  # how long a held connection may take to be let go, at most


@dataclass(frozen=True, slots=True)
class Held:
    """How many of a flood's connections or streams were let in, refused, or closed."""

    opened: int
    refused: Counter[str]
    closed: int = 0


async def burst(
    http: aiohttp.ClientSession, url: str, target: Target, size: int, tally: Tally
) -> None:
    """``size`` commands at once from one stranger's token (refused: not their seat, or
    past the rate limit)."""
    token = target.strangers[0]
    request = arbitration_pb2.SubmitRequest(
        match_id=target.match_id,
        seat=0,
        client_seq=1,
        command=game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw())),
    )
    probe = Probe("burst", f"{ARENA}/Submit", frame(request.SerializeToString()), grpc_web(token))
    await asyncio.gather(*(send(http, url, probe, tally) for _ in range(size)))


async def stream_flood(http: aiohttp.ClientSession, url: str, target: Target, size: int) -> Held:
    """``size`` spectator streams of the match from one token, held open together."""
    client = ArenaClient(http, url)
    client.web.token = target.strangers[1]
    streams = [client.watch(target.match_id, -1) for _ in range(size)]
    refused: Counter[str] = Counter()
    opened = 0
    try:
        for stream in streams:
            try:
                await asyncio.wait_for(anext(stream), 20)
                opened += 1
            except CallError as error:
                refused[error.reason] += 1
    finally:
        for stream in streams:
            await stream.aclose()
    return Held(opened, refused)


def _endpoint(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


async def _closed_within(reader: asyncio.StreamReader, timeout_s: float) -> bytes | None:
    """Return what the server sent before it closed the connection; None if it kept it."""
    received = b""
    try:
        async with asyncio.timeout(timeout_s):
            while chunk := await reader.read(65536):
                received += chunk
    except TimeoutError:
        return None
    except ConnectionError:
        pass
    return received


async def connection_flood(url: str, address: str, size: int) -> Held:
    """``size`` connections from ``address`` that send nothing: the cap closes the ones
    past it, the idle timeout the rest."""
    host, port = _endpoint(url)
    connections = []
    refused: Counter[str] = Counter()
    for _ in range(size):
        try:
            connections.append(await asyncio.open_connection(host, port, local_addr=(address, 0)))
        except OSError as error:
            refused[type(error).__name__] += 1
    try:
        results = await asyncio.gather(
            *(_closed_within(reader, CLOSE_WAIT_S) for reader, _ in connections)
        )
    finally:
        for _, writer in connections:
            writer.close()
    return Held(len(connections), refused, sum(r is not None for r in results))


async def _trickle(writer: asyncio.StreamWriter, data: bytes) -> None:
    with contextlib.suppress(ConnectionError):
        for index in range(len(data)):
            writer.write(data[index : index + 1])
            await writer.drain()
            await asyncio.sleep(TRICKLE_S)


async def _slow(
    url: str, address: str, head: bytes, rest: bytes, probe: Probe, tally: Tally
) -> bool:
    """Send ``head`` at once and ``rest`` a byte at a time; judge any answer. Return
    whether the server let the connection go (answered, or closed it)."""
    host, port = _endpoint(url)
    reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
    writer.write(head)
    trickling = asyncio.create_task(_trickle(writer, rest))
    try:
        received = await _closed_within(reader, CLOSE_WAIT_S)
    finally:
        trickling.cancel()
        writer.close()
    tally.sent[probe.kind] += 1
    if received is None:
        tally.fault(probe.kind, "the connection was held for the whole wait")
        return False
    if received:
        status_line, _, after = received.partition(b"\r\n")
        header_block, _, body = after.partition(b"\r\n\r\n")
        headers = dict(
            (k.strip(), v.strip())
            for k, _, v in (
                line.decode("latin-1").partition(":") for line in header_block.split(b"\r\n")
            )
        )
        judge(probe, int(status_line.split()[1]), headers, body, tally)
    else:
        tally.answers["closed"] += 1
    return True


async def slow_clients(url: str, address: str, size: int, tally: Tally) -> int:
    """``size`` clients whose body trickles in, and as many whose headers do: every one
    is answered (``body_timeout``) or closed. Return how many were let go."""
    request = arena_pb2.WatchRequest(match_id="x", seat=-1).SerializeToString()
    body = frame(request) + bytes(200)  # at a byte a trickle: far past any body timeout
    path = f"{ARENA}/Watch"
    host = f"Host: {address}\r\n"
    headers = "".join(f"{k}: {v}\r\n" for k, v in grpc_web().items())
    head = f"POST {path} HTTP/1.1\r\n{host}{headers}content-length: {len(body)}\r\n\r\n"
    slow_body = Probe("slow_body", path)
    slow_headers = Probe("slow_headers", path)
    results = await asyncio.gather(
        *(_slow(url, address, head.encode(), body, slow_body, tally) for _ in range(size)),
        *(
            _slow(
                url, address, b"", (head + "x-filler: " + "a" * 200).encode(), slow_headers, tally
            )
            for _ in range(size)
        ),
    )
    return sum(results)
