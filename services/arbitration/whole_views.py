"""Whole views for a stream's first update: most steps send each seat only its change, so
where the last step sent a change, the view is fetched from the rules instance holding the
match (and kept in ``Match.views`` until the next step)."""

from __future__ import annotations

import asyncio
import contextlib

from photofinish.game.v1 import game_pb2
from services.arbitration.match import Match, WholeView
from services.arbitration.rules_client import NotHeld, RulesClient

_TRIES = 3
# A rules instance that lost the match gets it back from the match's worker, after the
# item it is judging: a restore takes a log read and a replay, well within this.
RESTORE_WAIT_S = 10.0


async def fetch(match: Match, rules: RulesClient, seat: int) -> None:
    """Put ``seat``'s (-1: the spectators') whole view of the match as it stands in
    ``match.views`` if none is there. Asked of the rules instance directly, beside the
    match's worker (a view changes nothing); one that lost the match gets it back from the
    worker, which keeps the view then."""
    for _ in range(_TRIES):
        if seat in match.views:
            return
        version = match.version
        try:
            reply = await rules.view(match.match_id, version, seat)
        except NotHeld:
            done = asyncio.get_running_loop().create_future()
            match.queue.put_nowait(WholeView(seat, done))
            with contextlib.suppress(TimeoutError):  # none, then: the update goes without
                async with asyncio.timeout(RESTORE_WAIT_S):
                    await done
            continue
        if match.version == version:  # no step landed meanwhile: the view is current
            keep(match, seat, reply.view)
            return


def keep(match: Match, seat: int, view: game_pb2.View) -> None:
    """Keep ``view``, ``seat``'s whole view of the match as it stands, as a stream's first
    update shows it (an encoded ``Seen``)."""
    match.views[seat] = game_pb2.Seen(view=view, version=match.version).SerializeToString()
