"""The CLI tells a player whose opponent left what a claim would do, and says it once."""

from __future__ import annotations

from clients.cli.input import build_command
from clients.cli.render_common import away_line
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2

PLAYERS = [events_pb2.Player(name="ann"), events_pb2.Player(name="ben")]


def update(**fields: object) -> arbitration_pb2.MatchUpdate:
    return arbitration_pb2.MatchUpdate(
        status=arbitration_pb2.STATUS_LIVE,
        players=PLAYERS,
        game=game_pb2.GAME_SPIT,
        **fields,  # type: ignore[arg-type]
    )


def test_the_present_player_is_told_what_a_claim_does() -> None:
    assert away_line(update(away_seats=[1], claim_aborts=True), 0) == (
        "away     ben left: claim to abort the match (no result, no rating), or wait for them"
    )
    assert away_line(update(away_seats=[1]), 0) == (
        "away     ben left: claim to win the match, or wait for them"
    )
    assert away_line(update(), 0) is None
    finished = update(away_seats=[1])
    finished.status = arbitration_pb2.STATUS_FINISHED
    assert away_line(finished, 0) is None


def test_claim_is_a_command_of_its_own() -> None:
    command = build_command("claim", update())
    assert command == game_pb2.Command(claim=game_pb2.Claim())
