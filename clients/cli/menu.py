"""The main menu: numbered choices read from plain lines, each leading to a match or a list."""

from __future__ import annotations

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli.choices import GAMES, Back, choose, choose_game, choose_rated, pick
from clients.cli.console import INTERRUPT, Console
from clients.cli.match import play_match
from clients.cli.names import NAME_WIDTH, shown_name
from clients.cli.tournaments import tournaments_menu
from clients.cli.waiting import challenge_update, queue_update, wait_for_match
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.ratings.v1 import ratings_pb2

LEVELS: tuple[tuple[str, game_pb2.Level.ValueType], ...] = (
    ("easy", game_pb2.LEVEL_EASY),
    ("medium", game_pb2.LEVEL_MEDIUM),
    ("hard", game_pb2.LEVEL_HARD),
)
MAIN = (
    "play the computer",
    "hot-seat on this terminal (two people)",
    "queue for an online game",
    "create a challenge",
    "accept a challenge by code",
    "show a ladder",
    "tournaments",
    "quit",
)
QUIT = len(MAIN) - 1


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
        game = await choose_game(console)
        level = LEVELS[await choose(console, "How strong?", [name for name, _ in LEVELS])][1]
        return await client.play_computer(game, level)
    if choice == 1:
        return await client.play_hot_seat(await choose_game(console))
    if choice in (2, 3):
        game = await choose_game(console)
        rated = await choose_rated(console, client.is_account)
        if choice == 2:
            return await wait_for_match(console, client.queue(game, rated), queue_update(console))
        stream = client.create_challenge(game, rated)
        return await wait_for_match(console, stream, challenge_update(console))
    if choice == 4:
        code = await console.ask("challenge code:")
        if code is None or code == INTERRUPT or not code:
            return None
        return await client.accept_challenge(code)
    if choice == 5:
        console.say(ladder_text(await client.ladder(await choose_game(console))))
        return None
    await tournaments_menu(client, console)
    return None


def ladder_text(ladder: ratings_pb2.Ladder) -> str:
    """Return a ladder as a table: rank, name, rating ± deviation, games and wins."""
    title = dict((number, name) for name, number in GAMES).get(ladder.game, "ladder")
    if not ladder.entries:
        return f"{title}: nobody is rated yet"
    lines = [f"{title} ladder", f"{'#':>3}  {'name':<{NAME_WIDTH}} {'rating':>10}  games  wins"]
    for entry in ladder.entries:
        mark = "?" if entry.provisional else " "
        rating = f"{entry.rating:.0f}±{entry.rd:.0f}{mark}"
        name = shown_name(entry.name, guest=entry.guest, deleted=entry.deleted)
        lines.append(
            f"{entry.rank:>3}  {name:<{NAME_WIDTH}} {rating:>10}  {entry.games:>5}  {entry.wins:>4}"
        )
    lines.append("? provisional (few games yet)")
    return "\n".join(lines)


__all__ = ["GAMES", "MAIN", "Back", "ladder_text", "pick", "run_menu"]
