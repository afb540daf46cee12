"""The seat player against a scripted public API: gates, turns, pauses, refusals, lost streams."""

from __future__ import annotations

import asyncio
import random

import pytest

from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect, WatchLost
from clients.grpcweb import CallError
from games import bid, spit
from games.bid import codec as bid_codec
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from tests.bots.fakes import MATCH, End, FakeArena, lost, refusal, spit_in_play, update

FAST = Reconnect(first_s=0.01, max_s=0.05, give_up_s=2.0, idle_s=5.0)
QUIET_S = 0.2  # how long "nothing is sent" is watched for


def seat_player(arena: FakeArena, game: int, level: Level = Level.HARD) -> SeatPlayer:
    return SeatPlayer(
        arena, MATCH, 0, GAMES[game], level, random.Random(5), Pace(think_scale=0.0), FAST
    )


def spit_command(command: game_pb2.Command) -> object:
    return spit_codec.command_from_proto(command)


async def halt(task: asyncio.Task[arbitration_pb2.MatchUpdate]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def nothing_sent(arena: FakeArena) -> bool:
    with pytest.raises(TimeoutError):
        await arena.next_submission(QUIET_S)
    return True


async def test_the_bot_presses_ready_at_the_start_gate_and_stops_when_the_match_ends() -> None:
    arena = FakeArena()
    stream = arena.stream()
    start = spit.new_match(spit.Options(), 1)
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(start, 1))
    assert spit_command(await arena.next_submission()) == spit.Ready()
    final = update(start, 9, status=arbitration_pb2.STATUS_FINISHED)
    stream.put_nowait(final)
    assert await asyncio.wait_for(player, 5) == final


async def test_a_play_names_the_pile_top_the_bot_saw() -> None:
    arena = FakeArena()
    stream = arena.stream()
    state = spit_in_play()
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(state, 3))
    command = spit_command(await arena.next_submission())
    assert isinstance(command, spit.Play) and command.onto is not None
    assert command in set(spit.legal_commands(state, Seat(0)))
    await halt(player)


async def test_a_refused_command_is_replanned_from_the_next_update() -> None:
    arena = FakeArena(answers=[refusal("pile_top_changed")])
    stream = arena.stream()
    state = spit_in_play()
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(state, 3))
    await arena.next_submission()
    stream.put_nowait(update(state, 4))  # the opponent's card landed first (same view here)
    again = spit_command(await arena.next_submission())
    assert isinstance(again, spit.Play)
    await halt(player)


async def test_a_refusal_with_no_news_is_retried_after_a_pause() -> None:
    arena = FakeArena(answers=[refusal("not_your_decision")])
    stream = arena.stream()
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(spit_in_play(), 3))
    await arena.next_submission()
    assert spit_command(await arena.next_submission(2.0)) is not None  # no update came
    await halt(player)


async def test_an_update_older_than_the_bots_own_last_command_is_not_planned_from() -> None:
    arena = FakeArena(answers=[7])
    stream = arena.stream()
    state = spit_in_play()
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(state, 3))
    await arena.next_submission()  # accepted as step 7
    stream.put_nowait(update(state, 6))  # from before the bot's command landed
    assert await nothing_sent(arena)
    stream.put_nowait(update(state, 7))
    await arena.next_submission()
    await halt(player)


async def test_a_paused_match_gets_nothing_until_it_resumes() -> None:
    arena = FakeArena()
    stream = arena.stream()
    playing = spit_in_play(pausable=True)
    paused = spit.apply(playing, Seat(1), spit.Pause()).state
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    stream.put_nowait(update(paused, 4))
    assert await nothing_sent(arena)
    stream.put_nowait(update(spit.apply(paused, Seat(1), spit.Resume()).state, 5))
    assert isinstance(spit_command(await arena.next_submission()), spit.Play | spit.Move)
    await halt(player)


