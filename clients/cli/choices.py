"""Questions with numbered answers, read from plain lines: the menus' one way to ask."""

from __future__ import annotations

from collections.abc import Sequence

from clients.cli.console import INTERRUPT, Console
from clients.cli.words import t
from photofinish.game.v1 import game_pb2

# The games as the menus offer them, by their words' key ("game.spit": "Spit").
GAMES: tuple[tuple[str, game_pb2.Game.ValueType], ...] = (
    ("game.spit", game_pb2.GAME_SPIT),
    ("game.bid", game_pb2.GAME_BID),
)
RATED = (("terms.rated", True), ("terms.casual", False))


def game_name(game: int) -> str:
    """The game's name in the language spoken ("?" for a game this client does not know)."""
    return next((t(key) for key, number in GAMES if number == game), "?")


class Back(Exception):
    """The person left a question unanswered (EOF, Ctrl-C): back to the main menu."""


def pick(text: str, options: Sequence[str]) -> int | None:
    """Return the option ``text`` names: its number from 1, or the start of one of its words."""
    text = text.strip().lower()
    if text.isdigit():
        number = int(text)
        return number - 1 if 1 <= number <= len(options) else None
    if not text:
        return None
    found = [
        index
        for index, option in enumerate(options)
        if any(word.startswith(text) for word in option.lower().split())
    ]
    return found[0] if len(found) == 1 else None


async def choose(console: Console, title: str, options: Sequence[str]) -> int:
    """Return the index of the option the person picks.

    Raises:
        Back: when the input ends or Ctrl-C is pressed.
    """
    console.say(title)
    for number, option in enumerate(options, start=1):
        console.say(t("cli.choose.option", number=number, option=option))
    while True:
        answer = await console.ask(t("cli.choose.ask", last=len(options)))
        if answer is None or answer == INTERRUPT:
            raise Back
        index = pick(answer, options)
        if index is not None:
            return index
        console.say(t("cli.choose.not_a_choice", answer=answer))


async def choose_game(console: Console) -> game_pb2.Game.ValueType:
    return GAMES[await choose(console, t("cli.choose.game"), [t(key) for key, _ in GAMES])][1]


async def choose_rated(console: Console, account: bool) -> bool:
    """Rated or casual: asked of an account; a guest plays casual, and is told why."""
    if not account:
        console.say(t("cli.choose.casual_for_guests"))
        return False
    return RATED[await choose(console, t("cli.choose.rated"), [t(key) for key, _ in RATED])][1]
