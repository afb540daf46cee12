"""Placement records and the fenced log, against a real nats-server's JetStream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from nats.js import JetStreamContext
from nats.js.errors import NoKeysError

from photofinish.arbitration.v1 import log_pb2
from services.arbitration.matchlog.writer import StreamStore, Superseded
from services.arbitration.ownership import Placement
from services.common.jetstream_config import log_stream_config
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import Requests
from services.common.placement import Directory, instances_bucket, owners_bucket
from services.stack.natsd import NatsServer, start_nats
from tests.waiting import poll_until

TTL_S = 1.0


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    started = await start_nats(tmp_path / "nats")
    yield started
    await started.stop()


@pytest.fixture
async def js(server: NatsServer) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(server.url)
    yield nc.jetstream()
    await nc.close()


@pytest.fixture
async def store(server: NatsServer, js: JetStreamContext) -> AsyncIterator[StreamStore]:
    await js.add_stream(log_stream_config())
    link = await NatsLink.connect(server.url, "test")
    yield StreamStore(Requests(link), js)
    await link.close()


async def directory(js: JetStreamContext) -> Directory:
    found = Directory(await owners_bucket(js), await instances_bucket(js, TTL_S))
    await found.start()
    return found


async def test_a_new_match_is_routed_to_the_instance_that_opened_it(js: JetStreamContext) -> None:
    own = Placement("arb-a", await directory(js))
    announcing = asyncio.create_task(own.announce("10.0.0.1:7102", every_s=0.1))
    await own.claim_new("m1")
    gateway = await directory(js)  # another process, reading the same buckets
    assert await gateway.owner_of("m1") == "arb-a"
    assert await gateway.address_of("m1") == "10.0.0.1:7102"
    assert await gateway.address_of("nobody-opened-this") is None
    assert await gateway.address_of("*") is None  # not even a possible key
    announcing.cancel()


async def test_of_two_claims_on_one_orphan_exactly_one_wins(js: JetStreamContext) -> None:
    dead = Placement("arb-dead", await directory(js))
    await dead.claim_new("m1")
    survivors = [Placement(name, await directory(js)) for name in ("arb-b", "arb-c")]
    seen = [(await s.orphans())["m1"] for s in survivors]
    won = await asyncio.gather(*(s.claim("m1", o) for s, o in zip(survivors, seen, strict=True)))
    assert sorted(won) == [False, True]
    winner = survivors[won.index(True)].instance
    assert await (await directory(js)).owner_of("m1") == winner


async def test_only_a_silent_instances_matches_are_orphans(js: JetStreamContext) -> None:
    alive = Placement("arb-alive", await directory(js))
    silent = Placement("arb-silent", await directory(js))
    beating = asyncio.create_task(alive.announce("127.0.0.1:1", every_s=0.1))
    stopping = asyncio.create_task(silent.announce("127.0.0.1:2", every_s=0.1))
    await alive.claim_new("kept")
    await silent.claim_new("orphaned")
    watcher = Placement("arb-watcher", await directory(js))
    assert set(watcher.directory.owners()) == {"kept", "orphaned"}
    await poll_until(
        "arb-alive's directory sees arb-silent's claim",
        lambda: "orphaned" in alive.directory.owners(),
    )

    async def both_announced() -> bool:
        try:
            keys = await watcher.directory.instances_kv.keys()
        except NoKeysError:
            return False
        return set(keys) == {"arb-alive", "arb-silent"}

    await poll_until("both instances announce themselves", both_announced)
    assert await watcher.orphans() == {}  # both still announce themselves
    stopping.cancel()  # silent stops beating, as a killed process would
    orphans = await poll_until("arb-silent's record ages out (TTL_S)", watcher.orphans)
    assert set(orphans) == {"orphaned"}
    assert set(await alive.orphans()) == {"orphaned"}
    assert await silent.orphans() == {}  # never its own
    beating.cancel()


async def test_a_released_match_is_nobodys(js: JetStreamContext) -> None:
    own = Placement("arb-a", await directory(js))
    await own.claim_new("m1")
    assert "m1" in own.mine()
    await own.release("m1")
    await poll_until("the watch brings m1's deletion", lambda: "m1" not in own.mine())
    assert await (await directory(js)).owner_of("m1") is None


def entry(index: int, instance: str = "arb-a") -> bytes:
    return log_pb2.LogEntry(match_id="m1", index=index, instance=instance).SerializeToString()


async def test_an_append_after_someone_elses_is_refused(store: StreamStore) -> None:
    first = await store.put("m1", 0, entry(0), 0)  # the opener's header
    with pytest.raises(Superseded):
        await store.put("m1", 0, entry(0, "arb-b"), 0)  # another "first" entry of the match
    old_owner = await store.put("m1", 1, entry(1), first)
    taken = await store.read("m1")
    assert [e.index for e in taken.entries] == [0, 1] and taken.last_seq == old_owner
    adopter = await store.put("m1", 2, entry(2, "arb-b"), taken.last_seq)  # the takeover's
    with pytest.raises(Superseded):
        await store.put("m1", 2, entry(2), old_owner)  # the old owner, back from a stall
    again = await store.read("m1")
    assert [e.index for e in again.entries] == [0, 1, 2] and again.last_seq == adopter


async def test_a_retried_append_is_stored_once(store: StreamStore) -> None:
    first = await store.put("m1", 0, entry(0), 0)
    second = await store.put("m1", 1, entry(1), first)
    # Its acknowledgement was lost: the same entry again, after the same one, is the same.
    assert await store.put("m1", 1, entry(1), first) == second
    assert [e.index for e in (await store.read("m1")).entries] == [0, 1]
