"""Spit's codec: options, commands, views and events <-> their proto messages."""

from __future__ import annotations

from games.spit import Options
from games.spit.codec.changes import (
    event_from_proto,
    told_from_proto,
    told_to_bytes,
    told_to_proto,
)
from games.spit.codec.commands import command_from_proto, command_to_proto
from games.spit.codec.events import event_to_proto
from games.spit.codec.view import view_from_proto, view_to_proto, views_to_bytes
from photofinish.game.v1 import game_pb2

__all__ = [
    "command_from_proto",
    "command_to_proto",
    "event_from_proto",
    "event_to_proto",
    "options_from_proto",
    "told_from_proto",
    "told_to_bytes",
    "told_to_proto",
    "view_from_proto",
    "view_to_proto",
    "views_to_bytes",
]


def options_from_proto(options: game_pb2.Options) -> Options:
    """Return the match settings: ``pausable`` for a match against the computer."""
    return Options(pausable=options.pausable)
