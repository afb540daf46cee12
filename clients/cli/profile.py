"""A player's profile as text, as the page shows it (clients/web/src/profile.ts): each
game's rating, rank and results, the rating over time as a line of bars, Spit's races and
reactions, and the best tournament finishes. Reached from a ladder: its rank, typed after
the ladder is shown."""

from __future__ import annotations

from datetime import UTC, datetime

from clients.arena import ArenaClient
from clients.cli.choices import game_name
from clients.cli.console import INTERRUPT, Console
from clients.cli.names import shown_name
from clients.cli.words import t
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2

BARS = "▁▂▃▄▅▆▇█"
RECENT = 5  # the newest games listed
TREND_POINTS = 40  # the newest rated games a line of bars shows


async def show_from_ladder(
    client: ArenaClient, console: Console, ladder: ratings_pb2.Ladder
) -> None:
    """Ask for a rank on ``ladder`` and show that player's profile (Enter: none)."""
    if not ladder.entries:
        return
    answer = await console.ask(t("cli.ladder.which"))
    if answer is None or answer == INTERRUPT or not answer.strip():
        return
    found = next((e for e in ladder.entries if answer.strip() == str(e.rank)), None)
    if found is None:
        console.say(t("cli.choose.not_a_choice", answer=answer.strip()))
        return
    if found.guest or found.deleted:
        console.say(t("profile.guest") if found.guest else t("names.deleted"))
        return
    profile = await client.get_profile(found.player_id)
    tournaments = await client.player_tournaments(found.player_id)
    recent = await client.get_history(found.player_id, game_pb2.GAME_UNSPECIFIED, limit=RECENT)
    console.say(profile_text(profile, tournaments, recent))


def profile_text(
    profile: ratings_pb2.Profile,
    tournaments: tournaments_pb2.PlayerTournaments,
    recent: ratings_pb2.History | None = None,
) -> str:
    """The profile as lines of text (``recent``: their newest games)."""
    name = shown_name(profile.name, guest=profile.guest, deleted=profile.deleted)
    lines = [t("cli.profile.title", name=name)]
    if profile.guest and not profile.deleted:
        return "\n".join([*lines, t("profile.guest")])
    if profile.barred:
        lines.append(t("profile.barred"))
    if not profile.games:
        lines.append(t("profile.none"))
    for game in profile.games:
        lines.append(f"{game_name(game.game)}")
        lines += [f"  {line}" for line in _game_lines(game)]
    if recent is not None and recent.entries:
        lines.append(t("profile.recent"))
        lines += [f"  {_recent_line(entry)}" for entry in recent.entries]
    lines.append(t("profile.tournaments"))
    lines.append(f"  {t('profile.entered', count=tournaments.entered)}")
    for finish in tournaments.best:
        entry = finish.tournament
        points = t("following.points", count=finish.points)
        finished = t(
            "profile.finish",
            rank=finish.rank,
            ranked=entry.entrants,
            name=entry.name,
            game=game_name(entry.game),
            points=points,
        )
        lines.append(f"  {finished}")
    return "\n".join(lines)


def _game_lines(game: ratings_pb2.GameProfile) -> list[str]:
    lines = []
    if game.rated:
        rating = t(
            "profile.rating",
            rating=f"{game.rating:.0f}",
            rd=f"{game.rd:.0f}",
            rank=game.rank,
            ranked=game.ranked,
        )
        lines.append(rating + (f" {t('profile.provisional')}" if game.provisional else ""))
    else:
        lines.append(t("profile.unrated"))
    lines.append(t("profile.results", wins=game.wins, losses=game.losses, voids=game.voids))
    ratings = [point.rating for point in game.points][-TREND_POINTS:]
    if len(ratings) >= 2:
        first, last = f"{ratings[0]:.0f}", f"{ratings[-1]:.0f}"
        lines.append(t("cli.profile.trend", bars=bars(ratings), first=first, last=last))
    if game.HasField("spit"):
        lines += spit_lines(game.spit)
    return lines


def spit_lines(figures: ratings_pb2.SpitFigures) -> list[str]:
    """Spit's races and reactions, as the page words them."""

    def ms(present: bool, value: float) -> str:
        return f"{value:.0f}" if present else "–"

    margin = ms(figures.HasField("median_margin_ms"), figures.median_margin_ms)
    answer = ms(figures.HasField("median_answer_ms"), figures.median_answer_ms)
    chain = ms(figures.HasField("median_chain_ms"), figures.median_chain_ms)
    return [
        t("profile.races", won=figures.races_won, lost=figures.races_lost, margin=margin),
        t("profile.reaction", median=answer, count=figures.answers),
        t("profile.chain", median=chain, count=figures.chains),
    ]


_RESULTS = {
    ratings_pb2.VERDICT_WIN: "games.won",
    ratings_pb2.VERDICT_LOSS: "games.lost",
    ratings_pb2.VERDICT_REFUND: "games.refund",
}


def _recent_line(entry: ratings_pb2.HistoryEntry) -> str:
    played = datetime.fromtimestamp(entry.played_unix_ms / 1000, UTC).strftime("%Y-%m-%d")
    opponent = shown_name(
        entry.opponent_name, guest=entry.opponent_guest, deleted=entry.opponent_deleted
    )
    return t(
        "profile.recent_line",
        date=played,
        game=game_name(entry.game),
        opponent=opponent,
        result=t(_RESULTS.get(entry.verdict, "games.void_short")),
    )


def bars(values: list[float]) -> str:
    """``values`` as a line of bars, the lowest ▁ and the highest █."""
    low, high = min(values), max(values)
    if high == low:
        return BARS[len(BARS) // 2] * len(values)
    scale = (len(BARS) - 1) / (high - low)
    return "".join(BARS[round((value - low) * scale)] for value in values)
