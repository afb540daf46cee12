"""The director's loop: when rounds run."""

from __future__ import annotations

import asyncio
from typing import cast

from services.common import tasks
from services.common.opening.request import Arbitration
from services.tournaments.director import Director
from services.tournaments.hub import Hub
from services.tournaments.store import Store


class Probe(Director):
    """A director whose rounds only count; the first is poked while it runs."""

    def __init__(self) -> None:
        super().__init__(cast(Store, None), Hub(), cast(Arbitration, None), 60.0, 0.0)
        self.rounds: list[bool] = []

    async def round(self, pairing: bool) -> None:
        self.rounds.append(pairing)
        if len(self.rounds) == 1:
            await asyncio.sleep(0)
            self.poke()  # a result recorded while the round reads the store


async def test_a_poke_during_a_round_brings_a_refresh_round_at_once() -> None:
    director = Probe()
    loop = asyncio.create_task(director.run())
    try:
        async with asyncio.timeout(5.0):  # far below the 60 s pairing interval
            while len(director.rounds) < 2:
                await asyncio.sleep(0.01)
    finally:
        await tasks.stop(loop)
    assert director.rounds[:2] == [True, False]
