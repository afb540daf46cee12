"""The load test's settings: the command line's values and the figures they depend on."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench.stack.settings import BID_THINK_SCALE, SPIT_THINK_SCALE

HUMAN_PACE = 2.0  # commands/s per player: the design's human pace
# bench/stack measured these think scales to give a HARD bot about HUMAN_PACE commands/s;
# another pace scales them inversely (a faster player thinks for less time).
BASE_SCALES = {"spit": SPIT_THINK_SCALE, "bid": BID_THINK_SCALE}
GAMES = ("spit", "bid")
FAULTS = (
    "none",
    "kill-arbitration",
    "stall-arbitration",
    "kill-rules",
    "stall-rules",
    "kill-tournaments",
)
STALL_S = 3.0  # how long a stalled process stays stopped (SIGSTOP … SIGCONT)
RESTART_AFTER_S = 1.0  # how long a killed process stays down before it starts again
TARGET_P99_MS = 20.0  # docs: p99 submit → both views at human pace
MIN_TOURNAMENT_S = 10  # the tournaments service's shortest event
SETUP_CONCURRENCY = 16
SETUP_TIMEOUT_S = 300.0
END_TIMEOUT_S = 180.0  # after the tournament's end, for games in progress to finish
REPORT_EVERY_S = 1.0
# 20 matches: twice what this 2-core machine holds at p99 ≤ 20 ms, short of where the
# timing-fault detector starts voiding for load (docs/loadtest.md, numbers).
DEFAULT_PLAYERS = 40
DEFAULT_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Settings:
    """One run. ``url`` empty: start a stack of our own in a temporary folder."""

    players: int = DEFAULT_PLAYERS
    seconds: float = DEFAULT_SECONDS
    pace: float = HUMAN_PACE
    games: tuple[str, ...] = GAMES
    fault: str = "none"
    fault_at_s: float = 20.0
    out: Path = Path("var/reports")
    url: str = ""
    nats_url: str = ""
    workers: int = 2
    seed: int = 1
    quiet: bool = False
    data_dir: Path | None = None  # own stack: keep its data and logs here (else a temp dir)

    def scale(self, game: str) -> float:
        """Return the think-time multiplier that brings ``game``'s bot to ``pace``."""
        return BASE_SCALES[game] * HUMAN_PACE / self.pace

    def problems(self) -> list[str]:
        """Return what is wrong with these settings (empty: nothing)."""
        found = []
        if not 2 * len(self.games) <= self.players <= 4000:
            found.append(f"--players must be from {2 * len(self.games)} to 4000")
        if not MIN_TOURNAMENT_S <= self.seconds <= 3600:
            found.append(f"--seconds must be from {MIN_TOURNAMENT_S} to 3600")
        if not 0.1 <= self.pace <= 20:
            found.append("--pace must be from 0.1 to 20 commands/s per player")
        if (
            not self.games
            or any(g not in GAMES for g in self.games)
            or len(set(self.games)) != len(self.games)
        ):
            found.append(f"--games takes a comma-separated subset of {','.join(GAMES)}")
        if self.fault not in FAULTS:
            found.append(f"--fault must be one of {', '.join(FAULTS)}")
        if self.fault != "none" and self.url:
            found.append("--fault needs a stack of our own (without --url)")
        if self.fault != "none" and not 0 < self.fault_at_s < self.seconds:
            found.append("--fault-at must fall inside the run")
        if not 1 <= self.workers <= 16:
            found.append("--workers must be from 1 to 16")
        return found
