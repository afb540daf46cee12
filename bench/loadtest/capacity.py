"""--find-capacity: step the concurrent matches up until p99 passes the target, then 2×."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from typing import Any

from bench.loadtest.runner import run
from bench.loadtest.settings import TARGET_P99_MS, Settings

STEPS_PLAYERS = (20, 40, 80, 160, 240, 320, 480, 640, 960)
QUIET_LOAD = 1.0  # the 1-minute load average below which the machine counts as quiet
QUIET_WAIT_S = 20 * 60.0


def load_average() -> float:
    with open("/proc/loadavg") as file:
        return float(file.read().split()[0])


async def wait_for_quiet(wait_s: float) -> str:
    """Wait (up to ``wait_s``) for the 1-minute load average to drop below 1.0; say how it went."""
    deadline = time.monotonic() + wait_s
    while load_average() >= QUIET_LOAD and time.monotonic() < deadline:
        await asyncio.sleep(15)
    load = load_average()
    return f"load average {load:.2f}" + (
        "" if load < QUIET_LOAD else " (NOT quiet: measured anyway)"
    )


async def find_capacity(settings: Settings, quiet_wait_s: float) -> list[dict[str, Any]]:
    """Run each step; stop after the first whose p99 misses the target; then run 2× the last
    that met it. Print and save one line per run (var/reports/capacity-<time>.json)."""
    rows: list[dict[str, Any]] = []
    best: int | None = None
    for players in STEPS_PLAYERS:
        row = await _step(settings, players, rows, quiet_wait_s)
        if row["p99_ms"] is None or row["p99_ms"] > TARGET_P99_MS:
            break
        best = players
    if best is not None and 2 * best not in {r["players"] for r in rows}:
        await _step(settings, 2 * best, rows, quiet_wait_s)
    out = settings.out / f"capacity-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps({"capacity_players": best, "runs": rows}, indent=1))
    print(f"capacity: {best} players ({(best or 0) // 2} concurrent matches); {out}")
    return rows


async def _step(
    settings: Settings, players: int, rows: list[dict[str, Any]], quiet_wait_s: float
) -> dict[str, Any]:
    machine = await wait_for_quiet(quiet_wait_s)
    report = await run(dataclasses.replace(settings, players=players, quiet=True))
    row = {
        "players": players,
        "peak_live_matches": report["peak_live_matches"],
        "p99_ms": report["latency_ms"]["p99"],
        "p50_ms": report["latency_ms"]["p50"],
        "commands_per_s": report["commands"]["per_s_mean"],
        "timer_lateness_p99_ms": report["timer_lateness_ms"]["p99"],
        "memory": report["memory"],
        "cpu_mean_percent": _cpu(report),
        "checks_passed": report["all_checks_passed"],
        "machine_before": machine,
        "report": report["files"]["json"],
    }
    print(json.dumps(row), flush=True)
    rows.append(row)
    return row


def _cpu(report: dict[str, Any]) -> dict[str, float]:
    return {
        name: round(sum(c for _, c, _ in samples) / len(samples), 1)
        for name, samples in report["processes"].items()
        if samples
    }
