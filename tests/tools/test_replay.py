"""Replay: any log the match's worker writes rebuilds its match exactly; a tampered one does not."""

from __future__ import annotations

import asyncio
import hashlib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from services.arbitration.matchlog import bounds
from tests.arbitration.harness import Table, play_randomly
from tools.replay import main, replay

RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


async def bid_log(seed: int, commands: int = 120) -> list[log_pb2.LogEntry]:
    """Return the log of a random Bid match that a flag ends."""
    table = Table(game_pb2.GAME_BID, seed)
    await table.open()
    await play_randomly(table, random.Random(seed), commands)
    while not table.match.is_over() and table.match.decision.gated:
        await table.nudge()
    if not table.match.is_over():
        await table.flag()
    log = await table.log()
    await table.close()
    return log


async def spit_log(seed: int, commands: int = 150) -> list[log_pb2.LogEntry]:
    """Return the log of a random Spit match that a resignation ends, if nothing else."""
    table = Table(game_pb2.GAME_SPIT, seed)
    await table.open()
    await table.nudge()  # the server makes the first spit: the log always holds a nudge
    await play_randomly(table, random.Random(seed), commands)
    if not table.match.is_over():
        await table.submit(0, RESIGN)
    log = await table.log()
    await table.close()
    return log


def kinds(log: list[log_pb2.LogEntry]) -> set[int]:
    return {entry.kind for entry in log}


def first(log: list[log_pb2.LogEntry], kind: int) -> log_pb2.LogEntry:
    return next(entry for entry in log if entry.kind == kind)


@settings(max_examples=10)
@given(SEEDS)
def test_a_random_bid_match_ended_by_a_flag_replays_to_the_identical_state(seed: int) -> None:
    log = asyncio.run(bid_log(seed))
    finished = first(log, log_pb2.ENTRY_KIND_FINISHED)
    if finished.outcome.termination == game_pb2.TERMINATION_TIME:
        assert first(log, log_pb2.ENTRY_KIND_FLAG).flag.seat == 1 - finished.outcome.winner
    result = replay(log)
    assert result.divergence is None, str(result.divergence)
    assert finished.state_sha256 == _sha(result.state)


@settings(max_examples=10)
@given(SEEDS)
def test_a_random_spit_match_with_races_and_nudges_replays_to_the_identical_state(
    seed: int,
) -> None:
    log = asyncio.run(spit_log(seed))
    assert log_pb2.ENTRY_KIND_NUDGE in kinds(log)
    result = replay(log)
    assert result.divergence is None, str(result.divergence)


def test_the_seeded_matches_hold_a_flag_a_race_and_nudges() -> None:
    bid, spit = asyncio.run(bid_log(11)), asyncio.run(spit_log(11))
    assert log_pb2.ENTRY_KIND_FLAG in kinds(bid)
    assert any(entry.HasField("race") for entry in spit)
    assert log_pb2.ENTRY_KIND_NUDGE in kinds(bid) | kinds(spit)
    assert replay(bid).identical and replay(spit).identical


def test_a_log_with_a_changed_command_diverges_at_that_entry() -> None:
    log = asyncio.run(spit_log(5))
    accepted = [e for e in log if e.kind == log_pb2.ENTRY_KIND_ACCEPTED and e.command.spit.play]
    target = accepted[len(accepted) // 2]
    target.command.spit.play.pile = 1 - target.command.spit.play.pile
    result = replay(log)
    assert result.divergence is not None
    assert result.divergence.index <= target.index


def test_a_log_whose_race_went_the_other_way_diverges() -> None:
    log = asyncio.run(spit_log(11))
    lost = next(e for e in log if e.HasField("race"))
    landed = next(
        e
        for e in reversed(log[: lost.index])
        if e.kind == log_pb2.ENTRY_KIND_ACCEPTED and e.seat == lost.race.landed_seat
    )
    # Swap the two plays' places: the refused card now claims to have landed first.
    landed.seat, lost.seat = lost.seat, landed.seat
    landed_command = game_pb2.Command()
    landed_command.CopyFrom(landed.command)
    landed.command.CopyFrom(lost.command)
    lost.command.CopyFrom(landed_command)
    assert replay(log).divergence is not None


def test_a_log_that_flags_the_wrong_player_diverges() -> None:
    log = asyncio.run(bid_log(11))
    flag = first(log, log_pb2.ENTRY_KIND_FLAG)
    flag.flag.seat = 1 - flag.flag.seat
    divergence = replay(log).divergence
    assert divergence is not None
    assert divergence.index == flag.index


def test_a_log_with_a_dropped_entry_diverges() -> None:
    log = asyncio.run(bid_log(3))
    accepted = first(log, log_pb2.ENTRY_KIND_ACCEPTED)
    shortened = [e for e in log if e is not accepted]
    for index, entry in enumerate(shortened):
        entry.index = index  # a careful forger renumbers
    assert replay(shortened).divergence is not None


def test_a_log_with_another_final_state_or_winner_diverges() -> None:
    log = asyncio.run(bid_log(3))
    finished = first(log, log_pb2.ENTRY_KIND_FINISHED)
    finished.state_sha256 = bytes(32)
    assert replay(log).divergence is not None
    finished.outcome.winner = 1 - finished.outcome.winner
    assert replay(log).divergence is not None


def test_a_log_that_stops_before_the_end_does_not_replay() -> None:
    log = asyncio.run(bid_log(3))
    cut = [e for e in log if e.kind != log_pb2.ENTRY_KIND_FINISHED]
    divergence = replay(cut[: len(cut) // 2]).divergence
    assert divergence is not None
    assert "ends before" in divergence.detail
    assert replay([]).divergence is not None


def test_the_replay_tool_reads_a_saved_log_and_exits_by_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = asyncio.run(spit_log(11))
    saved = tmp_path / "log.bin"
    saved.write_bytes(log_pb2.MatchLog(match_id="m11", entries=log).SerializeToString())
    assert main(["m11", "--file", str(saved), "--entries"]) == 0
    out = capsys.readouterr().out
    assert "identical" in out and "lost pile:" in out
    log[1].version += 1
    saved.write_bytes(log_pb2.MatchLog(match_id="m11", entries=log).SerializeToString())
    assert main(["m11", "--file", str(saved)]) == 1
    assert "diverged at entry 1" in capsys.readouterr().out


async def flooded_log(past_the_bound: int) -> list[log_pb2.LogEntry]:
    """Return the log of a Spit match whose seat 1 sent commands past its refusals' bound."""
    table = Table(game_pb2.GAME_SPIT, 3)
    await table.open()
    for _ in range(bounds.REFUSALS_LOGGED_PER_SEAT + past_the_bound):
        await table.submit(1, game_pb2.Command())  # empty: refused
    await table.submit(0, RESIGN)
    log = await table.log()
    await table.close()
    return log


def test_a_log_past_a_seats_bound_replays_and_the_tool_says_what_it_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = asyncio.run(flooded_log(past_the_bound=25))
    assert replay(log).identical
    saved = tmp_path / "log.bin"
    saved.write_bytes(log_pb2.MatchLog(match_id="m3", entries=log).SerializeToString())
    assert main(["m3", "--file", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "identical" in out
    assert "refusals answered but not logged, past their seat's bound: seat 0: 0, seat 1: 25" in out


def _sha(state: bytes) -> bytes:
    return hashlib.sha256(state).digest()
