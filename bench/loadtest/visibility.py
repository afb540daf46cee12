"""What one update shows its recipient, as a bit mask of cards or tiles (pure).

The hidden-information check compares these masks with what the server held face down
or in the other hand at the same step (``truth``). Cards are numbered by rank and suit,
tiles by their two halves, so a mask is a small integer that travels cheaply between
processes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, spit_pb2

NO_CHIPS = -1  # a Spit update: there are no chips to count


def card_bit(card: spit_pb2.Card) -> int:
    """Return the bit of one card of the 52-card deck (0 for an unset card)."""
    if card.rank <= 0 or card.suit <= 0:
        return 0
    return 1 << ((card.rank - 1) * 4 + (card.suit - 1))


def tile_bit(tile: bid_pb2.Tile) -> int:
    """Return the bit of one double-six domino, whichever half comes first."""
    low, high = sorted((tile.low, tile.high))
    return 1 << (low * 7 + high)


def mask(bits: Iterable[int]) -> int:
    total = 0
    for bit in bits:
        total |= bit
    return total


def shown(update: arbitration_pb2.MatchUpdate) -> int:
    """Return the mask of every card or tile the update names, view and events."""
    kind = update.view.WhichOneof("kind")
    if kind == "spit":
        return mask(_spit_cards(update))
    if kind == "bid":
        return mask(_bid_tiles(update))
    return 0


def _ends_round(update: arbitration_pb2.MatchUpdate) -> bool:
    # A step that ends a round may deal again: cards its events name can lie face down
    # (or in a hand) afterwards, legitimately. The view after the step is still checked.
    return any(
        event.spit.HasField("round_ended") or event.bid.HasField("round_ended")
        for event in update.events
    )


def _spit_cards(update: arbitration_pb2.MatchUpdate) -> Iterator[int]:
    view = update.view.spit
    for side in view.sides:
        yield from (card_bit(pile.top) for pile in side.stock)
    yield from (card_bit(pile.top) for pile in view.centre)
    if _ends_round(update):
        return
    for event in update.events:
        spit = event.spit
        which = spit.WhichOneof("kind")
        if which == "dealt":
            yield from (card_bit(pile.top) for pile in spit.dealt.stock)
        elif which in ("spat", "played", "moved", "revealed"):
            yield card_bit(getattr(spit, which).card)


def _bid_tiles(update: arbitration_pb2.MatchUpdate) -> Iterator[int]:
    view = update.view.bid
    yield from (tile_bit(tile) for tile in view.hand)
    for optional in ("must_play", "must_open_with"):
        if view.HasField(optional):
            yield tile_bit(getattr(view, optional))
    yield from (tile_bit(c.play.tile) for c in view.legal if c.HasField("play"))
    yield from (tile_bit(p.tile) for p in view.board.placements)
    # What the wire carried besides a view (changes: the view above is the client's own
    # bringing forward): what a change tells, and a deal's hand, as after the step.
    told = update.told.bid
    if told.HasField("must_play"):
        yield tile_bit(told.must_play)
    if told.HasField("must_open_with"):
        yield tile_bit(told.must_open_with)
    yield from (tile_bit(c.play.tile) for c in told.legal if c.HasField("play"))
    for event in update.events:
        if event.bid.HasField("dealt"):
            yield from (tile_bit(tile) for tile in event.bid.dealt.hand)
    if _ends_round(update):
        return
    for event in update.events:
        bid = event.bid
        if bid.HasField("drew"):
            yield from (tile_bit(tile) for tile in bid.drew.tiles)
        elif bid.HasField("played"):
            yield tile_bit(bid.played.tile)


def chips(update: arbitration_pb2.MatchUpdate) -> int:
    """Return the two balances' sum in a Bid update (``NO_CHIPS`` for Spit)."""
    if update.view.WhichOneof("kind") != "bid":
        return NO_CHIPS
    return sum(update.view.bid.balances)


def addressed_right(update: arbitration_pb2.MatchUpdate, seat: int) -> bool:
    """Return whether the update and its view are made out to ``seat``, and nobody else."""
    kind = update.view.WhichOneof("kind")
    view_seat = getattr(update.view, kind).seat if kind else seat
    return update.seat == seat and view_seat == seat
