"""Commands print as written and parse back; nonsense is malformed and quoted."""

from __future__ import annotations

import pytest

from games.bid import (
    Accept,
    Bid,
    Draw,
    End,
    PassBid,
    Play,
    Port,
    Ready,
    Resign,
    Tile,
    apply,
    parse_command,
)
from games.errors import Malformed, Reason
from tests.games.bid.position import S0, position

EXAMPLES = [
    ("ready", Ready()),
    ("draw", Draw()),
    ("pass", PassBid()),
    ("accept", Accept()),
    ("resign", Resign()),
    ("bid 20", Bid(20)),
    ("play [3|5]", Play(Tile(3, 5))),
    ("play [3|5] [1|5]:high", Play(Tile(3, 5), End(Tile(1, 5), Port.HIGH))),
    ("play [1|1] [1|1]:branch-b", Play(Tile(1, 1), End(Tile(1, 1), Port.BRANCH_B))),
    ("play [0|6] [6|6]:straight-a", Play(Tile(0, 6), End(Tile(6, 6), Port.STRAIGHT_A))),
]


@pytest.mark.parametrize(("text", "command"), EXAMPLES)
def test_commands_print_and_parse_back(text: str, command: object) -> None:
    assert parse_command(text) == command
    assert str(command) == text


def test_parsing_tolerates_case_spacing_and_either_half_first() -> None:
    assert parse_command("  PLAY 5|3   [5|1]:HIGH ") == Play(Tile(3, 5), End(Tile(1, 5), Port.HIGH))
    assert parse_command("Bid 015") == Bid(15)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", Reason.UNKNOWN_COMMAND),
        ("fold", Reason.UNKNOWN_COMMAND),
        ("ready now", Reason.BAD_ARGUMENT),
        ("bid", Reason.BAD_ARGUMENT),
        ("bid -5", Reason.BAD_ARGUMENT),
        ("bid 1.5", Reason.BAD_ARGUMENT),
        ("bid ٣٠", Reason.BAD_ARGUMENT),
        ("bid 99999999", Reason.BAD_ARGUMENT),
        ("play", Reason.BAD_ARGUMENT),
        ("play [7|7]", Reason.BAD_ARGUMENT),
        ("play [3|5] [1|5]", Reason.BAD_ARGUMENT),
        ("play [3|5] [1|5]:straight-a", Reason.BAD_ARGUMENT),
        ("play [3|5] [5|5]:high", Reason.BAD_ARGUMENT),
        ("play [3|5] [1|5]:high extra", Reason.BAD_ARGUMENT),
    ],
)
def test_malformed_commands_say_why_and_quote_the_input(text: str, reason: Reason) -> None:
    with pytest.raises(Malformed) as err:
        parse_command(text)
    assert err.value.reason is reason
    assert repr(text) in str(err.value)


def test_a_command_built_in_code_with_an_impossible_tile_is_malformed() -> None:
    state = position("[1|2]", "[3|4]", boneyard="[5|5]")
    for tile in (Tile(7, 7), Tile(5, 3)):
        with pytest.raises(Malformed):
            apply(state, S0, Play(tile))


def test_an_object_that_is_no_command_is_malformed() -> None:
    state = position("[1|2]", "[3|4]", boneyard="[5|5]")
    with pytest.raises(Malformed) as err:
        apply(state, S0, "play [1|2]")  # type: ignore[arg-type]
    assert err.value.reason is Reason.UNKNOWN_COMMAND
