"""Two players on two gateways at one match: both see it live, move for move."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp

from clients.arena import ArenaClient
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2, spit_pb2

UPDATE_TIMEOUT_S = 15.0
RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))


@dataclass(frozen=True, slots=True)
class Crossing:
    """What each side saw of the match: its id, and the last update's seq and status."""

    match_id: str
    first_seq: int
    second_seq: int
    first_status: int
    second_status: int

    @property
    def same(self) -> bool:
        finished = arbitration_pb2.STATUS_FINISHED
        return self.first_seq == self.second_seq and self.first_status == finished == (
            self.second_status
        )


async def _final(
    updates: AsyncIterator[arbitration_pb2.MatchUpdate],
) -> arbitration_pb2.MatchUpdate:
    while True:
        update = await asyncio.wait_for(anext(updates), UPDATE_TIMEOUT_S)
        if update.status != arbitration_pb2.STATUS_LIVE:
            return update


async def play_across(first_url: str, second_url: str) -> Crossing:
    """Return what two players saw: one on each gateway, a challenge, one resigns.

    The challenger signs in on the first gateway, the other accepts on the second; each
    watches through their own gateway, the challenger resigns, and both see the end.
    """
    async with aiohttp.ClientSession() as http:
        first, second = ArenaClient(http, first_url), ArenaClient(http, second_url)
        await first.sign_in("Deploy North")
        await second.sign_in("Deploy South")
        offers = first.create_challenge(game_pb2.GAME_SPIT, False)
        offer = await anext(offers)
        accepted = await second.accept_challenge(offer.code)
        created = await anext(offers)
        await offers.aclose()
        match_id = accepted.match_id
        first_seat, second_seat = created.match.seats[0], accepted.seats[0]
        first_updates = first.watch(match_id, first_seat)
        second_updates = second.watch(match_id, second_seat)
        await asyncio.wait_for(anext(first_updates), UPDATE_TIMEOUT_S)
        await asyncio.wait_for(anext(second_updates), UPDATE_TIMEOUT_S)
        await first.submit(match_id, first_seat, RESIGN)
        first_end, second_end = await asyncio.gather(_final(first_updates), _final(second_updates))
        await first_updates.aclose()
        await second_updates.aclose()
        return Crossing(
            match_id, first_end.seq, second_end.seq, first_end.status, second_end.status
        )
