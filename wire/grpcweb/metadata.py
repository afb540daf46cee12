"""gRPC metadata as HTTP/1 header lines: valid names, text values, "-bin" values in base64."""

from __future__ import annotations

import base64
import re
from typing import TypeAlias

# gRPC metadata in grpc-python's shape: text values for plain keys, bytes for "-bin" keys.
Metadata: TypeAlias = tuple[tuple[str, str | bytes], ...]

_KEY = re.compile(r"[0-9a-z_.\-]+")
_TEXT_VALUE = re.compile(r"[\x20-\x7e]*")


def is_key(name: str) -> bool:
    """Returns whether `name` can be a metadata key: lower-case letters, digits, `_.-`."""
    return _KEY.fullmatch(name) is not None


def is_text_value(value: str) -> bool:
    """Returns whether `value` can be a text metadata value: printable ASCII only."""
    return _TEXT_VALUE.fullmatch(value) is not None


def header_lines(metadata: Metadata) -> list[tuple[str, str]]:
    """Returns metadata as HTTP header pairs: "-bin" values base64 without padding.

    Pairs that HTTP/1 cannot carry safely (a bad name, a control character) are left out:
    they can only come from a misbehaving backend, and one must not split a header block.
    """
    lines: list[tuple[str, str]] = []
    for key, value in metadata:
        text = _header_value(key, value)
        if is_key(key) and is_text_value(text):
            lines.append((key, text))
    return lines


def _header_value(key: str, value: str | bytes) -> str:
    if isinstance(value, bytes):
        encoded = base64.b64encode(value).decode("ascii").rstrip("=")
        return encoded if key.endswith("-bin") else value.decode("ascii", "replace")
    return value
