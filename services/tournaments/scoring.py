"""Arena scoring, as Lichess scores its arenas: win 2, loss 0, and a win on fire 4.

A player is on fire after two wins in a row; from then on every win is doubled until a
game that is not a win. Voided and abandoned games count for nobody: they score nothing
and leave the streak as it was, as if they had not been played. Our games cannot end in
a draw (every outcome names a winner), so there is no draw score.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

WIN_POINTS = 2
LOSS_POINTS = 0
FIRE_AFTER_WINS = 2  # wins in a row that light the fire
FIRE_FACTOR = 2


@dataclass(frozen=True, slots=True)
class Score:
    """A player's tally over the games that count, in the order they were played."""

    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0  # wins in a row up to now
    sheet: tuple[int, ...] = ()  # points of each counted game

    @property
    def on_fire(self) -> bool:
        """Return whether the next win is doubled."""
        return self.streak >= FIRE_AFTER_WINS

    def after(self, won: bool) -> Score:
        """Return the tally after one more counted game, won or lost."""
        if not won:
            return Score(self.points, self.games + 1, self.wins, 0, (*self.sheet, LOSS_POINTS))
        gained = WIN_POINTS * FIRE_FACTOR if self.on_fire else WIN_POINTS
        return Score(
            self.points + gained,
            self.games + 1,
            self.wins + 1,
            self.streak + 1,
            (*self.sheet, gained),
        )


def score(wins: Iterable[bool]) -> Score:
    """Return the tally of a player's counted games (True: won), in the order played."""
    tally = Score()
    for won in wins:
        tally = tally.after(won)
    return tally
