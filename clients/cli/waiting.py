"""Waiting for an opponent: in a queue or on a challenge code; ``cancel`` or Ctrl-C leaves."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import TypeVar

from clients.cli.console import INTERRUPT, Console
from clients.cli.words import t
from photofinish.matchmaking.v1 import matchmaking_pb2

T = TypeVar("T")
LEAVE_WORDS = ("cancel", "quit", "q", INTERRUPT)


async def _next(stream: AsyncIterator[T]) -> T | None:
    try:
        return await anext(stream)
    except StopAsyncIteration:
        return None


async def wait_for_match(
    console: Console,
    stream: AsyncIterator[T],
    on_update: Callable[[T], matchmaking_pb2.MatchAssignment | None],
) -> matchmaking_pb2.MatchAssignment | None:
    """Return the match ``stream`` announces, or None when the person leaves or it ends.

    ``on_update`` tells about an update and returns the assignment once there is one.
    Leaving closes the stream, which withdraws the ticket or the challenge.

    Raises:
        CallError: when the server ends the stream with an error.
    """
    line_task: asyncio.Task[str | None] | None = asyncio.create_task(console.read())
    item_task = asyncio.create_task(_next(stream))
    try:
        while True:
            assert line_task is not None
            done, _ = await asyncio.wait(
                {line_task, item_task}, return_when=asyncio.FIRST_COMPLETED
            )
            if item_task in done:
                item = item_task.result()
                if item is None:
                    console.say(t("cli.wait.closed"))
                    return None
                assignment = on_update(item)
                if assignment is not None:
                    return assignment
                item_task = asyncio.create_task(_next(stream))
            if line_task in done:
                line, line_task = line_task.result(), None
                if line is None or line.strip().lower() in LEAVE_WORDS:
                    console.say(t("cli.wait.left"))
                    return None
                console.say(t("cli.wait.still"))
                line_task = asyncio.create_task(console.read())
    finally:
        if line_task is not None:
            console.drop_read(line_task)
        item_task.cancel()
        await asyncio.gather(item_task, return_exceptions=True)
        if isinstance(stream, AsyncGenerator):
            await stream.aclose()


def queue_update(
    console: Console,
) -> Callable[[matchmaking_pb2.QueueUpdate], matchmaking_pb2.MatchAssignment | None]:
    """Return a handler of queue updates that prints how many are waiting."""

    def on_update(update: matchmaking_pb2.QueueUpdate) -> matchmaking_pb2.MatchAssignment | None:
        if update.HasField("match"):
            return update.match
        console.say(t("cli.wait.queue", count=update.waiting))
        return None

    return on_update


def challenge_update(
    console: Console,
) -> Callable[[matchmaking_pb2.ChallengeUpdate], matchmaking_pb2.MatchAssignment | None]:
    """Return a handler of challenge updates that prints the code to share."""

    def on_update(
        update: matchmaking_pb2.ChallengeUpdate,
    ) -> matchmaking_pb2.MatchAssignment | None:
        if update.HasField("match"):
            return update.match
        console.say(t("cli.wait.code", code=update.code))
        console.say(t("cli.wait.give_code"))
        return None

    return on_update
