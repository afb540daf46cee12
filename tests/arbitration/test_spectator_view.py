"""The spectators' view costs nothing while nobody watches, and is current once someone does."""

from __future__ import annotations

from photofinish.game.v1 import game_pb2
from services.arbitration import spectator_view, whole_views
from services.arbitration.publisher import build_update
from services.common.watching import LEASE_S
from tests.arbitration.harness import Table

START = game_pb2.Command(nudge=game_pb2.Nudge())


def a_bid_play(table: Table) -> tuple[int, game_pb2.Command]:
    seat = min(table.match.decision.seats)
    return seat, table.legal(seat)[0]


async def test_nobody_watching_means_no_spectator_view_after_the_first_step() -> None:
    table = Table(game_pb2.GAME_BID, seed=3)
    await table.open()
    await table.nudge()  # the start gate lifted: the first step
    assert set(table.match.perspectives) == {0, 1}


async def test_a_watch_brings_the_spectators_view_now_and_with_every_step() -> None:
    table = Table(game_pb2.GAME_BID, seed=3)
    await table.open()
    await table.nudge()
    await spectator_view.watch(table.match, table.matches.rules, table.now())
    first = build_update(table.match, -1, table.now())
    assert first.view.bid.seat == -1 and not first.view.bid.hand  # a view, hiding hands
    assert first.view.bid.version == table.match.version
    seat, command = a_bid_play(table)
    await table.submit(seat, command)
    after = build_update(table.match, -1, table.now())  # the step's change, for spectators
    assert after.version == table.match.version > first.view.bid.version
    assert after.HasField("told") and not after.HasField("view")
    await whole_views.fetch(table.match, table.matches.rules, -1)  # as a new watcher's stream
    whole = build_update(table.match, -1, table.now())
    assert whole.view.bid.version == table.match.version
    assert whole.view.bid.seat == -1 and not whole.view.bid.hand


async def test_the_watch_lapses_when_nobody_renews_it() -> None:
    table = Table(game_pb2.GAME_BID, seed=3)
    await table.open()
    await table.nudge()
    await spectator_view.watch(table.match, table.matches.rules, table.now())
    table.now_ns += int(LEASE_S * 1e9)  # no renewal within the lease
    seat, command = a_bid_play(table)
    await table.submit(seat, command)
    assert set(table.match.perspectives) == {0, 1}
