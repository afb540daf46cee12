"""When a player's reactions are beyond human reach: the thresholds, and the judgement.

Only answers count (reactions to a change the player did not make, see reactions.py):
a planned chain of one's own plays is quick for a person too. The thresholds and their
sources are in docs/fair-play.md; they are configuration, and every figure here is
measured by the server, which can only make a person look slower than they are.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from services.fairplay.reactions import Reaction


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Configuration (docs/fair-play.md gives the reasons for each default)."""

    min_answers: int = 30  # no verdict on fewer answers than this
    median_ms: float = 150.0  # a median answer faster than this is beyond reach
    anticipation_ms: float = 100.0  # an answer faster than this is a false start's
    anticipation_share: float = 0.25  # flagged when more of the answers than this are


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the answers say of one player."""

    answers: int
    median_ms: float | None
    anticipated_share: float | None
    flagged: bool
    why: str  # "" unless flagged


def judge(reactions: Iterable[Reaction], thresholds: Thresholds = Thresholds()) -> Verdict:
    """The verdict on one player's reactions (their rated Spit games), answers only."""
    answers = sorted(r.ms for r in reactions if not r.chain)
    if not answers:
        return Verdict(0, None, None, flagged=False, why="")
    median = statistics.median(answers)
    early = sum(1 for ms in answers if ms < thresholds.anticipation_ms) / len(answers)
    why = ""
    if len(answers) >= thresholds.min_answers:
        if median < thresholds.median_ms:
            why = f"median answer {median:.0f} ms over {len(answers)} answers"
        elif early > thresholds.anticipation_share:
            share = f"{early:.0%} of {len(answers)} answers"
            why = f"{share} under {thresholds.anticipation_ms:.0f} ms"
    return Verdict(len(answers), median, early, flagged=bool(why), why=why)
