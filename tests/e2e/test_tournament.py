"""A whole arena tournament through the public API: 64 bot players, start to final standings.

Every player signs in, joins, watches the tournament and plays each game it is paired
into with the engine's bot at a person's pace. After the end the final standings are checked
against the results arbitration published (recomputed with the documented scoring), every
rated game is on both players' ladder history, and voided games count for nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import nats
import pytest

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from clients.grpcweb import CallError
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.game.v1 import game_pb2, spit_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as pb
from services.stack.stack import Stack, StackConfig, run_stack
from services.tournaments.scoring import score
from tests.e2e.support import player
from tools.results import Result, read_results

PLAYERS = int(os.environ.get("PF_TEST_TOURNAMENT_PLAYERS", "64"))
DURATION_S = int(os.environ.get("PF_TEST_TOURNAMENT_S", "40"))
GAME = game_pb2.GAME_SPIT
FINISH_TIMEOUT_S = DURATION_S + 180.0
# A person's pace: two cores hold 32 matches at it without timing faults (docs/loadtest.md).
THINK_SCALE = float(os.environ.get("PF_TEST_TOURNAMENT_THINK", "1.0"))
GAME_CAP_S = float(os.environ.get("PF_TEST_TOURNAMENT_GAME_CAP_S", "15"))
RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
FINISHED = pb.STATUS_FINISHED


@dataclass(slots=True)
class Entrant:
    """One bot player: the games it was paired into, in order, and how each ended."""

    client: ArenaClient
    matches: list[tuple[str, int]] = field(default_factory=list)
    final: pb.Standings | None = None


async def play_capped(client: ArenaClient, seat_player: SeatPlayer) -> None:
    """Play the seat; past the cap, seat 0 resigns, as a tired person would.

    Spit has no clock, and two equal bots at a person's pace can play on for minutes;
    the cap keeps each game, and so the test, short without speeding anyone up.
    """
    try:
        async with asyncio.timeout(GAME_CAP_S):
            await seat_player.play()
    except TimeoutError:
        if seat_player.seat == 0:
            with contextlib.suppress(CallError):
                await client.submit(seat_player.match_id, 0, RESIGN)


async def play_tournament(entrant: Entrant, tournament_id: str) -> None:
    """Watch the tournament; play every pairing to its end; return on the final standings."""
    client = entrant.client
    async for update in client.watch_tournament(tournament_id):
        if update.HasField("match"):
            match_id, seat = update.match.match_id, update.match.seats[0]
            entrant.matches.append((match_id, seat))
            seat_player = SeatPlayer(
                client,
                match_id,
                seat,
                GAMES[GAME],
                Level.HARD,
                random.Random(f"{match_id}/{seat}"),
                Pace(think_scale=THINK_SCALE),
                Reconnect(),
            )
            # Play in the background: the stream keeps flowing meanwhile.
            asyncio.get_running_loop().create_task(play_capped(client, seat_player))
        elif update.standings.tournament.status == FINISHED:
            entrant.final = update.standings
            return


async def published_results(stack: Stack) -> dict[str, Result]:
    """Return every result on the results stream, by match id."""
    connection = await nats.connect(stack.nats_url)
    try:
        return await read_results(connection.jetstream())
    finally:
        await connection.close()


@pytest.mark.load
async def test_sixty_four_bots_play_a_rated_tournament_to_standings_that_match_the_results(
    tmp_path: Path,
) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    # The arena's own timing tolerances: at a person's pace the machine is not saturated,
    # so games are scored; any game a timing fault voids must count for nobody.
    config = StackConfig(tmp_path, with_bots=False)
    async with run_stack(config) as stack, aiohttp.ClientSession(connector=connector) as http:
        entrants = [Entrant(await player(http, stack, f"bot{n:02d}")) for n in range(PLAYERS)]
        created = await entrants[0].client.create_tournament(
            pb.CreateTournamentRequest(
                name="Sixty-four", game=GAME, rated=True, duration_s=DURATION_S
            )
        )
        tid = created.tournament_id
        for entrant in entrants:
            await entrant.client.join_tournament(tid)
        listed = await entrants[1].client.list_tournaments()
        assert tid in [t.tournament_id for t in listed.tournaments]
        async with asyncio.timeout(FINISH_TIMEOUT_S):
            await asyncio.gather(*(play_tournament(e, tid) for e in entrants))

        record = await entrants[2].client.get_tournament(tid)
        results = await published_results(stack)
        by_id = {e.client.player_id: e for e in entrants}

        # The games the service recorded are exactly the pairings the players were sent,
        # each sent once.
        for entrant in entrants:
            assert len(entrant.matches) == len(set(entrant.matches)), entrant.matches
        sent = {(m, e.client.player_id, seat) for e in entrants for m, seat in e.matches}
        stored = {
            (g.match_id, p, seat) for g in record.games for seat, p in enumerate(g.player_ids)
        }
        assert stored == sent
        assert len(record.games) >= PLAYERS  # every player played more than once on average

        # Each stored game ended as arbitration published it; none is left in play.
        for game in record.games:
            result = results[game.match_id]
            if result.voided:
                assert game.status == pb.GAME_STATUS_VOIDED
            else:
                assert game.status == pb.GAME_STATUS_FINISHED
                assert game.winner == result.winner
                assert result.rated

        # The final standings are the published results scored as docs/tournaments.md says.
        expected: dict[str, tuple[int, int, int]] = {}
        for entrant in entrants:
            wins = [
                results[m].winner == seat for m, seat in entrant.matches if not results[m].voided
            ]
            tally = score(wins)
            expected[entrant.client.player_id] = (tally.points, tally.games, tally.wins)
        final = record.standings
        assert final.tournament.status == FINISHED
        assert {s.player_id: (s.points, s.games, s.wins) for s in final.standings} == expected
        assert [s.rank for s in final.standings] == list(range(1, PLAYERS + 1))
        points = [s.points for s in final.standings]
        assert points == sorted(points, reverse=True)
        for entrant in entrants:  # the stream's last word is the record
            assert entrant.final == final, (entrant.client.player_id, entrant.final, final)

        voided = sum(g.status == pb.GAME_STATUS_VOIDED for g in record.games)
        print(f"{len(record.games)} tournament games, {voided} voided")
        assert voided < len(record.games)  # rated results really were scored

        # Rated games reached the ladder; voided ones changed nobody's rating.
        history: dict[str, dict[str, ratings_pb2.HistoryEntry]] = defaultdict(dict)
        for player_id, entrant in by_id.items():
            lines = await entrant.client.get_history(player_id, GAME, limit=200)
            history[player_id] = {line.match_id: line for line in lines.entries}
        for game in record.games:
            for player_id in game.player_ids:
                line = history[player_id][game.match_id]
                if game.status == pb.GAME_STATUS_VOIDED:
                    assert line.verdict == ratings_pb2.VERDICT_VOID and line.change == 0
                else:
                    assert line.rated
