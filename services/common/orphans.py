"""Children that die with their parent: no service outlives a killed launcher or test run,
and no worker outlives its service."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1
# Loaded here, in the parent: between fork and exec a child of a process with threads
# (gRPC's, aiosqlite's) must not load a library, since another thread may have held the
# loader's lock at the fork, and the child would wait for it for ever.
_PRCTL = ctypes.CDLL("libc.so.6", use_errno=True).prctl if sys.platform == "linux" else None


def die_with_parent() -> None:
    """Ask the kernel to send SIGTERM to this (child) process when its parent dies.

    Linux only, a no-op elsewhere. (The stack's own children get it from setpriv instead:
    services/stack/private.py.)
    """
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def die_with(parent_pid: int) -> None:
    """In a worker started by ``parent_pid``: die when it dies, even if it died already.

    For a process pool's initializer (spawned workers run no code between fork and exec).
    """
    die_with_parent()
    if os.getppid() != parent_pid:  # it died before the kernel was asked
        os._exit(1)
