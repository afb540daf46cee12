"""The pair-cap reason and its rewording when a player named in it is deleted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.ratings.reasons import DELETED_NAME, pair_capped, unnamed

ANN, BOB = ("a_ann", "Ann"), ("a_bob", "Bob")


def test_the_deleted_players_name_is_replaced_in_their_seat_only() -> None:
    reason = pair_capped("Ann", "Bob", 5)
    assert unnamed(reason, (ANN, BOB), "a_bob") == pair_capped("Ann", DELETED_NAME, 5)
    assert unnamed(reason, (ANN, BOB), "a_ann") == pair_capped(DELETED_NAME, "Bob", 5)


def test_a_name_inside_the_rest_of_the_sentence_is_left_alone() -> None:
    reason = pair_capped("a", "rated", 5)
    assert unnamed(reason, (("p1", "a"), ("p2", "rated")), "p2") == pair_capped(
        "a", DELETED_NAME, 5
    )


def test_a_player_deleted_before_is_found_by_the_blank_name_the_store_keeps() -> None:
    reason = pair_capped(DELETED_NAME, "Bob", 5)
    assert unnamed(reason, (("a_ann", ""), BOB), "a_bob") == pair_capped(
        DELETED_NAME, DELETED_NAME, 5
    )


def test_a_reason_reworded_already_or_another_sentence_is_left_as_it_is() -> None:
    reworded = pair_capped("Ann", DELETED_NAME, 5)
    assert unnamed(reworded, (ANN, ("a_bob", "")), "a_bob") == reworded
    other = "Ann and Bobby already have 5 rated games"
    assert unnamed(other, (ANN, BOB), "a_bob") == other


names = st.text(min_size=1, max_size=10)


@given(names, names, st.integers(1, 9), st.sampled_from(["p0", "p1"]))
def test_rewording_is_idempotent_and_changes_only_the_deleted_name(
    first: str, second: str, per_pair: int, deleted: str
) -> None:
    reason = pair_capped(first, second, per_pair)
    once = unnamed(reason, (("p0", first), ("p1", second)), deleted)
    expected = (DELETED_NAME, second) if deleted == "p0" else (first, DELETED_NAME)
    assert once == pair_capped(*expected, per_pair)
    # Stored after the forgetting: the deleted player's name is blank.
    blank = (("p0", "" if deleted == "p0" else first), ("p1", "" if deleted == "p1" else second))
    assert unnamed(once, blank, deleted) == once
