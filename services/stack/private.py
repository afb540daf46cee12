"""What the stack keeps under its data folder (var/ under `make run`) is its owner's alone.

The folder holds the match logs, the ratings and tournaments databases and every process's
log. It is made 0700, every process the stack starts creates its files 0600 and folders
0700 (umask 077), and so do the stack's own log files.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

UMASK = 0o077
# Put before a child's command: the kernel sends it SIGTERM when the stack's process dies
# (the parent-death signal, which setpriv sets and exec keeps), and its files are private
# (the shell's umask, then exec). No Python code runs between fork and exec, which in a
# process with threads (gRPC's) can crash or hang the child: a restarted gateway died of
# SIGSEGV there while the test process served gRPC. (Not subprocess's umask=: uvloop,
# which make run and the benchmarks use, refuses it.)
PRIVATE_CHILD = (
    *("setpriv", "--pdeathsig", "TERM", "--"),
    *("sh", "-c", f'umask {UMASK:03o} && exec "$@"', "sh"),
)


def make_private(folder: Path) -> None:
    """Create ``folder`` if need be and make it its owner's alone (0700)."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)


def open_private(path: Path) -> BinaryIO:
    """Open ``path`` to append bytes, creating it 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    return os.fdopen(fd, "ab")


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path``'s content with ``data``, the file 0600 (created so if need be)."""
    with open_private(path) as file:
        file.truncate(0)
        file.write(data)
