"""Deleted accounts told to the arena: published to PF_ACCOUNTS once, even across NATS outages.

On both backends, with a real nats-server: a deletion reaches the stream and is marked
told; one owed while NATS was away is told when it is back; an accounts database from
before the outbox owes its deleted accounts and tells them at the next start.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from nats.js.errors import NotFoundError

from services.accounts.migrations import MIGRATIONS, migrate
from services.accounts.names import clean, key
from services.accounts.outbox import Outbox, tell
from services.accounts.store import Store
from services.common import deletions, tasks
from services.common.database import Database, Target
from services.stack.natsd import NatsServer, start_nats
from wire.subjects import ACCOUNTS_DELETED, ACCOUNTS_STREAM

RETRY_S = 0.05


async def deleted(store: Store, name: str, player_id: str) -> None:
    assert await store.create(player_id, clean(name), key(clean(name)), "$argon2id$hash")
    await store.delete(player_id)


async def told_on_the_stream(url: str, count: int) -> list[str]:
    """Wait until the stream holds ``count`` deletions; return their player ids in order."""
    connection = await nats.connect(url)
    try:
        js = connection.jetstream()
        while True:
            try:
                held = (await js.stream_info(ACCOUNTS_STREAM)).state.messages
            except NotFoundError:
                held = 0
            if held >= count:
                break
            await asyncio.sleep(RETRY_S)
        found = [await js.get_msg(ACCOUNTS_STREAM, seq) for seq in range(1, held + 1)]
        assert {m.subject for m in found} == {ACCOUNTS_DELETED}
        return [deletions.decode(m.data or b"") for m in found]
    finally:
        await connection.close()


@pytest.fixture
async def telling(
    store: Store, nats_server: NatsServer
) -> AsyncIterator[tuple[Outbox, asyncio.Event]]:
    outbox, wake = Outbox(store.database), asyncio.Event()
    task = asyncio.create_task(tell(nats_server.url, outbox, wake, RETRY_S))
    yield outbox, wake
    await tasks.stop(task)


async def test_a_deletion_is_published_once_and_marked_told(
    store: Store, nats_server: NatsServer, telling: tuple[Outbox, asyncio.Event]
) -> None:
    outbox, wake = telling
    await deleted(store, "Ann", "g_ann")
    wake.set()
    assert await told_on_the_stream(nats_server.url, 1) == ["g_ann"]
    while await outbox.waiting():
        await asyncio.sleep(RETRY_S)
    await deleted(store, "Bob", "a_bob")
    wake.set()
    # Ann is not told twice: the second message is Bob's.
    assert await told_on_the_stream(nats_server.url, 2) == ["g_ann", "a_bob"]


async def test_a_deletion_owed_while_nats_is_away_is_told_when_it_is_back(
    store: Store, tmp_path: Path
) -> None:
    first = await start_nats(tmp_path / "nats")
    port = int(first.url.rsplit(":", 1)[1])
    await first.stop()  # nothing listens there now
    outbox, wake = Outbox(store.database), asyncio.Event()
    task = asyncio.create_task(tell(first.url, outbox, wake, RETRY_S))
    try:
        await deleted(store, "Ann", "a_ann")
        wake.set()
        assert [p for p, _ in await outbox.waiting()] == ["a_ann"]
        back = await start_nats(tmp_path / "nats", port=port)
        try:
            assert await told_on_the_stream(back.url, 1) == ["a_ann"]
        finally:
            await back.stop()
    finally:
        await tasks.stop(task)


async def test_accounts_deleted_before_the_outbox_are_owed_after_the_migration(
    target: Target,
) -> None:
    database = Database(target)
    await database.open()
    try:
        await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:2]))
        before = Store(database)
        await deleted(before, "Ann", "g_ann")
        assert await Store(database).migrate() == (3, 4)
        assert [p for p, _ in await Outbox(database).waiting()] == ["g_ann"]
    finally:
        await database.close()
