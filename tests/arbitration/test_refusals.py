"""The arbitration's refusals: each reason with one code, and the reasons that stand in
match logs kept as they were written."""

from __future__ import annotations

import grpc
import pytest

from services.arbitration.refusals import Reason, code_of, refuse


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_one_code_and_travels_as_its_value(reason: Reason) -> None:
    refusal = refuse(reason, "why, in words", {"k": "v"})
    assert (refusal.code, refusal.reason, refusal.message) == (
        code_of(reason),
        reason.value,
        "why, in words",
    )
    assert refusal.metadata == {"k": "v"}
    assert refusal.code != grpc.StatusCode.OK


def test_the_reasons_that_match_logs_hold_keep_their_words_and_codes() -> None:
    # Logs written before stay readable, and clients branch on these values.
    kept = {
        Reason.STALE_CLIENT_SEQ: ("stale_client_seq", grpc.StatusCode.FAILED_PRECONDITION),
        Reason.BAD_CLIENT_SEQ: ("bad_client_seq", grpc.StatusCode.INVALID_ARGUMENT),
        Reason.BAD_COMMAND: ("bad_command", grpc.StatusCode.INVALID_ARGUMENT),
        Reason.MATCH_OVER: ("match_over", grpc.StatusCode.FAILED_PRECONDITION),
        Reason.TOO_LATE: ("too_late", grpc.StatusCode.FAILED_PRECONDITION),
        Reason.MATCH_MOVED: ("match_moved", grpc.StatusCode.UNAVAILABLE),
        Reason.UNKNOWN_MATCH: ("unknown_match", grpc.StatusCode.NOT_FOUND),
    }
    assert {reason: (reason.value, code_of(reason)) for reason in kept} == kept
