"""The match to open: who sits where, in which mode, with which seed — pure builders.

Seat order: whenever two sides meet (queue, challenge, tournament, the computer), who gets
seat 0 is a coin flip derived from the match seed. The seed is drawn fresh and kept
secret, so nobody can choose or predict their seat, and the seating replays from the seed.
The flip hashes the seed rather than reading its low bit, so it shares nothing with the
engine's own use of the seed.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import secrets
from typing import NewType

from games.bot import Level
from games.registry import Game
from games.seats import Seat
from services.common.identity import Player, PlayerId
from services.common.ids import fresh_id

MatchId = NewType("MatchId", str)

SEED_BITS = 63
MATCH_ID_BYTES = 12  # 16 url-safe characters, 96 random bits


class Mode(enum.Enum):
    """How a match came about. Values mirror ``photofinish.events.v1.Mode``."""

    ONLINE = 1
    COMPUTER = 2
    HOTSEAT = 3

    def __str__(self) -> str:
        return self.name.lower()


@dataclasses.dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything arbitration needs to open a match; ``players`` is indexed by seat."""

    match_id: MatchId
    game: Game
    players: tuple[Player, Player]
    rated: bool
    mode: Mode
    seed: int
    pausable: bool = False
    bot_level: Level | None = None
    tournament_id: str = ""  # a tournament's game: its tournament, named in the live list
    tournament_name: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Assignment:
    """What one caller is told: the match, the seats they hold and every seat's name."""

    match_id: MatchId
    game: Game
    seats: tuple[Seat, ...]
    rated: bool
    player_names: tuple[str, str]


def fresh_match_id() -> MatchId:
    """Return a new random url-safe match id."""
    return MatchId(fresh_id(MATCH_ID_BYTES))


def fresh_seed() -> int:
    """Return a new random 63-bit match seed."""
    return secrets.randbits(SEED_BITS)


def is_swapped(seed: int) -> bool:
    """Return whether the second side named takes seat 0 (a fair coin derived from ``seed``)."""
    digest = hashlib.blake2b(seed.to_bytes(8, "big"), digest_size=1, person=b"pf-seats").digest()
    return digest[0] & 1 == 1


def seated(first: Player, second: Player, seed: int) -> tuple[Player, Player]:
    """Return the two players in seat order, as the seed's coin decides."""
    return (second, first) if is_swapped(seed) else (first, second)


def online(
    first: Player, second: Player, game: Game, rated: bool, match_id: MatchId, seed: int
) -> MatchSpec:
    """Return a match between two people (from a queue or a challenge)."""
    return MatchSpec(match_id, game, seated(first, second, seed), rated, Mode.ONLINE, seed)


def computer(
    human: Player, bot: Player, game: Game, level: Level, match_id: MatchId, seed: int
) -> MatchSpec:
    """Return a match of a person against a bot: never rated; paused if the game allows."""
    players = seated(human, bot, seed)
    pausable = game.pausable_vs_computer
    return MatchSpec(match_id, game, players, False, Mode.COMPUTER, seed, pausable, level)


def hotseat(player: Player, game: Game, match_id: MatchId, seed: int) -> MatchSpec:
    """Return a match of two people sharing one device, both under the caller's id."""
    players = (
        dataclasses.replace(player, name=f"{player.name} (1)"),
        dataclasses.replace(player, name=f"{player.name} (2)"),
    )
    return MatchSpec(match_id, game, players, False, Mode.HOTSEAT, seed)


def assignment(spec: MatchSpec, player_id: PlayerId) -> Assignment:
    """Return what ``player_id`` is told about ``spec``: the seats they hold in it."""
    seats = tuple(Seat(seat) for seat, p in enumerate(spec.players) if p.id == player_id)
    names = (spec.players[0].name, spec.players[1].name)
    return Assignment(spec.match_id, spec.game, seats, spec.rated, names)
