"""Spit commands <-> SpitCommand messages.

Decoding checks what the engine's text parser checks (piles in range, a rank 1–13, a spit
number from 1) with the engine's own ``check_command``; whether a command is legal now is
the engine's business.
"""

from __future__ import annotations

from games.errors import Malformed, Reason
from games.spit import Command, Move, Pause, Play, Ready, Resign, Resume, Spit
from games.spit.codec.cards import rank_from_proto
from games.spit.commands import check_command
from photofinish.game.v1 import game_pb2, spit_pb2

# Commands without arguments, by their field name in SpitCommand.kind.
_BARE: dict[str, Command] = {
    "ready": Ready(),
    "pause": Pause(),
    "resume": Resume(),
    "resign": Resign(),
}


def command_from_proto(command: game_pb2.Command) -> Command:
    """Return the engine command ``command`` carries.

    Raises:
        Malformed: UNKNOWN_COMMAND when it holds no Spit command (another game's, or an
            empty or unknown kind); NO_SUCH_PILE or BAD_ARGUMENT for a pile, rank or spit
            number that cannot exist.
    """
    outer = command.WhichOneof("kind")
    if outer != "spit":
        raise Malformed(Reason.UNKNOWN_COMMAND, f"expected a Spit command, not {outer}")
    inner = command.spit
    kind = inner.WhichOneof("kind")
    if kind == "play":
        play = inner.play
        onto = rank_from_proto(play.onto) if play.HasField("onto") else None
        return check_command(Play(play.stock, play.pile, onto))
    if kind == "move":
        return check_command(Move(inner.move.src, inner.move.dst))
    if kind == "spit":
        number = inner.spit.number if inner.spit.HasField("number") else None
        return check_command(Spit(number))
    bare = _BARE.get(kind or "")
    if bare is None:
        raise Malformed(Reason.UNKNOWN_COMMAND, "the Spit command is empty or unknown")
    return bare


def command_to_proto(command: Command) -> game_pb2.Command:
    """Return ``command`` in its envelope.

    Raises:
        Malformed: UNKNOWN_COMMAND when ``command`` is not a Spit command.
    """
    return game_pb2.Command(spit=_spit_command(command))


def _spit_command(command: Command) -> spit_pb2.SpitCommand:
    match command:
        case Ready():
            return spit_pb2.SpitCommand(ready=spit_pb2.SpitReady())
        case Play(stock=stock, pile=pile, onto=onto):
            seen = None if onto is None else onto.value
            return spit_pb2.SpitCommand(play=spit_pb2.SpitPlay(stock=stock, pile=pile, onto=seen))
        case Move(src=src, dst=dst):
            return spit_pb2.SpitCommand(move=spit_pb2.SpitMove(src=src, dst=dst))
        case Spit(number=number):
            return spit_pb2.SpitCommand(spit=spit_pb2.SpitSpit(number=number))
        case Pause():
            return spit_pb2.SpitCommand(pause=spit_pb2.SpitPause())
        case Resume():
            return spit_pb2.SpitCommand(resume=spit_pb2.SpitResume())
        case Resign():
            return spit_pb2.SpitCommand(resign=spit_pb2.SpitResign())
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{command!r} is not a Spit command")
