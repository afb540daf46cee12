"""Decision times read back from a log: each timed decision's start, grace and bank, by
the arbitration's own clock; a flag took the whole grace and bank; Spit times nothing."""

from __future__ import annotations

import asyncio

from photofinish.arbitration.v1 import log_pb2
from services.arbitration.decision_times import decision_times
from tests.tools.test_replay import bid_log, spit_log

GRACE_MS = 20  # the harness's starting clock: a 60 ms bank and a 20 ms grace
BANK_MS = 60


def test_a_flag_took_the_grace_and_the_whole_bank_of_the_flagged_seat() -> None:
    log = asyncio.run(bid_log(11))
    flag = next(e for e in log if e.kind == log_pb2.ENTRY_KIND_FLAG)
    took = decision_times(log)[flag.index]
    assert took.seat == flag.flag.seat
    assert took.grace_ms == GRACE_MS
    assert took.bank_after_ms == 0
    assert took.took_us == (GRACE_MS + took.bank_before_ms) * 1000


def test_each_players_command_in_a_running_decision_is_timed_from_its_start() -> None:
    log = asyncio.run(bid_log(3))
    times = decision_times(log)
    assert times
    for index, took in times.items():
        entry = log[index]
        assert entry.kind in (log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_FLAG)
        assert took.took_us >= 0
        assert 0 <= took.bank_after_ms <= took.bank_before_ms <= BANK_MS
        overrun_us = max(0, took.took_us - GRACE_MS * 1000)  # the harness stamps whole µs
        assert took.bank_after_ms == max(0, took.bank_before_ms * 1000 - overrun_us) // 1000


def test_a_game_without_a_match_clock_has_no_decision_times() -> None:
    assert decision_times(asyncio.run(spit_log(11))) == {}
