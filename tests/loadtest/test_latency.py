"""Submit → both views joined across processes: the later seat's first update counts."""

from __future__ import annotations

import pytest

from bench.loadtest.latency import Joiner


def test_a_command_waits_for_both_seats_and_takes_the_later() -> None:
    joiner = Joiner()
    joiner.command("m", seq=5, started=10.0)
    joiner.saw("m", 0, 5, 10.004)
    assert joiner.resolve() == [] and joiner.unresolved() == 1
    joiner.saw("m", 1, 6, 10.009)  # a later step also shows the command
    (done,) = joiner.resolve()
    assert done.started == 10.0
    assert done.latency_s == pytest.approx(0.009)
    assert joiner.unresolved() == 0


def test_repeats_and_older_numbers_are_not_first_arrivals() -> None:
    joiner = Joiner()
    joiner.saw("m", 0, 3, 1.0)
    joiner.saw("m", 0, 3, 1.5)  # a race notice repeats its step's number
    joiner.saw("m", 0, 2, 1.6)  # an old update after a resumed stream
    joiner.saw("m", 1, 3, 1.2)
    joiner.command("m", seq=3, started=0.9)
    (done,) = joiner.resolve()
    assert done.latency_s == pytest.approx(0.3)


def test_matches_do_not_mix() -> None:
    joiner = Joiner()
    joiner.command("a", seq=1, started=0.0)
    joiner.saw("b", 0, 1, 0.1)
    joiner.saw("b", 1, 1, 0.1)
    assert joiner.resolve() == []
