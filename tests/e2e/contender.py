"""A player process for the end-to-end tests: queue, play one seat fast, record everything.

`python -m tests.e2e.contender URL NAME GAME LOG` signs up an account of its own, queues
for a rated GAME (spit or bid), plays its seat with the engine's hard bot through the
public API, and writes every update it received and every answer to its commands to LOG
(JSON lines).
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import sys
from collections.abc import AsyncIterator
from typing import IO

import aiohttp

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from clients.grpcweb import CallError
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

GAME_BY_NAME = {"spit": game_pb2.GAME_SPIT, "bid": game_pb2.GAME_BID}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class Recorder:
    """The public API as the seat player uses it, writing down all that passes."""

    def __init__(self, client: ArenaClient, log: IO[str]) -> None:
        self._client = client
        self._log = log

    def _write(self, **entry: object) -> None:
        self._log.write(json.dumps(entry) + "\n")
        self._log.flush()

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        del changes  # each update written down with its whole view: the tests read them
        async for update in self._client.watch(match_id, seat):
            self._write(kind="update", data=b64(update.SerializeToString()))
            yield update

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        try:
            reply = await self._client.submit(match_id, seat, command)
        except CallError as error:
            self._write(
                kind="refused",
                reason=error.reason,
                metadata=error.metadata,
                command=b64(command.SerializeToString()),
            )
            raise
        self._write(
            kind="accepted",
            seq=reply.seq,
            arrival_us=reply.arrival_us,
            command=b64(command.SerializeToString()),
        )
        return reply


async def main(url: str, name: str, game_name: str, log_path: str) -> None:
    game = GAME_BY_NAME[game_name]
    async with aiohttp.ClientSession() as http:
        client = ArenaClient(http, url)
        await client.sign_up_new(name)  # rated play is for accounts
        async for update in client.queue(game, rated=True):
            if update.HasField("match"):
                assignment = update.match
                break
        with open(log_path, "w") as log:
            log.write(
                json.dumps(
                    {
                        "kind": "seated",
                        "match_id": assignment.match_id,
                        "seat": assignment.seats[0],
                        "player_id": client.player_id,
                    }
                )
                + "\n"
            )
            player = SeatPlayer(
                Recorder(client, log),
                assignment.match_id,
                assignment.seats[0],
                GAMES[game],
                Level.HARD,
                random.Random(name),
                Pace(think_scale=0.0),
                Reconnect(),
            )
            final = await player.play()
        print(f"DONE {arbitration_pb2.Status.Name(final.status)}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
