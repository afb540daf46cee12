"""Tournaments from the terminal: list them, create one, join one and play its games one
after another (each game starts by itself as the server pairs it), withdraw."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from clients.arena import ArenaClient
from clients.cli.choices import choose, choose_game, choose_rated, game_name
from clients.cli.clocks import format_ms
from clients.cli.console import INTERRUPT, Console
from clients.cli.match import play_match
from clients.cli.names import NAME_WIDTH, shown_name
from clients.cli.waiting import wait_for_match
from clients.cli.words import pad, t
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.tournaments.v1 import tournaments_pb2

CHOICES = (
    "cli.tournaments.list",
    "cli.tournaments.create",
    "cli.tournaments.join",
    "cli.tournaments.withdraw",
    "cli.tournaments.back",
)
LIST_LIMIT = 20
DEFAULT_LENGTH_MIN = 10
STATUS = {
    tournaments_pb2.STATUS_UPCOMING: "tournaments.status.upcoming",
    tournaments_pb2.STATUS_LIVE: "tournaments.status.live",
    tournaments_pb2.STATUS_ENDING: "tournaments.status.ending",
    tournaments_pb2.STATUS_FINISHED: "tournaments.status.finished",
}
OPEN = (tournaments_pb2.STATUS_UPCOMING, tournaments_pb2.STATUS_LIVE)


async def tournaments_menu(client: ArenaClient, console: Console) -> None:
    """One tournament errand, then back to the main menu.

    Raises:
        Back: when the person leaves a question unanswered.
        CallError: when the server refuses (the main menu says why).
    """
    choice = await choose(console, t("tournaments.title"), [t(key) for key in CHOICES])
    if choice == 0:
        listed = await client.list_tournaments(limit=LIST_LIMIT)
        console.say(list_text(listed.tournaments))
    elif choice == 1:
        created = await _create(client, console)
        if created is not None:
            await play_tournament(client, console, created)
    elif choice in (2, 3):
        found = await _pick(
            client,
            console,
            "cli.tournaments.which_join" if choice == 2 else "cli.tournaments.which_withdraw",
        )
        if found is None:
            return
        if choice == 2:
            await play_tournament(client, console, found)
        else:
            await client.withdraw_tournament(found.tournament_id)
            console.say(t("cli.tournaments.withdrawn", name=found.name))


async def _create(client: ArenaClient, console: Console) -> tournaments_pb2.Tournament | None:
    name = await console.ask(t("cli.tournaments.name"))
    if name is None or name == INTERRUPT or not name.strip():
        return None
    game = await choose_game(console)
    rated = await choose_rated(console, client.is_account)
    length = await _number(console, t("cli.tournaments.length", minutes=DEFAULT_LENGTH_MIN))
    delay = await _number(console, t("cli.tournaments.delay"))
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
        console.say(t("cli.tournaments.not_a_number", answer=answer))


async def _pick(
    client: ArenaClient, console: Console, question: str
) -> tournaments_pb2.Tournament | None:
    listed = await client.list_tournaments(statuses=OPEN, limit=LIST_LIMIT)
    if not listed.tournaments:
        console.say(t("cli.tournaments.none_open"))
        return None
    lines = [line_of(found) for found in listed.tournaments]
    return listed.tournaments[await choose(console, t(question), lines)]


async def play_tournament(
    client: ArenaClient, console: Console, tournament: tournaments_pb2.Tournament
) -> None:
    """Join, then play each game as it is paired until the tournament ends or the person
    leaves the wait (they stay entered: joining again plays on)."""
    await client.join_tournament(tournament.tournament_id)
    console.say(t("cli.tournaments.joined", name=tournament.name))
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
            console.say(t("cli.tournaments.left"))
            return
        console.say(t("cli.tournaments.game_in", name=tournament.name))
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


def line_of(tournament: tournaments_pb2.Tournament) -> str:
    return t(
        "cli.tournaments.item",
        name=tournament.name,
        game=game_name(tournament.game),
        terms=t("terms.rated" if tournament.rated else "terms.casual"),
        status=t(STATUS[tournament.status]) if tournament.status in STATUS else "?",
        entrants=t("following.entrants", count=tournament.entrants),
    )


def list_text(tournaments: Sequence[tournaments_pb2.Tournament]) -> str:
    if not tournaments:
        return t("cli.tournaments.none")
    return "\n".join(f"  {line_of(tournament)}" for tournament in tournaments)


def time_text(tournament: tournaments_pb2.Tournament, now_ms: int | None = None) -> str:
    """Where the tournament is in its time: "starts in 0:45", "4:12 left", …"""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    ends_ms = tournament.starts_at_unix_ms + 1000 * tournament.duration_s
    if tournament.status == tournaments_pb2.STATUS_UPCOMING:
        return t("cli.tournaments.starts_in", time=format_ms(tournament.starts_at_unix_ms - now_ms))
    if tournament.status == tournaments_pb2.STATUS_LIVE:
        return t("cli.tournaments.time_left", time=format_ms(ends_ms - now_ms))
    if tournament.status == tournaments_pb2.STATUS_ENDING:
        return t("cli.tournaments.ending")
    return t("tournaments.status.finished")


def my_line(standings: tournaments_pb2.Standings, me: str) -> str:
    """The waiting line: the tournament's time and where I stand."""
    tournament = standings.tournament
    mine = next((s for s in standings.standings if s.player_id == me), None)
    place = (
        t(
            "cli.tournaments.my_place",
            rank=mine.rank,
            of=len(standings.standings),
            points=_points(mine.points),
        )
        if mine is not None
        else t("cli.tournaments.not_in")
    )
    return t(
        "cli.tournaments.waiting", name=tournament.name, time=time_text(tournament), place=place
    )


def standings_text(standings: tournaments_pb2.Standings) -> str:
    lines = [t("cli.tournaments.final", name=standings.tournament.name)]
    for s in standings.standings:
        name = pad(shown_name(s.name, guest=s.guest, deleted=s.deleted), NAME_WIDTH)
        points = pad(_points(s.points), 10, right=True)
        lines.append(f"{s.rank:>3}  {name} {points}  {t('cli.tournaments.games', count=s.games)}")
    return "\n".join(lines)


def _points(points: int) -> str:
    return t("following.points", count=points)
