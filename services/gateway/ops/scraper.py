"""Reading every target's `/metrics` on demand, keeping recent scrapes to compute rates over."""

from __future__ import annotations

import asyncio
import time
from collections import deque

import aiohttp
from prometheus_client import REGISTRY, generate_latest

from services.gateway.ops.figures import Figures, Scrape, figures
from services.gateway.ops.samples import Samples, parse_samples
from services.gateway.ops.targets import MetricsTarget

SCRAPE_TIMEOUT_S = 1.0
# Rates and quantiles cover up to this much of the recent past, as a dashboard's would.
WINDOW_S = 60.0
# A scrape younger than this is too close to the next one to make a rate.
MIN_WINDOW_S = 1.0


class Scraper:
    """Scrapes the targets (and this process) whenever figures are asked for."""

    def __init__(self, session: aiohttp.ClientSession, targets: tuple[MetricsTarget, ...]) -> None:
        self._session = session
        self._targets = targets
        self._history: deque[Scrape] = deque()
        self._lock = asyncio.Lock()

    async def figures(self) -> Figures:
        """Return the key figures now, rates over the window of earlier scrapes."""
        async with self._lock:  # several open pages share one history
            now = await self.scrape()
            while self._history and now.at_s - self._history[0].at_s > WINDOW_S:
                self._history.popleft()
            older = [s for s in self._history if now.at_s - s.at_s >= MIN_WINDOW_S]
            self._history.append(now)
            return figures(now, older[0] if older else None)

    async def scrape(self) -> Scrape:
        """Return every target's samples (None for one that does not answer)."""
        found = await asyncio.gather(*(self._read(target) for target in self._targets))
        by_target: dict[str, Samples | None] = {"gateway": parse_samples(_own_metrics())}
        by_target.update(zip((t.name for t in self._targets), found, strict=True))
        return Scrape(time.monotonic(), by_target)

    async def _read(self, target: MetricsTarget) -> Samples | None:
        timeout = aiohttp.ClientTimeout(total=SCRAPE_TIMEOUT_S)
        try:
            async with self._session.get(target.url, timeout=timeout) as response:
                if response.status != 200:
                    return None
                return parse_samples(await response.text())
        except (aiohttp.ClientError, TimeoutError, ValueError):
            return None  # down, unreachable or not speaking Prometheus: shown as down


def _own_metrics() -> str:
    return generate_latest(REGISTRY).decode()
