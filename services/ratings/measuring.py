"""The fair-play reader: a second durable consumer of the results, which reads each rated
Spit match's log back from JetStream, measures its reactions and races from the server's
stamps (``services.fairplay``), and stores them, judged, once (docs/fair-play.md).

Only matches that move ratings are measured: online, rated, two people. The computer
players are never measured, so never flagged. A log that cannot be read now (JetStream
between leaders) is left unacked and comes again; one that can never be measured is
logged and acked, so it does not block the rest.
"""

from __future__ import annotations

import logging
from typing import TypeGuard

import nats.errors
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from services.common.matchlogs import is_closed, read_entries
from services.common.pulling import batches
from services.fairplay.races import races
from services.fairplay.reactions import spit_reactions
from services.ratings.codec import decode_result
from services.ratings.errors import Malformed
from services.ratings.fairness import Fairness
from services.ratings.model import Finished, MatchResult
from wire.subjects import FAIRPLAY_CONSUMER, RESULTS_STREAM

log = logging.getLogger("ratings.fairplay")

MEASURED_GAME = "spit"  # the one game whose plays race and react
MAX_DELIVERIES = 5  # a log still not closed after this many tries is given up on


async def measure(js: JetStreamContext, fairness: Fairness, batch: int, idle_s: float) -> None:
    """Measure results from the fair-play durable consumer until cancelled."""
    sub = await js.pull_subscribe_bind(durable=FAIRPLAY_CONSUMER, stream=RESULTS_STREAM)
    try:
        async for messages in batches(sub, batch, idle_s):
            for message in messages:
                await handle(js, message, fairness)
    finally:
        await sub.unsubscribe()


def is_measured(result: MatchResult) -> TypeGuard[Finished]:
    """Whether a result's match is measured: a finished Spit match that moves ratings."""
    return (
        isinstance(result, Finished)
        and result.game.name == MEASURED_GAME
        and result.changes_ratings
    )


async def handle(js: JetStreamContext, message: Msg, fairness: Fairness) -> tuple[str, ...]:
    """Measure one result's match and ack it; return the flags this opened."""
    try:
        result = decode_result(message.subject, message.data)
    except Malformed:
        await message.term()  # the ratings consumer counts and logs it
        return ()
    if not is_measured(result):
        await message.ack()
        return ()
    fields: dict[str, object] = {"match": result.match_id}
    try:
        entries = await read_entries(js, result.match_id)
    except (nats.errors.Error, OSError) as error:
        log.warning(
            "log unreadable; will retry", extra={"fields": {**fields, "error": repr(error)}}
        )
        await message.nak(delay=1.0)
        return ()
    if not is_closed(entries):
        if message.metadata.num_delivered < MAX_DELIVERIES:
            await message.nak(delay=1.0)
        else:
            log.warning("log never closed; not measured", extra={"fields": fields})
            await message.term()
        return ()
    try:
        reactions, found = spit_reactions(entries), races(entries)
    except ValueError as error:
        log.warning("log not measurable", extra={"fields": {**fields, "error": str(error)}})
        await message.term()
        return ()
    opened = await fairness.record(result, message.metadata.timestamp.timestamp(), reactions, found)
    await message.ack()
    if opened:
        log.info("fair-play flag opened", extra={"fields": {**fields, "flags": list(opened)}})
    return opened or ()
