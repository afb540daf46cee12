"""Commands on the wire: every engine command round-trips; garbage is Malformed, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import bid, spit
from games.bid import codec as bid_codec
from games.bid.board import Port
from games.errors import Malformed, Reason
from games.spit import codec as spit_codec
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2

INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)
TILES = st.sampled_from(bid.FULL_SET)
_HALF_PORTS = [Port.LOW, Port.HIGH]
_DOUBLE_PORTS = [Port.STRAIGHT_A, Port.STRAIGHT_B, Port.BRANCH_A, Port.BRANCH_B]


@st.composite
def ends(draw: st.DrawFn) -> bid.End:
    tile = draw(TILES)
    return bid.End(tile, draw(st.sampled_from(_DOUBLE_PORTS if tile.is_double else _HALF_PORTS)))


BID_COMMANDS: st.SearchStrategy[bid.Command] = st.one_of(
    st.sampled_from([bid.Ready(), bid.Draw(), bid.PassBid(), bid.Accept(), bid.Resign()]),
    st.builds(bid.Play, TILES, st.none() | ends()),
    st.builds(bid.Bid, st.integers(min_value=0, max_value=2**31 - 1)),
)
SPIT_COMMANDS: st.SearchStrategy[spit.Command] = st.one_of(
    st.sampled_from([spit.Ready(), spit.Pause(), spit.Resume(), spit.Resign(), spit.Spit()]),
    st.builds(
        spit.Play,
        st.integers(0, 4),
        st.integers(0, 1),
        st.none() | st.sampled_from(list(spit.Rank)),
    ),
    st.tuples(st.integers(0, 4), st.integers(0, 4))
    .filter(lambda pair: pair[0] != pair[1])
    .map(lambda pair: spit.Move(*pair)),
    st.builds(spit.Spit, st.integers(min_value=1, max_value=2**31 - 1)),
)


@given(BID_COMMANDS)
def test_every_bid_command_round_trips_through_its_proto(command: bid.Command) -> None:
    wire = bid_codec.command_to_proto(command)
    again = game_pb2.Command.FromString(wire.SerializeToString())
    assert bid_codec.command_from_proto(again) == command


@given(SPIT_COMMANDS)
def test_every_spit_command_round_trips_through_its_proto(command: spit.Command) -> None:
    wire = spit_codec.command_to_proto(command)
    again = game_pb2.Command.FromString(wire.SerializeToString())
    assert spit_codec.command_from_proto(again) == command


def test_tiles_are_read_by_their_halves_in_either_order_and_text_is_ignored() -> None:
    tile = bid_pb2.Tile(low=5, high=3, text="[6|6]")
    command = game_pb2.Command(bid=bid_pb2.BidCommand(play=bid_pb2.BidPlay(tile=tile)))
    assert bid_codec.command_from_proto(command) == bid.Play(bid.Tile(3, 5))


def _bid(**kind: object) -> game_pb2.Command:
    return game_pb2.Command(bid=bid_pb2.BidCommand(**kind))  # type: ignore[arg-type]


def _spit(**kind: object) -> game_pb2.Command:
    return game_pb2.Command(spit=spit_pb2.SpitCommand(**kind))  # type: ignore[arg-type]


def _end(low: int, high: int, port: int) -> bid_pb2.End:
    return bid_pb2.End(tile=bid_pb2.Tile(low=low, high=high), port=port)  # type: ignore[arg-type]


TWO = bid_pb2.Tile(low=0, high=2)
BID_GARBAGE = [
    (game_pb2.Command(), Reason.UNKNOWN_COMMAND),
    (_bid(), Reason.UNKNOWN_COMMAND),
    (_spit(ready=spit_pb2.SpitReady()), Reason.UNKNOWN_COMMAND),
    (game_pb2.Command(nudge=game_pb2.Nudge()), Reason.UNKNOWN_COMMAND),
    (_bid(play=bid_pb2.BidPlay()), Reason.BAD_ARGUMENT),
    (_bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(low=7, high=1))), Reason.BAD_ARGUMENT),
    (_bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(low=-1, high=1))), Reason.BAD_ARGUMENT),
    (
        _bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(low=1, high=2), end=bid_pb2.End())),
        Reason.BAD_ARGUMENT,
    ),
    (_bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(high=2), end=_end(1, 4, 0))), Reason.BAD_ARGUMENT),
    (
        _bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(high=2), end=_end(1, 4, 99))),
        Reason.BAD_ARGUMENT,
    ),
    (_bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(high=2), end=_end(2, 2, 1))), Reason.BAD_ARGUMENT),
    (_bid(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(high=2), end=_end(1, 4, 5))), Reason.BAD_ARGUMENT),
    (_bid(bid=bid_pb2.BidOffer(amount=-5)), Reason.BAD_ARGUMENT),
]
SPIT_GARBAGE = [
    (game_pb2.Command(), Reason.UNKNOWN_COMMAND),
    (_spit(), Reason.UNKNOWN_COMMAND),
    (_bid(draw=bid_pb2.BidDraw()), Reason.UNKNOWN_COMMAND),
    (game_pb2.Command(reveal=game_pb2.Reveal()), Reason.UNKNOWN_COMMAND),
    (_spit(play=spit_pb2.SpitPlay(stock=5, pile=0)), Reason.NO_SUCH_PILE),
    (_spit(play=spit_pb2.SpitPlay(stock=0, pile=2)), Reason.NO_SUCH_PILE),
    (_spit(play=spit_pb2.SpitPlay(stock=-1, pile=0)), Reason.NO_SUCH_PILE),
    (_spit(play=spit_pb2.SpitPlay(stock=0, pile=0, onto=0)), Reason.BAD_ARGUMENT),
    (_spit(play=spit_pb2.SpitPlay(stock=0, pile=0, onto=14)), Reason.BAD_ARGUMENT),
    (_spit(move=spit_pb2.SpitMove(src=2, dst=2)), Reason.BAD_ARGUMENT),
    (_spit(move=spit_pb2.SpitMove(src=0, dst=7)), Reason.NO_SUCH_PILE),
    (_spit(spit=spit_pb2.SpitSpit(number=0)), Reason.BAD_ARGUMENT),
]


@pytest.mark.parametrize(("command", "reason"), BID_GARBAGE)
def test_a_bid_command_that_names_nothing_real_is_malformed(
    command: game_pb2.Command, reason: Reason
) -> None:
    with pytest.raises(Malformed) as error:
        bid_codec.command_from_proto(command)
    assert error.value.reason is reason


@pytest.mark.parametrize(("command", "reason"), SPIT_GARBAGE)
def test_a_spit_command_that_names_nothing_real_is_malformed(
    command: game_pb2.Command, reason: Reason
) -> None:
    with pytest.raises(Malformed) as error:
        spit_codec.command_from_proto(command)
    assert error.value.reason is reason


GARBAGE_TILES = st.builds(bid_pb2.Tile, low=INT32, high=INT32)
GARBAGE_BID = st.one_of(
    st.builds(lambda a: _bid(bid=bid_pb2.BidOffer(amount=a)), INT32),
    st.builds(
        lambda tile, end_tile, port, with_end: _bid(
            play=bid_pb2.BidPlay(
                tile=tile, end=bid_pb2.End(tile=end_tile, port=port) if with_end else None
            )
        ),
        GARBAGE_TILES,
        GARBAGE_TILES,
        st.integers(-3, 9),
        st.booleans(),
    ),
)
GARBAGE_SPIT = st.one_of(
    st.builds(
        lambda s, p, o: _spit(play=spit_pb2.SpitPlay(stock=s, pile=p, onto=o)),
        INT32,
        INT32,
        st.none() | INT32,
    ),
    st.builds(lambda s, d: _spit(move=spit_pb2.SpitMove(src=s, dst=d)), INT32, INT32),
    st.builds(lambda n: _spit(spit=spit_pb2.SpitSpit(number=n)), st.none() | INT32),
)


@given(GARBAGE_BID)
def test_any_bid_proto_decodes_to_a_command_that_round_trips_or_is_malformed(
    command: game_pb2.Command,
) -> None:
    try:
        decoded = bid_codec.command_from_proto(command)
    except Malformed:
        return
    assert bid_codec.command_from_proto(bid_codec.command_to_proto(decoded)) == decoded
    if isinstance(decoded, bid.Play):
        assert decoded.tile in bid.FULL_SET


@given(GARBAGE_SPIT)
def test_any_spit_proto_decodes_to_a_command_that_round_trips_or_is_malformed(
    command: game_pb2.Command,
) -> None:
    try:
        decoded = spit_codec.command_from_proto(command)
    except Malformed:
        return
    assert spit_codec.command_from_proto(spit_codec.command_to_proto(decoded)) == decoded
