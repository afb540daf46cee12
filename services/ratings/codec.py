"""Protobuf <-> the ratings service's values, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from google.protobuf.message import DecodeError

from games.registry import Game, by_number
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from services.ratings.errors import BadRequest, Malformed, RatingsError, Reason
from services.ratings.glicko2 import Rating
from services.ratings.ladder import limit_of
from services.ratings.measured import SpitFigures
from services.ratings.model import (
    Finished,
    HistoryEntry,
    LadderEntry,
    MatchId,
    MatchResult,
    Mode,
    Player,
    PlayerId,
    Standing,
    Verdict,
    Voided,
)
from services.ratings.profile import GameProfile, Profile
from wire.subjects import RESULTS_FINISHED, RESULTS_VOIDED

_Event = TypeVar("_Event", events_pb2.MatchFinished, events_pb2.MatchVoided)

_VERDICTS = {
    Verdict.WIN: ratings_pb2.VERDICT_WIN,
    Verdict.LOSS: ratings_pb2.VERDICT_LOSS,
    Verdict.VOID: ratings_pb2.VERDICT_VOID,
    Verdict.REFUND: ratings_pb2.VERDICT_REFUND,
}


def decode_game(code: int, error: type[RatingsError] = Malformed) -> Game:
    """Return the game of a proto ``Game`` value.

    Raises:
        RatingsError: of type ``error``, for GAME_UNSPECIFIED or an unknown value.
    """
    game = by_number(code)
    if game is None:
        raise error(Reason.NO_SUCH_GAME, f"game {code} is not a game with a ladder")
    return game


def encode_game(game: Game) -> game_pb2.Game.ValueType:
    return game_pb2.Game.ValueType(game.number)


def decode_result(subject: str, data: bytes) -> MatchResult:
    """Return the result carried by a message of the results stream.

    Raises:
        Malformed: for an unknown subject, undecodable bytes or an impossible result.
    """
    if subject == RESULTS_FINISHED:
        return _decode_finished(_parse(events_pb2.MatchFinished(), data))
    if subject == RESULTS_VOIDED:
        return _decode_voided(_parse(events_pb2.MatchVoided(), data))
    raise Malformed(Reason.UNKNOWN_SUBJECT, f"no result is published on {subject!r}")


def _parse(message: _Event, data: bytes) -> _Event:
    try:
        message.ParseFromString(data)
    except DecodeError as error:
        raise Malformed(Reason.UNDECODABLE, f"{len(data)} bytes: {error}") from None
    return message


def _decode_finished(message: events_pb2.MatchFinished) -> Finished:
    players = _decode_players(message.players)
    winner = message.outcome.winner
    if winner not in (0, 1):
        raise Malformed(Reason.NO_SUCH_WINNER, f"winner seat {winner} in {message.match_id}")
    mode = Mode(message.mode) if message.mode in {m.value for m in Mode} else Mode.UNSPECIFIED
    result = Finished(
        _match_id(message.match_id),
        decode_game(message.game),
        players,
        winner,
        message.rated,
        mode,
    )
    if result.changes_ratings and players[0].player_id == players[1].player_id:
        raise Malformed(Reason.SELF_PLAY, f"{players[0].player_id} played themselves rated")
    return result


def _decode_voided(message: events_pb2.MatchVoided) -> Voided:
    return Voided(
        _match_id(message.match_id),
        decode_game(message.game),
        _decode_players(message.players),
        message.reason,
        message.figures,
    )


def _match_id(text: str) -> MatchId:
    if not text:
        raise Malformed(Reason.NO_MATCH_ID, "a result without a match id")
    return MatchId(text)


def _decode_players(players: Sequence[events_pb2.Player]) -> tuple[Player, Player]:
    if len(players) != 2:
        raise Malformed(Reason.NOT_TWO_PLAYERS, f"{len(players)} players")
    decoded = tuple(Player(PlayerId(p.player_id), p.name, p.bot, p.guest) for p in players)
    if not all(p.player_id for p in decoded):
        raise Malformed(Reason.NO_PLAYER_ID, "a player without an id")
    return decoded[0], decoded[1]


def encode_result(result: MatchResult) -> bytes:
    """Return the payload publishers send for ``result`` (tests and tools publish with it)."""
    players = [
        events_pb2.Player(player_id=p.player_id, name=p.name, bot=p.bot, guest=p.guest)
        for p in result.players
    ]
    if isinstance(result, Voided):
        return events_pb2.MatchVoided(
            match_id=result.match_id,
            game=encode_game(result.game),
            players=players,
            reason=result.reason,
            figures=result.figures,
        ).SerializeToString()
    return events_pb2.MatchFinished(
        match_id=result.match_id,
        game=encode_game(result.game),
        players=players,
        rated=result.rated,
        mode=events_pb2.Mode.ValueType(result.mode.value),
        outcome=game_pb2.Outcome(winner=result.winner),
    ).SerializeToString()


def result_subject(result: MatchResult) -> str:
    """Return the subject a result is published on."""
    return RESULTS_VOIDED if isinstance(result, Voided) else RESULTS_FINISHED


def encode_ladder(game: Game, entries: Sequence[LadderEntry]) -> ratings_pb2.Ladder:
    return ratings_pb2.Ladder(
        game=encode_game(game),
        entries=[
            ratings_pb2.LadderEntry(
                rank=e.rank,
                player_id=e.standing.player_id,
                name=e.standing.name,
                rating=e.standing.rating.rating,
                rd=e.standing.rating.rd,
                provisional=e.is_provisional,
                games=e.standing.games,
                wins=e.standing.wins,
                guest=e.standing.guest,
                deleted=e.standing.deleted,
            )
            for e in entries
        ],
    )


def encode_history(
    player_id: PlayerId, game: Game | None, entries: Sequence[HistoryEntry], more: bool = False
) -> ratings_pb2.History:
    return ratings_pb2.History(
        player_id=player_id,
        game=game_pb2.GAME_UNSPECIFIED if game is None else encode_game(game),
        entries=[_encode_line(e) for e in entries],
        more=more,
    )


def _encode_line(entry: HistoryEntry) -> ratings_pb2.HistoryEntry:
    return ratings_pb2.HistoryEntry(
        match_id=entry.match_id,
        opponent_id=entry.opponent_id,
        opponent_name=entry.opponent_name,
        verdict=_VERDICTS[entry.verdict],
        rated=entry.rated,
        has_rating=entry.rating_before is not None,
        rating_before=entry.rating_before or 0.0,
        rating_after=entry.rating_after or 0.0,
        change=entry.change,
        played_unix_ms=round(entry.played_unix_s * 1000),
        void_reason=entry.void_reason,
        game=encode_game(entry.game),
        uncounted_reason=entry.uncounted_reason,
        opponent_guest=entry.opponent_guest,
        opponent_deleted=entry.opponent_deleted,
    )


def encode_rating(
    player_id: PlayerId, game: Game, standing: Standing | None, barred: bool = False
) -> ratings_pb2.PlayerRating:
    """Return a player's rating; a newcomer's default when ``standing`` is None."""
    rating = Rating() if standing is None else standing.rating
    return ratings_pb2.PlayerRating(
        player_id=player_id,
        game=encode_game(game),
        rating=rating.rating,
        rd=rating.rd,
        provisional=rating.is_provisional,
        games=0 if standing is None else standing.games,
        barred=barred,
    )


def decode_ladder_request(
    request: ratings_pb2.GetLadderRequest,
) -> tuple[Game, int, PlayerId | None]:
    """Return (game, number of lines, the player to centre on or None for the top).

    Raises:
        BadRequest: for no game or a negative limit.
    """
    around = PlayerId(request.around_player_id) if request.around_player_id else None
    return decode_game(request.game, BadRequest), limit_of(request.limit), around


def decode_history_request(
    request: ratings_pb2.GetHistoryRequest,
) -> tuple[PlayerId, Game | None, int, int]:
    """Return (player, game or None for every game, number of lines, lines skipped).

    Raises:
        BadRequest: for no player, an unknown game, or a negative limit or offset.
    """
    if request.offset < 0:
        raise BadRequest(Reason.BAD_OFFSET, f"offset {request.offset} is negative")
    every_game = request.game == game_pb2.GAME_UNSPECIFIED
    return (
        _player_id(request.player_id),
        None if every_game else decode_game(request.game, BadRequest),
        limit_of(request.limit),
        request.offset,
    )


def decode_rating_request(request: ratings_pb2.GetRatingRequest) -> tuple[PlayerId, Game]:
    """Return (player, game) asked for.

    Raises:
        BadRequest: for no player or no game.
    """
    return _player_id(request.player_id), decode_game(request.game, BadRequest)


def _player_id(text: str) -> PlayerId:
    if not text:
        raise BadRequest(Reason.NO_PLAYER_ID, "no player id")
    return PlayerId(text)


def decode_profile_request(request: ratings_pb2.GetProfileRequest) -> PlayerId:
    """Return the player asked for.

    Raises:
        BadRequest: for no player.
    """
    return _player_id(request.player_id)


def encode_profile(found: Profile) -> ratings_pb2.Profile:
    """Return a player's profile: each game they played, its rating now and over time."""
    return ratings_pb2.Profile(
        player_id=found.player_id,
        name=found.name,
        guest=found.guest,
        deleted=found.deleted,
        games=[_encode_game_profile(game) for game in found.games],
        barred=found.barred,
    )


