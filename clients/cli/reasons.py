"""A refusal in words for a person, as the page says it (clients/web/src/api.ts, explain)."""

from __future__ import annotations

import math

from clients.cli.words import has, t
from clients.grpcweb import CallError


def seconds(ms: float) -> str:
    """A wait of ``ms`` in whole seconds, never "0 seconds"."""
    return t("time.seconds", count=max(1, math.ceil(ms / 1000)))


def explain(error: CallError) -> str:
    """The reason's message in the language spoken (every reason the server gives has one);
    for a reason this client does not know yet, the server's sentence and the reason."""
    if not error.reason:
        return error.message or t("api.unreachable")
    key = f"reason.{error.reason}"
    if has(key):
        return t(key, wait=seconds(float(error.metadata.get("retry_after_ms", "0") or 0)))
    if error.message:
        return t("api.refused", sentence=error.message, reason=error.reason)
    return error.reason


def code_of(error: CallError) -> str:
    """The refusal's reason, or its gRPC status code when it has none: shown in brackets."""
    return error.reason or str(error.code)
