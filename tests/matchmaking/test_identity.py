"""The caller as the gateway names them in metadata, and matchmaking's answer when it does not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import pytest

from services.common.identity import MissingIdentity, Player, PlayerId, caller
from services.common.statuses import Context
from services.matchmaking.errors import Reason, Unauthenticated
from services.matchmaking.servicer import player_of

Metadata = Sequence[tuple[str, str | bytes]] | None


@dataclass(frozen=True, slots=True)
class Call:
    """The part of a servicer context that says who calls."""

    metadata: Metadata

    def invocation_metadata(self) -> Metadata:
        return self.metadata


def test_the_caller_is_read_from_the_player_id_and_name() -> None:
    metadata = [("x-pf-player-id", "p-1"), ("x-pf-player-name", "Ann"), ("other", "x")]
    # No account session: a guest.
    assert caller(metadata) == Player(PlayerId("p-1"), "Ann", guest=True)
    assert player_of(cast(Context, Call(metadata))) == Player(PlayerId("p-1"), "Ann", guest=True)
    signed_in = [*metadata, ("x-pf-session-id", "s-1")]
    assert caller(signed_in) == Player(PlayerId("p-1"), "Ann")


def test_a_name_arrives_percent_encoded_and_is_read_decoded() -> None:
    metadata = [("x-pf-player-id", "p-1"), ("x-pf-player-name", "%D8%B3%D9%84%D9%85%D9%89")]
    assert caller(metadata).name == "سلمى"


def test_the_missing_key_is_named() -> None:
    with pytest.raises(MissingIdentity, match="x-pf-player-name"):
        caller([("x-pf-player-id", "p-1")])
    with pytest.raises(MissingIdentity, match="x-pf-player-id"):
        caller([("x-pf-player-name", "Ann")])


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
    with pytest.raises(MissingIdentity):
        caller(metadata)
    with pytest.raises(Unauthenticated) as error:
        player_of(cast(Context, Call(metadata)))
    assert error.value.reason is Reason.MISSING_IDENTITY
