"""Children that die with their parent: no service outlives a killed launcher or test run."""

from __future__ import annotations

import ctypes
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to send SIGTERM to this (child) process when its parent dies.

    Runs in the child between fork and exec; Linux only, a no-op elsewhere.
    """
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
