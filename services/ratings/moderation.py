"""The fair-play queue: flags opened by the reactions or by reports, and the operators'
actions on them (docs/fair-play.md, "Moderation").

A player has at most one open flag. Clearing it closes it, and from then on only the
reactions of games played after the clearing can open another. Marking it bars the
account from rated play, takes it off the ladders, and gives each opponent back the rating
they lost to it, with a line in their history (``VERDICT_REFUND``). Every action is logged
with the operator who took it and why.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

from services.common.database import Session
from services.fairplay.flags import Thresholds, judge
from services.ratings import measured
from services.ratings.errors import Moderation, Reason
from services.ratings.model import MatchId, Mode, PlayerId

DAY_S = 86_400.0
MAX_WHY_CHARS = 500


class FlagState(enum.Enum):
    """Stored in the database: never rename."""

    OPEN = "open"
    CLEARED = "cleared"
    MARKED = "marked"


class Action(enum.Enum):
    """What an operator does with a flag. Stored in the moderation log: never rename."""

    CLEAR = "clear"
    MARK = "mark"


class ReportReason(enum.Enum):
    """What a player may report an opponent for. Stored: never rename."""

    TOO_FAST = "too_fast"  # plays faster than a person could
    PROGRAM = "program"  # a program plays for them
    STALLING = "stalling"  # lets the clock run on purpose
    NAME = "name"  # an offensive name


@dataclass(frozen=True, slots=True)
class Operator:
    player_id: PlayerId
    name: str


@dataclass(frozen=True, slots=True)
class Flag:
    flag_id: str
    player_id: PlayerId
    name: str
    opened_unix_s: float
    reactions_why: str  # "" when only reports opened it
    state: FlagState
    reports: tuple[tuple[str, int], ...]  # (reason, how many), most first


@dataclass(frozen=True, slots=True)
class Logged:
    at_unix_s: float
    operator_name: str
    action: str
    why: str


@dataclass(frozen=True, slots=True)
class Game:
    """One rated Spit game of the player's, for the operators' case view."""

    match_id: MatchId
    played_unix_s: float
    opponent_name: str
    won: bool
    answers: int
    median_answer_ms: float | None


@dataclass(frozen=True, slots=True)
class Case:
    """Everything an operator weighs about one flagged player."""

    flag: Flag
    figures: measured.SpitFigures | None
    answers: list[int]  # the player's histogram (measured.BINS bins)
    everyone_answers: list[int]  # every other player's
    games: tuple[Game, ...]
    log: tuple[Logged, ...]


def is_marked(session: Session, player_id: PlayerId) -> bool:
    return bool(session.rows("SELECT 1 FROM marked_players WHERE player_id = ?", (player_id,)))


def judge_player(
    session: Session, player_id: PlayerId, thresholds: Thresholds, now_unix_s: float
) -> str | None:
    """Open a flag when the player's answers since their last clearing are beyond reach;
    return its id (None: no new flag). Call inside a transaction."""
    if is_marked(session, player_id) or _open_flag(session, player_id) is not None:
        return None
    since = session.rows(
        "SELECT MAX(settled_unix_s) FROM flags WHERE player_id = ? AND state = ?",
        (player_id, FlagState.CLEARED.value),
    )[0][0]
    verdict = judge(measured.reactions_since(session, player_id, float(since or 0.0)), thresholds)
    if not verdict.flagged:
        return None
    return _open(session, player_id, verdict.why, now_unix_s)


def report(
    session: Session,
    reporter: PlayerId,
    match_id: MatchId,
    reason: ReportReason,
    now_unix_s: float,
    per_day: int,
) -> str:
    """Record ``reporter``'s report of their opponent in ``match_id``; return the flag it
    joined. Call inside a transaction.

    Raises:
        Moderation: ``not_your_match`` (no such match of the reporter's recorded yet),
            ``not_online`` (the opponent was the computer, or a hot-seat), ``already_reported``,
            ``too_many_reports`` (``per_day`` in 24 hours).
    """
    rows = session.rows(
        "SELECT h.opponent_id, r.mode FROM history h JOIN results r ON r.match_id = h.match_id"
        " WHERE h.match_id = ? AND h.player_id = ? AND h.seat < 2",
        (match_id, reporter),
    )
    if not rows:
        raise Moderation(Reason.NOT_YOUR_MATCH, f"no recorded match {match_id} of yours")
    reported, mode = PlayerId(str(rows[0][0])), rows[0][1]
    if mode != Mode.ONLINE.value:
        raise Moderation(Reason.NOT_ONLINE, "only an online opponent can be reported")
    if session.rows(
        "SELECT 1 FROM reports WHERE match_id = ? AND reporter_id = ?", (match_id, reporter)
    ):
        raise Moderation(Reason.ALREADY_REPORTED, "you reported this match already")
    recent = session.rows(
        "SELECT COUNT(*) FROM reports WHERE reporter_id = ? AND reported_unix_s > ?",
        (reporter, now_unix_s - DAY_S),
    )[0][0]
    if int(recent) >= per_day:
        raise Moderation(
            Reason.TOO_MANY_REPORTS, f"{per_day} reports in 24 hours at most; try again later"
        )
    flag_id = _open_flag(session, reported) or _open(session, reported, "", now_unix_s)
    session.execute(
        "INSERT INTO reports (match_id, reporter_id, reported_id, reason, reported_unix_s,"
        " flag_id) VALUES (?, ?, ?, ?, ?, ?)",
        (match_id, reporter, reported, reason.value, now_unix_s, flag_id),
    )
    return flag_id


def queue(session: Session) -> tuple[Flag, ...]:
    """The open flags, oldest first."""
    rows = session.rows(
        f"SELECT {_FLAG} FROM flags WHERE state = ? ORDER BY opened_unix_s, flag_id",
        (FlagState.OPEN.value,),
    )
    return tuple(_to_flag(session, row) for row in rows)


def case(session: Session, flag_id: str) -> Case:
    """The flag and its evidence.

    Raises:
        Moderation: ``no_such_flag``.
    """
    flag = _flag(session, flag_id)
    player = flag.player_id
    return Case(
        flag=flag,
        figures=measured.figures(session, player),
        answers=measured.histogram(session, player),
        everyone_answers=measured.histogram(session, player, others=True),
        games=_games(session, player),
        log=_logged(session, player),
    )


def settle(
    session: Session,
    flag_id: str,
    action: Action,
    operator: Operator,
    why: str,
    now_unix_s: float,
) -> int:
    """Clear or mark the open flag ``flag_id``; return how many refunds marking gave.
    Call inside a transaction.

    Raises:
        Moderation: ``no_such_flag``, ``flag_settled`` (not open any more), ``no_reason``
            (an empty or overlong ``why``), ``own_flag`` (an operator's own).
    """
    why = why.strip()
    if not why or len(why) > MAX_WHY_CHARS:
        raise Moderation(Reason.NO_REASON, f"say why, in 1 to {MAX_WHY_CHARS} characters")
    flag = _flag(session, flag_id)
    if flag.state is not FlagState.OPEN:
        raise Moderation(Reason.FLAG_SETTLED, f"the flag was {flag.state.value} already")
    if flag.player_id == operator.player_id:
        raise Moderation(Reason.OWN_FLAG, "another operator settles a flag on you")
    state = FlagState.CLEARED if action is Action.CLEAR else FlagState.MARKED
    session.execute(
        "UPDATE flags SET state = ?, settled_unix_s = ?, settled_by = ?, settled_why = ?"
        " WHERE flag_id = ? AND state = ?",
        (state.value, now_unix_s, operator.player_id, why, flag_id, FlagState.OPEN.value),
    )
    refunds = 0
    if action is Action.MARK:
        session.execute(
            "INSERT INTO marked_players (player_id, marked_unix_s) VALUES (?, ?)"
            " ON CONFLICT (player_id) DO NOTHING",
            (flag.player_id, now_unix_s),
        )
        refunds = _refund(session, flag.player_id, now_unix_s)
    session.execute(
        "INSERT INTO moderation_log (at_unix_s, operator_id, operator_name, action, player_id,"
        " flag_id, why) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now_unix_s, operator.player_id, operator.name, action.value, flag.player_id, flag_id, why),
    )
    return refunds


def _refund(session: Session, marked: PlayerId, now_unix_s: float) -> int:
    """Give each opponent back the rating they lost in a counted game to ``marked``.

    The line goes in at seat + 2 under the match's own id, so a match refunds once and the
    line links to its replay; the rating moves by what was lost, the RD stays.
    """
    lost = session.rows(
        "SELECT o.match_id, o.seat, o.player_id, o.game, o.rating_before - o.rating_after"
        " FROM history o JOIN history m ON m.match_id = o.match_id AND m.seat <> o.seat"
        " WHERE m.player_id = ? AND m.seat < 2 AND o.seat < 2 AND o.rated = 1"
        " AND o.rating_after < o.rating_before ORDER BY o.played_unix_s",
        (marked,),
    )
    name = name_of(session, marked)
    refunds = 0
    for match_id, seat, opponent, game, points in lost:
        row = session.rows(
            "SELECT rating FROM ladder WHERE game = ? AND player_id = ?", (game, opponent)
        )
        if not row:
            continue
        before = float(row[0][0])
        added = session.execute(
            "INSERT INTO history (match_id, seat, player_id, game, opponent_id, opponent_name,"
            " verdict, rated, rating_before, rating_after, played_unix_s, void_reason)"
            " VALUES (?, ?, ?, ?, ?, ?, 'refund', 1, ?, ?, ?, '')"
            " ON CONFLICT (match_id, seat) DO NOTHING",
            (
                match_id,
                int(seat) + 2,
                opponent,
                game,
                marked,
                name,
                before,
                before + points,
                now_unix_s,
            ),
        )
        if added:
            session.execute(
                "UPDATE ladder SET rating = rating + ? WHERE game = ? AND player_id = ?",
                (float(points), game, opponent),
            )
            refunds += 1
    return refunds


def name_of(session: Session, player_id: PlayerId) -> str:
    """The name the newest match gave the player ("" when none did)."""
    rows = session.rows(
        "SELECT opponent_name FROM history WHERE opponent_id = ?"
        " ORDER BY played_unix_s DESC LIMIT 1",
        (player_id,),
    )
    return str(rows[0][0]) if rows else ""


_FLAG = "flag_id, player_id, opened_unix_s, reactions_why, state"


def _open(session: Session, player_id: PlayerId, why: str, now_unix_s: float) -> str:
    flag_id = uuid.uuid4().hex
    session.execute(
        "INSERT INTO flags (flag_id, player_id, opened_unix_s, reactions_why, state,"
        " settled_by, settled_why) VALUES (?, ?, ?, ?, ?, '', '')",
        (flag_id, player_id, now_unix_s, why, FlagState.OPEN.value),
    )
    return flag_id


def _open_flag(session: Session, player_id: PlayerId) -> str | None:
    rows = session.rows(
        "SELECT flag_id FROM flags WHERE player_id = ? AND state = ?",
        (player_id, FlagState.OPEN.value),
    )
    return str(rows[0][0]) if rows else None


def _flag(session: Session, flag_id: str) -> Flag:
    rows = session.rows(f"SELECT {_FLAG} FROM flags WHERE flag_id = ?", (flag_id,))
    if not rows:
        raise Moderation(Reason.NO_SUCH_FLAG, f"no flag {flag_id[:40]!r}")
    return _to_flag(session, rows[0])


def _to_flag(session: Session, row: tuple[object, ...]) -> Flag:
    flag_id, player_id, opened, why, state = row
    reports = session.rows(
        "SELECT reason, COUNT(*) AS n FROM reports WHERE flag_id = ? GROUP BY reason"
        " ORDER BY n DESC, reason",
        (flag_id,),
    )
    player = PlayerId(str(player_id))
    return Flag(
        str(flag_id),
        player,
        name_of(session, player),
        float(opened),  # type: ignore[arg-type]
        str(why),
        FlagState(state),
        tuple((str(reason), int(n)) for reason, n in reports),
    )


def _games(session: Session, player_id: PlayerId, limit: int = 50) -> tuple[Game, ...]:
    rows = session.rows(
        "SELECT h.match_id, h.played_unix_s, h.opponent_name, h.verdict FROM history h"
        " JOIN fairplay_matches f ON f.match_id = h.match_id"
        " WHERE h.player_id = ? AND h.seat < 2 ORDER BY h.played_unix_s DESC LIMIT ?",
        (player_id, limit),
    )
    answers = measured.answers_by_match(session, player_id, [MatchId(str(row[0])) for row in rows])
    return tuple(
        Game(
            MatchId(str(match_id)),
            float(played),
            str(opponent),
            verdict == "win",
            len(answers[MatchId(str(match_id))]),
            measured.median(answers[MatchId(str(match_id))]),
        )
        for match_id, played, opponent, verdict in rows
    )


def _logged(session: Session, player_id: PlayerId) -> tuple[Logged, ...]:
    rows = session.rows(
        "SELECT at_unix_s, operator_name, action, why FROM moderation_log WHERE player_id = ?"
        " ORDER BY at_unix_s DESC",
        (player_id,),
    )
    return tuple(
        Logged(float(at), str(name), str(action), str(why)) for at, name, action, why in rows
    )
