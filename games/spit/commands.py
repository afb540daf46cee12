"""What a Spit player can send, as values and as text.

Text syntax (case-insensitive, words separated by spaces; piles are numbered from 0):

=================  ==========================================================================
``ready``          press Ready at the start of the match or of a round
``play S P``       move the face-up top of own stock pile S (0–4) onto centre pile P (0–1)
``play S P R``     the same, saying the top of pile P was rank R when the card was sent
                   (``play 2 0 Q``); refused with ``pile_top_changed`` if it no longer is
``move S D``       move the face-up top of own stock pile S into the empty space D
``spit``           spit when nobody can go on
``spit N``         the same, naming it the match's N-th spit, so that a second press of
                   the same spit is refused rather than spitting twice
``pause``          pause a match against the computer (rules §7)
``resume``         resume a paused match
``resign``         give up the match
=================  ==========================================================================

``str(command)`` writes this syntax and ``parse_command`` reads it back to an equal command.
"""

from __future__ import annotations

import msgspec

from games.errors import Malformed, Reason
from games.spit.cards import Rank, parse_rank
from games.spit.model import CENTRE_PILES, STOCK_PILES


class Ready(msgspec.Struct, frozen=True):
    """Press Ready at Gate.START or Gate.CONTINUE."""

    def __str__(self) -> str:
        return "ready"


class Play(msgspec.Struct, frozen=True):
    """Play the top card of own stock pile ``stock`` onto centre pile ``pile``.

    ``onto`` is the top rank the sender saw on that pile; when given, a different current
    top refuses the play (rules §6: the card that arrived first counts).
    """

    stock: int
    pile: int
    onto: Rank | None = None

    def __str__(self) -> str:
        seen = "" if self.onto is None else f" {self.onto}"
        return f"play {self.stock} {self.pile}{seen}"


class Move(msgspec.Struct, frozen=True):
    """Move the top card of own stock pile ``src`` into the empty space ``dst`` (rules §3.3)."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"move {self.src} {self.dst}"


class Spit(msgspec.Struct, frozen=True):
    """Spit when nobody can go on (rules §3.4); ``number`` names which spit of the match."""

    number: int | None = None

    def __str__(self) -> str:
        return "spit" if self.number is None else f"spit {self.number}"


class Pause(msgspec.Struct, frozen=True):
    """Pause a match against the computer (rules §7)."""

    def __str__(self) -> str:
        return "pause"


class Resume(msgspec.Struct, frozen=True):
    """Resume a paused match."""

    def __str__(self) -> str:
        return "resume"


class Resign(msgspec.Struct, frozen=True):
    """Give up the match."""

    def __str__(self) -> str:
        return "resign"


Command = Ready | Play | Move | Spit | Pause | Resume | Resign

_BARE: dict[str, Command] = {
    "ready": Ready(),
    "pause": Pause(),
    "resume": Resume(),
    "resign": Resign(),
    "spit": Spit(),
}


def parse_command(text: str) -> Command:
    """Return the command written as ``text``.

    Raises:
        Malformed: when ``text`` is not a command, quoting it.
    """
    try:
        return _parse(text.split())
    except Malformed as err:
        raise Malformed(err.reason, f"{text!r}: {err.detail}") from None


def _parse(words: list[str]) -> Command:
    if not words:
        raise Malformed(Reason.UNKNOWN_COMMAND, "no command")
    verb, args = words[0].lower(), words[1:]
    if not args and verb in _BARE:
        return _BARE[verb]
    if verb == "spit" and len(args) == 1:
        return check_command(Spit(_number(args[0])))
    if verb == "play" and len(args) in (2, 3):
        onto = parse_rank(args[2]) if len(args) == 3 else None
        return check_command(Play(_number(args[0]), _number(args[1]), onto))
    if verb == "move" and len(args) == 2:
        return check_command(Move(_number(args[0]), _number(args[1])))
    if verb in _BARE or verb in ("play", "move"):
        raise Malformed(Reason.BAD_ARGUMENT, f"wrong arguments for {verb!r}")
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{verb!r} is not a Spit command")


def _number(word: str) -> int:
    # Bounded length: int() of thousands of digits is slow and then refused anyway.
    if not (word.isascii() and word.isdigit() and len(word) <= 9):
        raise Malformed(Reason.BAD_ARGUMENT, f"{word!r} is not a number")
    return int(word)


def check_command(command: object) -> Command:
    """Return ``command`` once its fields are of the right kinds and within range.

    Raises:
        Malformed: when ``command`` is not a Spit command or names a pile that cannot exist.
    """
    match command:
        case Play(stock=stock, pile=pile, onto=onto):
            _check_pile(command, stock, STOCK_PILES)
            _check_pile(command, pile, CENTRE_PILES)
            if onto is not None and not isinstance(onto, Rank):
                raise Malformed(Reason.BAD_ARGUMENT, f"{command!r}: onto is not a rank")
            return command
        case Move(src=src, dst=dst):
            _check_pile(command, src, STOCK_PILES)
            _check_pile(command, dst, STOCK_PILES)
            if src == dst:
                raise Malformed(Reason.BAD_ARGUMENT, f"{command!r} moves a pile onto itself")
            return command
        case Spit(number=number):
            if number is not None and (type(number) is not int or number < 1):
                raise Malformed(Reason.BAD_ARGUMENT, f"{command!r}: a spit number counts from 1")
            return command
        case Ready() | Pause() | Resume() | Resign():
            return command
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{command!r} is not a Spit command")


def _check_pile(command: object, index: object, count: int) -> None:
    if type(index) is not int or not 0 <= index < count:
        raise Malformed(Reason.NO_SUCH_PILE, f"{command!r}: no pile {index!r} (0–{count - 1})")
