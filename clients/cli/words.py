"""The terminal client's words in English, Arabic or Korean: ICU messages from catalogs.

The client speaks the page's catalogs (``clients/web/src/i18n/catalogs``: the games' words,
names, every reason the server gives) with its own ``cli.*`` messages layered on top
(``clients/cli/catalogs``). A language is one line in ``LANGUAGES`` and one catalog in each
folder. The language comes from ``--lang``, else from the locale (the variables gettext reads,
in its order), else English.

In a right-to-left language every text value is set in a first-strong isolate
(U+2068 … U+2069), as the page does: a Latin name or ``[3|5]`` keeps its own order inside an
Arabic line on a terminal that lays out bidirectional text.
"""

from __future__ import annotations

import contextlib
import json
import unicodedata
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import icu

_CLIENTS = Path(__file__).resolve().parents[1]
PAGE_CATALOGS = _CLIENTS / "web/src/i18n/catalogs"
CLI_CATALOGS = _CLIENTS / "cli/catalogs"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order
_FIRST_STRONG_ISOLATE = "\u2068"
_POP_ISOLATE = "\u2069"


@dataclass(frozen=True, slots=True)
class Language:
    code: str  # the catalogs' file name, and what --lang takes
    name: str  # in its own words, for --help
    rtl: bool
    locale: str  # ICU's, for numbers and plurals (Arabic with Western digits, as the page)


ENGLISH = Language("en", "English", rtl=False, locale="en")
LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    Language("ar", "العربية", rtl=True, locale="ar-u-nu-latn"),
    Language("ko", "한국어", rtl=False, locale="ko"),
)

_speaking: ContextVar[Language] = ContextVar("speaking", default=ENGLISH)

Value = str | int | float


def language_of(tag: str) -> Language | None:
    """The language of a code or locale name (``ko``, ``ar_EG.UTF-8``, ``en-GB``), or None."""
    primary = tag.split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    return next((language for language in LANGUAGES if language.code == primary), None)


def chosen_language(asked: str | None, environ: Mapping[str, str]) -> Language:
    """``--lang`` if given, else the first language of the locale this client speaks.

    As gettext: LANGUAGE (a colon-separated list) first, unless the locale is C or POSIX,
    then LC_ALL, LC_MESSAGES and LANG; the first one set decides.
    """
    if asked:
        language = language_of(asked)
        if language is None:
            raise ValueError(asked)
        return language
    locale = next((environ[name] for name in LOCALE_VARIABLES[1:] if environ.get(name)), "")
    tags = [] if locale in ("C", "POSIX") else environ.get("LANGUAGE", "").split(":")
    for tag in [*tags, locale]:
        if tag and (language := language_of(tag)):
            return language
    return ENGLISH


def speak(language: Language) -> None:
    """Speak ``language`` from now on (in this context: the client's run, or a test)."""
    _speaking.set(language)


@contextlib.contextmanager
def speaking(code: str) -> Iterator[Language]:
    """Speak the language of ``code`` inside the block."""
    language = language_of(code)
    if language is None:
        raise ValueError(code)
    token = _speaking.set(language)
    try:
        yield language
    finally:
        _speaking.reset(token)


def current() -> Language:
    return _speaking.get()


def catalog(code: str) -> dict[str, str]:
    """The messages of the language of ``code``: the page's, then the client's own."""
    return {**_read(PAGE_CATALOGS / f"{code}.json"), **_read(CLI_CATALOGS / f"{code}.json")}


@cache
def _read(path: Path) -> dict[str, str]:
    messages: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return messages


@cache
def _messages(code: str) -> dict[str, str]:
    return catalog(code)


@cache
def _formatter(code: str, key: str) -> icu.MessageFormat:
    language = language_of(code) or ENGLISH
    # A key this language lacks is said in English rather than not at all.
    text = _messages(code).get(key) or _messages(ENGLISH.code)[key]
    return icu.MessageFormat(text, icu.Locale(language.locale))


def has(key: str) -> bool:
    """Whether ``key`` is a message (a reason's words are looked up by its code)."""
    return key in _messages(ENGLISH.code)


def t(key: str, **values: Value) -> str:
    """The message of ``key`` in the language spoken, ``values`` in its placeholders."""
    language = current()
    if not values:
        return str(_formatter(language.code, key).format([], []))
    names = list(values)
    shown = [icu.Formattable(_isolated(value, language)) for value in values.values()]
    return str(_formatter(language.code, key).format(names, shown))


def _isolated(value: Value, language: Language) -> Value:
    if language.rtl and isinstance(value, str):
        return _FIRST_STRONG_ISOLATE + value + _POP_ISOLATE
    return value


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal: Hangul and other wide letters take two, marks and
    isolates none."""
    return sum(_columns(char) for char in text)


def _columns(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def pad(text: str, columns: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` on a terminal (at the left when ``right``)."""
    room = " " * max(0, columns - width(text))
    return room + text if right else text + room
