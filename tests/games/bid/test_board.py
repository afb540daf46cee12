"""The board: the rules page's worked sequence and examples, row by row (rules §3)."""

from __future__ import annotations

import pytest

from games.bid import Board
from games.bid.board import parse_end, points_for
from games.errors import Malformed
from tests.games.bid.position import board_of

# The worked board sequence from the Korean seed: (plays so far, open points as
# "tile:port=value", counted contributions as "tile=points", sum, points).
WORKED_TABLE = [
    (
        ["[1|4]"],
        {"[1|4]:high=4", "[1|4]:low=1"},
        ["[1|4]=1", "[1|4]=4"],
        5,
        5,
    ),
    (
        ["[1|4]", "[1|1] [1|4]:low"],
        {"[1|1]:straight-b=1", "[1|4]:high=4"},
        ["[1|1]=2", "[1|4]=4"],
        6,
        0,
    ),
    (
        ["[1|4]", "[1|1] [1|4]:low", "[4|4] [1|4]:high"],
        {"[1|1]:straight-b=1", "[4|4]:straight-b=4"},
        ["[1|1]=2", "[4|4]=8"],
        10,
        10,
    ),
    (
        ["[1|4]", "[1|1] [1|4]:low", "[4|4] [1|4]:high", "[3|4] [4|4]:straight-b"],
        {"[1|1]:straight-b=1", "[3|4]:low=3"},
        ["[1|1]=2", "[3|4]=3"],
        5,
        5,
    ),
    (
        [
            "[1|4]",
            "[1|1] [1|4]:low",
            "[4|4] [1|4]:high",
            "[3|4] [4|4]:straight-b",
            "[1|2] [1|1]:straight-b",
        ],
        {"[1|1]:branch-a=1", "[1|1]:branch-b=1", "[1|2]:high=2", "[3|4]:low=3"},
        ["[1|2]=2", "[3|4]=3"],
        5,
        5,
    ),
    (
        [
            "[1|4]",
            "[1|1] [1|4]:low",
            "[4|4] [1|4]:high",
            "[3|4] [4|4]:straight-b",
            "[1|2] [1|1]:straight-b",
            "[1|5] [1|1]:branch-a",
        ],
        {"[1|1]:branch-b=1", "[1|2]:high=2", "[1|5]:high=5", "[3|4]:low=3"},
        ["[1|2]=2", "[1|5]=5", "[3|4]=3"],
        10,
        10,
    ),
    (
        [
            "[1|4]",
            "[1|1] [1|4]:low",
            "[4|4] [1|4]:high",
            "[3|4] [4|4]:straight-b",
            "[1|2] [1|1]:straight-b",
            "[1|5] [1|1]:branch-a",
            "[5|5] [1|5]:high",
            "[0|5] [5|5]:straight-b",
        ],
        {"[0|5]:low=0", "[1|1]:branch-b=1", "[1|2]:high=2", "[3|4]:low=3"},
        ["[0|5]=0", "[1|2]=2", "[3|4]=3"],
        5,
        5,
    ),
    (
        [
            "[1|4]",
            "[1|1] [1|4]:low",
            "[4|4] [1|4]:high",
            "[3|4] [4|4]:straight-b",
            "[1|2] [1|1]:straight-b",
            "[1|5] [1|1]:branch-a",
            "[5|5] [1|5]:high",
            "[0|5] [5|5]:straight-b",
            "[1|3] [1|1]:branch-b",
        ],
        {"[0|5]:low=0", "[1|2]:high=2", "[1|3]:high=3", "[3|4]:low=3"},
        ["[0|5]=0", "[1|2]=2", "[1|3]=3", "[3|4]=3"],
        8,
        0,
    ),
]

