"""Who may read a match's log and when, and how stored entries are put back in order."""

from __future__ import annotations

from typing import Any

import grpc
import nats
import pytest
from nats.js import JetStreamContext

from photofinish.arbitration.v1 import log_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration.matchlog.reader import LogReader, check_match_id, check_reader
from services.common.jetstream_config import log_stream_config
from services.common.matchlogs import in_order, is_closed
from services.common.rejection import Rejection
from services.stack.natsd import NatsServer
from wire import subjects

PLAYERS = [events_pb2.Player(player_id="ann"), events_pb2.Player(player_id="bob")]


def entry(
    index: int, kind: log_pb2.EntryKind.ValueType = log_pb2.ENTRY_KIND_ACCEPTED
) -> log_pb2.LogEntry:
    return log_pb2.LogEntry(index=index, kind=kind)


def test_entries_come_back_by_index_each_once() -> None:
    stored = [entry(0), entry(2), entry(1), entry(1, log_pb2.ENTRY_KIND_REFUSED)]
    assert [(e.index, e.kind) for e in in_order(stored)] == [
        (0, log_pb2.ENTRY_KIND_ACCEPTED),
        (1, log_pb2.ENTRY_KIND_ACCEPTED),  # a late duplicate of an index is dropped
        (2, log_pb2.ENTRY_KIND_ACCEPTED),
    ]


def test_entries_stop_at_the_first_missing_index() -> None:
    assert [e.index for e in in_order([entry(0), entry(1), entry(3)])] == [0, 1]
    assert in_order([entry(1)]) == []


def carrying(index: int, judged: log_pb2.LogEntry, kind: log_pb2.EntryKind.ValueType) -> Any:
    carrier = entry(index, kind)
    carrier.judged.CopyFrom(judged)
    return carrier


COMMAND, REFUSED = log_pb2.ENTRY_KIND_COMMAND, log_pb2.ENTRY_KIND_REFUSED


def test_a_judged_entry_takes_the_place_of_its_stored_command() -> None:
    stored = [
        entry(0, log_pb2.ENTRY_KIND_OPENED),
        entry(1, COMMAND),
        carrying(2, entry(1), COMMAND),  # the next command carries the first one's judgement
        carrying(3, entry(2, REFUSED), log_pb2.ENTRY_KIND_AWAY),
    ]
    assert [(e.index, e.kind) for e in in_order(stored)] == [
        (0, log_pb2.ENTRY_KIND_OPENED),
        (1, log_pb2.ENTRY_KIND_ACCEPTED),
        (2, REFUSED),
        (3, log_pb2.ENTRY_KIND_AWAY),
    ]
    assert not any(e.HasField("judged") for e in in_order(stored))  # read once, in its place


def test_a_command_nothing_judged_yet_ends_the_log_and_a_judgement_stored_alone_replaces_it() -> (
    None
):
    unjudged = [entry(0, log_pb2.ENTRY_KIND_OPENED), entry(1, COMMAND)]
    assert [e.kind for e in in_order(unjudged)] == [log_pb2.ENTRY_KIND_OPENED, COMMAND]
    alone = entry(1, REFUSED)  # stored on its own, after its command
    assert [e.kind for e in in_order([*unjudged, alone])] == [log_pb2.ENTRY_KIND_OPENED, REFUSED]
    assert [e.kind for e in in_order([*unjudged, alone, entry(1, COMMAND)])][-1] == REFUSED


def test_a_log_is_closed_by_its_finished_or_voided_entry() -> None:
    assert not is_closed([entry(0, log_pb2.ENTRY_KIND_OPENED), entry(1)])
    assert is_closed([entry(0), entry(1, log_pb2.ENTRY_KIND_FINISHED), entry(2)])
    assert is_closed([entry(0), entry(1, log_pb2.ENTRY_KIND_VOIDED)])


def test_a_player_reads_the_log_of_a_finished_match() -> None:
    check_reader(PLAYERS, "bob", closed=True)


def test_a_player_cannot_read_the_log_of_a_live_match() -> None:
    with pytest.raises(Rejection) as refused:
        check_reader(PLAYERS, "ann", closed=False)
    assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert refused.value.reason == "match_live"


@pytest.mark.parametrize("closed", [False, True])
def test_a_stranger_cannot_read_a_log_live_or_finished(closed: bool) -> None:
    with pytest.raises(Rejection) as refused:
        check_reader(PLAYERS, "eve", closed=closed)
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert refused.value.reason == "not_your_match"


def test_an_operator_reads_any_finished_match_s_log_but_no_live_one() -> None:
    check_reader(PLAYERS, "olga", closed=True, operator=True)
    with pytest.raises(Rejection) as refused:
        check_reader(PLAYERS, "olga", closed=False, operator=True)
    assert refused.value.reason == "match_live"


@pytest.mark.parametrize("match_id", ["", "*", ">", "a.b", "a b", "x" * 65, "a\nb"])
def test_a_match_id_that_could_widen_the_subject_is_refused(match_id: str) -> None:
    with pytest.raises(Rejection) as refused:
        check_match_id(match_id)
    assert refused.value.reason == "bad_match_id"


def test_a_url_safe_token_is_a_match_id() -> None:
    check_match_id("Zx_3-kQ9aB")


class Counting:
    """The real JetStream context, counting the log reads that make a consumer."""

    def __init__(self, js: JetStreamContext) -> None:
        self._js = js
        self.whole_reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._js, name)

    async def pull_subscribe(self, *args: Any, **kwargs: Any) -> Any:
        self.whole_reads += 1
        return await self._js.pull_subscribe(*args, **kwargs)


async def test_a_stranger_s_ask_reads_the_header_alone(nats_server: NatsServer) -> None:
    connection = await nats.connect(nats_server.url)
    try:
        js = connection.jetstream()
        await js.add_stream(log_stream_config())
        header = log_pb2.LogEntry(index=0, kind=log_pb2.ENTRY_KIND_OPENED)
        header.created.players.extend(PLAYERS)
        for stored in (header, entry(1), entry(2, log_pb2.ENTRY_KIND_FINISHED)):
            await js.publish(subjects.match_log("m1"), stored.SerializeToString())
        counting = Counting(js)
        reader = LogReader(counting)  # type: ignore[arg-type]
        with pytest.raises(Rejection) as refused:
            await reader.fetch("m1", "eve", None)
        assert refused.value.reason == "not_your_match"
        with pytest.raises(Rejection) as unknown:
            await reader.fetch("m2", "ann", None)
        assert unknown.value.reason == "unknown_match"
        assert counting.whole_reads == 0  # neither ask read a whole log
        assert len((await reader.fetch("m1", "ann", None)).entries) == 3
        assert counting.whole_reads == 1
    finally:
        await connection.close()
