"""Challenge codes: drawn from an unambiguous alphabet, typed forgivingly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.matchmaking.codes import ALPHABET, LENGTH, fresh_code, parse_code

codes = st.text(alphabet=ALPHABET, min_size=LENGTH, max_size=LENGTH)


def test_a_fresh_code_has_six_symbols_of_the_alphabet() -> None:
    for _ in range(100):
        code = fresh_code()
        assert len(code) == LENGTH and set(code) <= set(ALPHABET)


def test_the_alphabet_has_no_look_alikes() -> None:
    assert not set("01OIL") & set(ALPHABET)
    assert len(ALPHABET) == len(set(ALPHABET)) == 31


def test_case_spaces_and_dashes_do_not_matter() -> None:
    assert parse_code(" abc-def ") == "ABCDEF"
    assert parse_code("k7m 2qx") == "K7M2QX"


def test_what_cannot_be_a_code_is_rejected() -> None:
    for text in (
        "",
        "ABCDE",
        "ABCDEFG",
        "ABCDE0",
        "ABCDEO",
        "ABCDE1",
        "ABCDEI",
        "ABCDEL",
        "ABC☃EF",
    ):
        assert parse_code(text) is None


@given(codes)
def test_a_code_read_back_as_typed_is_the_same_code(code: str) -> None:
    typed = f"{code[:3].lower()}-{code[3:]}"
    assert parse_code(code) == code
    assert parse_code(typed) == code
