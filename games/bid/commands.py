"""Commands a seat can send, and their text form.

Syntax (case-insensitive, words separated by spaces; ``str(command)`` prints the
canonical form, which parses back to an equal command):

=========================  ==========================================================
``ready``                  press Start/Continue at a gate (both seats must press)
``play [3|5]``             open the round with [3|5] (the board is empty)
``play [3|5] [1|5]:high``  join [3|5] at the open point ``[1|5]:high``
``draw``                   draw until a playable tile appears or the boneyard is empty
``pass``                   (non-jockey, first auction decision) let the jockey open free
``bid 20``                 bid 20 for the opening
``accept``                 accept the standing bid: the bidder pays and opens
``resign``                 give up the match
=========================  ==========================================================

Tiles may be written ``[5|3]`` or ``3|5``; they print smaller half first. An open point
is ``<tile on the board>:<port>`` with port ``low``/``high`` on a non-double and
``straight-a``/``straight-b``/``branch-a``/``branch-b`` on a double (see ``board``).
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from games.bid.board import End, parse_end
from games.bid.tiles import Tile, parse_tile
from games.errors import Malformed, Reason


class Ready(msgspec.Struct, frozen=True):
    """Press Start or Continue."""

    def __str__(self) -> str:
        return "ready"


class Play(msgspec.Struct, frozen=True):
    """Put ``tile`` at the open point ``end`` (None when opening the round)."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"play {self.tile}" if self.end is None else f"play {self.tile} {self.end}"


class Draw(msgspec.Struct, frozen=True):
    """Draw from the boneyard (only when nothing in hand can be played)."""

    def __str__(self) -> str:
        return "draw"


class PassBid(msgspec.Struct, frozen=True):
    """Decline the auction: the jockey opens for free."""

    def __str__(self) -> str:
        return "pass"


class Bid(msgspec.Struct, frozen=True):
    """Bid ``amount`` points for the right to open."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


class Accept(msgspec.Struct, frozen=True):
    """Accept the opponent's standing bid."""

    def __str__(self) -> str:
        return "accept"


class Resign(msgspec.Struct, frozen=True):
    """Give up the match; the opponent wins."""

    def __str__(self) -> str:
        return "resign"


Command: TypeAlias = Ready | Play | Draw | PassBid | Bid | Accept | Resign

_BARE: dict[str, Command] = {
    "ready": Ready(),
    "draw": Draw(),
    "pass": PassBid(),
    "accept": Accept(),
    "resign": Resign(),
}


def parse_command(text: str) -> Command:
    """Return the command written ``text``.

    Raises:
        Malformed: when ``text`` is not a command, or names a tile, end or amount that
            cannot exist; the message quotes ``text``.
    """
    words = text.lower().split()
    if not words:
        raise Malformed(Reason.UNKNOWN_COMMAND, f"{text!r} is empty")
    verb, args = words[0], words[1:]
    if verb in _BARE and not args:
        return _BARE[verb]
    if verb == "play" and 1 <= len(args) <= 2:
        try:
            end = parse_end(args[1]) if len(args) == 2 else None
            return Play(parse_tile(args[0]), end)
        except Malformed as err:
            # Quote the whole command, not only the tile or end that failed.
            raise Malformed(err.reason, f"{text!r}: {err.detail}") from None
    if verb == "bid" and len(args) == 1:
        return Bid(_parse_amount(text, args[0]))
    if verb in _BARE or verb in ("play", "bid"):
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r}: wrong number of arguments")
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{text!r} is not a command")


def _parse_amount(text: str, word: str) -> int:
    # Only plain decimal digits: no signs, no "1_000", no unicode digits.
    if not (word.isascii() and word.isdigit()) or len(word) > 6:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r}: {word!r} is not a whole number of points")
    return int(word)
