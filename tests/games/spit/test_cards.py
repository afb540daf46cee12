"""Cards (rules §1): ranks wrap K–A, suits only tell cards apart, text round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import Malformed, Reason
from games.spit import Card, Rank, Suit, is_adjacent, parse_card, parse_rank
from games.spit.cards import full_deck


def test_king_and_ace_are_adjacent_both_ways() -> None:
    assert is_adjacent(Rank.KING, Rank.ACE)
    assert is_adjacent(Rank.ACE, Rank.KING)


@pytest.mark.parametrize("rank", list(Rank))
def test_each_rank_has_exactly_two_neighbours(rank: Rank) -> None:
    neighbours = {other for other in Rank if is_adjacent(rank, other)}
    assert neighbours == {Rank((rank - 2) % 13 + 1), Rank(rank % 13 + 1)}


def test_a_rank_is_not_adjacent_to_itself_or_two_away() -> None:
    assert not is_adjacent(Rank.SEVEN, Rank.SEVEN)
    assert not is_adjacent(Rank.SEVEN, Rank.NINE)
    assert not is_adjacent(Rank.QUEEN, Rank.ACE)


def test_cards_print_as_players_write_them() -> None:
    assert str(Card(Rank.QUEEN, Suit.SPADES)) == "Q♠"
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10♥"
    assert str(Card(Rank.ACE, Suit.CLUBS)) == "A♣"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Qs", Card(Rank.QUEEN, Suit.SPADES)),
        ("qS", Card(Rank.QUEEN, Suit.SPADES)),
        ("10h", Card(Rank.TEN, Suit.HEARTS)),
        ("Th", Card(Rank.TEN, Suit.HEARTS)),
        ("ad", Card(Rank.ACE, Suit.DIAMONDS)),
        ("2♣", Card(Rank.TWO, Suit.CLUBS)),
    ],
)
def test_ascii_and_symbol_card_texts_parse(text: str, card: Card) -> None:
    assert parse_card(text) == card


@given(st.sampled_from(full_deck()))
def test_every_card_parses_back_from_its_text(card: Card) -> None:
    assert parse_card(str(card)) == card


@pytest.mark.parametrize("text", ["", "Q", "1s", "11h", "Qx", "♠", "10", "Q♠♠"])
def test_malformed_card_text_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(Malformed) as err:
        parse_card(text)
    assert err.value.reason is Reason.BAD_ARGUMENT
    assert repr(text) in str(err.value)


def test_rank_text_round_trips() -> None:
    assert [str(rank) for rank in Rank][:3] == ["A", "2", "3"]
    assert all(parse_rank(str(rank)) is rank for rank in Rank)


def test_the_deck_has_52_distinct_cards() -> None:
    assert len(set(full_deck())) == 52
