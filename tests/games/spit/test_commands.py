"""Command text: every command prints in the documented syntax and parses back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.errors import Malformed, Reason
from games.spit import (
    Command,
    Move,
    Pause,
    Play,
    Rank,
    Ready,
    Resign,
    Resume,
    Spit,
    parse_command,
)
from games.spit.commands import check_command

commands: st.SearchStrategy[Command] = st.one_of(
    st.just(Ready()),
    st.just(Pause()),
    st.just(Resume()),
    st.just(Resign()),
    st.builds(Spit, st.none() | st.integers(1, 10**6)),
    st.builds(Play, st.integers(0, 4), st.integers(0, 1), st.none() | st.sampled_from(Rank)),
    st.builds(Move, st.integers(0, 4), st.integers(0, 4)).filter(lambda move: move.src != move.dst),
)


@given(commands)
def test_every_command_parses_back_from_its_text(command: Command) -> None:
    assert parse_command(str(command)) == command


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("ready", Ready()),
        ("  PLAY 2 0 q ", Play(stock=2, pile=0, onto=Rank.QUEEN)),
        ("play 4 1", Play(stock=4, pile=1)),
        ("play 0 1 10", Play(stock=0, pile=1, onto=Rank.TEN)),
        ("move 3 0", Move(src=3, dst=0)),
        ("spit", Spit()),
        ("spit 12", Spit(number=12)),
        ("resign", Resign()),
    ],
)
def test_command_text_reads_as_documented(text: str, command: Command) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", Reason.UNKNOWN_COMMAND),
        ("slap", Reason.UNKNOWN_COMMAND),
        ("play", Reason.BAD_ARGUMENT),
        ("play 1", Reason.BAD_ARGUMENT),
        ("play 1 0 Q 3", Reason.BAD_ARGUMENT),
        ("play x 0", Reason.BAD_ARGUMENT),
        ("play -1 0", Reason.BAD_ARGUMENT),
        ("play 1 0 Z", Reason.BAD_ARGUMENT),
        ("play 5 0", Reason.NO_SUCH_PILE),
        ("play 0 2", Reason.NO_SUCH_PILE),
        ("move 1 1", Reason.BAD_ARGUMENT),
        ("move 1 7", Reason.NO_SUCH_PILE),
        ("spit 0", Reason.BAD_ARGUMENT),
        ("spit " + "9" * 5000, Reason.BAD_ARGUMENT),
        ("ready now", Reason.BAD_ARGUMENT),
        ("play ３ 0", Reason.BAD_ARGUMENT),
    ],
)
def test_malformed_text_is_refused_quoting_the_input(text: str, reason: Reason) -> None:
    with pytest.raises(Malformed) as err:
        parse_command(text)
    assert err.value.reason is reason
    assert repr(text) in str(err.value)


@given(st.text(max_size=30))
def test_any_text_either_parses_to_a_command_that_prints_back_or_is_malformed(text: str) -> None:
    try:
        command = parse_command(text)
    except Malformed:
        return
    assert parse_command(str(command)) == command


@pytest.mark.parametrize(
    "command",
    [Play(stock=True, pile=0), Play(stock=0, pile=0, onto=3), Spit(number=-2), Move(src=0, dst=9)],  # type: ignore[arg-type]
)
def test_commands_built_with_bad_fields_are_malformed(command: Command) -> None:
    with pytest.raises(Malformed):
        check_command(command)
