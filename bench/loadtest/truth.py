"""The server's side of the run, read after it: logs, results, histories, the tournaments.

Also what each seat could not see at each step (``secrets``), from the log: the match is
replayed from its seed through the rules' pure engines, as the replay tool does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import nats

from bench.loadtest.visibility import card_bit, mask, tile_bit
from bench.stack.settings import GAME_BY_NAME
from clients.arena import ArenaClient
from games.bid.codec.board import tile_to_proto
from games.decision import Termination
from games.errors import EngineError
from games.registry import Game
from games.seats import parse_seat
from games.spit.codec.cards import card_to_proto
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.common.jsretry import until_done
from services.common.matchlogs import CLOSING, READ_RETRY_S, read_entries
from services.common.rejection import Rejection
from services.rules import steps
from services.rules.games import entry_for
from tools.results import Result, read_results

NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())
HISTORY_LIMIT = 200
# The entries that give the match a new step number (a view goes out after each).
NUMBERED = frozenset(
    {
        log_pb2.ENTRY_KIND_OPENED,
        log_pb2.ENTRY_KIND_ACCEPTED,
        log_pb2.ENTRY_KIND_NUDGE,
        log_pb2.ENTRY_KIND_FLAG,
        log_pb2.ENTRY_KIND_REVEAL,
        log_pb2.ENTRY_KIND_AWAY,
    }
)


@dataclass(slots=True)
class Truth:
    logs: dict[str, list[log_pb2.LogEntry]] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)
    histories: dict[str, list[ratings_pb2.HistoryEntry]] = field(default_factory=dict)
    games: dict[str, tournaments_pb2.TournamentGame] = field(default_factory=dict)
    records: list[tournaments_pb2.TournamentRecord] = field(default_factory=list)
    secrets: dict[tuple[str, int, int], int] = field(default_factory=dict)


async def gather(
    nats_url: str,
    reader: ArenaClient,
    match_ids: Sequence[str],
    players: Sequence[tuple[str, str]],  # (player id, game name)
    tournament_ids: Sequence[str],
) -> Truth:
    """Return everything the checks compare with, read from JetStream and the public API."""
    truth = Truth()
    connection = await nats.connect(nats_url)
    try:
        js = connection.jetstream()
        for match_id in match_ids:
            truth.logs[match_id] = await read_entries(js, match_id)
        truth.results = await until_done("the results", lambda: read_results(js), READ_RETRY_S)
    finally:
        await connection.close()
    for match_id, log in truth.logs.items():
        truth.secrets.update(secrets(match_id, log))
    for player_id, game in players:
        history = await reader.get_history(player_id, GAME_BY_NAME[game], limit=HISTORY_LIMIT)
        truth.histories[player_id] = list(history.entries)
    for tournament_id in tournament_ids:
        record = await reader.get_tournament(tournament_id)
        truth.records.append(record)
        truth.games.update({game.match_id: game for game in record.games})
    return truth


def secrets(match_id: str, log: Sequence[log_pb2.LogEntry]) -> dict[tuple[str, int, int], int]:
    """Return, for each numbered step of the log, the mask each seat may not see then.

    A log the engines do not reproduce stops here; the race check reports its divergence.
    """
    found: dict[tuple[str, int, int], int] = {}
    if not log or log[0].kind != log_pb2.ENTRY_KIND_OPENED:
        return found
    game = entry_for(log[0].created.game)
    options = game.codec.options_from_proto(log[0].created.options)
    state: Any = game.engine.new_match(options, log[0].created.seed)
    for entry in log:
        try:
            state = _after(game, state, entry)
        except (Rejection, EngineError):
            return found
        if entry.kind in NUMBERED or entry.kind in CLOSING:
            for seat in (0, 1):
                # A void numbers its final update itself; the state stays as it was.
                key = (match_id, entry.seq, seat)
                if entry.kind in NUMBERED or key not in found:
                    found[key] = hidden_from(state, seat)
    return found


def _after(game: Game, state: Any, entry: log_pb2.LogEntry) -> Any:
    if entry.kind == log_pb2.ENTRY_KIND_ACCEPTED:
        return steps.apply(game, state, entry.seat, entry.command).step.state
    if entry.kind == log_pb2.ENTRY_KIND_NUDGE:
        return steps.apply(game, state, 0, NUDGE).step.state
    if entry.kind == log_pb2.ENTRY_KIND_FLAG:
        return game.engine.forfeit(state, parse_seat(entry.flag.seat), Termination.TIME).state
    return state


def hidden_from(state: Any, seat: int) -> int:
    """Return the mask of what ``seat`` may not see in ``state`` (Spit or Bid)."""
    if hasattr(state, "boneyard"):  # Bid: the other hand and the boneyard
        tiles = (*state.hands[1 - seat], *state.boneyard)
        return mask(tile_bit(tile_to_proto(tile)) for tile in tiles)
    # Spit: every face-down card, the owner's own included (rules §2.2).
    return mask(card_bit(card_to_proto(c)) for side in state.sides for c in side.face_down())
