"""The terminal client in English, Arabic and Korean: the language chosen, the catalogs' keys
as the code uses them, and the boards, help and menus with no English left in them."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clients.cli import words
from clients.cli.input import help_text
from clients.cli.menu import ladder_text, main_choices
from clients.cli.render_bid import render_bid
from clients.cli.render_common import LABEL_WIDTH
from clients.cli.render_spit import render_spit
from clients.cli.tournaments import line_of, standings_text
from clients.cli.words import chosen_language, speaking, t, width
from games import bid, spit
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.cli.positions import NAMES, bid_update, clock, spit_update, walk_until

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "clients/cli"
TRANSLATED = ("ar", "ko")
# What a person types stays as typed in every language (the engines' command syntax, the
# client's own words), and so do the names in the sample updates.
TYPED = {
    "ready", "play", "move", "draw", "pass", "bid", "accept", "resign", "spit", "pause",
    "resume", "claim", "time", "help", "quit", "cancel", "reveal", "high", "low", "Enter",
    "Ctrl", "user", "guest", "NAME", "arm", "branch", "straight", "Cup", *NAMES,
}  # fmt: skip
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def english_left(text: str) -> set[str]:
    """The Latin words of ``text`` that are not typed commands or names."""
    return {word for word in ENGLISH_WORD.findall(text) if word not in TYPED}


# The language chosen


@pytest.mark.parametrize(
    ("asked", "environ", "chosen"),
    [
        ("ko", {"LANG": "ar_EG.UTF-8"}, "ko"),
        ("ar-EG", {}, "ar"),
        (None, {"LANG": "ar_EG.UTF-8"}, "ar"),
        (None, {"LANG": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"}, "ko"),
        (None, {"LC_MESSAGES": "ko_KR.UTF-8", "LC_ALL": "ar_SA.UTF-8"}, "ar"),
        (None, {"LANGUAGE": "fr:ko:ar", "LANG": "ar_SA.UTF-8"}, "ko"),
        (None, {"LANGUAGE": "ko", "LC_ALL": "C"}, "en"),  # gettext: C ignores LANGUAGE
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_the_language_is_lang_else_the_locale_in_gettexts_order_else_english(
    asked: str | None, environ: dict[str, str], chosen: str
) -> None:
    assert chosen_language(asked, environ).code == chosen


def _cli(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    environ = {"PATH": "/usr/bin:/bin", "LANG": lang, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "clients.cli", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        stdin=subprocess.DEVNULL,
    )


def test_help_is_in_the_language_of_the_locale_or_of_lang() -> None:
    korean = _cli("--help", lang="ko_KR.UTF-8")
    arabic = _cli("--help", "--lang", "ar")
    assert korean.returncode == arabic.returncode == 0, (korean.stderr, arabic.stderr)
    with speaking("ko"):
        assert _words(t("cli.args.user")) in _words(korean.stdout)
    with speaking("ar"):
        assert _words(t("cli.args.user")) in _words(arabic.stdout)
    assert _words(t("cli.args.user")) not in _words(korean.stdout)


def _words(text: str) -> str:
    """``text`` as argparse may fold it: words apart by single spaces."""
    return " ".join(text.split())


def test_an_unknown_language_is_refused_by_name_with_the_ones_there_are() -> None:
    refused = _cli("--lang", "xx")
    assert refused.returncode == 2
    assert "xx" in refused.stderr and "ar, ko" in refused.stderr


# The catalogs as the code uses them


def _keys_in_code() -> set[str]:
    """Every ``cli.*`` key named in the client: string constants, and board labels given by
    their last part to ``labelled``."""
    keys = set()
    for path in CLI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value.startswith("cli.") and not node.value.endswith("."):
                    keys.add(node.value)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "labelled":
                label = node.args[0]
                if isinstance(label, ast.Constant) and isinstance(label.value, str):
                    keys.add(f"cli.label.{label.value}")
    return keys


def test_every_key_the_client_names_is_in_the_english_catalog_and_none_is_unused() -> None:
    english = set(json.loads((CLI / "catalogs/en.json").read_text(encoding="utf-8")))
    used = _keys_in_code()
    assert len(used) > 150
    assert sorted(used - english) == []
    assert sorted(english - used) == []


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_a_board_label_fits_its_column(code: str) -> None:
    labels = {
        key: text for key, text in words.catalog(code).items() if key.startswith("cli.label.")
    }
    with speaking(code):
        assert {key: t(key) for key in labels if width(t(key)) > LABEL_WIDTH} == {}


# What a person reads, in each language


def _bid_boards() -> list[arbitration_pb2.MatchUpdate]:
    start = bid.new_match(bid.Options(), 5)
    midgame, events = walk_until(bid, start, lambda s: len(s.board.placements) >= 5, seed=1)
    seat = next(iter(bid.decision(midgame).seats))
    auction, bids = walk_until(
        bid,
        start,
        lambda s: s.phase is bid.Phase.AUCTION and s.bidder is not None,
        seed=2,
        steps=20_000,
    )
    ended, last = walk_until(bid, start, lambda s: bid.outcome(s) is not None, seed=3, steps=50_000)
    return [
        bid_update(midgame, seat, events, clock_view=clock(running=seat)),
        bid_update(midgame, 1 - seat, events),
        bid_update(auction, 0, bids),
        bid_update(ended, 0, last),
    ]


def _spit_boards() -> list[arbitration_pb2.MatchUpdate]:
    start = spit.new_match(spit.Options(), 3)
    state, events = walk_until(spit, start, lambda s: s.version > 12, seed=1)
    ended, last = walk_until(spit, start, lambda s: s.round_no > 1, seed=4, steps=20_000)
    away = spit_update(state, 0, events)
    away.away_seats.append(1)
    race = spit_update(state, 1, events)
    race.race.CopyFrom(
        arbitration_pb2.Race(
            pile=0, landed_seat=0, refused_seat=1, landed_card="Q♥", refused_card="K♠", gap_us=2500
        )
    )
    voided = spit_update(state, 0, events)
    voided.status, voided.void_kind = arbitration_pb2.STATUS_VOIDED, "event_loop_lag"
    return [away, race, spit_update(state, -1, events), spit_update(ended, 0, last), voided]


def _screens() -> str:
    """Every kind of text the client prints of a match, a ladder and a tournament."""
    boards = [render_bid(update) for update in _bid_boards()]
    boards += [render_bid(_bid_boards()[0], show_hand=False)]
    boards += [render_spit(update) for update in _spit_boards()]
    helps = [help_text(game_pb2.GAME_BID), help_text(game_pb2.GAME_SPIT)]
    ladder = ratings_pb2.Ladder(
        game=game_pb2.GAME_SPIT,
        entries=[ratings_pb2.LadderEntry(rank=1, name="Ada", rating=1612, rd=60, games=3, wins=2)],
    )
    tournament = tournaments_pb2.Tournament(
        name="Cup", game=game_pb2.GAME_BID, status=tournaments_pb2.STATUS_LIVE, entrants=3
    )
    standings = tournaments_pb2.Standings(
        tournament=tournament,
        standings=[tournaments_pb2.Standing(rank=1, name="Bea", guest=True, points=4, games=2)],
    )
    menus = ["\n".join(main_choices()), ladder_text(ladder), line_of(tournament)]
    return "\n".join([*boards, *helps, *menus, standings_text(standings)])


def test_the_english_screens_are_english() -> None:
    """The check below finds English when it is there."""
    with speaking("en"):
        assert {"stock", "centre", "board", "hand", "boneyard", "jockey"} <= english_left(
            _screens()
        )


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_english_is_left_on_any_screen(code: str) -> None:
    with speaking(code):
        assert english_left(_screens()) == set()


def test_arabic_sets_names_cards_and_tiles_apart_from_the_right_to_left_text() -> None:
    """A Latin name, ``Q♥`` or ``[3|5]`` keeps its order inside an Arabic line on a terminal
    that lays out bidirectional text: each is in a first-strong isolate."""
    update = _spit_boards()[1]
    with speaking("ar"):
        text = render_spit(update)
    race = next(line for line in text.splitlines() if "Q♥" in line)
    assert "\u2068Q♥\u2069" in race and "\u2068K♠\u2069" in race
    assert f"\u2068{NAMES[0]}\u2069" in text
    with speaking("ko"):
        assert "\u2068" not in render_spit(update)


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_board_lines_keep_their_columns_in_every_language(code: str) -> None:
    """Each board line's text starts in the same terminal column, however wide its label."""
    with speaking(code):
        labels = [text for key, text in words.catalog(code).items() if key.startswith("cli.label.")]
        text = "\n".join(render_spit(update) for update in _spit_boards())
        text += "\n" + render_bid(_bid_boards()[0])
    lines = [line for line in text.splitlines() if any(line.startswith(f"{lb} ") for lb in labels)]
    assert len(lines) > 20
    for line in lines:
        label = max((lb for lb in labels if line.startswith(f"{lb} ")), key=len)
        rest = line[len(label) :]
        padding = len(rest) - len(rest.lstrip(" "))
        assert width(label) + padding == LABEL_WIDTH + 1, line
