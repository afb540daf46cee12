"""Turns in play: playing a tile, drawing, the automatic forced pass, and the block.

Decisions (rules §3, §4, and the project's where the rules leave it open):

- The turn passes to the opponent after every play, doubles and scores included.
- ``draw`` is one request: the server draws one tile at a time until a playable tile
  appears or the boneyard is empty (no choice exists between draws). A playable drawn
  tile must then be played by the same seat, at an end of their choosing, in the same
  turn (Decision.fresh is false). Drawing is refused while a tile in hand can be played.
- A seat that can neither play nor draw is passed by the server at once (a Passed event
  with ``forced``); if the opponent cannot play either, the round is blocked.
- Going out ends the round after the last tile's ordinary scoring, with no bonus.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.bid.board import Board, End, place, points_for
from games.bid.chips import transfer
from games.bid.commands import Play
from games.bid.events import Drew, Event, Passed, Played
from games.bid.model import State
from games.bid.rounds import end_match, settle_blocked, settle_went_out
from games.bid.tiles import Tile
from games.decision import Termination
from games.errors import Reason, Refused
from games.seats import Seat, other


def can_play(hand: tuple[Tile, ...], board: Board) -> bool:
    """Return whether any tile of ``hand`` can join ``board`` (any tile can open it)."""
    if board.is_empty:
        return bool(hand)
    values = {end.value for end in board.ends}
    return any(tile.low in values or tile.high in values for tile in hand)


def legal_plays(state: State, seat: Seat) -> list[Play]:
    """Return every play ``seat`` may make now, in hand order then board order."""
    board = state.board
    if state.drawn is not None:
        tiles: tuple[Tile, ...] = (state.drawn,)
    elif state.must_open_with is not None:
        tiles = (state.must_open_with,)
    else:
        tiles = state.hands[seat]
    if board.is_empty:
        return [Play(tile) for tile in tiles]
    ends = [(end, end.value) for end in board.ends]
    return [
        Play(tile, end) for tile in tiles for end, value in ends if value in (tile.low, tile.high)
    ]


def check_play(state: State, seat: Seat, tile: Tile, end: End | None) -> None:
    """Return None when ``seat`` may play ``tile`` at ``end``.

    Raises:
        Refused: naming the first rule the play breaks.
    """
    if tile not in state.hands[seat]:
        raise Refused(Reason.TILE_NOT_IN_HAND, f"{tile} is not in your hand")
    if state.drawn is not None and tile != state.drawn:
        raise Refused(Reason.MUST_PLAY_DRAWN, f"you must play the drawn {state.drawn}")
    if state.must_open_with is not None and tile != state.must_open_with:
        raise Refused(Reason.MUST_OPEN_WITH, f"you must open with {state.must_open_with}")
    board = state.board
    if board.is_empty:
        if end is not None:
            raise Refused(Reason.NO_SUCH_END, f"the board is empty: open with 'play {tile}'")
        return
    if end is None:
        raise Refused(Reason.NO_SUCH_END, f"name an open point to join {tile} to")
    if end not in board.ends:
        raise Refused(Reason.NO_SUCH_END, f"{end} is not an open point")
    if not tile.has(end.value):
        raise Refused(Reason.DOES_NOT_MATCH, f"{tile} has no {end.value} to join {end}")


def play(state: State, seat: Seat, tile: Tile, end: End | None, events: list[Event]) -> State:
    """Return the state after ``seat`` plays ``tile`` at ``end`` (already checked).

    Rules §3: the new end sum scores if it is a positive multiple of 5, capped by the
    opponent's balance; then the round ends if the hand is empty, else the turn passes.
    """
    board = place(state.board, tile, end)
    hand = tuple(t for t in state.hands[seat] if t != tile)
    hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
    opponent = other(seat)
    balances, moved = transfer(state.balances, opponent, points_for(board.total))
    events.append(Played(seat, tile, end, board.total, moved))
    over = balances[opponent] == 0 or not hand
    to_act = None if over else next_to_act(hands, state.boneyard, board, opponent, events)
    state = replace(
        state,
        version=state.version + 1,
        board=board,
        hands=hands,
        balances=balances,
        to_act=state.to_act if to_act is None else to_act,
        drawn=None,
        must_open_with=None,
    )
    if balances[opponent] == 0:
        return end_match(state, seat, Termination.CHIPS, events)
    if not hand:
        return settle_went_out(state, seat, events)
    if to_act is None:
        return settle_blocked(state, events)
    return state


def check_draw(state: State, seat: Seat) -> None:
    """Return None when ``seat`` may draw now.

    Raises:
        Refused: with MUST_PLAY_DRAWN, CAN_PLAY or BONEYARD_EMPTY.
    """
    if state.drawn is not None:
        raise Refused(Reason.MUST_PLAY_DRAWN, f"you must play the drawn {state.drawn}")
    if can_play(state.hands[seat], state.board):
        raise Refused(Reason.CAN_PLAY, "you can play a tile from your hand")
    if not state.boneyard:
        raise Refused(Reason.BONEYARD_EMPTY, "the boneyard is empty")


def draw(state: State, seat: Seat, events: list[Event]) -> State:
    """Return the state after ``seat`` drew until a playable tile or an empty boneyard."""
    values = {end.value for end in state.board.ends}
    boneyard = state.boneyard
    count = 0
    playable: Tile | None = None
    for tile in boneyard:
        count += 1
        if tile.low in values or tile.high in values:
            playable = tile
            break
    drawn = boneyard[:count]
    hand = state.hands[seat] + drawn
    hands = (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)
    boneyard = boneyard[count:]
    events.append(Drew(seat, count, drawn))
    to_act: Seat | None = seat
    if playable is None:
        to_act = next_to_act(hands, boneyard, state.board, seat, events)
    state = replace(
        state,
        version=state.version + 1,
        hands=hands,
        boneyard=boneyard,
        drawn=playable,
        to_act=state.to_act if to_act is None else to_act,
    )
    if to_act is None:
        return settle_blocked(state, events)
    return state


def next_to_act(
    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]],
    boneyard: tuple[Tile, ...],
    board: Board,
    seat: Seat,
    events: list[Event],
) -> Seat | None:
    """Return who acts when the turn passes to ``seat``; None when the round is blocked.

    Rules §4: a seat passes only when it can neither play nor draw, and the server does it
    (a forced Passed event); when the opponent then cannot play either, both have passed.
    """
    if boneyard or can_play(hands[seat], board):
        return seat
    events.append(Passed(seat))
    opponent = other(seat)
    if can_play(hands[opponent], board):
        return opponent
    events.append(Passed(opponent))
    return None
