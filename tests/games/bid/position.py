"""Test support: crafted Spectacular Bid positions (hands, boneyard, board) by text."""

from __future__ import annotations

from collections.abc import Iterable

from games.bid import (
    Board,
    Command,
    Options,
    Phase,
    State,
    Tile,
    apply,
    parse_command,
    parse_tile,
)
from games.bid.board import parse_end, place
from games.seats import Seat

S0, S1 = Seat(0), Seat(1)


def tiles(text: str) -> tuple[Tile, ...]:
    """Return the tiles written in ``text``, e.g. ``"[1|4] [2|3]"``."""
    return tuple(parse_tile(word) for word in text.split())


def board_of(plays: Iterable[str]) -> Board:
    """Return a board built from plays written ``"[1|4]"`` or ``"[1|1] [1|4]:low"``."""
    board = Board()
    for play in plays:
        tile_text, _, end_text = play.partition(" ")
        end = parse_end(end_text) if end_text else None
        board = place(board, parse_tile(tile_text), end)
    return board


def position(
    hand0: str,
    hand1: str,
    boneyard: str = "",
    board: Iterable[str] = (),
    to_act: int = 0,
    balances: tuple[int, int] = (150, 150),
    phase: Phase = Phase.PLAY,
    jockey: int | None = None,
    bid: int = 0,
    bidder: int | None = None,
    must_open_with: str | None = None,
    drawn: str | None = None,
    options: Options | None = None,
) -> State:
    """Return a crafted position, play under way unless told otherwise (no gate)."""
    return State(
        options=options or Options(),
        seed=7,
        version=0,
        round_no=2,
        balances=balances,
        hands=(tiles(hand0), tiles(hand1)),
        boneyard=tiles(boneyard),
        board=board_of(board),
        phase=phase,
        to_act=Seat(to_act),
        jockey=None if jockey is None else Seat(jockey),
        bid=bid,
        bidder=None if bidder is None else Seat(bidder),
        must_open_with=None if must_open_with is None else parse_tile(must_open_with),
        drawn=None if drawn is None else parse_tile(drawn),
    )


def run(state: State, *moves: tuple[int, str]) -> State:
    """Return ``state`` after applying each (seat, command text) in order."""
    for seat, text in moves:
        state = apply(state, Seat(seat), parse_command(text)).state
    return state


def cmd(text: str) -> Command:
    """Return the command written ``text``."""
    return parse_command(text)
