"""The command line: bad values are refused with a message and nothing runs."""

from __future__ import annotations

import pytest

from bench.loadtest.__main__ import parse
from bench.loadtest.runner import shares
from bench.loadtest.settings import BASE_SCALES, Settings


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "1"],
        ["--seconds", "5"],
        ["--pace", "0"],
        ["--games", "spit,chess"],
        ["--games", "spit,spit"],
        ["--fault", "kill-arbitration", "--url", "http://127.0.0.1:7100"],
        ["--fault", "stall-rules", "--seconds", "30", "--fault-at", "40"],
        ["--fault", "explode"],
    ],
)
def test_bad_settings_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse(argv)
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


def test_pace_scales_think_times_inversely() -> None:
    assert Settings(pace=2.0).scale("spit") == BASE_SCALES["spit"]
    assert Settings(pace=4.0).scale("bid") == pytest.approx(BASE_SCALES["bid"] / 2)


def test_players_alternate_games_and_workers() -> None:
    split = shares(Settings(players=8, games=("spit", "bid"), workers=2))
    assert [len(s) for s in split] == [4, 4]
    games = sorted(game for share in split for _, game in share)
    assert games == ["bid"] * 4 + ["spit"] * 4
    names = {name for share in split for name, _ in share}
    assert len(names) == 8
