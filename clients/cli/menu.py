"""The main menu: numbered choices read from plain lines, each leading to a match or a list."""

from __future__ import annotations

from collections.abc import Sequence

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli.console import INTERRUPT, Console
from clients.cli.match import play_match
from clients.cli.waiting import challenge_update, queue_update, wait_for_match
from games import registry
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.ratings.v1 import ratings_pb2

GAMES: tuple[tuple[str, game_pb2.Game.ValueType], ...] = tuple(
    (game.title, game_pb2.Game.ValueType(game.number)) for game in registry.GAMES
)
LEVELS: tuple[tuple[str, game_pb2.Level.ValueType], ...] = (
    ("easy", game_pb2.LEVEL_EASY),
    ("medium", game_pb2.LEVEL_MEDIUM),
    ("hard", game_pb2.LEVEL_HARD),
)
RATED = (("rated", True), ("casual", False))
MAIN = (
    "play the computer",
    "hot-seat on this terminal (two people)",
    "queue for an online game",
    "create a challenge",
    "accept a challenge by code",
    "show a ladder",
    "quit",
)
QUIT = len(MAIN) - 1


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
        console.say(f"  {number}. {option}")
    while True:
        answer = await console.ask(f"choose 1–{len(options)}:")
        if answer is None or answer == INTERRUPT:
            raise Back
        index = pick(answer, options)
        if index is not None:
            return index
        console.say(f"{answer!r} is not one of the choices")


async def _game(console: Console) -> game_pb2.Game.ValueType:
    return GAMES[await choose(console, "Which game?", [name for name, _ in GAMES])][1]


async def run_menu(client: ArenaClient, console: Console) -> None:
    """Offer the menu until the person quits or the input ends."""
    while True:
        console.say("")
        try:
            choice = await choose(console, f"Photo Finish — signed in as {client.name}", MAIN)
            if choice == QUIT:
                return
            assignment = await _choice(client, console, choice)
        except Back:
            return
        except CallError as error:
            console.say(f"the server said no ({error.reason or error.code}): {error.message}")
            continue
        except aiohttp.ClientError as error:
            console.say(f"cannot reach the server: {error}")
            continue
        if assignment is not None:
            await play_match(client, console, assignment)


async def _choice(
    client: ArenaClient, console: Console, choice: int
) -> matchmaking_pb2.MatchAssignment | None:
    if choice == 0:
        game = await _game(console)
        level = LEVELS[await choose(console, "How strong?", [name for name, _ in LEVELS])][1]
        return await client.play_computer(game, level)
    if choice == 1:
        return await client.play_hot_seat(await _game(console))
    if choice in (2, 3):
        game = await _game(console)
        rated = RATED[await choose(console, "Rated or casual?", [name for name, _ in RATED])][1]
        if choice == 2:
            return await wait_for_match(console, client.queue(game, rated), queue_update(console))
        stream = client.create_challenge(game, rated)
        return await wait_for_match(console, stream, challenge_update(console))
    if choice == 4:
        code = await console.ask("challenge code:")
        if code is None or code == INTERRUPT or not code:
            return None
        return await client.accept_challenge(code)
    console.say(ladder_text(await client.ladder(await _game(console))))
    return None


def ladder_text(ladder: ratings_pb2.Ladder) -> str:
    """Return a ladder as a table: rank, name, rating ± deviation, games and wins."""
    title = dict((number, name) for name, number in GAMES).get(ladder.game, "ladder")
    if not ladder.entries:
        return f"{title}: nobody is rated yet"
    lines = [f"{title} ladder", f"{'#':>3}  {'name':<24} {'rating':>10}  games  wins"]
    for entry in ladder.entries:
        mark = "?" if entry.provisional else " "
        rating = f"{entry.rating:.0f}±{entry.rd:.0f}{mark}"
        lines.append(
            f"{entry.rank:>3}  {entry.name:<24} {rating:>10}  {entry.games:>5}  {entry.wins:>4}"
        )
    lines.append("? provisional (few games yet)")
    return "\n".join(lines)
