"""Tournaments from the terminal: list them, create one, join one and play its games one
after another (each game starts by itself as the server pairs it), withdraw."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from clients.arena import ArenaClient
from clients.cli.choices import GAMES, choose, choose_game, choose_rated
from clients.cli.clocks import format_ms
from clients.cli.console import INTERRUPT, Console
from clients.cli.match import play_match
from clients.cli.names import NAME_WIDTH, shown_name
from clients.cli.waiting import wait_for_match
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.tournaments.v1 import tournaments_pb2

CHOICES = ("list", "create one and play", "join one and play", "withdraw from one", "back")
LIST_LIMIT = 20
DEFAULT_LENGTH_MIN = 10
STATUS = {
    tournaments_pb2.STATUS_UPCOMING: "upcoming",
    tournaments_pb2.STATUS_LIVE: "live",
    tournaments_pb2.STATUS_ENDING: "ending",
    tournaments_pb2.STATUS_FINISHED: "finished",
}
OPEN = (tournaments_pb2.STATUS_UPCOMING, tournaments_pb2.STATUS_LIVE)


async def tournaments_menu(client: ArenaClient, console: Console) -> None:
    """One tournament errand, then back to the main menu.

    Raises:
        Back: when the person leaves a question unanswered.
        CallError: when the server refuses (the main menu says why).
    """
    choice = await choose(console, "Tournaments", CHOICES)
    if choice == 0:
        listed = await client.list_tournaments(limit=LIST_LIMIT)
        console.say(list_text(listed.tournaments))
    elif choice == 1:
        created = await _create(client, console)
        if created is not None:
            await play_tournament(client, console, created)
    elif choice in (2, 3):
        found = await _pick(client, console, "join" if choice == 2 else "withdraw from")
        if found is None:
            return
        if choice == 2:
            await play_tournament(client, console, found)
        else:
            await client.withdraw_tournament(found.tournament_id)
            console.say(f"withdrawn from {found.name}: you will not be paired again")


async def _create(client: ArenaClient, console: Console) -> tournaments_pb2.Tournament | None:
    name = await console.ask("tournament name:")
    if name is None or name == INTERRUPT or not name.strip():
        return None
    game = await choose_game(console)
    rated = await choose_rated(console, client.is_account)
    length = await _number(console, f"length in minutes (Enter: {DEFAULT_LENGTH_MIN}):")
    delay = await _number(console, "start in how many minutes (Enter: now):")
    starts = 0 if not delay else int((time.time() + 60 * delay) * 1000)
    request = tournaments_pb2.CreateTournamentRequest(
        name=name.strip(),
        game=game,
        rated=rated,
        starts_at_unix_ms=starts,
        duration_s=60 * (length or DEFAULT_LENGTH_MIN),
    )
    return await client.create_tournament(request)


async def _number(console: Console, question: str) -> int:
    """Return a whole number typed in answer, 0 for Enter."""
    while True:
        answer = await console.ask(question)
        if answer is None or answer == INTERRUPT or not answer.strip():
            return 0
        if answer.strip().isdigit():
            return int(answer.strip())
        console.say(f"{answer!r} is not a whole number")


async def _pick(
    client: ArenaClient, console: Console, verb: str
) -> tournaments_pb2.Tournament | None:
    listed = await client.list_tournaments(statuses=OPEN, limit=LIST_LIMIT)
    if not listed.tournaments:
        console.say("no tournament is open now (create one)")
        return None
    lines = [line_of(t) for t in listed.tournaments]
    return listed.tournaments[await choose(console, f"Which tournament to {verb}?", lines)]


async def play_tournament(
    client: ArenaClient, console: Console, tournament: tournaments_pb2.Tournament
) -> None:
    """Join, then play each game as it is paired until the tournament ends or the person
    leaves the wait (they stay entered: joining again plays on)."""
    await client.join_tournament(tournament.tournament_id)
    console.say(f"joined {tournament.name}: your games start by themselves")
    left = ""  # the game whose screen was just closed
    ended: set[str] = set()  # games over: until the tournament hears, it may name one again
    while True:
        final: list[tournaments_pb2.Standings] = []
        stream = client.watch_tournament(tournament.tournament_id)
        assignment = await wait_for_match(
            console, stream, _on_update(console, client.player_id, final, ended)
        )
        if assignment is None:
            if final and final[-1].tournament.status == tournaments_pb2.STATUS_FINISHED:
                console.say(standings_text(final[-1]))
            return
        if assignment.match_id == left:
            # Still the current game: its screen was closed with quit, not finished.
            console.say("left the tournament's games (you stay entered: join it to play on)")
            return
        console.say(f"tournament game in {tournament.name}")
        if await play_match(client, console, assignment):
            ended.add(assignment.match_id)
        else:
            left = assignment.match_id


def _on_update(
    console: Console, me: str, final: list[tournaments_pb2.Standings], ended: set[str]
) -> Callable[[tournaments_pb2.TournamentUpdate], matchmaking_pb2.MatchAssignment | None]:
    def on_update(
        update: tournaments_pb2.TournamentUpdate,
    ) -> matchmaking_pb2.MatchAssignment | None:
        if update.HasField("match"):
            # A game that ended here, named before its result reached the tournament: wait
            # on for the next pairing.
            return None if update.match.match_id in ended else update.match
        final[:] = [update.standings]
        console.say(my_line(update.standings, me))
        return None

    return on_update


def line_of(t: tournaments_pb2.Tournament) -> str:
    game = dict((number, name) for name, number in GAMES).get(t.game, "?")
    entrants = f"{t.entrants} entrant{'' if t.entrants == 1 else 's'}"
    rated = "rated" if t.rated else "casual"
    return f"{t.name} · {game} · {rated} · {STATUS.get(t.status, '?')} · {entrants}"


def list_text(tournaments: Sequence[tournaments_pb2.Tournament]) -> str:
    if not tournaments:
        return "no tournaments (create one)"
    return "\n".join(f"  {line_of(t)}" for t in tournaments)


def time_text(t: tournaments_pb2.Tournament, now_ms: int | None = None) -> str:
    """Where the tournament is in its time: "starts in 0:45", "4:12 left", …"""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    ends_ms = t.starts_at_unix_ms + 1000 * t.duration_s
    if t.status == tournaments_pb2.STATUS_UPCOMING:
        return f"starts in {format_ms(t.starts_at_unix_ms - now_ms)}"
    if t.status == tournaments_pb2.STATUS_LIVE:
        return f"{format_ms(ends_ms - now_ms)} left"
    if t.status == tournaments_pb2.STATUS_ENDING:
        return "time is up: the last games are finishing"
    return "finished"


def my_line(standings: tournaments_pb2.Standings, me: str) -> str:
    """The waiting line: the tournament's time and where I stand."""
    t = standings.tournament
    mine = next((s for s in standings.standings if s.player_id == me), None)
    place = (
        f"you: #{mine.rank} of {len(standings.standings)}, {_points(mine.points)}"
        if mine is not None
        else "you are not in it"
    )
    return f"tournament {t.name}: {time_text(t)}; {place} — waiting for your next game"


def standings_text(standings: tournaments_pb2.Standings) -> str:
    lines = [f"{standings.tournament.name}: final standings"]
    for s in standings.standings:
        name = shown_name(s.name, guest=s.guest, deleted=s.deleted)
        lines.append(f"{s.rank:>3}  {name:<{NAME_WIDTH}} {_points(s.points):>10}  {s.games} games")
    return "\n".join(lines)


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"
