"""A player's profile as the terminal shows it: each game's rating, rank and results, the
rating over time as a line of bars, the tournaments; a guest has none."""

from __future__ import annotations

from clients.cli.profile import bars, profile_text
from clients.cli.words import speaking
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.cli.test_languages import english_left

POINTS = [1500.0, 1540.0, 1522.0, 1580.0, 1601.0]


def profile() -> ratings_pb2.Profile:
    spit = ratings_pb2.GameProfile(
        game=game_pb2.GAME_SPIT,
        rated=True,
        rating=1601.4,
        rd=88.2,
        provisional=False,
        rank=3,
        ranked=12,
        wins=4,
        losses=1,
        voids=1,
        points=[ratings_pb2.RatingPoint(played_unix_ms=n, rating=r) for n, r in enumerate(POINTS)],
    )
    bid = ratings_pb2.GameProfile(game=game_pb2.GAME_BID, rated=False, wins=0, losses=2)
    return ratings_pb2.Profile(player_id="a_1", name="Ada", games=[spit, bid])


def tournaments() -> tournaments_pb2.PlayerTournaments:
    cup = tournaments_pb2.Tournament(name="Cup", game=game_pb2.GAME_SPIT, entrants=8)
    return tournaments_pb2.PlayerTournaments(
        entered=3, best=[tournaments_pb2.TournamentFinish(tournament=cup, rank=1, points=7)]
    )


def test_each_game_its_rating_rank_results_and_trend_then_the_tournaments() -> None:
    lines = profile_text(profile(), tournaments()).splitlines()
    assert lines == [
        "Ada: profile",
        "Spit",
        "  Rating 1601 ± 88 · #3 of 12",
        "  Won 4 · lost 1 · void 1",
        f"  rating after each rated game: {bars(POINTS)} (1500 → 1601)",
        "Spectacular Bid",
        "  No rated game yet.",
        "  Won 0 · lost 2 · void 0",
        "Tournaments",
        "  Entered 3 tournaments.",
        "  #1 of 8 · Cup · Spit · 7 points",
    ]


def test_the_bars_run_from_the_lowest_to_the_highest() -> None:
    assert bars(POINTS) == "▁▄▃▇█"
    assert bars([1500.0, 1500.0]) == "▅▅"


def test_a_guest_has_no_profile() -> None:
    guest = ratings_pb2.Profile(player_id="g_1", name="Gus", guest=True)
    assert profile_text(guest, tournaments_pb2.PlayerTournaments()).splitlines() == [
        "Gus (guest): profile",
        "Guests have no profile: an account keeps a player's ratings and games.",
    ]


def test_the_profile_in_arabic_and_korean_has_no_english_left() -> None:
    for code in ("ar", "ko"):
        with speaking(code):
            text = profile_text(profile(), tournaments())
        assert english_left(text) == set(), (code, text)


def test_spit_races_and_reactions_and_a_marked_account_are_shown() -> None:
    shown = profile()
    shown.barred = True
    shown.games[0].spit.CopyFrom(
        ratings_pb2.SpitFigures(
            races_won=5,
            races_lost=2,
            median_margin_ms=18.4,
            answers=40,
            median_answer_ms=452.2,
            chains=1,
            median_chain_ms=201.0,
        )
    )
    lines = profile_text(shown, tournaments()).splitlines()
    assert lines[1].startswith("This account was marked for unfair play")
    assert lines[6:9] == [
        "  Races: 5 won, 2 lost; median winning margin 18 ms",
        "  Median reaction: 452 ms, over 40 answers to the opponent's plays",
        "  Median chained play: 201 ms, over 1 play",
    ]
    shown.games[0].spit.CopyFrom(ratings_pb2.SpitFigures(races_lost=1))
    lines = profile_text(shown, tournaments()).splitlines()
    assert lines[6] == "  Races: 0 won, 1 lost"  # no margin without a race won
    with speaking("ko"):
        korean = profile_text(shown, tournaments())
    assert "경합: 0승 1패" in korean and not english_left(korean)


def test_the_newest_games_are_listed() -> None:
    day = 1_800_000_000_000  # 2027-01-15 08:00 UTC
    recent = ratings_pb2.History(
        entries=[
            ratings_pb2.HistoryEntry(
                game=game_pb2.GAME_SPIT,
                opponent_name="Bo",
                verdict=ratings_pb2.VERDICT_REFUND,
                played_unix_ms=day,
            ),
            ratings_pb2.HistoryEntry(
                game=game_pb2.GAME_BID,
                opponent_deleted=True,
                verdict=ratings_pb2.VERDICT_WIN,
                played_unix_ms=day,
            ),
        ]
    )
    lines = profile_text(profile(), tournaments(), recent).splitlines()
    start = lines.index("Recent games")
    assert lines[start + 1 : start + 3] == [
        "  2027-01-15 · Spit against Bo: Rating given back (the opponent was marked for unfair"
        " play)",
        "  2027-01-15 · Spectacular Bid against deleted player: Won",
    ]
