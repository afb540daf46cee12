"""Who is asking: the player the gateway names in call metadata, and players in general.

The gateway authenticates and is trusted (internal network): it names the acting player in
``x-pf-player-id`` and ``x-pf-player-name``. gRPC metadata values are ASCII, so the name
is read percent-decoded (UTF-8): the gateway may pass any name as ``quote(name)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NewType
from urllib.parse import unquote

from services.matchmaking.errors import Reason, Unauthenticated

PlayerId = NewType("PlayerId", str)

PLAYER_ID_KEY = "x-pf-player-id"
PLAYER_NAME_KEY = "x-pf-player-name"


@dataclass(frozen=True, slots=True)
class Player:
    """A person or a bot, as seated at a match."""

    id: PlayerId
    name: str
    bot: bool = False

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


def caller(metadata: Iterable[tuple[str, str | bytes]] | None) -> Player:
    """Return the player named by the call's metadata.

    Raises:
        Unauthenticated: when the id or the name is missing or blank.
    """
    values = {key: value for key, value in metadata or () if isinstance(value, str)}
    player_id = values.get(PLAYER_ID_KEY, "").strip()
    name = unquote(values.get(PLAYER_NAME_KEY, "")).strip()
    if not player_id or not name:
        missing = PLAYER_ID_KEY if not player_id else PLAYER_NAME_KEY
        raise Unauthenticated(Reason.MISSING_IDENTITY, f"no {missing} in the call metadata")
    return Player(PlayerId(player_id), name)
