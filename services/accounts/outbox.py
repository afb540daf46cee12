"""Deleted accounts told to the arena: each deletion is published until the stream holds it.

Deleting an account commits ``deletion_told = 0`` with it (an outbox). A task publishes
every deletion not yet told to the PF_ACCOUNTS stream (services/common/deletions.py) and
marks it told once the stream acknowledged it. A crash in between publishes it again at the
next start, and the stream drops the copy (Nats-Msg-Id = the player id). Signing in never
waits for NATS: the accounts service serves while NATS is away, and tells what it owes
when NATS is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from nats.aio.client import Client
from nats.errors import Error as NatsError
from prometheus_client import Counter

from services.common import deletions, natsmetrics
from services.common.database import Database, Session
from services.common.jetstream_config import accounts_stream_config, declared_stream
from wire.subjects import ACCOUNTS_DELETED, ACCOUNTS_STREAM

log = logging.getLogger("accounts")

TOLD = Counter("pf_accounts_deletions_told", "Deleted accounts published to the arena")
BATCH = 100


class Outbox:
    """The deleted accounts the arena has not been told of yet."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def waiting(self) -> list[tuple[str, float]]:
        """Return (player id, deleted at, unix s) of the deletions not told yet, oldest first."""
        return await self._database.run(_waiting)

    async def told(self, player_id: str) -> None:
        await self._database.run(lambda s: _told(s, player_id))


def _waiting(session: Session) -> list[tuple[str, float]]:
    rows = session.rows(
        "SELECT player_id, deleted_unix_s FROM accounts"
        " WHERE deleted_unix_s IS NOT NULL AND deletion_told = 0"
        f" ORDER BY deleted_unix_s, player_id LIMIT {BATCH}",
    )
    return [(str(player_id), float(deleted)) for player_id, deleted in rows]


def _told(session: Session, player_id: str) -> None:
    with session.transaction():
        session.execute("UPDATE accounts SET deletion_told = 1 WHERE player_id = ?", (player_id,))


async def tell(
    nats_url: str,
    outbox: Outbox,
    wake: asyncio.Event,
    retry_s: float,
) -> None:
    """Connect to NATS, then publish each deletion owed, at start and whenever ``wake`` is
    set (a deletion just committed), until cancelled. Trouble on NATS is retried after
    ``retry_s``; what was not told stays owed."""
    connection = await _connected(nats_url, retry_s)
    try:
        js = connection.jetstream()
        declared = False  # once per connection, and again after trouble: not every wake
        while True:
            wake.clear()
            try:
                if not declared:
                    await declared_stream(js, accounts_stream_config())
                    declared = True
                while owed := await outbox.waiting():
                    for player_id, deleted_unix_s in owed:
                        await js.publish(
                            ACCOUNTS_DELETED,
                            deletions.encode(player_id, round(deleted_unix_s * 1000)),
                            stream=ACCOUNTS_STREAM,
                            headers={"Nats-Msg-Id": player_id},
                        )
                        await outbox.told(player_id)
                        TOLD.inc()
            except (NatsError, TimeoutError) as error:
                declared = False
                log.warning(
                    "deleted accounts not told yet; trying again",
                    extra={"fields": {"error": repr(error), "retry_s": retry_s}},
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), retry_s)
    finally:
        await connection.close()


async def _connected(nats_url: str, retry_s: float) -> Client:
    """Return a connection to NATS, trying again every ``retry_s`` until one is made."""
    while True:
        try:
            return await natsmetrics.connect(nats_url, "accounts", max_reconnect_attempts=-1)
        except (NatsError, OSError, TimeoutError) as error:
            log.warning(
                "no NATS yet; deleted accounts wait to be told",
                extra={"fields": {"error": repr(error), "retry_s": retry_s}},
            )
            await asyncio.sleep(retry_s)
