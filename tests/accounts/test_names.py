"""Usernames: what is refused, and look-alike names that are one name."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.accounts.names import MAX_CHARS, BadName, NameProblem, clean, key


@pytest.mark.parametrize(
    "names",
    [
        ("Ann", "ann", "ANN", "Ａnn"),  # case, and a full-width letter
        ("Ann", "Аnn", "аnn"),  # a Cyrillic А and а
        ("paypal", "𝔭𝒶ỿ𝕡𝕒ℓ"),  # mathematical letters
        ("lol", "l0l", "1ol"),  # a zero and a one that pass for letters
        ("Maria", "Marіa"),  # a Cyrillic і
        ("rn_rn", "m_m"),  # r and n side by side read as m
    ],
)
def test_look_alike_names_have_one_key(names: tuple[str, ...]) -> None:
    assert len({key(clean(name)) for name in names}) == 1, [key(clean(n)) for n in names]


@pytest.mark.parametrize("pair", [("Ann", "Anne"), ("민수야", "민수아"), ("محمد", "احمد")])
def test_different_names_keep_different_keys(pair: tuple[str, str]) -> None:
    first, second = pair
    assert key(clean(first)) != key(clean(second))


@pytest.mark.parametrize("name", ["Ann", "민수야", "محمد", "Jo_Ann", "a.b-c", "x" * MAX_CHARS])
def test_names_in_any_script_are_taken_as_typed(name: str) -> None:
    assert clean(f"  {name} ") == name


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("ab", NameProblem.LENGTH),
        ("x" * (MAX_CHARS + 1), NameProblem.LENGTH),
        ("x" * 10_000, NameProblem.LENGTH),
        ("a b", NameProblem.CHARACTERS),
        ("ab\u202ecd", NameProblem.CHARACTERS),  # a right-to-left override
        ("ab\u200bcd", NameProblem.CHARACTERS),  # a zero-width space
        ("ab\x00cd", NameProblem.CHARACTERS),
        ("ab\ncd", NameProblem.CHARACTERS),
        ("_ann", NameProblem.CHARACTERS),
        ("ann.", NameProblem.CHARACTERS),
        ("ann!", NameProblem.CHARACTERS),
        ("a😀b", NameProblem.CHARACTERS),
    ],
)
def test_a_bad_name_is_refused_with_its_problem(raw: str, problem: NameProblem) -> None:
    with pytest.raises(BadName) as refused:
        clean(raw)
    assert refused.value.problem is problem


@given(st.text(max_size=40))
def test_a_clean_name_is_clean_again_unchanged_and_keeps_its_key(raw: str) -> None:
    try:
        name = clean(raw)
    except BadName:
        return
    assert clean(name) == name
    assert unicodedata.normalize("NFKC", name) == name
    assert key(name) == key(name.upper()) == key(name.lower())
    assert all(unicodedata.category(c)[0] != "C" for c in name)
