"""What the server's stamps say of each player over their rated Spit games: reactions and
races as stored once per match, a player's figures, and the histograms the operators see.

Written by the fair-play reader (``measuring.py``) in one transaction per match, guarded by
the match id as results are (``fairplay_matches``). Read by the profile and the queue.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from services.common.database import Session
from services.fairplay.races import Race
from services.fairplay.reactions import Reaction
from services.ratings.model import MatchId, PlayerId

# The histogram's bins: 50 ms wide up to a second, then one for everything slower.
BIN_MS = 50
BINS = 21


@dataclass(frozen=True, slots=True)
class SpitFigures:
    """A player's races and reactions over their rated Spit games."""

    races_won: int
    races_lost: int
    median_margin_ms: float | None  # of the races won
    answers: int  # reactions to a change the player did not make
    median_answer_ms: float | None
    chains: int  # plays the player's own previous play made possible
    median_chain_ms: float | None


def store(
    session: Session,
    match_id: MatchId,
    seats: tuple[PlayerId, PlayerId],
    played_unix_s: float,
    reactions: Sequence[Reaction],
    races: Sequence[Race],
) -> bool:
    """Store one match's measurements; return False when they were stored already.

    Call inside a transaction: the claim and the rows commit together.
    """
    claimed = session.execute(
        "INSERT INTO fairplay_matches (match_id, played_unix_s) VALUES (?, ?)"
        " ON CONFLICT (match_id) DO NOTHING",
        (match_id, played_unix_s),
    )
    if claimed == 0:
        return False
    for reaction in reactions:
        session.execute(
            "INSERT INTO reactions (match_id, entry_index, player_id, ms, chain, played_unix_s)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                match_id,
                reaction.index,
                seats[reaction.seat],
                reaction.ms,
                int(reaction.chain),
                played_unix_s,
            ),
        )
    for race in races:
        session.execute(
            "INSERT INTO races (match_id, entry_index, player_id, won, gap_ms)"
            " VALUES (?, ?, ?, ?, ?)",
            (match_id, race.index, seats[race.seat], int(race.won), race.gap_ms),
        )
    return True


def reactions_since(session: Session, player_id: PlayerId, since_unix_s: float) -> list[Reaction]:
    """The player's reactions in rated games played after ``since_unix_s``."""
    rows = session.rows(
        "SELECT ms, chain, entry_index FROM reactions WHERE player_id = ? AND played_unix_s > ?",
        (player_id, since_unix_s),
    )
    return [Reaction(0, float(ms), bool(chain), int(index)) for ms, chain, index in rows]


def answers_by_match(
    session: Session, player_id: PlayerId, match_ids: Sequence[MatchId]
) -> dict[MatchId, list[float]]:
    """The player's answers (not chains) in each of ``match_ids``, in one query."""
    if not match_ids:
        return {}
    marks = ", ".join("?" * len(match_ids))
    rows = session.rows(
        "SELECT match_id, ms FROM reactions WHERE player_id = ? AND chain = 0"
        f" AND match_id IN ({marks})",
        (player_id, *match_ids),
    )
    found: dict[MatchId, list[float]] = {match_id: [] for match_id in match_ids}
    for match_id, ms in rows:
        found[MatchId(str(match_id))].append(float(ms))
    return found


def of_match(session: Session, match_id: MatchId) -> list[tuple[PlayerId, Reaction]]:
    """Every measured play of one match, in log order, with its player."""
    rows = session.rows(
        "SELECT player_id, ms, chain, entry_index FROM reactions WHERE match_id = ?"
        " ORDER BY entry_index",
        (match_id,),
    )
    return [
        (PlayerId(str(player)), Reaction(0, float(ms), bool(chain), int(index)))
        for player, ms, chain, index in rows
    ]


def figures(session: Session, player_id: PlayerId) -> SpitFigures | None:
    """The player's Spit figures; None when no rated Spit game of theirs was measured."""
    reactions = session.rows(
        "SELECT ms, chain FROM reactions WHERE player_id = ?",
        (player_id,),
    )
    races = session.rows("SELECT won, gap_ms FROM races WHERE player_id = ?", (player_id,))
    if not reactions and not races:
        return None
    answers = [float(ms) for ms, chain in reactions if not chain]
    chains = [float(ms) for ms, chain in reactions if chain]
    margins = [float(gap) for won, gap in races if won]
    return SpitFigures(
        races_won=len(margins),
        races_lost=len(races) - len(margins),
        median_margin_ms=median(margins),
        answers=len(answers),
        median_answer_ms=median(answers),
        chains=len(chains),
        median_chain_ms=median(chains),
    )


def histogram(session: Session, player_id: PlayerId, others: bool = False) -> list[int]:
    """How many answers fell in each bin: the player's, or with ``others`` everyone
    else's (the population a flagged player is drawn against)."""
    edges = " ".join(f"WHEN ms < {(b + 1) * BIN_MS} THEN {b}" for b in range(BINS - 1))
    whose = "<>" if others else "="
    rows = session.rows(
        f"SELECT CASE {edges} ELSE {BINS - 1} END AS bin, COUNT(*) FROM reactions"
        f" WHERE chain = 0 AND player_id {whose} ? GROUP BY bin",
        (player_id,),
    )
    counts = [0] * BINS
    for bin_, count in rows:
        counts[int(bin_)] = int(count)
    return counts


def median(values: Sequence[float]) -> float | None:
    """The median of ``values`` (None for none)."""
    return statistics.median(values) if values else None
