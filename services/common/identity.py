"""Who is calling: the gateway authenticates players and names them in call metadata.

Internal services trust these headers because only the gateway reaches them.
"""

from __future__ import annotations

from urllib.parse import unquote

import grpc

from services.common.rejection import Rejection

PLAYER_ID = "x-pf-player-id"
PLAYER_NAME = "x-pf-player-name"
RECEIVED_NS = "x-pf-received-ns"  # the gateway's monotonic stamp of a request's receipt


def _metadata(context: grpc.aio.ServicerContext[object, object]) -> dict[str, str]:
    return {
        key: value if isinstance(value, str) else value.decode()
        for key, value in (context.invocation_metadata() or ())
    }


def player_id_of(context: grpc.aio.ServicerContext[object, object]) -> str:
    """Return the calling player's id.

    Raises:
        Rejection: UNAUTHENTICATED when the call names no player.
    """
    player = _metadata(context).get(PLAYER_ID, "")
    if not player:
        raise Rejection(grpc.StatusCode.UNAUTHENTICATED, "unauthenticated", "no player named")
    return player


def player_name_of(context: grpc.aio.ServicerContext[object, object]) -> str:
    """Return the calling player's display name ("" when not given).

    Metadata values are ASCII, so the gateway percent-encodes the UTF-8 name.
    """
    return unquote(_metadata(context).get(PLAYER_NAME, ""))


def received_ns_of(context: grpc.aio.ServicerContext[object, object]) -> int | None:
    """Return when the gateway received this call (its monotonic clock), if it said."""
    value = _metadata(context).get(RECEIVED_NS, "")
    return int(value) if value.isdigit() else None