def _encode_game_profile(game: GameProfile) -> ratings_pb2.GameProfile:
    standing = game.standing
    encoded = ratings_pb2.GameProfile(
        game=encode_game(game.game),
        rated=standing is not None,
        rank=game.rank,
        ranked=game.ranked,
        wins=game.results.get(Verdict.WIN, 0),
        losses=game.results.get(Verdict.LOSS, 0),
        voids=game.results.get(Verdict.VOID, 0),
        points=[
            ratings_pb2.RatingPoint(played_unix_ms=round(p.played_unix_s * 1000), rating=p.rating)
            for p in game.points
        ],
    )
    if standing is not None:
        encoded.rating = standing.rating.rating
        encoded.rd = standing.rating.rd
        encoded.provisional = standing.rating.is_provisional
    if game.spit is not None:
        encoded.spit.CopyFrom(encode_spit_figures(game.spit))
    return encoded


def encode_spit_figures(figures: SpitFigures) -> ratings_pb2.SpitFigures:
    """Return a player's Spit races and reactions (medians left unset when there are none)."""
    encoded = ratings_pb2.SpitFigures(
        races_won=figures.races_won,
        races_lost=figures.races_lost,
        answers=figures.answers,
        chains=figures.chains,
    )
    for field, value in (
        ("median_margin_ms", figures.median_margin_ms),
        ("median_answer_ms", figures.median_answer_ms),
        ("median_chain_ms", figures.median_chain_ms),
    ):
        if value is not None:
            setattr(encoded, field, value)
    return encoded
