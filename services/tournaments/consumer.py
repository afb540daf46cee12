"""The results consumer: each tournament game's result into the store exactly once.

A durable pull consumer of its own (``tournaments``) on the results stream. A result is
recorded, then acked; a redelivery (a crash between the two) finds its game ended already
and changes nothing. Results of matches that are not tournament games are acked and
ignored; malformed payloads are terminated, not retried.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from google.protobuf.message import DecodeError
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from photofinish.events.v1 import events_pb2
from services.common.pulling import batches
from services.tournaments import metrics
from services.tournaments.model import GameStatus, TournamentId
from services.tournaments.store import Store
from wire.subjects import (
    RESULTS_FINISHED,
    RESULTS_STREAM,
    RESULTS_VOIDED,
    TOURNAMENTS_CONSUMER,
)

log = logging.getLogger("tournaments")


async def consume(
    js: JetStreamContext,
    store: Store,
    recorded: Callable[[TournamentId], None],
    batch: int = 64,
    idle_s: float = 1.0,
) -> None:
    """Record results from the durable consumer until cancelled; call ``recorded`` per game."""
    sub = await js.pull_subscribe_bind(durable=TOURNAMENTS_CONSUMER, stream=RESULTS_STREAM)
    try:
        async for messages in batches(sub, batch, idle_s):
            for message in messages:
                tournament_id = await handle(message, store)
                if tournament_id is not None:
                    recorded(tournament_id)
    finally:
        await sub.unsubscribe()


async def handle(message: Msg, store: Store) -> TournamentId | None:
    """Record one result, then ack it; return its tournament (None: not a new game result)."""
    try:
        match_id, status, winner = decode(message.subject, message.data)
    except ValueError as error:
        log.warning("malformed result terminated", extra={"fields": {"why": str(error)}})
        await message.term()
        return None
    # The stream's timestamp, not our clock: a redelivery carries the same instant.
    ended_at_ms = int(message.metadata.timestamp.timestamp() * 1000)
    tournament_id = await store.record_result(match_id, status, winner, ended_at_ms)
    await message.ack()
    if tournament_id is not None:
        metrics.RESULTS.labels(str(status)).inc()
    return tournament_id


def decode(subject: str, data: bytes) -> tuple[str, GameStatus, int | None]:
    """Return (match id, how it ended, winner seat) of a result message.

    Raises:
        ValueError: for an unknown subject, undecodable bytes or a winner that is no seat.
    """
    try:
        if subject == RESULTS_FINISHED:
            finished = events_pb2.MatchFinished.FromString(data)
            if finished.outcome.winner not in (0, 1):
                raise ValueError(f"winner seat {finished.outcome.winner} in {finished.match_id}")
            return finished.match_id, GameStatus.FINISHED, finished.outcome.winner
        if subject == RESULTS_VOIDED:
            return events_pb2.MatchVoided.FromString(data).match_id, GameStatus.VOIDED, None
    except DecodeError as error:
        raise ValueError(f"{len(data)} bytes on {subject}: {error}") from None
    raise ValueError(f"no result is published on {subject!r}")
