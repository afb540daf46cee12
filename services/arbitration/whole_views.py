"""Whole views for a stream's first update: most steps send each seat only its change, so
where the last step sent a change, the view is fetched from the rules instance holding the
match (and kept in ``Match.views`` until the next step)."""

from __future__ import annotations

from photofinish.game.v1 import game_pb2
from services.arbitration.match import Match
from services.arbitration.rules_client import NotHeld, RulesClient

_TRIES = 3


async def fetch(match: Match, rules: RulesClient, seat: int) -> None:
    """Put ``seat``'s (-1: spectators') whole view of the match as it stands in
    ``match.views`` if none is there; a match no rules instance holds now keeps none (its
    next step restores it, with whole views)."""
    for _ in range(_TRIES):
        if seat in match.views:
            return
        version = match.version
        try:
            reply = await rules.view(match.match_id, version, seat)
        except NotHeld:
            return
        if match.version == version:  # no step landed meanwhile: the view is current
            seen = game_pb2.Seen(view=reply.view, version=version)
            match.views[seat] = seen.SerializeToString()
            return
