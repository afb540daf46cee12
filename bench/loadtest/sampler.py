"""Once a second: every process's CPU share and memory, and the arbitration's live matches."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import aiohttp

from bench.stack import histograms
from bench.stack.procstat import cpu_seconds, rss_mb
from services.gateway.ops.samples import total


@dataclass(slots=True)
class Samples:
    """Per process: (seconds since the start, % of one core, RSS MB); live matches."""

    processes: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    live: list[tuple[float, float]] = field(default_factory=list)


async def live_matches(http: aiohttp.ClientSession, urls: list[str]) -> float:
    """Return the live matches the arbitration instances hold (nan when unreadable)."""
    held = [
        total(samples, histograms.LIVE_MATCHES)
        for samples in [await histograms.fetch(http, url) for url in urls]
        if any(name == histograms.LIVE_MATCHES for name, _ in samples)
    ]
    return sum(held) if held else float("nan")


async def sample(
    http: aiohttp.ClientSession,
    pids: dict[str, int],
    arbitration_urls: list[str],
    samples: Samples,
    started: float,
    every_s: float = 1.0,
) -> None:
    """Fill ``samples`` every ``every_s`` until cancelled; ``pids`` may change meanwhile."""
    before = {name: (cpu_seconds(pid), time.perf_counter()) for name, pid in pids.items()}
    while True:
        await asyncio.sleep(every_s)
        now = time.perf_counter()
        for name, pid in list(pids.items()):
            cpu = cpu_seconds(pid)
            last_cpu, last_at = before.get(name, (cpu, now))
            share = 100 * max(0.0, cpu - last_cpu) / max(1e-6, now - last_at)
            before[name] = (cpu, now)
            samples.processes.setdefault(name, []).append((now - started, share, rss_mb(pid)))
        if arbitration_urls:
            samples.live.append((now - started, await live_matches(http, arbitration_urls)))
