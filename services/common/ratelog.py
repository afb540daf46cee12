"""Warnings a stranger can cause, logged without letting them fill the log.

A malformed request is worth one line, with its reason and where it came from; a flood of
them is worth a few lines a minute and a count of the rest.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping


class RateLimitedWarnings:
    """Logs at most ``per_window`` warnings every ``window_s`` seconds; the first line of
    the next window says how many were held back in the last."""

    def __init__(
        self,
        log: logging.Logger,
        per_window: int = 10,
        window_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._per_window = per_window
        self._window_s = window_s
        self._clock = clock
        self._window_start = clock()
        self._logged = 0
        self._held_back = 0

    def warning(self, message: str, fields: Mapping[str, object]) -> None:
        """Log ``message`` with ``fields`` (no traceback), unless the window's lines are spent."""
        now = self._clock()
        extra: dict[str, object] = dict(fields)
        if now - self._window_start >= self._window_s:
            if self._held_back:
                extra["held_back_before"] = self._held_back
            self._window_start, self._logged, self._held_back = now, 0, 0
        if self._logged >= self._per_window:
            self._held_back += 1
            return
        self._logged += 1
        self._log.warning(message, extra={"fields": extra})
