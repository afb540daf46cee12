"""A gateway's spectator counts in the pf_watchers bucket (a real nats-server): every open
count is renewed on time even while another match's spectators come and go without pause
(a quiet spell never comes), and a count that falls to zero is deleted."""

from __future__ import annotations

import asyncio

import nats
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from services.common.live import watchers_bucket, watchers_key
from services.gateway.spectator_counts import SpectatorCounts
from services.stack.natsd import NatsServer

RENEW_S = 0.3


async def test_counts_are_renewed_while_another_match_keeps_changing(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    try:
        kv = await watchers_bucket(connection.jetstream())
        counts = SpectatorCounts(kv, renew_s=RENEW_S)
        counts.start()
        counts.opened("quiet")
        key = watchers_key("quiet", counts.gateway)
        for _ in range(50):  # the first write
            if await revision(kv, key):
                break
            await asyncio.sleep(0.02)
        first = await revision(kv, key)
        assert first
        for _ in range(20):  # RENEW_S / 3 apart: never a quiet spell of RENEW_S
            counts.opened("busy")
            await asyncio.sleep(RENEW_S / 3)
        assert (await revision(kv, key)) > first  # renewed all the same
        counts.closed("quiet")
        for _ in range(50):
            if not await revision(kv, key):
                break
            await asyncio.sleep(0.02)
        assert not await revision(kv, key)
        await counts.stop()
    finally:
        await connection.close()


async def revision(kv: KeyValue, key: str) -> int:
    """Return the key's latest revision, 0 when it holds no count."""
    try:
        entry = await kv.get(key)
    except KeyNotFoundError:
        return 0
    return 0 if entry.value in (None, b"") else int(entry.revision or 0)
