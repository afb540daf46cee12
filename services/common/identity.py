"""Who is calling: the gateway authenticates players and names them in call metadata.

Internal services trust these headers because only the gateway reaches them. gRPC
metadata values are ASCII, so the gateway sends a name percent-encoded (UTF-8), as
``quote(name)``, and it is read decoded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NewType
from urllib.parse import unquote

import grpc

from services.common.rejection import Rejection

PLAYER_ID = "x-pf-player-id"
PLAYER_NAME = "x-pf-player-name"
RECEIVED_NS = "x-pf-received-ns"  # the gateway's monotonic stamp of a request's receipt
SESSION_ID = "x-pf-session-id"  # an account's signed-in session ("" for a guest)
CLIENT_ADDRESS = "x-pf-client-address"  # who connected: for the per-address limits
# "operator" for an account holding the operator role (the fair-play queue), else absent.
ROLE = "x-pf-role"
OPERATOR = "operator"

PlayerId = NewType("PlayerId", str)


@dataclass(frozen=True, slots=True)
class Player:
    """A person or a bot, as seated at a match."""

    id: PlayerId
    name: str
    bot: bool = False
    guest: bool = False  # signed in by name only, with no account (a bot is neither)

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


class MissingIdentity(Exception):
    """The call's metadata does not name its player; each service answers in its own terms."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def caller(metadata: Iterable[tuple[str, str | bytes]] | None) -> Player:
    """Return the player named by the call's metadata (``invocation_metadata()``): a guest
    unless the call carries an account's session.

    Raises:
        MissingIdentity: when the id or the name is missing or blank.
    """
    values = text_values(metadata)
    player_id = values.get(PLAYER_ID, "").strip()
    name = unquote(values.get(PLAYER_NAME, "")).strip()
    if not player_id or not name:
        missing = PLAYER_ID if not player_id else PLAYER_NAME
        raise MissingIdentity(f"no {missing} in the call metadata")
    return Player(PlayerId(player_id), name, guest=not values.get(SESSION_ID, "").strip())


def is_account(metadata: Iterable[tuple[str, str | bytes]] | None) -> bool:
    """Whether the call's player signed in to an account (a session), not as a guest."""
    return bool(text_values(metadata).get(SESSION_ID, "").strip())


def text_values(metadata: Iterable[tuple[str, str | bytes]] | None) -> dict[str, str]:
    """Return the text metadata by key ("-bin" values, which are bytes, are left out)."""
    return {key: value for key, value in metadata or () if isinstance(value, str)}


def _metadata(context: grpc.aio.ServicerContext[object, object]) -> dict[str, str]:
    return text_values(context.invocation_metadata())


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


def is_operator(metadata: Iterable[tuple[str, str | bytes]] | None) -> bool:
    """Whether the call's metadata names an operator (set by the gateway from the token)."""
    return text_values(metadata).get(ROLE, "") == OPERATOR
