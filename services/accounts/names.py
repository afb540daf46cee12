"""Usernames: what a name may hold, and the key that makes look-alike names one name.

A name is shown as its owner typed it (NFKC-normalised), but it is unique by its *key*: the
Unicode TR39 confusables skeleton of its case-folded NFKC form, computed by ICU's spoof
checker. ``Ann``, ``ann``, ``ＡＮＮ`` and ``Аnn`` (a Cyrillic А) have one key, so once one
of them is taken the others are too. The key is for comparing only, never for display.
"""

from __future__ import annotations

import enum
import unicodedata

import icu

MIN_CHARS = 3
MAX_CHARS = 20
MAX_INPUT_CHARS = 200  # longer input is refused before any normalisation work
# Besides letters, marks and digits, a name may hold these, never first or last.
JOINERS = frozenset("_-.")
_CHECKER = icu.SpoofChecker()


class NameProblem(enum.Enum):
    """Why a username is refused; the value is the reason a client sees."""

    LENGTH = "name_length"
    CHARACTERS = "name_characters"


class BadName(ValueError):
    """A username that breaks the rules; ``problem`` says which."""

    def __init__(self, problem: NameProblem, detail: str) -> None:
        super().__init__(detail)
        self.problem = problem


def clean(raw: str) -> str:
    """Return the name as it is stored and shown: NFKC, surrounding space removed.

    Raises:
        BadName: too short or too long (in characters, after normalising), or holding
            anything but letters, marks, digits and inner ``_``, ``-`` or ``.``: spaces,
            control and format characters (bidi overrides among them) are refused.
    """
    if len(raw) > MAX_INPUT_CHARS:
        raise BadName(NameProblem.LENGTH, f"a username is {MIN_CHARS}–{MAX_CHARS} characters")
    name = unicodedata.normalize("NFKC", raw.strip())
    if not MIN_CHARS <= len(name) <= MAX_CHARS:
        raise BadName(NameProblem.LENGTH, f"a username is {MIN_CHARS}–{MAX_CHARS} characters")
    for index, char in enumerate(name):
        inner = 0 < index < len(name) - 1
        if not (_is_word_char(char) or (inner and char in JOINERS)):
            raise BadName(
                NameProblem.CHARACTERS,
                f"a username holds letters and digits, with _ - . between them; not {char!r}",
            )
    return name


def key(name: str) -> str:
    """Return the key under which ``name`` is unique: equal keys are one name."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    skeleton: str = _CHECKER.getSkeleton(0, folded)
    return unicodedata.normalize("NFKC", skeleton).casefold()


def _is_word_char(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LM" or category == "Nd"
