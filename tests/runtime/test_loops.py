"""Every process runs on uvloop unless PF_EVENT_LOOP=asyncio asks for the standard loop."""

from __future__ import annotations

import asyncio

import pytest
import uvloop

from runtime import loops


async def loop_kind() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_uvloop_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(loops.VARIABLE, raising=False)
    assert loops.chosen() == "uvloop"
    assert loops.run(loop_kind()) == uvloop.__name__


def test_the_standard_loop_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(loops.VARIABLE, "asyncio")
    assert loops.chosen() == "asyncio"
    assert loops.run(loop_kind()) == "asyncio"
