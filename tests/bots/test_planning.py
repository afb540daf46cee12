"""When a bot sends what: a plan kept, replaced or already on its way; retries back off."""

from __future__ import annotations

from clients.bots.planning import Pace, Pending, in_motion, retry_delay_s, revise
from games.bot import Plan

PACE = Pace(think_scale=1.0, commit_ms=150)


def test_a_first_plan_is_due_after_its_think_time() -> None:
    assert revise(None, Plan("play 1", 800), 10.0, PACE) == Pending("play 1", 10.8)


def test_the_same_command_keeps_its_original_due_time() -> None:
    pending = Pending("play 1", 10.8)
    assert revise(pending, Plan("play 1", 2000), 10.5, PACE) is pending


def test_a_different_command_is_due_after_its_own_think_time_from_now() -> None:
    pending = Pending("play 1", 10.8)
    assert revise(pending, Plan("play 2", 300), 10.5, PACE) == Pending("play 2", 10.8)
    assert revise(pending, Plan("play 2", 900), 10.5, PACE) == Pending("play 2", 11.4)


def test_nothing_to_do_drops_what_was_pending() -> None:
    assert revise(Pending("play 1", 10.8), None, 10.5, PACE) is None


def test_think_times_scale_with_the_pace() -> None:
    fast = Pace(think_scale=0.02)
    assert revise(None, Plan("ready", 1000), 0.0, fast) == Pending("ready", 0.02)
    assert fast.commit_s == 0.003


def test_a_command_due_within_the_commit_window_is_in_motion() -> None:
    pending = Pending("play 1", 10.8)
    assert not in_motion(pending, 10.6, PACE)
    assert in_motion(pending, 10.7, PACE)
    assert in_motion(pending, 11.0, PACE)  # overdue
    assert not in_motion(None, 10.0, PACE)


def test_retries_back_off_and_are_capped() -> None:
    delays = [retry_delay_s(n) for n in range(1, 10)]
    assert delays[:3] == [0.25, 0.5, 1.0]
    assert delays == sorted(delays) and max(delays) == 5.0
