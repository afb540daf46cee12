"""Deleted accounts, as the services that show names learn of them (the PF_ACCOUNTS stream).

The accounts service publishes an ``AccountDeleted`` for each deleted account until the
stream holds it. Ratings and tournaments each read the stream with a durable consumer and
blank the name they keep for that player, so ladders, history and standings say "deleted
player" from then on. Forgetting a name twice changes nothing, so a redelivery is harmless;
a message is acked only after the forgetting is committed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from google.protobuf.message import DecodeError
from nats.aio.msg import Msg
from nats.js import JetStreamContext, api

from photofinish.events.v1 import events_pb2
from services.common.jetstream_config import accounts_stream_config, declared_stream
from services.common.pulling import batches
from wire.subjects import ACCOUNTS_DELETED, ACCOUNTS_STREAM

log = logging.getLogger(__name__)

MAX_PLAYER_ID = 64  # characters: longer is no player id of ours
BATCH = 32

# Forget a deleted player's name: blank it where the service keeps it, committed on return.
Forget = Callable[[str], Awaitable[None]]


class MalformedDeletion(ValueError):
    """A message on the stream that is no deletion: terminated, never retried."""


def consumer_config(durable: str, ack_wait_s: float) -> api.ConsumerConfig:
    """Return a durable pull consumer of the deletions, from the stream's start."""
    return api.ConsumerConfig(
        durable_name=durable,
        ack_policy=api.AckPolicy.EXPLICIT,
        deliver_policy=api.DeliverPolicy.ALL,
        ack_wait=ack_wait_s,
        filter_subjects=[ACCOUNTS_DELETED],
    )


async def declare(js: JetStreamContext, durable: str, ack_wait_s: float) -> None:
    """Create the stream if missing (or bring it to its configuration) and the consumer."""
    await declared_stream(js, accounts_stream_config())
    await js.add_consumer(ACCOUNTS_STREAM, consumer_config(durable, ack_wait_s))


def encode(player_id: str, deleted_unix_ms: int) -> bytes:
    """Return the message the accounts service publishes for one deleted account."""
    message = events_pb2.AccountDeleted(player_id=player_id, deleted_unix_ms=deleted_unix_ms)
    return message.SerializeToString()


def decode(data: bytes) -> str:
    """Return the deleted account's player id.

    Raises:
        MalformedDeletion: when ``data`` is no ``AccountDeleted`` naming a player.
    """
    try:
        message = events_pb2.AccountDeleted.FromString(data)
    except DecodeError as error:
        raise MalformedDeletion(f"not an AccountDeleted: {error}") from None
    player_id = message.player_id
    if not player_id or len(player_id) > MAX_PLAYER_ID or not player_id.isprintable():
        raise MalformedDeletion(f"no player id of ours: {player_id[:80]!r}")
    return player_id


async def consume(js: JetStreamContext, durable: str, forget: Forget, idle_s: float) -> None:
    """Forget each deleted account's name, then ack it, until cancelled."""
    sub = await js.pull_subscribe_bind(durable=durable, stream=ACCOUNTS_STREAM)
    try:
        async for messages in batches(sub, BATCH, idle_s):
            for message in messages:
                await handle(message, forget)
    finally:
        await sub.unsubscribe()


async def handle(message: Msg, forget: Forget) -> str | None:
    """Forget the name one message names, then ack; return its player id (None: malformed)."""
    try:
        player_id = decode(message.data)
    except MalformedDeletion as error:
        log.warning(
            "malformed deletion terminated",
            extra={
                "fields": {"stream_seq": message.metadata.sequence.stream, "detail": str(error)}
            },
        )
        await message.term()
        return None
    await forget(player_id)
    await message.ack()
    log.info("deleted player's name forgotten", extra={"fields": {"player": player_id}})
    return player_id
