"""The load test's checks, each on data made to pass and made to fail."""

from __future__ import annotations

import pytest

from bench.loadtest import checks
from bench.loadtest.checks import Received
from bench.loadtest.truth import secrets
from bench.loadtest.visibility import addressed_right, chips, shown
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as tpb
from tests.loadtest.played import Played, play
from tools.results import Result

GAMES = (game_pb2.GAME_SPIT, game_pb2.GAME_BID)


def received(played: Played) -> list[Received]:
    return [
        Received(u.match_id, u.seat, u.seq, shown(u), chips(u), addressed_right(u, u.seat))
        for u in played.updates
    ]


def race(landed_us: int, refused_us: int, index: int) -> log_pb2.LogEntry:
    return log_pb2.LogEntry(
        match_id="m1",
        index=index,
        kind=log_pb2.ENTRY_KIND_REFUSED,
        seat=1,
        race=log_pb2.RaceRecord(
            pile=0,
            landed_seat=0,
            landed_arrival_us=landed_us,
            refused_seat=1,
            refused_arrival_us=refused_us,
            gap_us=refused_us - landed_us,
        ),
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_real_log_replays_identically(game: game_pb2.Game.ValueType) -> None:
    verdict = checks.races({"m1": play(game, 3, 40).log})
    assert verdict.passed and verdict.checked == 1


def test_a_tampered_log_fails_the_replay() -> None:
    log = play(game_pb2.GAME_SPIT, 3, 20).log
    log[5].version += 1
    verdict = checks.races({"m1": log})
    assert not verdict.passed
    assert "entry 5" in verdict.failures[0]


def test_a_race_won_by_the_later_arrival_fails() -> None:
    log = play(game_pb2.GAME_SPIT, 3, 10).log
    landed = log[4]  # accepted, seat and stamp known
    later = race(landed.arrival_us, landed.arrival_us + 30, len(log))
    later.race.landed_seat = landed.seat
    assert checks.race_order("m1", [*log, later]) == []
    backwards = race(landed.arrival_us + 30, landed.arrival_us, len(log))
    assert "landed at" in checks.race_order("m1", [*log, backwards])[0]


def test_a_race_whose_landed_play_is_not_logged_first_fails() -> None:
    log = play(game_pb2.GAME_SPIT, 3, 10).log
    orphan = race(999_999, 1_000_100, len(log))
    assert "not logged before" in checks.race_order("m1", [*log, orphan])[0]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(4))
def test_the_engines_views_hide_what_the_log_says_is_hidden(
    game: game_pb2.Game.ValueType, seed: int
) -> None:
    played = play(game, seed, 120)
    verdict = checks.hidden(received(played), secrets("m1", played.log))
    assert verdict.passed, verdict.failures
    assert verdict.checked == len(played.updates) and not verdict.notes


@pytest.mark.parametrize("game", GAMES)
def test_an_update_naming_a_hidden_item_fails(game: game_pb2.Game.ValueType) -> None:
    played = play(game, 5, 30)
    hidden = secrets("m1", played.log)
    leaky = [
        Received(r.match_id, r.seat, r.seq, r.shown | hidden[("m1", r.seq, r.seat)], r.chips, True)
        for r in received(played)
    ]
    verdict = checks.hidden(leaky, hidden)
    assert verdict.failed == len(leaky)


def test_an_update_made_out_to_the_other_seat_fails() -> None:
    played = play(game_pb2.GAME_BID, 5, 5)
    update = played.updates[0]
    other = 1 - update.seat
    # One seat's update as the other seat's stream would deliver it, reduced as a worker does.
    wrong = Received(
        "m1", other, update.seq, shown(update), chips(update), addressed_right(update, other)
    )
    verdict = checks.hidden([wrong], secrets("m1", played.log))
    assert "made out to another seat" in verdict.failures[0]


def test_chips_must_sum_to_three_hundred() -> None:
    played = play(game_pb2.GAME_BID, 9, 80)
    good = received(played)
    assert checks.chips(good).passed and checks.chips(good).checked == len(good)
    bad = Received("m1", 0, 3, 0, 299, True)
    assert "299" in checks.chips([*good, bad]).failures[0]


