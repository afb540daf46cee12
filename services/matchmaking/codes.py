"""Challenge codes: six characters a person can read aloud and type without confusion.

The alphabet leaves out the look-alikes 0/O and 1/I/L: 31 symbols in 6 places make about
887 million codes, drawn with ``secrets`` so an open challenge cannot be guessed. Typing is
forgiving: case, spaces and dashes do not matter.
"""

from __future__ import annotations

import secrets
from typing import NewType

Code = NewType("Code", str)

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6

_IGNORED = str.maketrans("", "", " -_\t")


def fresh_code() -> Code:
    """Return a new random code."""
    return Code("".join(secrets.choice(ALPHABET) for _ in range(LENGTH)))


def parse_code(text: str) -> Code | None:
    """Return the code ``text`` spells, or None when it cannot be one."""
    code = text.translate(_IGNORED).upper()
    if len(code) != LENGTH or any(symbol not in ALPHABET for symbol in code):
        return None
    return Code(code)
