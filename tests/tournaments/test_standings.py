"""Standings: points first, then who reached their score first, then the player id."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import PlayerId
from services.tournaments.model import Entrant, GameStatus, TournamentGame
from services.tournaments.scoring import score
from services.tournaments.standings import rank


def p(name: str) -> PlayerId:
    return PlayerId(name)


def won(match: str, winner: str, loser: str, at_ms: int) -> TournamentGame:
    return TournamentGame(match, (p(winner), p(loser)), at_ms - 1, GameStatus.FINISHED, 0, at_ms)


ENTRANTS = [Entrant(p(n), n.upper(), 0) for n in ("a", "b", "c", "d")]


def test_more_points_rank_higher() -> None:
    lines = rank(ENTRANTS, [won("m1", "c", "a", 10), won("m2", "c", "b", 20)])
    assert [line.player_id for line in lines][:1] == [p("c")]
    assert lines[0].score.points == 4


def test_equal_points_go_to_whoever_reached_them_first() -> None:
    lines = rank(ENTRANTS, [won("m1", "d", "a", 30), won("m2", "b", "c", 10)])
    assert [line.player_id for line in lines] == [p("b"), p("d"), p("a"), p("c")]


def test_a_loss_does_not_move_the_moment_the_score_was_reached() -> None:
    games = [won("m1", "a", "c", 10), won("m2", "b", "d", 20), won("m3", "d", "a", 30)]
    lines = rank(ENTRANTS, games)
    assert [line.player_id for line in lines[:3]] == [p("a"), p("b"), p("d")]


def test_voided_and_playing_games_count_for_nobody() -> None:
    games = [
        TournamentGame("m1", (p("a"), p("b")), 1, GameStatus.VOIDED, None, 5),
        TournamentGame("m2", (p("c"), p("d")), 2),
        TournamentGame("m3", (p("a"), p("c")), 3, GameStatus.ABANDONED, None, 9),
    ]
    lines = rank(ENTRANTS, games)
    assert all(line.score.games == 0 and line.score.points == 0 for line in lines)
    assert {line.player_id for line in lines if line.playing} == {p("c"), p("d")}


def test_withdrawn_players_keep_their_score_and_place() -> None:
    entrants = [*ENTRANTS[:3], Entrant(p("d"), "D", 0, withdrawn=True)]
    lines = rank(entrants, [won("m1", "d", "a", 10)])
    assert lines[0].player_id == p("d") and lines[0].withdrawn


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.booleans()), max_size=40))
def test_each_players_points_are_their_games_scored_in_pairing_order(
    draws: list[tuple[int, int, bool]],
) -> None:
    names = [e.player_id for e in ENTRANTS]
    games = [
        TournamentGame(
            f"m{i:03d}", (names[a], names[b]), i * 10, GameStatus.FINISHED, int(w), i * 10 + 5
        )
        for i, (a, b, w) in enumerate(draws)
        if a != b
    ]
    lines = rank(ENTRANTS, games)
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    for line in lines:
        wins = [
            g.players[g.winner or 0] == line.player_id for g in games if line.player_id in g.players
        ]
        assert line.score == score(wins)
    keys = [(-line.score.points, line.reached_at_ms, line.player_id) for line in lines]
    assert keys == sorted(keys)
