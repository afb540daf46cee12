"""Playing cards on the wire (Spit): rank 1–13, suit, and the text players read ("Q♠")."""

from __future__ import annotations

import functools

from games.errors import Malformed, Reason
from games.spit import Card, Rank, Suit
from photofinish.game.v1 import spit_pb2

_SUITS: dict[Suit, spit_pb2.Suit.ValueType] = {
    Suit.SPADES: spit_pb2.SUIT_SPADES,
    Suit.HEARTS: spit_pb2.SUIT_HEARTS,
    Suit.DIAMONDS: spit_pb2.SUIT_DIAMONDS,
    Suit.CLUBS: spit_pb2.SUIT_CLUBS,
}
_RANKS = {rank.value: rank for rank in Rank}


# The conversions below are memoized: a view lists the same few dozen cards, tiles and
# placements step after step. The messages they return are shared: callers copy them into
# their own (protobuf copies a message it is given) and never change them.


@functools.cache
def card_to_proto(card: Card) -> spit_pb2.Card:
    """Return a face-up card with its text (a shared message: never change it)."""
    return spit_pb2.Card(rank=card.rank.value, suit=_SUITS[card.suit], text=str(card))


def maybe_card_to_proto(card: Card | None) -> spit_pb2.Card | None:
    """Return ``card`` as a message, None (the field stays unset) for None."""
    return None if card is None else card_to_proto(card)


def rank_from_proto(value: int) -> Rank:
    """Return the rank numbered ``value`` (1 ace … 13 king).

    Raises:
        Malformed: BAD_ARGUMENT outside 1–13.
    """
    rank = _RANKS.get(value)
    if rank is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"rank {value} is not 1 (ace) to 13 (king)")
    return rank


_SUITS_BY_NUMBER = {int(number): suit for suit, number in _SUITS.items()}


def card_from_proto(card: spit_pb2.Card) -> Card:
    """Return the card ``card`` names by rank and suit (``text`` is ignored).

    Raises:
        Malformed: BAD_ARGUMENT for a rank outside 1–13 or an unknown suit.
    """
    suit = _SUITS_BY_NUMBER.get(card.suit)
    if suit is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"suit number {card.suit} is not a suit")
    return Card(rank_from_proto(card.rank), suit)


def maybe_card_from_proto(card: spit_pb2.Card | None) -> Card | None:
    """Return the card ``card`` names, None for None (an unset field).

    Raises:
        Malformed: BAD_ARGUMENT for a card that cannot exist.
    """
    return None if card is None else card_from_proto(card)
