"""What one result does to ratings and history, without a database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.ratings.glicko2 import RD_MAX, Rating
from services.ratings.model import HistoryEntry, Mode, PlayerId, Standing, Verdict
from services.ratings.settlement import SECONDS_PER_DAY, settle
from tests.ratings.results import standing, void, win

NOW = 1_800_000_000.0


def _by_player(rows: tuple[Standing, ...]) -> dict[str, Standing]:
    return {row.player_id: row for row in rows}


def test_a_rated_win_raises_the_winner_and_lowers_the_loser() -> None:
    ann, bob = standing("ann", 1600), standing("bob", 1600)
    settled = settle(win("m1", "ann", "bob"), {ann.player_id: ann, bob.player_id: bob}, NOW)
    rows = _by_player(settled.standings)
    assert rows["ann"].rating.rating > 1600 > rows["bob"].rating.rating
    assert (rows["ann"].games, rows["ann"].wins, rows["ann"].losses) == (11, 6, 5)
    assert (rows["bob"].games, rows["bob"].wins, rows["bob"].losses) == (11, 5, 6)
    assert rows["ann"].last_played_unix_s == NOW


def test_newcomers_start_at_1500_and_write_history_with_the_change() -> None:
    settled = settle(win("m1", "ann", "bob", winner_seat=1), {}, NOW)
    lines: dict[str, HistoryEntry] = {line.player_id: line for line in settled.history}
    assert lines["ann"].verdict is Verdict.WIN and lines["bob"].verdict is Verdict.LOSS
    assert lines["ann"].seat == 1 and lines["ann"].opponent_id == "bob"
    assert lines["ann"].rating_before == 1500.0
    assert lines["ann"].change > 0 > lines["bob"].change
    assert lines["ann"].rated and lines["ann"].played_unix_s == NOW


def test_idle_days_widen_rd_before_the_game_so_the_rating_moves_more() -> None:
    fresh = standing("ann", 1600, rd=60)
    idle = Standing(fresh.player_id, "Ann", fresh.rating, 10, 5, 5, NOW - 200 * SECONDS_PER_DAY)
    recent = Standing(fresh.player_id, "Ann", fresh.rating, 10, 5, 5, NOW - 60)
    bob = standing("bob", 1600)
    after_idle = _by_player(
        settle(win("m", "ann", "bob"), {idle.player_id: idle, bob.player_id: bob}, NOW).standings
    )
    after_recent = _by_player(
        settle(
            win("m", "ann", "bob"), {recent.player_id: recent, bob.player_id: bob}, NOW
        ).standings
    )
    assert after_idle["ann"].rating.rating > after_recent["ann"].rating.rating


def test_voided_matches_change_no_rating_and_say_why_in_history() -> None:
    ann = standing("ann", 1700)
    settled = settle(void("m1", "ann", "bob"), {ann.player_id: ann}, NOW)
    assert settled.standings == ()
    lines: dict[str, HistoryEntry] = {line.player_id: line for line in settled.history}
    assert lines["ann"].verdict is Verdict.VOID and lines["ann"].void_reason == "event_loop_lag"
    assert lines["ann"].rating_before == lines["ann"].rating_after == 1700
    assert lines["bob"].rating_before is None and lines["bob"].change == 0.0
    assert not any(line.rated for line in settled.history)


def test_unrated_computer_and_hotseat_matches_change_no_rating() -> None:
    for result in (
        win("m1", "ann", "bob", rated=False),
        win("m2", "ann", "bob", mode=Mode.COMPUTER),
        win("m3", "ann", "bob", mode=Mode.HOTSEAT),
        win("m4", "ann", "bob", mode=Mode.UNSPECIFIED),
    ):
        settled = settle(result, {}, NOW)
        assert settled.standings == ()
        assert [line.verdict for line in settled.history] == [Verdict.WIN, Verdict.LOSS]
        assert all(line.change == 0.0 and not line.rated for line in settled.history)


ratings = st.builds(
    Rating,
    st.floats(800, 2800),
    st.floats(45, RD_MAX),
    st.floats(0.04, 0.1),
)


@given(ratings, ratings, st.integers(0, 1), st.floats(0, 400))
def test_any_rated_result_moves_winner_up_loser_down_and_counts_one_game(
    first: Rating, second: Rating, winner: int, idle_days: float
) -> None:
    played = NOW - idle_days * SECONDS_PER_DAY
    rows = {
        PlayerId("ann"): Standing(PlayerId("ann"), "Ann", first, 3, 1, 2, played),
        PlayerId("bob"): Standing(PlayerId("bob"), "Bob", second, 5, 4, 1, played),
    }
    result = win("m", "ann", "bob") if winner == 0 else win("m", "bob", "ann")
    settled = settle(result, rows, NOW)
    after = _by_player(settled.standings)
    won, lost = ("ann", "bob") if winner == 0 else ("bob", "ann")
    assert after[won].rating.rating > rows[PlayerId(won)].rating.rating
    assert after[lost].rating.rating < rows[PlayerId(lost)].rating.rating
    assert sum(r.games for r in after.values()) == 3 + 5 + 2
    assert sum(line.change for line in settled.history if line.player_id == won) > 0
