"""Every name the terminal shows marks a guest "(guest)" and a deleted account "deleted
player": the ladder, a tournament's standings, and the players of a match."""

from __future__ import annotations

from clients.cli.menu import ladder_text
from clients.cli.names import shown_name
from clients.cli.render_common import ending_lines, header, label, names
from clients.cli.render_spit import render_spit
from clients.cli.tournaments import standings_text
from games import spit
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.cli.positions import spit_update


def test_a_plain_name_is_shown_as_it_is() -> None:
    assert shown_name("Ada") == "Ada"


def test_a_guest_is_marked_and_a_deleted_account_has_no_name() -> None:
    assert shown_name("Gus", guest=True) == "Gus (guest)"
    assert shown_name("", deleted=True) == "deleted player"
    assert shown_name("Old", guest=True, deleted=True) == "deleted player"


def test_a_computer_player_is_never_marked_a_guest() -> None:
    assert shown_name("Computer (hard)", guest=True, bot=True) == "Computer (hard)"


def ladder() -> ratings_pb2.Ladder:
    entry = ratings_pb2.LadderEntry
    return ratings_pb2.Ladder(
        game=game_pb2.GAME_SPIT,
        entries=[
            entry(rank=1, player_id="a_1", name="Ada", rating=1650, rd=50, games=20, wins=15),
            entry(rank=2, player_id="g_2", name="Gus", guest=True, rating=1550, rd=60, games=9),
            entry(rank=3, player_id="a_3", deleted=True, rating=1450, rd=70, games=4, wins=1),
        ],
    )


def test_the_ladder_marks_guests_and_shows_deleted_accounts_as_deleted_player() -> None:
    lines = ladder_text(ladder()).splitlines()
    assert lines[2].split() == ["1", "Ada", "1650±50", "20", "15"]
    assert lines[3].split() == ["2", "Gus", "(guest)", "1550±60", "9", "0"]
    assert lines[4].split() == ["3", "deleted", "player", "1450±70", "4", "1"]


def test_the_ladder_columns_stay_lined_up_with_a_long_guest_name() -> None:
    board = ladder()
    board.entries[1].name = "G" * 24  # the longest display name a guest may have
    rows = ladder_text(board).splitlines()[2:5]
    assert len({len(row) for row in rows}) == 1, rows  # the rating, games and wins aligned


def test_standings_mark_guests_and_show_deleted_accounts_as_deleted_player() -> None:
    standing = tournaments_pb2.Standing
    standings = tournaments_pb2.Standings(
        tournament=tournaments_pb2.Tournament(name="Friday Spit"),
        standings=[
            standing(rank=1, player_id="a_1", name="Ada", points=6, games=3),
            standing(rank=2, player_id="g_2", name="Gus", guest=True, points=4, games=3),
            standing(rank=3, player_id="a_3", deleted=True, points=2, games=3),
        ],
    )
    lines = standings_text(standings).splitlines()
    assert lines[0] == "Friday Spit: final standings"
    assert lines[1].split() == ["1", "Ada", "6", "points", "3", "games"]
    assert lines[2].split() == ["2", "Gus", "(guest)", "4", "points", "3", "games"]
    assert lines[3].split() == ["3", "deleted", "player", "2", "points", "3", "games"]


def match_of(*players: events_pb2.Player) -> arbitration_pb2.MatchUpdate:
    """A live Spit update (a real engine view) between ``players``."""
    update = spit_update(spit.new_match(spit.Options(), 3), 0)
    del update.players[:]
    update.players.extend(players)
    return update


ADA = events_pb2.Player(player_id="a_1", name="Ada")
GUS = events_pb2.Player(player_id="g_2", name="Gus", guest=True)
BOT = events_pb2.Player(player_id="g_3", name="Computer (easy)", bot=True, guest=True)


def test_the_opponent_who_is_a_guest_is_marked_in_the_header_and_on_the_board() -> None:
    update = match_of(ADA, GUS)
    assert names(update) == ("Ada", "Gus (guest)")
    assert " · Ada vs Gus (guest) · casual · " in header(update, 1)
    assert label(update, 1, viewer=0) == "Gus (guest)"
    assert label(update, 1, viewer=1) == "Gus (you)"  # the mark that tells Gus most
    assert "stock    Gus (guest)" in render_spit(update, 0)


def test_a_computer_opponent_and_plain_players_are_not_marked() -> None:
    update = match_of(ADA, BOT)
    assert names(update) == ("Ada", "Computer (easy)")
    assert "(guest)" not in render_spit(update, 0)


def test_the_end_names_a_guest_winner_with_the_mark() -> None:
    update = match_of(ADA, GUS)
    update.status = arbitration_pb2.STATUS_FINISHED
    update.outcome.CopyFrom(game_pb2.Outcome(winner=1, termination=game_pb2.TERMINATION_RESIGN))
    assert ending_lines(update, 0) == ["MATCH OVER: Gus (guest) wins (by resignation)."]


def test_a_seat_the_update_names_nobody_in_stays_seat_n() -> None:
    update = match_of(events_pb2.Player(player_id="g_9", guest=True), ADA)
    assert names(update) == ("seat 0", "Ada")