async def test_a_bid_bot_waits_for_its_turn_and_then_moves() -> None:
    arena = FakeArena()
    stream = arena.stream()
    state = bid.new_match(bid.Options(), 2)
    for seat in (Seat(0), Seat(1)):
        state = bid.apply(state, seat, bid.Ready()).state
    mover = min(bid.decision(state).seats)
    waiting = Seat(1 - mover)
    player = SeatPlayer(
        arena,
        MATCH,
        waiting,
        GAMES[game_pb2.GAME_BID],
        Level.HARD,
        random.Random(1),
        Pace(think_scale=0.0),
        FAST,
    )
    task = asyncio.create_task(player.play())
    stream.put_nowait(update(state, 3, seat=waiting))
    assert await nothing_sent(arena)
    legal = list(bid.legal_commands(state, mover))
    moved = bid.apply(state, mover, next(c for c in legal if not isinstance(c, bid.Resign))).state
    assert waiting in bid.decision(moved).seats
    stream.put_nowait(update(moved, 4, seat=waiting))
    command = bid_codec.command_from_proto(await arena.next_submission())
    assert command in set(bid.legal_commands(moved, waiting))
    await halt(task)


async def test_a_lost_stream_is_reconnected_and_play_resumes() -> None:
    arena = FakeArena()
    first, second = arena.stream(), arena.stream()
    start = spit.new_match(spit.Options(), 1)
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    first.put_nowait(update(start, 1))
    await arena.next_submission()  # Ready
    first.put_nowait(lost())
    state = spit_in_play()
    second.put_nowait(update(state, 3))
    assert isinstance(spit_command(await arena.next_submission()), spit.Play)
    assert arena.watches == 2
    await halt(player)


async def test_a_change_that_went_missing_has_the_seat_watch_again_and_play_on() -> None:
    arena = FakeArena()
    first, second = arena.stream(), arena.stream()
    start = spit.new_match(spit.Options(), 1)
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    first.put_nowait(update(start, 1))
    await arena.next_submission()  # Ready
    # A change from two steps on: the one between never came (a gateway lost it).
    skipped = arbitration_pb2.MatchUpdate(
        match_id=MATCH,
        seq=3,
        seat=0,
        game=game_pb2.GAME_SPIT,
        version=start.version + 2,
        since=start.version + 1,
        status=arbitration_pb2.STATUS_LIVE,
    )
    first.put_nowait(skipped)
    second.put_nowait(update(spit_in_play(), 3))
    assert isinstance(spit_command(await arena.next_submission()), spit.Play)
    assert arena.watches == 2
    await halt(player)


async def test_a_stream_the_server_ends_while_the_match_is_live_is_reopened() -> None:
    arena = FakeArena()
    first, second = arena.stream(), arena.stream()
    start = spit.new_match(spit.Options(), 1)
    player = asyncio.create_task(seat_player(arena, game_pb2.GAME_SPIT).play())
    first.put_nowait(update(start, 1))
    await arena.next_submission()
    first.put_nowait(End)
    final = update(start, 2, status=arbitration_pb2.STATUS_VOIDED)
    second.put_nowait(final)
    assert await asyncio.wait_for(player, 5) == final
    assert arena.watches == 2


async def test_an_unknown_match_gives_the_seat_up() -> None:
    arena = FakeArena()
    arena.stream().put_nowait(CallError(5, "no match 'm1'", "unknown_match", {}))
    with pytest.raises(WatchLost, match="unknown_match"):
        await asyncio.wait_for(seat_player(arena, game_pb2.GAME_SPIT).play(), 5)


async def test_a_gateway_that_stays_away_gives_the_seat_up() -> None:
    arena = FakeArena()
    reconnect = Reconnect(first_s=0.01, max_s=0.02, give_up_s=0.1)
    for _ in range(100):
        arena.stream().put_nowait(lost())
    player = SeatPlayer(
        arena,
        MATCH,
        0,
        GAMES[game_pb2.GAME_SPIT],
        Level.EASY,
        random.Random(1),
        Pace(),
        reconnect,
    )
    with pytest.raises(WatchLost, match="no stream"):
        await asyncio.wait_for(player.play(), 5)
    assert arena.watches > 2


async def test_an_unreadable_view_is_skipped() -> None:
    arena = FakeArena()
    stream = arena.stream()
    player = seat_player(arena, game_pb2.GAME_SPIT)
    task = asyncio.create_task(player.play())
    wrong = update(bid.new_match(bid.Options(), 1), 1)  # a Bid view in a Spit match
    stream.put_nowait(wrong)
    for _ in range(1000):  # let the seat look at it before anything newer arrives
        if player.tally.unreadable:
            break
        await asyncio.sleep(0)
    assert player.tally.unreadable == 1
    stream.put_nowait(update(spit.new_match(spit.Options(), 1), 2))
    assert spit_command(await arena.next_submission()) == spit.Ready()
    await halt(task)
