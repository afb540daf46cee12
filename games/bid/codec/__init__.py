"""Spectacular Bid's codec: options, commands, views and events <-> their proto messages.

Tiles go out smaller half first with their text ("[3|5]") and come in by ``low``/``high``
only, in either order; open points come in by tile and port.
"""

from __future__ import annotations

from games.bid import Options
from games.bid.codec.changes import event_from_proto, told_from_proto, told_to_proto
from games.bid.codec.commands import command_from_proto, command_to_proto
from games.bid.codec.events import event_to_proto
from games.bid.codec.view import view_from_proto, view_to_proto
from games.bid.codec.view_bytes import told_to_bytes, views_to_bytes
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
    """Return the match settings: the rules' defaults (no wire option applies to Bid)."""
    del options
    return Options()
