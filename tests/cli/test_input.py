"""Typed lines: the client's words, and commands built by the engines' parsers and codecs."""

from __future__ import annotations

import pytest

from clients.cli.input import Blank, Help, Quit, Send, Time, build_command, parse_line, to_one
from games import bid, spit
from games.errors import Malformed
from photofinish.game.v1 import bid_pb2
from tests.cli.positions import bid_update, spit_update, walk_until


def test_client_words_and_seat_prefixes() -> None:
    assert parse_line("  quit ") == Quit()
    assert parse_line("HELP") == Help()
    assert parse_line("") == Blank()
    assert parse_line("time") == Time()
    assert parse_line("play 2 0") == Send("play 2 0")
    assert parse_line("@1 play 2 0") == Send("play 2 0", 1)
    assert parse_line("@1 quit") == Send("quit", 1)  # a seat's own words go to the server
    assert parse_line("@7 ready") == Send("@7 ready")  # no such seat: the parser will say so


def test_a_bid_play_is_parsed_by_the_engine_and_converted_by_the_codec() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    command = build_command("play [5|3] [1|4]:high", update)
    play = command.bid.play
    assert (play.tile.low, play.tile.high) == (3, 5)
    assert (play.end.tile.low, play.end.tile.high, play.end.port) == (1, 4, bid_pb2.TILE_PORT_HIGH)
    assert build_command("bid 20", update).bid.bid.amount == 20
    assert build_command("reveal", update).WhichOneof("kind") == "reveal"


def test_a_spit_play_without_the_seen_top_gets_the_top_on_the_board() -> None:
    state, _ = walk_until(spit, spit.new_match(spit.Options(), 3), lambda s: s.version > 6, seed=1)
    update = spit_update(state, 0)
    play = build_command("play 2 2", update).spit.play  # piles counted from 1, as shown
    assert (play.stock, play.pile) == (1, 1)
    assert play.HasField("onto") and play.onto == state.centre[1][-1].rank.value
    named = build_command("play 2 2 Q", update).spit.play
    assert named.onto == 12


def test_a_bare_spit_names_the_next_spit_of_the_match() -> None:
    state = spit.new_match(spit.Options(), 3)
    update = spit_update(state, 0)
    assert build_command("spit", update).spit.spit.number == state.spits + 1


@pytest.mark.parametrize("text", ["play", "bid twenty", "dance", "play [7|7]"])
def test_a_line_that_is_no_bid_command_is_malformed(text: str) -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    with pytest.raises(Malformed):
        build_command(text, update)


def test_a_line_that_is_no_spit_command_is_malformed() -> None:
    update = spit_update(spit.new_match(spit.Options(), 1), 0)
    with pytest.raises(Malformed) as error:
        build_command("play 9 1", update)
    assert "play 9 1" in str(error.value)
    with pytest.raises(Malformed) as zero:
        build_command("move 0 2", update)
    assert "counted from 1" in str(zero.value)


def test_a_refusal_of_a_spit_command_counts_its_piles_from_1() -> None:
    said = "refused (pile_top_changed): play 2 0 Q: the top of pile 0 is now 5"
    assert to_one(said) == "refused (pile_top_changed): play 3 1 Q: the top of pile 1 is now 5"
