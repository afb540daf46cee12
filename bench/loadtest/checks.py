"""The load test's verdicts: each a pure function over what the run collected.

Every check returns a ``Verdict``: how many things it looked at and the first failures,
each a sentence that names the match and the figures. Nothing here talks to a server;
``truth`` gathers the server side and ``driver`` the client side.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bench.loadtest.visibility import NO_CHIPS
from games.errors import Reason
from photofinish.arbitration.v1 import log_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tools.replay import replay
from tools.results import Result

CHIPS_TOTAL = 300  # 150 each, conserved by every step (rules: chips change hands only)
SHOWN_FAILURES = 20
# Refusals that are the game speaking (a lost race, a stale view), not a fault: every
# reason of the engines plus the arbitration's verdicts on time and order.
GAME_REFUSALS = frozenset(reason.value for reason in Reason) | {
    "too_late",
    "match_over",
    "closing: stale_client_seq",  # the harness's own resign raced a bot command (driver)
}
ENDS = (log_pb2.ENTRY_KIND_FINISHED, log_pb2.ENTRY_KIND_VOIDED)


@dataclass(slots=True)
class Verdict:
    name: str
    checked: int = 0
    failures: list[str] = field(default_factory=list)
    failed: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.failed == 0

    def fail(self, text: str) -> None:
        self.failed += 1
        if len(self.failures) < SHOWN_FAILURES:
            self.failures.append(text)


@dataclass(frozen=True, slots=True)
class Received:
    """One update a player received, reduced to what the checks need (``visibility``)."""

    match_id: str
    seat: int
    seq: int
    shown: int  # mask of cards or tiles named
    chips: int  # Bid: the balances' sum; NO_CHIPS for Spit
    addressed_right: bool


def races(logs: Mapping[str, Sequence[log_pb2.LogEntry]]) -> Verdict:
    """Every race landed the earlier arrival, logged first; every log replays identically."""
    verdict = Verdict("arrival order in every race; replay identical")
    for match_id, log in logs.items():
        live = not log or log[-1].kind not in ENDS
        replayed = replay(log, live=live)
        verdict.checked += 1
        if not replayed.identical:
            verdict.fail(f"{match_id}: replay diverges at {replayed.divergence}")
        for failure in race_order(match_id, log):
            verdict.fail(failure)
        verdict.checked += sum(1 for entry in log if entry.HasField("race"))
    return verdict


def race_order(match_id: str, log: Sequence[log_pb2.LogEntry]) -> list[str]:
    """Return what is wrong with the log's races: each landed play came first, logged first."""
    failures = []
    for refused in log:
        if not refused.HasField("race"):
            continue
        race = refused.race
        where = f"{match_id} #{refused.index}"
        # Stamps are taken in ns and logged in µs: arrivals within one µs print equal.
        if race.landed_arrival_us > race.refused_arrival_us or race.gap_us < 0:
            failures.append(
                f"{where}: landed at {race.landed_arrival_us} µs, refused at "
                f"{race.refused_arrival_us} µs (gap {race.gap_us} µs)"
            )
        elif not any(
            entry.kind == log_pb2.ENTRY_KIND_ACCEPTED
            and entry.seat == race.landed_seat
            and entry.arrival_us == race.landed_arrival_us
            for entry in log[: refused.index]
        ):
            failures.append(
                f"{where}: the landed play (seat {race.landed_seat} at "
                f"{race.landed_arrival_us} µs) is not logged before the refused one"
            )
    return failures


def hidden(received: Iterable[Received], secrets: Mapping[tuple[str, int, int], int]) -> Verdict:
    """No update named a card or tile its recipient may not see at that step.

    ``secrets`` maps (match, seq, seat) to the mask of what that seat may not see then:
    Spit, every face-down card; Bid, the other hand and the boneyard.
    """
    verdict = Verdict("no hidden information in any message")
    unverified = 0
    for update in received:
        verdict.checked += 1
        where = f"{update.match_id} seq {update.seq} to seat {update.seat}"
        if not update.addressed_right:
            verdict.fail(f"{where}: the update or its view is made out to another seat")
        secret = secrets.get((update.match_id, update.seq, update.seat))
        if secret is None:
            unverified += 1
        elif update.shown & secret:
            verdict.fail(f"{where}: names {bin(update.shown & secret).count('1')} hidden item(s)")
    if unverified:
        verdict.notes.append(f"{unverified} update(s) with no logged state to compare with")
    return verdict


def chips(received: Iterable[Received]) -> Verdict:
    """Every Bid view's two balances sum to 300."""
    verdict = Verdict("chips conserved in every Bid view")
    for update in received:
        if update.chips == NO_CHIPS:
            continue
        verdict.checked += 1
        if update.chips != CHIPS_TOTAL:
            verdict.fail(f"{update.match_id} seq {update.seq}: balances sum to {update.chips}")
    return verdict


