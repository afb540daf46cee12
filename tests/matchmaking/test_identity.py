"""The caller as the gateway names them in metadata."""

from __future__ import annotations

import pytest

from services.matchmaking.errors import Reason, Unauthenticated
from services.matchmaking.identity import Player, PlayerId, caller


def test_the_caller_is_read_from_the_player_id_and_name() -> None:
    metadata = [("x-pf-player-id", "p-1"), ("x-pf-player-name", "Ann"), ("other", "x")]
    assert caller(metadata) == Player(PlayerId("p-1"), "Ann")


def test_a_name_arrives_percent_encoded_and_is_read_decoded() -> None:
    metadata = [("x-pf-player-id", "p-1"), ("x-pf-player-name", "%D8%B3%D9%84%D9%85%D9%89")]
    assert caller(metadata).name == "سلمى"


@pytest.mark.parametrize(
    "metadata",
    [
        None,
        [],
        [("x-pf-player-id", "p-1")],
        [("x-pf-player-name", "Ann")],
        [("x-pf-player-id", ""), ("x-pf-player-name", "Ann")],
        [("x-pf-player-id", "p-1"), ("x-pf-player-name", "  ")],
        [("x-pf-player-id", b"p-1"), ("x-pf-player-name", "Ann")],
    ],
)
def test_a_call_that_does_not_name_both_id_and_name_is_unauthenticated(
    metadata: list[tuple[str, str | bytes]] | None,
) -> None:
    with pytest.raises(Unauthenticated) as error:
        caller(metadata)
    assert error.value.reason is Reason.MISSING_IDENTITY
