"""Menu choices by number or by word, and the ladder as a table."""

from __future__ import annotations

from clients.cli.menu import GAMES, ladder_text, main_choices, pick
from clients.cli.words import t
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2

GAME_NAMES = [t(key) for key, _ in GAMES]
MAIN = main_choices()


def test_a_choice_is_its_number_from_one_or_the_start_of_one_of_its_words() -> None:
    assert pick("2", GAME_NAMES) == 1
    assert pick(" bid ", GAME_NAMES) == 1
    assert pick("SPIT", GAME_NAMES) == 0
    assert pick("hot", MAIN) == 1
    assert pick("quit", MAIN) == len(MAIN) - 1


def test_numbers_out_of_range_blanks_and_ambiguous_words_choose_nothing() -> None:
    assert pick("0", GAME_NAMES) is None
    assert pick("3", GAME_NAMES) is None
    assert pick("", GAME_NAMES) is None
    assert pick("s", GAME_NAMES) is None  # Spit and Spectacular
    assert pick("a", MAIN) is None  # "a challenge", "accept", "an online game"


def test_the_ladder_lists_rank_name_rating_games_and_wins() -> None:
    ladder = ratings_pb2.Ladder(
        game=game_pb2.GAME_BID,
        entries=[
            ratings_pb2.LadderEntry(rank=1, name="Ada", rating=1612.4, rd=60.2, games=30, wins=20),
            ratings_pb2.LadderEntry(
                rank=2, name="Bea", rating=1500, rd=300, provisional=True, games=1, wins=0
            ),
        ],
    )
    lines = ladder_text(ladder).splitlines()
    assert lines[0] == "Spectacular Bid ladder"
    assert lines[2].split() == ["1", "Ada", "1612±60", "30", "20"]
    assert lines[3].split() == ["2", "Bea", "1500±300?", "1", "0"]


def test_an_empty_ladder_says_so() -> None:
    assert ladder_text(ratings_pb2.Ladder(game=game_pb2.GAME_SPIT)) == "Spit: nobody is rated yet"
