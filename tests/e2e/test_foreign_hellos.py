"""A seat's updates reach its player alone: thousands of hellos for another's seat, raced
against a fast live match, from a stranger and from the opponent, get not one update.

The play socket subscribes to the seat's updates before the arbitration has said whose the
seat is (so that nothing falls between the latest update and the next); an update
published in that window must be held back, and dropped when the seat is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import aiohttp

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.client.v1 import play_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from services.stack.stack import StackConfig, run_stack
from tests.e2e.support import challenge, player, seat_bot
from tests.waiting import poll_until

HELLOS = 1600  # from each of the two intruders, AT_ONCE at a time
AT_ONCE = 8  # per intruder: under the 16 streams a player may hold, so none is refused for that
RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))


async def intrude(
    http: aiohttp.ClientSession, url: str, token: str, match_id: str, seat: int, told: Counter[str]
) -> None:
    """Say hello for ``seat`` with ``token`` and read to the close; count what came back."""
    hello = play_pb2.PlayIn(hello=play_pb2.PlayHello(token=token, match_id=match_id, seat=seat))
    async with http.ws_connect(url.replace("http", "ws", 1) + "/play") as ws:
        await ws.send_bytes(hello.SerializeToString())
        async for frame in ws:
            if frame.type is not aiohttp.WSMsgType.BINARY:
                continue
            said = play_pb2.PlayOut.FromString(frame.data)
            kind = said.WhichOneof("kind")
            told[f"closed: {said.closed.reason}" if kind == "closed" else str(kind)] += 1


async def intruder(
    url: str, token: str, match_id: str, seat: int, told: Counter[str], going: Callable[[], bool]
) -> None:
    """Say hello for ``seat``, ``AT_ONCE`` at a time, while ``going()``; count into ``told``."""
    async with aiohttp.ClientSession() as http:
        while going():
            await asyncio.gather(
                *(intrude(http, url, token, match_id, seat, told) for _ in range(AT_ONCE))
            )


async def one_match(
    url: str, ann: ArenaClient, ben: ArenaClient, eve: ArenaClient, quota: tuple[int, int]
) -> tuple[Counter[str], Counter[str], int]:
    """A fast Spit match between Ann and Ben; while it is live, Eve (a stranger) and Ben
    (the opponent) say hello for Ann's seat, up to ``quota`` hellos each. Return what each
    was told, and how many plays were made meanwhile."""
    a, b = await challenge(ann, ben, game_pb2.GAME_SPIT, rated=False)
    players = [seat_bot(seated, game_pb2.GAME_SPIT, 0.1) for seated in (a, b)]
    playing = [asyncio.create_task(p.play()) for p in players]

    def live() -> bool:
        return not any(task.done() for task in playing)

    def within(quota: int, told: Counter[str]) -> Callable[[], bool]:
        return lambda: live() and told.total() < quota

    stranger, opponent = Counter[str](), Counter[str]()
    try:
        await poll_until("the match is under way", lambda: players[0].tally.accepted or not live())
        before = sum(p.tally.accepted for p in players)
        await asyncio.gather(
            intruder(url, eve.web.token, a.match_id, a.seat, stranger, within(quota[0], stranger)),
            intruder(url, ben.web.token, a.match_id, a.seat, opponent, within(quota[1], opponent)),
        )
        during = sum(p.tally.accepted for p in players) - before
    finally:
        for task in playing:
            task.cancel()
    with contextlib.suppress(CallError):  # unless the match is over already
        await ann.submit(a.match_id, a.seat, RESIGN)
    return stranger, opponent, during


async def test_hellos_for_another_seat_during_a_fast_match_get_no_update(tmp_path: Path) -> None:
    """Match after match (a loaded machine gets through fewer hellos in one), until each
    intruder has said ``HELLOS`` hellos while a match was live."""
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        ann, ben = await player(http, stack, "Ann"), await player(http, stack, "Ben")
        eve = ArenaClient(http, stack.gateway_url)
        await eve.sign_in("Eve")
        stranger, opponent, during = Counter[str](), Counter[str](), 0
        while stranger.total() < HELLOS or opponent.total() < HELLOS:
            quota = (HELLOS - stranger.total(), HELLOS - opponent.total())
            told, heard, plays = await one_match(stack.gateway_url, ann, ben, eve, quota)
            stranger, opponent, during = stranger + told, opponent + heard, during + plays
    assert set(stranger) == {"closed: not_your_seat"}, stranger
    assert set(opponent) == {"closed: not_your_seat"}, opponent
    # The race was real: the seat's updates kept coming while the hellos did.
    assert during >= 20, f"{during} plays during the attack"
