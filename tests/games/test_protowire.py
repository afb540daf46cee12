"""The hand-written wire format writes what protobuf writes, for every value a field holds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.protowire import field_numbers, int_field, message_field, packed_field, varint
from photofinish.game.v1 import bid_pb2, spit_pb2

INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)
UINT64 = st.integers(min_value=0, max_value=2**64 - 1)
AUCTION = field_numbers(bid_pb2.BidAuction)
VIEW = field_numbers(bid_pb2.BidView)
SPIT = field_numbers(spit_pb2.SpitView)


@given(INT32, INT32, INT32, INT32)
def test_int32_fields_are_written_as_protobuf_writes_them(
    bid: int, bidder: int, cost: int, min_bid: int
) -> None:
    ours = b"".join(
        (
            int_field(AUCTION["bid"], bid),
            int_field(AUCTION["bidder"], bidder),
            int_field(AUCTION["cost"], cost),
            int_field(AUCTION["min_bid"], min_bid),
        )
    )
    theirs = bid_pb2.BidAuction(bid=bid, bidder=bidder, cost=cost, min_bid=min_bid)
    assert ours == theirs.SerializeToString()


@given(UINT64, st.booleans())
def test_uint64_and_bool_fields_are_written_as_protobuf_writes_them(
    version: int, paused: bool
) -> None:
    ours = int_field(SPIT["version"], version) + int_field(SPIT["paused"], paused)
    assert ours == spit_pb2.SpitView(version=version, paused=paused).SerializeToString()


@given(st.lists(INT32, max_size=5), st.lists(INT32, max_size=5))
def test_repeated_ints_are_packed_as_protobuf_packs_them(
    hand_counts: list[int], balances: list[int]
) -> None:
    ours = packed_field(VIEW["hand_counts"], hand_counts) + packed_field(VIEW["balances"], balances)
    theirs = bid_pb2.BidView(hand_counts=hand_counts, balances=balances)
    assert ours == theirs.SerializeToString()


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=200_000))
def test_a_message_field_holds_its_message_of_any_length(low: int, size: int) -> None:
    text = "x" * size
    tile = bid_pb2.Tile(low=low, text=text).SerializeToString()
    ours = message_field(VIEW["must_play"], tile)
    assert bid_pb2.BidView.FromString(ours).must_play == bid_pb2.Tile(low=low, text=text)
    assert ours == bid_pb2.BidView(must_play=bid_pb2.Tile(low=low, text=text)).SerializeToString()


@given(UINT64)
def test_a_varint_is_base_128_least_significant_group_first(value: int) -> None:
    encoded = varint(value)
    assert all(byte & 0x80 for byte in encoded[:-1]) and not encoded[-1] & 0x80
    assert sum((byte & 0x7F) << (7 * i) for i, byte in enumerate(encoded)) == value