def rated_once(
    results: Mapping[str, Result], histories: Mapping[str, Sequence[ratings_pb2.HistoryEntry]]
) -> Verdict:
    """Every finished rated match is on each player's history once; voids once, unchanged."""
    verdict = Verdict("every finished match rated exactly once")
    for player_id, entries in histories.items():
        for match_id, times in Counter(e.match_id for e in entries).items():
            if times > 1:
                verdict.fail(f"{match_id} is {times} times on {player_id}'s history")
    for result in results.values():
        for player_id in result.player_ids:
            verdict.checked += 1
            lines = [e for e in histories.get(player_id, ()) if e.match_id == result.match_id]
            where = f"{result.match_id} for {player_id}"
            if result.voided:
                if len(lines) != 1 or lines[0].verdict != ratings_pb2.VERDICT_VOID:
                    verdict.fail(f"{where}: voided, history holds {len(lines)} line(s)")
                elif lines[0].change != 0 or not lines[0].void_reason:
                    verdict.fail(f"{where}: voided but changed {lines[0].change} / no reason")
            elif result.rated and (len(lines) != 1 or not lines[0].rated):
                verdict.fail(f"{where}: finished and rated, history holds {len(lines)} line(s)")
    return verdict


def voids_explained(results: Mapping[str, Result], final_void_reasons: Iterable[str]) -> Verdict:
    """Every void has a reason and figures (stream) and a reason (the final update)."""
    verdict = Verdict("every void explained")
    for result in results.values():
        if result.voided:
            verdict.checked += 1
            if not result.reason.strip() or not result.figures.strip():
                verdict.fail(
                    f"{result.match_id}: reason {result.reason!r}, figures {result.figures!r}"
                )
    for reason in final_void_reasons:
        verdict.checked += 1
        if not reason.strip():
            verdict.fail("a final VOIDED update without a void_reason")
    return verdict


def no_lost_results(
    logs: Mapping[str, Sequence[log_pb2.LogEntry]],
    results: Mapping[str, Result],
    games: Mapping[str, tournaments_pb2.TournamentGame],
    assigned: Iterable[str],
) -> Verdict:
    """Every match that ended on the arbitration is on the results stream and the standings."""
    verdict = Verdict("no lost results")
    for match_id in sorted(set(assigned) - set(games)):
        verdict.fail(f"{match_id}: assigned to players but not among the tournament's games")
    for match_id, log in logs.items():
        if not log or log[-1].kind not in ENDS:
            continue
        verdict.checked += 1
        ended = log[-1]
        result = results.get(match_id)
        game = games.get(match_id)
        if result is None:
            verdict.fail(f"{match_id}: ended on the arbitration, not on the results stream")
            continue
        if result.voided != (ended.kind == log_pb2.ENTRY_KIND_VOIDED):
            verdict.fail(f"{match_id}: the log and the results stream disagree on a void")
        if game is None:
            verdict.fail(f"{match_id}: ended, but not a game of the tournament")
        elif result.voided and game.status != tournaments_pb2.GAME_STATUS_VOIDED:
            verdict.fail(f"{match_id}: voided, the tournament says {_status(game)}")
        elif not result.voided and (
            game.status != tournaments_pb2.GAME_STATUS_FINISHED or game.winner != result.winner
        ):
            verdict.fail(
                f"{match_id}: won by seat {result.winner}, the tournament says "
                f"{_status(game)} (winner {game.winner})"
            )
    for match_id, game in games.items():
        if game.status in (
            tournaments_pb2.GAME_STATUS_PLAYING,
            tournaments_pb2.GAME_STATUS_ABANDONED,
        ):
            verdict.fail(f"{match_id}: still {_status(game)} in the tournament at the end")
    return verdict


def _status(game: tournaments_pb2.TournamentGame) -> str:
    return tournaments_pb2.GameStatus.Name(game.status).removeprefix("GAME_STATUS_")


def client_errors(errors: Mapping[str, int], refusals: Mapping[str, int]) -> Verdict:
    """No unexpected error on the client side; refusals by the rules of the game are fine."""
    verdict = Verdict("no errors on the client side")
    unexpected: dict[str, int] = defaultdict(int)
    for kind, count in errors.items():
        unexpected[kind] += count
    for reason, count in refusals.items():
        if reason not in GAME_REFUSALS:
            unexpected[f"refused: {reason}"] += count
    verdict.checked = sum(refusals.values()) + sum(errors.values())
    for kind, count in sorted(unexpected.items(), key=lambda item: -item[1]):
        verdict.fail(f"{kind}: {count}")
    verdict.failed = sum(unexpected.values())
    return verdict
