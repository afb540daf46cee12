"""A short hostile campaign in every test run (``bench/hostile``; ``make fuzz`` is the
long one): thousands of malformed, forged and flooding requests against a real stack,
and afterwards every answer clean, the match under attack unmoved, every service alive,
a new match playable, and the gateway's descriptors and memory back near their baseline."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.hostile.campaign import STACK_ENV, run
from services.stack.stack import StackConfig, run_stack

pytestmark = pytest.mark.asyncio(loop_scope="function")

REQUESTS = 3000


async def test_a_hostile_campaign_changes_nothing_and_every_answer_is_clean(
    tmp_path: Path,
) -> None:
    config = StackConfig(tmp_path, with_bots=False, extra_env=STACK_ENV)
    async with run_stack(config) as stack:
        report = await run(stack, REQUESTS)
    assert report.problems == [], "\n".join(report.lines())
    assert sum(report.tally.sent.values()) >= REQUESTS
