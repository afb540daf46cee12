"""Results as tests write them: ``win("m1", "ann", "bob")`` is Ann beating Bob, rated.

A player whose id has a guest's form (``g_gus``, as the gateway gives guests) plays as a
guest; any other as an account.
"""

from __future__ import annotations

from nats.js import JetStreamContext
from nats.js.api import PubAck

from games.registry import SPIT, Game
from services.common.database import Session
from services.ratings.codec import encode_result, result_subject
from services.ratings.glicko2 import Rating
from services.ratings.model import (
    Finished,
    MatchId,
    MatchResult,
    Mode,
    Player,
    PlayerId,
    Standing,
    Voided,
)
from services.ratings.store import Store


def player(player_id: str, bot: bool = False) -> Player:
    guest = player_id.startswith("g_") and not bot
    return Player(PlayerId(player_id), player_id.title(), bot, guest)


def win(
    match_id: str,
    winner: str,
    loser: str,
    game: Game = SPIT,
    rated: bool = True,
    mode: Mode = Mode.ONLINE,
    winner_seat: int = 0,
) -> Finished:
    """Return ``winner`` beating ``loser``; the winner sits in ``winner_seat``."""
    seats = (player(winner), player(loser))
    if winner_seat == 1:
        seats = (seats[1], seats[0])
    return Finished(MatchId(match_id), game, seats, winner_seat, rated, mode)


def void(match_id: str, north: str, south: str, game: Game = SPIT) -> Voided:
    return Voided(
        MatchId(match_id), game, (player(north), player(south)), "event_loop_lag", "lag 31 ms"
    )


def standing(
    player_id: str, rating: float, rd: float = 60.0, games: int = 10, wins: int = 5
) -> Standing:
    return Standing(
        PlayerId(player_id),
        player_id.title(),
        Rating(rating, rd, 0.06),
        games,
        wins,
        games - wins,
        1_700_000_000.0,
    )


async def put(store: Store, game: Game, *rows: Standing) -> None:
    """Write ladder rows as they are (a crafted position), bypassing any result."""

    def write(session: Session) -> None:
        for row in rows:
            session.execute(
                "INSERT INTO ladder (game, player_id, name, rating, rd, volatility, games,"
                " wins, losses, last_played_unix_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.name,
                    row.player_id,
                    row.name,
                    row.rating.rating,
                    row.rating.rd,
                    row.rating.volatility,
                    row.games,
                    row.wins,
                    row.losses,
                    row.last_played_unix_s,
                ),
            )

    await store.database.run(write)


async def publish(js: JetStreamContext, result: MatchResult, msg_id: str = "") -> PubAck:
    """Publish as arbitration does: the match id as ``Nats-Msg-Id`` unless told otherwise."""
    return await js.publish(
        result_subject(result),
        encode_result(result),
        headers={"Nats-Msg-Id": msg_id or result.match_id},
    )