OTHER_EXAMPLES = [
    (
        ["[3|6]", "[6|6] [3|6]:high"],
        {"[3|6]:low=3", "[6|6]:straight-b=6"},
        ["[3|6]=3", "[6|6]=12"],
        15,
        15,
    ),
    (["[0|0]"], {"[0|0]:straight-a=0", "[0|0]:straight-b=0"}, ["[0|0]=0"], 0, 0),
    (["[2|2]"], {"[2|2]:straight-a=2", "[2|2]:straight-b=2"}, ["[2|2]=4"], 4, 0),
]


def _open_points(board: Board) -> set[str]:
    return {f"{end}={end.value}" for end in board.ends}


def _counted(board: Board) -> list[str]:
    return sorted(f"{c.tile}={c.points}" for c in board.counted())


@pytest.mark.parametrize(
    ("plays", "open_points", "counted", "total", "points"),
    WORKED_TABLE + OTHER_EXAMPLES,
    ids=lambda value: value[-1] if isinstance(value, list) else None,
)
def test_worked_board_rows_count_and_score_as_the_rules_say(
    plays: list[str], open_points: set[str], counted: list[str], total: int, points: int
) -> None:
    board = board_of(plays)
    assert _open_points(board) == open_points
    assert _counted(board) == sorted(counted)
    assert board.total == total
    assert points_for(board.total) == points


def test_five_five_on_the_branch_counts_both_halves_at_its_end() -> None:
    # Not a row of its own in the seed's table (it merges [5|5] and [0|5]); by §3 an
    # exposed later double counts both halves: [1|2] 2 + [5|5] 10 + [3|4] 3 = 15.
    board = board_of(WORKED_TABLE[6][0][:-1])
    assert board.total == 15
    assert points_for(board.total) == 15


def test_only_the_first_double_played_is_the_spinner() -> None:
    board = board_of(["[1|4]", "[1|1] [1|4]:low", "[4|4] [1|4]:high"])
    assert board.spinner is not None and str(board.spinner) == "[1|1]"
    assert not board.branches_open


def test_spinner_branches_open_only_when_both_main_arms_are_filled() -> None:
    one_arm = board_of(["[3|3]", "[3|5] [3|3]:straight-a"])
    assert {str(e) for e in one_arm.ends} == {"[3|3]:straight-b", "[3|5]:high"}
    both = board_of(["[3|3]", "[3|5] [3|3]:straight-a", "[2|3] [3|3]:straight-b"])
    assert {str(e) for e in both.ends} == {
        "[3|5]:high",
        "[2|3]:low",
        "[3|3]:branch-a",
        "[3|3]:branch-b",
    }
    assert both.total == 5 + 2  # the spinner and its unused branches count nothing


def test_an_opening_spinner_counts_once_while_one_main_arm_is_filled() -> None:
    board = board_of(["[5|5]", "[0|5] [5|5]:straight-a"])
    assert board.total == 10 + 0
    assert points_for(board.total) == 10


def test_a_covered_later_double_no_longer_counts() -> None:
    board = board_of(["[1|4]", "[4|4] [1|4]:high", "[4|6] [4|4]:straight-b"])
    assert board.spinner is not None and str(board.spinner) == "[4|4]"
    board = board_of(["[2|2]", "[2|4] [2|2]:straight-a", "[4|4] [2|4]:high"])
    assert board.total == 4 + 8  # spinner [2|2] halves + exposed later double [4|4]
    covered = board_of(
        ["[2|2]", "[2|4] [2|2]:straight-a", "[4|4] [2|4]:high", "[4|5] [4|4]:straight-b"]
    )
    assert covered.total == 4 + 5


@pytest.mark.parametrize("text", ["[1|4]:straight-a", "[2|2]:low", "[1|4]", "[1|4]:top", "x:high"])
def test_an_end_that_no_tile_can_have_is_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        parse_end(text)


def test_sums_that_are_not_positive_multiples_of_five_score_nothing() -> None:
    assert [points_for(n) for n in (0, 4, 5, 8, 10, 15, 23, 30)] == [0, 0, 5, 0, 10, 15, 0, 30]
