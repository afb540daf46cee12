"""Typed lines: the client's own words, and game commands built with the engines' parsers.

A game command is parsed by the engine's ``parse_command`` (the same text syntax the
server documents) and converted by the codec, so the client never hand-builds protobuf.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from msgspec.structs import replace

from clients.cli.words import t
from games import bid, spit
from games.bid import codec as bid_codec
from games.errors import Malformed, Reason
from games.spit import codec as spit_codec
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the match screen (the match itself goes on)."""


@dataclass(frozen=True, slots=True)
class Help:
    """Print the commands."""


@dataclass(frozen=True, slots=True)
class Blank:
    """An empty line: reveal at a hand-over, else redraw the board."""


@dataclass(frozen=True, slots=True)
class Time:
    """Print the clocks counted down locally since the last update."""


@dataclass(frozen=True, slots=True)
class Send:
    """A game command (``reveal`` included); ``seat`` when the line named one (``@1 …``)."""

    text: str
    seat: int | None = None


Action = Quit | Help | Blank | Time | Send


class Unreadable(Malformed):
    """A line this client could not read, its ``detail`` in the language spoken."""


_WORDS: dict[str, Action] = {"quit": Quit(), "help": Help(), "?": Help(), "time": Time()}


def parse_line(line: str) -> Action:
    """Return what a typed line asks for; ``@N`` in front names the seat (hot-seat)."""
    text = line.strip()
    seat: int | None = None
    if text.startswith("@"):
        head, _, rest = text.partition(" ")
        if head[1:] in ("0", "1"):
            seat, text = int(head[1:]), rest.strip()
    if not text:
        return Blank()
    word = _WORDS.get(text.lower())
    return word if word is not None and seat is None else Send(text, seat)


def is_reveal(text: str) -> bool:
    """Return whether ``text`` asks to reveal one's hand after a hand-over."""
    return text.strip().lower() == "reveal"


def build_command(text: str, update: arbitration_pb2.MatchUpdate) -> game_pb2.Command:
    """Return the command ``text`` writes, in the game of ``update``.

    A Spit ``play`` without the seen top gets the top shown in ``update`` as ``onto``, and
    a bare ``spit`` gets the next spit's number, so a stale command is refused rather
    than applied to a board its sender never saw.

    Raises:
        Malformed: when ``text`` is not a command of the game; the message quotes it.
    """
    if is_reveal(text):
        return game_pb2.Command(reveal=game_pb2.Reveal())
    if text.strip().lower() == "claim":
        return game_pb2.Command(claim=game_pb2.Claim())
    if update.game == game_pb2.GAME_BID:
        return bid_codec.command_to_proto(bid.parse_command(text))
    if update.game == game_pb2.GAME_SPIT:
        engine_text = from_one(text)
        try:
            command = spit.parse_command(engine_text)
        except Malformed as error:  # said of the engine's numbers: say it of the typed ones
            detail = error.detail.replace(repr(engine_text), repr(text))
            raise Malformed(error.reason, detail) from None
        return spit_codec.command_to_proto(_with_seen(command, update))
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{text!r}: no game to send it to")


STOCK_PILES = 5
_PILES = re.compile(r"^\s*(play|move)\s+(\d+)\s+(\d+)(.*)$", re.IGNORECASE)
# In a server's message: the command as the engine wrote it, and any pile it names.
_COUNTED = re.compile(r"\b(play|move) (\d+) (\d+)|(?<=pile )(\d+)")


def from_one(text: str) -> str:
    """Return a Spit command typed with piles counted from 1 (as the page and the board
    here show them) in the engine's words, which count from 0.

    Raises:
        Malformed: for a pile numbered 0.
    """
    found = _PILES.match(text)
    if found is None:
        return text
    verb, first, second, rest = found.groups()
    play = verb.lower() == "play"
    if not (1 <= int(first) <= STOCK_PILES and 1 <= int(second) <= (2 if play else STOCK_PILES)):
        key = "cli.input.piles_from_one_play" if play else "cli.input.piles_from_one_move"
        raise Unreadable(Reason.BAD_ARGUMENT, t(key, text=text.strip()))
    return f"{verb} {int(first) - 1} {int(second) - 1}{rest}"


def to_one(message: str) -> str:
    """Return a server message about a Spit command with its piles counted from 1."""

    def renumber(found: re.Match[str]) -> str:
        if found.group(4) is not None:
            return str(int(found.group(4)) + 1)
        return f"{found.group(1)} {int(found.group(2)) + 1} {int(found.group(3)) + 1}"

    return _COUNTED.sub(renumber, message)


def _with_seen(command: spit.Command, update: arbitration_pb2.MatchUpdate) -> spit.Command:
    view = update.view.spit
    if (
        isinstance(command, spit.Play)
        and command.onto is None
        and command.pile < len(view.centre)
        and view.centre[command.pile].HasField("top")
    ):
        return replace(command, onto=spit.Rank(view.centre[command.pile].top.rank))
    if isinstance(command, spit.Spit) and command.number is None:
        return replace(command, number=view.spits + 1)
    return command


# The commands as typed (the engines' syntax, the same in every language) and their words.
BID_HELP = (
    ("ready", "cli.help.bid.ready"),
    ("play [3|5]", "cli.help.bid.open"),
    ("play [3|5] [1|5]:high", "cli.help.bid.play"),
    ("draw", "cli.help.bid.draw"),
    ("pass", "cli.help.bid.pass"),
    ("bid 20", "cli.help.bid.bid"),
    ("accept", "cli.help.bid.accept"),
    ("resign", "cli.help.resign"),
)
SPIT_HELP = (
    ("ready", "cli.help.spit.ready"),
    ("play 2 1", "cli.help.spit.play"),
    ("move 1 3", "cli.help.spit.move"),
    ("spit", "cli.help.spit.spit"),
    ("pause / resume", "cli.help.spit.pause"),
    ("resign", "cli.help.resign"),
)
CLIENT_HELP = (
    ("(Enter)", "cli.help.enter"),
    ("@0 … / @1 …", "cli.help.seat"),
    ("claim", "cli.help.claim"),
    ("time", "cli.help.time"),
    ("help", "cli.help.help"),
    ("quit", "cli.help.quit"),
)
_COMMAND_WIDTH = 24


def help_text(game: game_pb2.Game.ValueType) -> str:
    """Return the commands of ``game`` and the client's own words."""
    bid_game = game == game_pb2.GAME_BID
    rules = BID_HELP if bid_game else SPIT_HELP
    lines = [t("cli.help.bid_title" if bid_game else "cli.help.spit_title")]
    lines += [_help_line(command, key) for command, key in rules]
    lines += [t("cli.help.also"), *(_help_line(command, key) for command, key in CLIENT_HELP)]
    return "\n".join(lines)


def _help_line(command: str, key: str) -> str:
    return f"  {command:<{_COMMAND_WIDTH}} {t(key)}"
