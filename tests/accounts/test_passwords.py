"""Passwords: the rules for a new one, and argon2id hashes checked off the event loop."""

from __future__ import annotations

import pytest

from services.accounts.passwords import (
    MAX_CHARS,
    BadPassword,
    Hasher,
    PasswordProblem,
    check_new,
)


def fast() -> Hasher:
    """The cheapest argon2id settings: these tests check behaviour, not cost."""
    return Hasher(time_cost=1, memory_kib=8, parallelism=1)


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("short", PasswordProblem.LENGTH),
        ("x" * (MAX_CHARS + 1), PasswordProblem.LENGTH),
        ("password1", PasswordProblem.COMMON),
        ("PASSWORD1", PasswordProblem.COMMON),
        ("qwertyuiop", PasswordProblem.COMMON),
        ("12345678", PasswordProblem.COMMON),
    ],
)
def test_a_weak_password_is_refused_with_its_problem(
    password: str, problem: PasswordProblem
) -> None:
    with pytest.raises(BadPassword) as refused:
        check_new(password)
    assert refused.value.problem is problem


@pytest.mark.parametrize("password", ["correct horse battery", "Спит и Бид!", "스핏 한 판 더"])
def test_a_long_uncommon_password_is_taken(password: str) -> None:
    check_new(password)


async def test_a_hash_is_argon2id_and_checks_only_its_own_password() -> None:
    hasher = fast()
    stored = await hasher.hash("correct horse battery")
    assert stored.startswith("$argon2id$")
    assert await hasher.hash("correct horse battery") != stored  # salted
    assert await hasher.check(stored, "correct horse battery") == (True, False)
    assert await hasher.check(stored, "correct horse batterY") == (False, False)
    assert await hasher.check("not a hash", "correct horse battery") == (False, False)


async def test_an_unknown_name_is_answered_like_a_wrong_password() -> None:
    hasher = fast()
    assert await hasher.check(None, "a password that nobody has") == (False, False)


async def test_a_hash_made_at_a_lower_cost_asks_to_be_made_again() -> None:
    old = await fast().hash("correct horse battery")
    assert await Hasher(time_cost=2, memory_kib=8, parallelism=1).check(
        old, "correct horse battery"
    ) == (True, True)


def test_the_default_cost_is_owasps() -> None:
    parameters = Hasher()._hasher  # the configured hasher, as argon2-cffi reports it
    assert (parameters.time_cost, parameters.memory_cost, parameters.parallelism) == (
        2,
        19 * 1024,
        1,
    )
