"""The message catalogs, the page's and the terminal client's: every language has every
message, with the English one's placeholders, in valid ICU syntax; and every reason the server
can give, every void and every timing fault has its words in every language
(docs/web-client.md, Languages)."""

from __future__ import annotations

import ast
import enum
import json
import re
from collections.abc import Iterator
from pathlib import Path

import icu
import pytest

from games import errors as game_errors
from services.accounts import model as accounts_model
from services.accounts.names import NameProblem
from services.accounts.passwords import PasswordProblem
from services.arbitration import refusals as arbitration_refusals
from services.arbitration.faults import FaultKind
from services.arbitration.matchlog import entries
from services.matchmaking import errors as matchmaking_errors
from services.ratings import errors as ratings_errors
from services.tournaments import errors as tournaments_errors
from wire.grpcweb import errors as grpcweb_errors

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "clients/web/src/i18n/catalogs"
CLI_CATALOGS = ROOT / "clients/cli/catalogs"
LANGUAGES = sorted(path.stem for path in CATALOGS.glob("*.json"))
# Every catalog of every language but English, beside its English one.
FOLDERS = {"page": CATALOGS, "cli": CLI_CATALOGS}
TRANSLATED = [
    pytest.param(folder, code, id=f"{name}-{code}")
    for name, folder in FOLDERS.items()
    for code in LANGUAGES
    if code != "en"
]
EVERY = [
    pytest.param(folder, code, id=f"{name}-{code}")
    for name, folder in FOLDERS.items()
    for code in LANGUAGES
]
REASON_ENUMS: tuple[type[enum.Enum], ...] = (
    game_errors.Reason,
    arbitration_refusals.Reason,
    accounts_model.Reason,
    NameProblem,
    PasswordProblem,
    matchmaking_errors.Reason,
    ratings_errors.Reason,
    tournaments_errors.Reason,
    grpcweb_errors.Reason,
)
# The calls that refuse with a reason string: the reason is their first or second argument,
# or their `reason=`.
REFUSING_CALLS = {"Rejection", "refuse", "refused", "rich_status", "_ended", "Refusal"}
# Words in the Errors table's reasons column that are fields, not reasons: the ids a
# `bad_id` names, and metadata keys.
NOT_REASONS = {
    "match_id",
    "tournament_id",
    "player_id",
    "around_player_id",
    "retry_after_ms",
    "ended_session_id",
}
CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def catalog(code: str, folder: Path = CATALOGS) -> dict[str, str]:
    return json.loads((folder / f"{code}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def placeholders(message: str) -> set[str]:
    """The argument names of an ICU message, those inside plurals and selects included."""
    pattern = icu.MessagePattern(message)
    names = set()
    for index in range(pattern.countParts()):
        part = pattern.getPart(index)
        if part.getType() == icu.UMessagePatternPartType.ARG_NAME:
            names.add(pattern.getSubstring(part))
    return names


def documented_reasons() -> set[str]:
    """The reasons named in docs/protocol.md's table of errors."""
    text = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    table = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[2] for line in table.splitlines() if line.startswith("| `")]
    return {code for row in rows for code in re.findall(r"`([a-z][a-z0-9_]*)`", row)} - NOT_REASONS


def raised_reasons() -> Iterator[tuple[str, str]]:
    """(reason, where) for each reason string a refusal is made with in the code."""
    modules = [
        path for folder in ("services", "wire", "games") for path in (ROOT / folder).rglob("*.py")
    ]
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in modules}
    constants = {  # module-level NAME = "a_reason", as reasons are often named
        target.id: node.value.value
        for tree in trees.values()
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
            if name not in REFUSING_CALLS:
                continue
            reasons = [*node.args[:2], *(k.value for k in node.keywords if k.arg == "reason")]
            for argument in reasons:
                value = (
                    argument.value
                    if isinstance(argument, ast.Constant)
                    else constants.get(argument.id)
                    if isinstance(argument, ast.Name)
                    else None
                )
                if isinstance(value, str) and CODE.match(value):
                    yield value, f"{path.relative_to(ROOT)}:{node.lineno}"


def every_reason() -> dict[str, str]:
    """Each reason the server can give, with where it is named."""
    reasons = {code: "docs/protocol.md" for code in documented_reasons()}
    for kind in REASON_ENUMS:
        reasons.update({member.value: kind.__qualname__ for member in kind})
    reasons.update(dict(raised_reasons()))
    return reasons


def void_kinds() -> set[str]:
    return {kind.value for kind in FaultKind} | {
        entries.ABORTED,
        entries.LOG_FULL,
        entries.ABANDONED,
    }


def test_the_reasons_are_found() -> None:
    """The collection finds reasons from each source (a broken scan would pass vacuously)."""
    assert {"taken", "bad_id", "service_unavailable"} <= documented_reasons()
    raised = {code for code, _ in raised_reasons()}
    assert {"hello_first", "arbitration_unavailable", "not_held"} <= raised
    assert {"too_late", "match_over", "unknown_match"} <= set(every_reason())
    assert len(every_reason()) > 120


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_reason_has_words(code: str) -> None:
    messages = catalog(code)
    missing = {
        reason: where
        for reason, where in sorted(every_reason().items())
        if f"reason.{reason}" not in messages
    }
    assert not missing, f"{code}: reasons with no reason.<code> message: {missing}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_void_and_fault_has_words(code: str) -> None:
    messages = catalog(code)
    assert not {kind for kind in void_kinds() if f"void.{kind}" not in messages}
    assert not {kind.value for kind in FaultKind if f"fault.{kind.value}" not in messages}


def test_the_terminal_client_has_a_catalog_in_each_language_of_the_page() -> None:
    assert sorted(path.stem for path in CLI_CATALOGS.glob("*.json")) == LANGUAGES


@pytest.mark.parametrize(("folder", "code"), TRANSLATED)
def test_every_message_in_every_language(folder: Path, code: str) -> None:
    english, messages = catalog("en", folder), catalog(code, folder)
    assert sorted(set(english) - set(messages)) == []
    assert sorted(set(messages) - set(english)) == []
    differ = {
        key: (sorted(placeholders(text)), sorted(placeholders(english[key])))
        for key, text in messages.items()
        if placeholders(text) != placeholders(english[key])
    }
    assert not differ, f"{code}: placeholders unlike English's: {differ}"


@pytest.mark.parametrize(("folder", "code"), EVERY)
def test_every_message_is_icu(folder: Path, code: str) -> None:
    """Each message parses as ICU MessageFormat in its language (the terminal client formats
    them with ICU itself)."""
    locale = icu.Locale(code)
    broken = {}
    for key, text in catalog(code, folder).items():
        try:
            icu.MessageFormat(text, locale)
        except icu.ICUError as error:
            broken[key] = str(error)
    assert not broken
