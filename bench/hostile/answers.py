"""Sending one hostile request, and judging its answer.

A clean answer is a gRPC status whose refusals carry a ``google.rpc.ErrorInfo`` reason
and no internal text (addresses, library messages, tracebacks), or, for a request that is
no gRPC-web call at all (a CORS preflight, a page, a path that is no method), a plain HTTP
answer below 500 that says nothing of the inside.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

from bench.hostile.probes import Probe
from wire.grpcweb.framing import decode_frames, parse_trailer_block, percent_decode

INTERNAL = re.compile(
    r"traceback|exception|<class|ipv[46]:|127\.0\.0\.1|localhost:|\.py\b|file \"|nats:|"
    r"statuscode\.|grpc_status|errno|\bsocket\b",
    re.IGNORECASE,
)
FAULTS_KEPT = 50


@dataclass(slots=True)
class Tally:
    """What the campaign sent and got back, and every answer that was not clean."""

    sent: Counter[str] = field(default_factory=Counter)  # by probe class
    answers: Counter[str] = field(default_factory=Counter)  # "CODE reason" or "HTTP n"
    faults: list[str] = field(default_factory=list)
    fault_count: int = 0

    def fault(self, kind: str, what: str) -> None:
        self.fault_count += 1
        if len(self.faults) < FAULTS_KEPT:
            self.faults.append(f"{kind}: {what}")


def _status_of(headers: dict[str, str], body: bytes, text: bool) -> dict[str, str] | str:
    """Return the gRPC status fields of an answer, or why none could be read."""
    status = {k.lower(): v for k, v in headers.items() if k.lower().startswith("grpc-")}
    if "grpc-status" in status:
        return status  # trailers-only
    try:
        raw = base64.b64decode(body, validate=True) if text else body
        frames = decode_frames(raw)
    except (ValueError, binascii.Error) as error:
        return f"an unreadable body ({error})"
    for item in frames:
        if item.is_trailer:
            status.update((k.lower(), v) for k, v in parse_trailer_block(item.payload))
            return status
    return "no grpc-status in headers or trailers"


def _reason(status: dict[str, str]) -> str:
    details = status.get("grpc-status-details-bin", "")
    if not details:
        return ""
    try:
        proto = status_pb2.Status.FromString(base64.b64decode(details + "=" * (-len(details) % 4)))
    except (binascii.Error, DecodeError):
        return ""
    for detail in proto.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return str(info.reason)
    return ""


def judge(
    probe: Probe, http_status: int, headers: dict[str, str], body: bytes, tally: Tally
) -> None:
    """Count one answer, and note it as a fault unless it is clean."""
    content_type = headers.get("Content-Type", headers.get("content-type", ""))
    if not content_type.startswith("application/grpc-web"):
        tally.answers[f"HTTP {http_status}"] += 1
        if http_status >= 500:
            tally.fault(probe.kind, f"{probe.method} {probe.path[:80]}: HTTP {http_status}")
        if INTERNAL.search(body.decode("utf-8", "replace")):
            tally.fault(probe.kind, f"internal text in HTTP {http_status}: {body[:200]!r}")
        return
    if http_status != 200:
        tally.fault(probe.kind, f"a gRPC-web answer with HTTP {http_status}")
    status = _status_of(headers, body, "text" in content_type)
    if isinstance(status, str):
        tally.fault(probe.kind, f"{probe.path[:80]}: {status}")
        return
    code = status["grpc-status"]
    message = percent_decode(status.get("grpc-message", ""))
    reason = _reason(status)
    tally.answers[f"{code} {reason}".strip()] += 1
    if code != "0" and not reason:
        tally.fault(probe.kind, f"{probe.path[:80]}: status {code} without a reason: {message}")
    if INTERNAL.search(message):
        tally.fault(probe.kind, f"{probe.path[:80]}: internal text: {message[:200]}")


async def send(http: aiohttp.ClientSession, url: str, probe: Probe, tally: Tally) -> None:
    """Send ``probe`` and judge the answer; a server that drops the request is a fault."""
    tally.sent[probe.kind] += 1
    for attempt in range(2):
        try:
            async with http.request(
                probe.method, url + probe.path, data=probe.body, headers=dict(probe.headers)
            ) as response:
                body = await response.read()
                judge(probe, response.status, dict(response.headers), body, tally)
                return
        except aiohttp.ServerDisconnectedError:
            if attempt == 0:
                continue  # a kept-alive connection the server had just closed as idle
            tally.fault(probe.kind, f"{probe.path[:80]}: the server dropped the request")
        except (aiohttp.ClientError, TimeoutError) as error:
            tally.fault(probe.kind, f"{probe.path[:80]} {probe.body[:40]!r}: {error!r}")
            return
