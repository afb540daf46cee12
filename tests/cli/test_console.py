"""Lines from a pipe or a file: in order, handed back when unused, and ended for good at EOF."""

from __future__ import annotations

import asyncio
import io

from clients.cli.console import Console


async def test_lines_arrive_in_order_then_the_end_of_input_stays_ended() -> None:
    out = io.StringIO()
    console = Console(io.StringIO("alice\n2\r\n"), out)
    console.start()
    assert [await console.read() for _ in range(4)] == ["alice", "2", None, None]
    assert not console.interactive


async def test_a_line_taken_by_a_dropped_read_is_given_back() -> None:
    console = Console(io.StringIO("ready\nquit\n"), io.StringIO())
    console.start()
    task = asyncio.create_task(console.read())
    await asyncio.wait({task})
    console.drop_read(task)
    assert await console.read() == "ready"
    assert await console.read() == "quit"


async def test_prompts_go_on_their_own_line_when_the_input_is_not_a_terminal() -> None:
    out = io.StringIO()
    console = Console(io.StringIO("7\n"), out)
    console.start()
    assert await console.ask("choose 1–7:") == "7"
    console.cue()
    console.clear()
    assert out.getvalue() == "choose 1–7:\n\n"
