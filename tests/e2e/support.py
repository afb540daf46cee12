"""What the end-to-end tests share: a running stack, signed-in players, a challenge."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass

import aiohttp
import nats
from nats.js import api
from prometheus_client.parser import text_string_to_metric_families

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import game_pb2
from services.stack.stack import Stack
from wire import subjects

UPDATE_TIMEOUT_S = 20.0


@contextlib.contextmanager
def lower_cpu_priority(niceness: int) -> Iterator[None]:
    """Run the block ``niceness`` steps nicer: the test's players are clients, which on a
    deployment have machines of their own, so the stack it started gets the CPU first.

    Only the calling thread changes (Linux keeps niceness per thread); the stack's
    processes, started before, keep theirs. Going back needs the privilege to raise a
    priority; without it the rest of the test run stays nicer, which changes no result.
    """
    before = os.getpriority(os.PRIO_PROCESS, 0)
    os.setpriority(os.PRIO_PROCESS, 0, before + niceness)
    try:
        yield
    finally:
        with contextlib.suppress(PermissionError):
            os.setpriority(os.PRIO_PROCESS, 0, before)


@dataclass(slots=True)
class Seated:
    """A player at a seat of a match."""

    client: ArenaClient
    match_id: str
    seat: int

    async def submit(self, command: game_pb2.Command) -> arbitration_pb2.SubmitReply:
        return await self.client.submit(self.match_id, self.seat, command)


async def metric(
    http: aiohttp.ClientSession, stack: Stack, service: str, name: str
) -> dict[str, float]:
    """Return the samples of metric ``name`` on ``service``'s /metrics, keyed by labels."""
    url = f"http://127.0.0.1:{stack.children[service].ports['metrics']}/metrics"
    async with http.get(url) as response:
        text = await response.text()
    return {
        ",".join(f"{k}={v}" for k, v in sample.labels.items()): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    }


async def stored(stack: Stack, subject: str) -> list[log_pb2.LogEntry]:
    """Return the match log stream's messages on ``subject`` (a filter) as stored, each an
    entry as it was sent: a stored command, or an entry carrying a judged one."""
    nc = await nats.connect(stack.nats_url)
    try:
        js = nc.jetstream()
        config = api.ConsumerConfig(
            filter_subjects=[subject],
            deliver_policy=api.DeliverPolicy.ALL,
            ack_policy=api.AckPolicy.NONE,
        )
        sub = await js.pull_subscribe("", stream=subjects.LOG_STREAM, config=config)
        left = (await sub.consumer_info()).num_pending or 0
        entries: list[log_pb2.LogEntry] = []
        while len(entries) < left:
            messages = await sub.fetch(left - len(entries), timeout=5)
            entries += [log_pb2.LogEntry.FromString(m.data) for m in messages]
        return entries
    finally:
        await nc.close()


async def player(
    http: aiohttp.ClientSession, stack: Stack, name: str, guest: bool = False
) -> ArenaClient:
    """A player signed in to an account of its own, named after ``name`` (rated play is
    for accounts); with ``guest``, a guest named ``name``."""
    client = ArenaClient(http, stack.gateway_url)
    if guest:
        await client.sign_in(name)
    else:
        await client.sign_up_new(name)
    return client


async def challenge(
    a: ArenaClient, b: ArenaClient, game: game_pb2.Game.ValueType, rated: bool
) -> tuple[Seated, Seated]:
    """Return a and b seated at a new match: a challenges, b accepts by code."""
    stream = a.create_challenge(game, rated)
    first = await anext(stream)
    accepted = await b.accept_challenge(first.code)
    created = await anext(stream)
    await stream.aclose()
    assert created.match.match_id == accepted.match_id
    return (
        Seated(a, accepted.match_id, created.match.seats[0]),
        Seated(b, accepted.match_id, accepted.seats[0]),
    )


async def next_update(
    updates: AsyncIterator[arbitration_pb2.MatchUpdate],
) -> arbitration_pb2.MatchUpdate:
    return await asyncio.wait_for(anext(updates), UPDATE_TIMEOUT_S)


async def until(
    updates: AsyncIterator[arbitration_pb2.MatchUpdate],
    done: object,
) -> arbitration_pb2.MatchUpdate:
    """Return the first update for which ``done(update)`` holds."""
    assert callable(done)
    while True:
        update = await next_update(updates)
        if done(update):
            return update


def is_over(update: arbitration_pb2.MatchUpdate) -> bool:
    """Return whether ``update`` shows its match ended (finished or voided)."""
    return update.status != arbitration_pb2.STATUS_LIVE


async def first_end(
    updates: AsyncIterator[arbitration_pb2.MatchUpdate],
) -> arbitration_pb2.MatchUpdate:
    """Return the first update that shows the match ended."""
    return await until(updates, is_over)


def seat_bot(
    seated: Seated,
    game: game_pb2.Game.ValueType,
    think_scale: float,
    reconnect: Reconnect | None = None,
) -> SeatPlayer:
    """A hard computer player for ``seated``'s seat, through the public API, at
    ``think_scale`` times the computer's pace (0: as fast as it can)."""
    return SeatPlayer(
        seated.client,
        seated.match_id,
        seated.seat,
        BY_NUMBER[game],
        Level.HARD,
        random.Random(seated.seat),
        Pace(think_scale=think_scale),
        reconnect or Reconnect(),
    )


def ended(ends: Iterable[arbitration_pb2.MatchUpdate]) -> str:
    """Say how a match that should have finished ended instead (a void names its reason)."""
    return "; ".join(
        f"{arbitration_pb2.Status.Name(end.status)} {end.void_reason}".strip() for end in ends
    )
