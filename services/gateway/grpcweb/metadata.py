"""gRPC metadata at the HTTP edge: which headers go to the backend, and what comes back."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.metadata import Metadata, is_key, is_text_value
from wire.grpcweb.status import STATUS_DETAILS

_TIMEOUT = re.compile(r"(\d{1,8})([HMSmun])")
_SECONDS_PER_UNIT = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
# Response metadata a backend may not set: the gateway writes these itself, or HTTP owns them.
_RESPONSE_RESERVED = frozenset(
    {"content-type", "content-length", "content-encoding", "transfer-encoding", "connection"}
)


@dataclass(frozen=True, slots=True)
class HeaderPolicy:
    """Which request headers reach the backend as metadata.

    `reserved` names are set only by the gateway (an authenticated player id, a receipt
    stamp): a client's copy is never forwarded, even when a prefix would let it through.
    """

    names: frozenset[str] = frozenset({"authorization"})
    prefixes: tuple[str, ...] = ("x-pf-",)
    reserved: frozenset[str] = frozenset()

    def forwards(self, name: str) -> bool:
        """Returns whether a request header of this name is passed on to the backend."""
        key = name.lower()
        if key in self.reserved:
            return False
        return key in self.names or key.startswith(self.prefixes)


def forwarded(headers: Mapping[str, str], policy: HeaderPolicy, own: Metadata) -> Metadata:
    """Returns the client's forwardable headers as metadata, then the gateway's own.

    A header the gateway sets itself replaces the client's header of the same name.

    Raises:
        MalformedRequest: a forwarded header cannot be carried as gRPC metadata.
    """
    own_keys = {key for key, _ in own}
    picked: list[tuple[str, str | bytes]] = []
    for name, value in headers.items():
        key = name.lower()
        if policy.forwards(key) and key not in own_keys:
            picked.append((key, _request_value(key, value)))
    return (*picked, *own)


def _request_value(key: str, value: str) -> str | bytes:
    if not is_key(key):
        raise MalformedRequest(Reason.BAD_HEADER, f"header name {key!r} is not valid metadata")
    if key.endswith("-bin"):
        return decode_binary(key, value)
    if not is_text_value(value):
        raise MalformedRequest(
            Reason.BAD_HEADER, f"header {key} has characters gRPC metadata cannot carry"
        )
    return value


def decode_binary(key: str, value: str) -> bytes:
    """Returns the bytes of a "-bin" header value, padded or not (gRPC accepts both).

    Raises:
        MalformedRequest: the value is not base64.
    """
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except ValueError as err:
        raise MalformedRequest(Reason.BAD_HEADER, f"header {key} is not base64") from err


def parse_timeout(value: str | None) -> float | None:
    """Returns the `grpc-timeout` header as seconds, or None when absent.

    Raises:
        MalformedRequest: the value is not 1-8 digits and a unit (H M S m u n).
    """
    if value is None:
        return None
    match = _TIMEOUT.fullmatch(value.strip())
    if match is None:
        raise MalformedRequest(
            Reason.BAD_TIMEOUT, f"grpc-timeout {value!r} is not 1-8 digits and a unit (HMSmun)"
        )
    return int(match.group(1)) * _SECONDS_PER_UNIT[match.group(2)]


def from_backend(pairs: Iterable[tuple[str, str | bytes]] | None) -> Metadata:
    """Returns a backend's metadata without the names the gateway or HTTP owns."""
    if pairs is None:
        return ()
    return tuple(
        (key, value)
        for key, value in pairs
        if key not in _RESPONSE_RESERVED
        and (key == STATUS_DETAILS or not key.startswith(("grpc-", "access-control-")))
    )
