"""Failed sign-ins slow the guesser, never the owner at another address."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.accounts.attempts import (
    FIRST_WAIT_S,
    FREE_PER_ADDRESS,
    FREE_PER_NAME,
    LONGEST_WAIT_S,
    Attempts,
)


def test_after_the_free_failures_each_one_doubles_the_wait() -> None:
    attempts, now = Attempts(), 1000.0
    for _ in range(FREE_PER_NAME - 1):
        attempts.failed("ann", "10.0.0.9", now)
        assert attempts.wait_s("ann", "10.0.0.9", now) == 0
    waits = []
    for _ in range(4):
        attempts.failed("ann", "10.0.0.9", now)
        waits.append(attempts.wait_s("ann", "10.0.0.9", now))
    assert waits == [FIRST_WAIT_S, 2 * FIRST_WAIT_S, 4 * FIRST_WAIT_S, 8 * FIRST_WAIT_S]
    assert attempts.wait_s("ann", "10.0.0.9", now + 8 * FIRST_WAIT_S) == 0  # waited out


def test_the_owner_at_another_address_and_other_names_are_not_slowed() -> None:
    attempts, now = Attempts(), 1000.0
    for _ in range(FREE_PER_NAME + 3):
        attempts.failed("ann", "attacker", now)
    assert attempts.wait_s("ann", "attacker", now) > 0
    assert attempts.wait_s("ann", "owner", now) == 0
    assert attempts.wait_s("bob", "attacker", now) == 0


def test_one_address_trying_many_names_is_slowed_on_every_name() -> None:
    attempts, now = Attempts(), 1000.0
    for index in range(FREE_PER_ADDRESS):
        attempts.failed(f"name{index}", "sprayer", now)
    assert attempts.wait_s("someone-new", "sprayer", now) == FIRST_WAIT_S
    assert attempts.wait_s("someone-new", "elsewhere", now) == 0


def test_the_right_password_starts_the_count_again() -> None:
    attempts, now = Attempts(), 1000.0
    for _ in range(FREE_PER_NAME):
        attempts.failed("ann", "home", now)
    attempts.succeeded("ann", "home")
    assert attempts.wait_s("ann", "home", now) == 0


@given(st.integers(min_value=0, max_value=3000), st.floats(min_value=0, max_value=1e6))
def test_the_wait_is_never_longer_than_the_longest(failures: int, later_s: float) -> None:
    attempts = Attempts()
    for _ in range(failures):
        attempts.failed("ann", "home", 0.0)
    assert 0 <= attempts.wait_s("ann", "home", later_s) <= LONGEST_WAIT_S
