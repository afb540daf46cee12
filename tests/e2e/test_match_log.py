"""The arbitration log through the public API: after the end, both stamps of every decision.

A short match clock (bank 1.2 s, grace 0.3 s) lets a Bid match end on a flag quickly; a
short spit pause keeps a blocked Spit match moving.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

import aiohttp
import pytest

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from services.stack.stack import Stack
from tests.e2e.support import Seated, challenge, is_over, metric, next_update, player, stored, until
from tools.replay import replay
from wire import subjects

pytestmark = pytest.mark.asyncio(loop_scope="module")

BID_READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
SPIT_READY = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
STACK_ENV = (("PF_BANK_MS", "1200"), ("PF_GRACE_MS", "300"), ("PF_SPIT_PAUSE_MS", "100"))
FAILED_PRECONDITION, PERMISSION_DENIED, NOT_FOUND, INVALID_ARGUMENT = 9, 7, 5, 3


async def refusal(call: object) -> CallError:
    assert asyncio.iscoroutine(call)
    with pytest.raises(CallError) as refused:
        await call
    return refused.value


def check_whole(log: log_pb2.MatchLog, match_id: str) -> None:
    """The log opens with its header, runs without gaps and ends with the end."""
    entries = log.entries
    assert [e.index for e in entries] == list(range(len(entries)))
    assert entries[0].kind == log_pb2.ENTRY_KIND_OPENED
    assert entries[0].created.match_id == match_id == log.match_id
    assert entries[-1].kind == log_pb2.ENTRY_KIND_FINISHED
    steps = [e.seq for e in entries[:-1] if e.kind != log_pb2.ENTRY_KIND_REFUSED]
    assert steps == sorted(set(steps))  # each step its own sequence number, in order
    assert entries[-1].seq == steps[-1]  # the end is no step of its own
    assert all(e.seq == 0 for e in entries if e.kind == log_pb2.ENTRY_KIND_REFUSED)


async def replay_tool(stack: Stack, match_id: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tools.replay",
        match_id,
        "--nats",
        stack.nats_url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_a_bid_match_lost_on_time_has_a_log_its_players_read_after_the_end(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    a, b = await player(http, stack, "Ada"), await player(http, stack, "Ben")
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated=False)
    match_id = first.match_id
    updates = first.client.watch(match_id, first.seat)
    await next_update(updates)
    await first.submit(BID_READY)
    await second.submit(BID_READY)
    live = await refusal(a.match_log(match_id))
    assert (live.code, live.reason) == (FAILED_PRECONDITION, "match_live")
    started = await until(updates, lambda u: u.clock.running >= 0)
    mover = first if started.clock.running == first.seat else second
    view = await next_update(mover.client.watch(match_id, mover.seat))
    moved = await mover.submit(game_pb2.Command(bid=view.view.bid.legal[0]))  # then silence
    final = await until(updates, is_over)
    assert final.outcome.termination == game_pb2.TERMINATION_TIME

    log = await a.match_log(match_id)
    assert await b.match_log(match_id) == log
    check_whole(log, match_id)
    accepted = [e for e in log.entries if e.kind == log_pb2.ENTRY_KIND_ACCEPTED]
    assert len(accepted) == 3
    assert (accepted[-1].seq, accepted[-1].arrival_us) == (moved.seq, moved.arrival_us)
    assert accepted[-1].deadline_us > accepted[-1].arrival_us  # judged in time
    (flag,) = [e for e in log.entries if e.kind == log_pb2.ENTRY_KIND_FLAG]
    assert flag.flag.seat == 1 - final.outcome.winner
    assert flag.flag.fired_us >= flag.flag.deadline_us > moved.arrival_us
    assert flag.flag.late_us == flag.flag.fired_us - flag.flag.deadline_us
    assert final.flag == flag.flag  # the players saw the server's own figures
    assert log.entries[-1].outcome == final.outcome

    stranger = await player(http, stack, "Eve")
    refused = await refusal(stranger.match_log(match_id))
    assert (refused.code, refused.reason) == (PERMISSION_DENIED, "not_your_match")
    unknown = await refusal(a.match_log("no-such-match"))
    assert (unknown.code, unknown.reason) == (NOT_FOUND, "unknown_match")
    wildcard = await refusal(a.match_log("*"))
    assert (wildcard.code, wildcard.reason) == (INVALID_ARGUMENT, "bad_match_id")

    code, out = await replay_tool(stack, match_id)
    assert code == 0 and "identical" in out, out

    # Each command was stored before it was judged, on the holder's subject (the log fed it
    # to the rules from there); its judged entry took its place in the log players read.
    assert not [e for e in log.entries if e.kind == log_pb2.ENTRY_KIND_COMMAND]
    commands = {e.index: e for e in await stored(stack, subjects.match_commands_any(match_id))}
    for judged in accepted:
        command = commands[judged.index]
        assert command.kind == log_pb2.ENTRY_KIND_COMMAND
        assert (command.seat, command.client_seq, command.arrival_us) == (
            judged.seat,
            judged.client_seq,
            judged.arrival_us,
        )
        assert command.version == judged.version - 1  # the state it was applied to
    counted = await metric(http, stack, "arbitration", "pf_log_entries_total")
    assert counted["kind=ENTRY_KIND_COMMAND"] >= len(accepted)
    assert counted["kind=ENTRY_KIND_ACCEPTED"] >= len(accepted)  # counted when carried too

    await stack.restart("arbitration")
    assert await asyncio.wait_for(a.match_log(match_id), 20) == log


def race_on_one_pile(
    view: spit_pb2.SpitView, seats: tuple[int, int]
) -> tuple[spit_pb2.SpitPlay, spit_pb2.SpitPlay] | None:
    """Return a play for each seat onto the same centre pile, if both have one now."""
    for pile, centre in enumerate(view.centre):
        if not centre.HasField("top"):
            continue
        plays = [play_onto(view.sides[seat], pile, centre.top.rank) for seat in seats]
        if plays[0] is not None and plays[1] is not None:
            return plays[0], plays[1]
    return None


def play_onto(side: spit_pb2.SpitSide, pile: int, top: int) -> spit_pb2.SpitPlay | None:
    for stock, held in enumerate(side.stock):
        if held.HasField("top") and (held.top.rank - top) % 13 in (1, 12):
            return spit_pb2.SpitPlay(stock=stock, pile=pile, onto=top)
    return None


def spit(play: spit_pb2.SpitPlay) -> game_pb2.Command:
    return game_pb2.Command(spit=spit_pb2.SpitCommand(play=play))


async def latest(seated: Seated) -> arbitration_pb2.MatchUpdate:
    stream = seated.client.watch(seated.match_id, seated.seat)
    update = await next_update(stream)
    await stream.aclose()
    return update


async def stepped_past(seated: Seated, seq: int) -> arbitration_pb2.MatchUpdate:
    """Return the first update of a step after ``seq``.

    Raises:
        AssertionError: when none comes within the update timeout.
    """
    stream = seated.client.watch(seated.match_id, seated.seat)
    try:
        return await until(stream, lambda u: u.seq > seq)
    except TimeoutError:
        raise AssertionError(f"no step after seq {seq}: the server never moved on") from None
    finally:
        await stream.aclose()


async def move_on(update: arbitration_pb2.MatchUpdate, players: tuple[Seated, Seated]) -> None:
    """Change the position: press ready, play a card or uncover one; else let the server spit."""
    view = update.view.spit
    if view.must_press:
        for seated in players:
            if seated.seat in view.must_press:
                await seated.submit(SPIT_READY)
        return
    for seated in players:
        side = view.sides[seated.seat]
        for pile, centre in enumerate(view.centre):
            play = play_onto(side, pile, centre.top.rank) if centre.HasField("top") else None
            if play is not None:
                await seated.submit(spit(play))
                return
        move = uncovering(side)
        if move is not None:
            await seated.submit(game_pb2.Command(spit=spit_pb2.SpitCommand(move=move)))
            return
    await stepped_past(players[0], update.seq)  # blocked: the server spits after its pause


def uncovering(side: spit_pb2.SpitSide) -> spit_pb2.SpitMove | None:
    """Return a move of a stock top into an empty space that turns a card face up."""
    spaces = [i for i, held in enumerate(side.stock) if not held.HasField("top")]
    covered = [i for i, held in enumerate(side.stock) if held.HasField("top") and held.hidden]
    if spaces and covered:
        return spit_pb2.SpitMove(src=covered[0], dst=spaces[0])
    return None


async def test_a_spit_race_is_logged_with_both_arrival_stamps_and_the_gap(
    arena: tuple[Stack, aiohttp.ClientSession],
) -> None:
    stack, http = arena
    a, b = await player(http, stack, "Cat"), await player(http, stack, "Dan")
    first, second = await challenge(a, b, game_pb2.GAME_SPIT, rated=False)
    players = (first, second)
    for _ in range(300):
        update = await latest(first)
        view = update.view.spit
        plays = None if view.must_press else race_on_one_pile(view, (first.seat, second.seat))
        if plays is not None:
            answers = await asyncio.gather(
                first.submit(spit(plays[0])), second.submit(spit(plays[1])), return_exceptions=True
            )
            lost = [x for x in answers if isinstance(x, CallError)]
            if len(lost) == 1 and "gap_us" in lost[0].metadata:
                break
        else:
            # A refusal means the position moved under us (a spit, a round's end): look again.
            with contextlib.suppress(CallError):
                await move_on(update, players)
    else:
        raise AssertionError(f"no race in 300 positions; the last: {view}")
    (landed,) = [x for x in answers if isinstance(x, arbitration_pb2.SubmitReply)]
    await first.submit(SPIT_RESIGN)
    await until(first.client.watch(first.match_id, first.seat), is_over)

    log = await second.client.match_log(first.match_id)
    check_whole(log, first.match_id)
    race = [e for e in log.entries if e.HasField("race")][-1]
    assert race.kind == log_pb2.ENTRY_KIND_REFUSED
    assert race.reason in {"pile_top_changed", "not_adjacent"}
    assert race.race.landed_arrival_us == landed.arrival_us
    assert race.race.refused_arrival_us == race.arrival_us
    stamps_gap_us = race.race.refused_arrival_us - race.race.landed_arrival_us
    assert race.race.gap_us >= 0
    assert abs(race.race.gap_us - stamps_gap_us) <= 1  # the gap is taken in ns, then rounded
    assert str(race.race.gap_us) == lost[0].metadata["gap_us"]  # what the loser was told
    assert race.race.landed_seat != race.race.refused_seat == race.seat
    assert not race.HasField("deadline_us")  # Spit runs no clock
    assert replay(log.entries).identical
