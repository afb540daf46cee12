"""The results stream read whole: how every match on it ended, finished or voided.

The load test's checks and the deployment run both read it once the play is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from nats.errors import TimeoutError as NatsTimeoutError
from nats.js import JetStreamContext, api

from photofinish.events.v1 import events_pb2
from wire.subjects import RESULTS_FINISHED, RESULTS_STREAM, RESULTS_VOIDED

FETCH_BATCH = 256
FETCH_WAIT_S = 1.0


@dataclass(frozen=True, slots=True)
class Result:
    """A result on the results stream."""

    match_id: str
    player_ids: tuple[str, ...]
    voided: bool
    rated: bool = False
    winner: int = -1
    reason: str = ""
    figures: str = ""


def parsed(subject: str, data: bytes) -> Result | None:
    """Return the result one message of the stream carries, or None for another subject."""
    if subject == RESULTS_FINISHED:
        done = events_pb2.MatchFinished.FromString(data)
        players = tuple(p.player_id for p in done.players)
        return Result(done.match_id, players, False, rated=done.rated, winner=done.outcome.winner)
    if subject == RESULTS_VOIDED:
        void = events_pb2.MatchVoided.FromString(data)
        players = tuple(p.player_id for p in void.players)
        return Result(void.match_id, players, True, reason=void.reason, figures=void.figures)
    return None


async def read_results(js: JetStreamContext) -> dict[str, Result]:
    """Return every result on the results stream, by match id.

    It reads until it has as many messages as the stream held when it began: a fetch that
    times out is not the end (on a loaded machine a second may pass before stored
    messages come), so a busy machine never returns part of the results.
    """
    stored = (await js.stream_info(RESULTS_STREAM)).state.messages
    sub = await js.pull_subscribe(
        "pf.results.>", stream=RESULTS_STREAM, config=api.ConsumerConfig()
    )
    found: dict[str, Result] = {}
    read = 0
    try:
        while read < stored:
            try:
                messages = await sub.fetch(FETCH_BATCH, timeout=FETCH_WAIT_S)
            except (TimeoutError, NatsTimeoutError):
                continue
            read += len(messages)
            for message in messages:
                result = parsed(message.subject, message.data)
                if result is not None:
                    found[result.match_id] = result
                await message.ack()
    finally:
        await sub.unsubscribe()
    return found