def test_rated_exactly_once() -> None:
    results = {
        "a": Result("a", ("p", "q"), voided=False, rated=True, winner=0),
        "v": Result("v", ("p", "q"), voided=True, reason="lag", figures="120 ms"),
    }
    void = ratings_pb2.HistoryEntry(
        match_id="v", verdict=ratings_pb2.VERDICT_VOID, void_reason="lag"
    )
    histories = {
        "p": [ratings_pb2.HistoryEntry(match_id="a", rated=True), void],
        "q": [ratings_pb2.HistoryEntry(match_id="a", rated=True), void],
    }
    assert checks.rated_once(results, histories).passed
    histories["q"].append(ratings_pb2.HistoryEntry(match_id="a", rated=True))
    assert "2 times" in checks.rated_once(results, histories).failures[0]
    histories["q"] = [void]
    assert "history holds 0" in checks.rated_once(results, histories).failures[0]
    changed = ratings_pb2.HistoryEntry(
        match_id="v", verdict=ratings_pb2.VERDICT_VOID, change=4.0, void_reason="lag"
    )
    histories["q"] = [ratings_pb2.HistoryEntry(match_id="a", rated=True), changed]
    assert "changed" in checks.rated_once(results, histories).failures[0]


def test_every_void_needs_a_reason_and_figures() -> None:
    explained = {"v": Result("v", ("p", "q"), voided=True, reason="lag", figures="120 ms")}
    assert checks.voids_explained(explained, ["lag: 120 ms"]).passed
    bare = {"v": Result("v", ("p", "q"), voided=True, reason="lag")}
    assert not checks.voids_explained(bare, []).passed
    assert not checks.voids_explained(explained, [" "]).passed


def ended(match_id: str, kind: int) -> list[log_pb2.LogEntry]:
    return [log_pb2.LogEntry(match_id=match_id, kind=kind)]  # type: ignore[arg-type]


def test_every_ended_match_is_on_the_stream_and_in_the_standings() -> None:
    logs = {
        "a": ended("a", log_pb2.ENTRY_KIND_FINISHED),
        "v": ended("v", log_pb2.ENTRY_KIND_VOIDED),
        "live": ended("live", log_pb2.ENTRY_KIND_ACCEPTED),
    }
    results = {
        "a": Result("a", ("p", "q"), voided=False, rated=True, winner=1),
        "v": Result("v", ("p", "q"), voided=True, reason="r", figures="f"),
    }
    games = {
        "a": tpb.TournamentGame(match_id="a", status=tpb.GAME_STATUS_FINISHED, winner=1),
        "v": tpb.TournamentGame(match_id="v", status=tpb.GAME_STATUS_VOIDED),
        "live": tpb.TournamentGame(match_id="live", status=tpb.GAME_STATUS_FINISHED),
    }
    verdict = checks.no_lost_results(logs, results, games, ["a", "v", "live"])
    assert verdict.passed and verdict.checked == 2
    assert (
        "not on the results stream"
        in checks.no_lost_results(logs, {"v": results["v"]}, games, []).failures[0]
    )
    games["a"] = tpb.TournamentGame(match_id="a", status=tpb.GAME_STATUS_FINISHED, winner=0)
    assert "won by seat 1" in checks.no_lost_results(logs, results, games, []).failures[0]
    games["a"] = tpb.TournamentGame(match_id="a", status=tpb.GAME_STATUS_PLAYING)
    assert not checks.no_lost_results(logs, results, games, []).passed
    assert "not among" in checks.no_lost_results(logs, results, games, ["x"]).failures[0]


def test_game_refusals_are_not_client_errors_but_anything_else_is() -> None:
    refusals = {"pile_top_changed": 40, "too_late": 2, "match_over": 1}
    assert checks.client_errors({}, refusals).passed
    verdict = checks.client_errors({"submit transport: ServerDisconnectedError": 3}, refusals)
    assert verdict.failed == 3
    assert checks.client_errors({}, {"stale_client_seq": 1}).failures == [
        "refused: stale_client_seq: 1"
    ]
