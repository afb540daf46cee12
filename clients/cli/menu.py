"""The main menu: numbered choices read from plain lines, each leading to a match or a list."""

from __future__ import annotations

import aiohttp

from clients.arena import ArenaClient, CallError
from clients.cli.choices import GAMES, Back, choose, choose_game, choose_rated, game_name, pick
from clients.cli.console import INTERRUPT, Console
from clients.cli.match import play_match
from clients.cli.names import NAME_WIDTH, shown_name
from clients.cli.profile import show_from_ladder
from clients.cli.reasons import code_of, explain
from clients.cli.tournaments import tournaments_menu
from clients.cli.waiting import challenge_update, queue_update, wait_for_match
from clients.cli.words import pad, t, width
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.ratings.v1 import ratings_pb2

LEVELS: tuple[tuple[str, game_pb2.Level.ValueType], ...] = (
    ("names.level.easy", game_pb2.LEVEL_EASY),
    ("names.level.medium", game_pb2.LEVEL_MEDIUM),
    ("names.level.hard", game_pb2.LEVEL_HARD),
)
MAIN = (
    "cli.menu.computer",
    "cli.menu.hot_seat",
    "cli.menu.queue",
    "cli.menu.create_challenge",
    "cli.menu.accept_challenge",
    "cli.menu.ladder",
    "cli.menu.tournaments",
    "cli.menu.quit",
)
QUIT = len(MAIN) - 1


def main_choices() -> list[str]:
    """The main menu's choices in the language spoken."""
    return [t(key) for key in MAIN]


async def run_menu(client: ArenaClient, console: Console) -> None:
    """Offer the menu until the person quits or the input ends."""
    while True:
        console.say("")
        try:
            choice = await choose(console, t("cli.menu.title", name=client.name), main_choices())
            if choice == QUIT:
                return
            assignment = await _choice(client, console, choice)
        except Back:
            return
        except CallError as error:
            console.say(t("cli.menu.refused", reason=code_of(error), why=explain(error)))
            continue
        except aiohttp.ClientError as error:
            console.say(t("cli.unreachable", error=str(error)))
            continue
        if assignment is not None:
            await play_match(client, console, assignment)


async def _choice(
    client: ArenaClient, console: Console, choice: int
) -> matchmaking_pb2.MatchAssignment | None:
    if choice == 0:
        game = await choose_game(console)
        level = LEVELS[await choose(console, t("cli.menu.level"), [t(key) for key, _ in LEVELS])][1]
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
        code = await console.ask(t("cli.menu.code"))
        if code is None or code == INTERRUPT or not code:
            return None
        return await client.accept_challenge(code)
    if choice == 5:
        ladder = await client.ladder(await choose_game(console))
        console.say(ladder_text(ladder))
        await show_from_ladder(client, console, ladder)
        return None
    await tournaments_menu(client, console)
    return None


def ladder_text(ladder: ratings_pb2.Ladder) -> str:
    """Return a ladder as a table: rank, name, rating ± deviation, games and wins."""
    title = game_name(ladder.game)
    if not ladder.entries:
        return t("cli.ladder.empty", game=title)
    head = [pad(t("cli.ladder.name"), NAME_WIDTH), pad(t("cli.ladder.rating"), 10, right=True)]
    games, wins = t("cli.ladder.games"), t("cli.ladder.wins")
    lines = [t("cli.ladder.title", game=title), f"{'#':>3}  {' '.join(head)}  {games}  {wins}"]
    for entry in ladder.entries:
        mark = "?" if entry.provisional else " "
        rating = f"{entry.rating:.0f}±{entry.rd:.0f}{mark}"
        name = pad(shown_name(entry.name, guest=entry.guest, deleted=entry.deleted), NAME_WIDTH)
        lines.append(
            f"{entry.rank:>3}  {name} {rating:>10}  {pad(str(entry.games), width(games), True)}"
            f"  {pad(str(entry.wins), width(wins), True)}"
        )
    lines.append(t("cli.ladder.provisional"))
    return "\n".join(lines)


__all__ = ["GAMES", "MAIN", "Back", "ladder_text", "main_choices", "pick", "run_menu"]
