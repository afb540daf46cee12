"""Letting finished matches go once their players have had time to read the end."""

from __future__ import annotations

import asyncio
import logging

from services.arbitration.matches import Matches

log = logging.getLogger("arbitration")


async def evict_finished(matches: Matches, keep_s: float) -> None:
    """Forget finished matches older than ``keep_s``, forever, every few seconds."""
    while True:
        await asyncio.sleep(min(5.0, keep_s))
        cutoff = matches.now() - int(keep_s * 1e9)
        for match in matches.held():
            match_id = match.match_id
            if match.finished_ns is not None and match.finished_ns < cutoff:
                matches.let_go(match_id)
                try:
                    if matches.placement is not None:
                        await matches.placement.release(match_id)
                except Exception as error:
                    # NATS trouble must not end the eviction of every later match; a
                    # finished match's leftover records go at the next take_over.
                    log.warning(
                        "forgetting a finished match failed",
                        extra={"fields": {"match": match_id, "why": repr(error)}},
                    )
