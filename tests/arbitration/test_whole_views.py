"""Views as changes, between the arbitration and a client: the updates a match publishes
carry each step's change (a whole view every ``WHOLE_VIEW_EVERY`` steps), a stream's first
update the whole view (fetched from the rules where the last step sent a change), and a
client that keeps its view from either ends with the view the rules would have shown."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from clients.kept_view import ChangeMissed, KeptView
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration import whole_views
from services.arbitration.publisher import build_update
from services.rules.replies import WHOLE_VIEW_EVERY
from tests.arbitration.harness import Table
from tests.bots.fakes import MATCH, FakeArena


def deciding(table: Table) -> tuple[int, game_pb2.Command]:
    """Return a deciding seat and its first legal command."""
    seat = next(s for s in sorted(table.match.decision.seats) if table.legal(s))
    return seat, table.legal(seat)[0]


async def first_update(table: Table) -> arbitration_pb2.MatchUpdate:
    """Return seat 0's first update of a new stream (GetUpdate): the whole view."""
    await whole_views.fetch(table.match, table.matches.rules, 0)
    return build_update(table.match, 0, table.now())


async def whole(table: Table, seat: int) -> game_pb2.View:
    """Return ``seat``'s whole view now, as a stream's first update (GetUpdate) has it."""
    await whole_views.fetch(table.match, table.matches.rules, seat)
    update = build_update(table.match, seat, table.now())
    assert update.HasField("view") and update.version == table.match.version
    return update.view


@pytest.mark.parametrize("game", [game_pb2.GAME_BID, game_pb2.GAME_SPIT])
async def test_a_kept_view_follows_every_published_change_to_the_view_shown(
    game: game_pb2.Game.ValueType,
) -> None:
    table = Table(game, seed=5)
    await table.open()
    kept, engine_kept = KeptView(), KeptView()
    kept.complete(table.outbox.sent[-1])  # the opening: a whole view
    engine_kept.keep(table.outbox.sent[-1])
    assert table.outbox.sent[-1].HasField("view")
    changes = 0
    while table.match.version < 2 * WHOLE_VIEW_EVERY + 3 and not table.match.is_over():
        if table.match.decision.gated:
            await table.nudge()
        else:
            await table.submit(*deciding(table))
        sent = table.outbox.sent[-1]
        changes += not sent.HasField("view")
        assert sent.version == table.match.version
        # A step's update holds a whole view on every WHOLE_VIEW_EVERY-th step only.
        assert sent.HasField("view") == (sent.version % WHOLE_VIEW_EVERY == 0)
        shown = kept.complete(sent).view
        assert shown == await whole(table, 0)
        # What a bot plans from: the engine's view, brought forward without the wire's.
        assert engine_kept.keep(sent) == table.entry.codec.view_from_proto(shown)
    assert changes > WHOLE_VIEW_EVERY


async def test_an_update_that_adds_no_step_leaves_the_kept_view_as_it_was() -> None:
    table = Table(game_pb2.GAME_BID, seed=5)
    await table.open()
    await table.nudge()
    await table.submit(*deciding(table))
    kept = KeptView()
    first = kept.complete(await first_update(table))  # a stream's first: a whole view
    assert first.HasField("view")
    again = table.outbox.sent[-1]  # the step's change, which that view already shows
    assert again.version == first.version and not again.HasField("view")
    assert kept.complete(again).view == first.view


async def test_a_change_without_the_view_before_it_is_missed_not_shown() -> None:
    table = Table(game_pb2.GAME_BID, seed=5)
    await table.open()
    await table.nudge()
    kept = KeptView()
    assert kept.complete(await first_update(table)).HasField("view")
    for _ in range(2):  # the first of these steps never reaches the client
        await table.submit(*deciding(table))
    skipped = table.outbox.sent[-1]
    with pytest.raises(ChangeMissed):  # the client opens its stream again
        kept.complete(skipped)
    assert kept.complete(await first_update(table)).HasField("view")  # the new stream's first


async def test_a_rules_instance_that_lost_the_match_gets_it_back_for_a_new_stream() -> None:
    # Half an hour unasked (a paused match against the computer), or a restarted rules
    # instance: the first update of a new stream still holds the whole view.
    table = Table(game_pb2.GAME_SPIT, seed=5)
    await table.open()
    await table.nudge()
    await table.submit(*deciding(table))
    assert 0 not in table.match.views  # the step sent its change only
    assert table.rules.drop_idle(now_s=float("inf")) == 1  # the rules instance lost it
    worker = asyncio.create_task(table.matches._worker.run(table.match))
    try:
        shown = await whole(table, 0)
    finally:
        worker.cancel()
    assert shown.spit.version == table.match.version
    assert shown == await whole(table, 0)  # kept until the next step


async def test_a_bot_told_a_change_without_the_view_before_it_watches_again() -> None:
    table = Table(game_pb2.GAME_BID, seed=5)
    await table.open()
    await table.nudge()
    kept = KeptView()
    assert kept.keep(await first_update(table)) is not None
    for _ in range(2):  # the first of these steps never reaches the client
        await table.submit(*deciding(table))
    with pytest.raises(ChangeMissed):  # the bot watches again
        kept.keep(table.outbox.sent[-1])
    assert kept.keep(await first_update(table)) is not None  # the new stream's first


async def bot_at_table() -> tuple[Table, FakeArena, SeatPlayer]:
    """Return an opened Bid table, a public API whose one stream the test feeds with the
    table's updates for seat 0, and the bot that plays seat 0 through it."""
    table = Table(game_pb2.GAME_BID, seed=5)
    await table.open()
    arena = FakeArena()
    arena.stream()
    player = SeatPlayer(
        arena,
        MATCH,
        0,
        GAMES[game_pb2.GAME_BID],
        Level.HARD,
        random.Random(5),
        Pace(think_scale=0.0),
        Reconnect(),
    )
    return table, arena, player


async def test_a_bot_seat_sent_changes_plays_from_the_view_they_bring_forward() -> None:
    table, arena, player = await bot_at_table()
    stream = arena.streams[0]
    playing = asyncio.create_task(player.play())
    fed = 0
    try:
        while table.match.version < 2 * WHOLE_VIEW_EVERY + 3 and not table.match.is_over():
            for sent in table.outbox.sent[fed:]:
                stream.put_nowait(sent)
            fed = len(table.outbox.sent)
            if table.match.decision.gated:
                await table.nudge()
            elif 0 in table.match.decision.seats and table.legal(0):
                command = await arena.next_submission()
                answer = await table.submit(0, command)
                assert isinstance(answer, arbitration_pb2.SubmitReply), answer  # accepted
            else:
                await table.submit(*deciding(table))
        sent_as_changes = sum(not sent.HasField("view") for sent in table.outbox.sent)
        assert sent_as_changes > WHOLE_VIEW_EVERY
        assert player.tally.unreadable == 0
    finally:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing


async def test_a_bot_seat_sent_changes_ends_with_the_whole_view_it_kept() -> None:
    table, arena, player = await bot_at_table()
    stream = arena.streams[0]
    playing = asyncio.create_task(player.play())
    for _ in range(4):
        if table.match.decision.gated:
            await table.nudge()
        else:
            await table.submit(*deciding(table))
    resign = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
    await table.submit(1, resign)
    assert table.match.is_over()
    final_sent = table.outbox.sent[-1]
    assert not final_sent.HasField("view")  # the end came as a change
    for sent in table.outbox.sent:
        stream.put_nowait(sent)
    final = await asyncio.wait_for(playing, 5)
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.view == await whole(table, 0)
    assert sum(final.view.bid.balances) == 300
