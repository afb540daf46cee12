"""A stopped process's ports, kept from the kernel's free choice until it listens again.

The stack starts a process again on the ports it had: its clients know them. Between its
exit and the new listener, the kernel may hand such a port to anyone who asks for a free
one (a bind to port 0, a connection's own end): a neighbour's process took a ratings port
that way, and the restart failed with EADDRINUSE. A socket bound to the port with
SO_REUSEADDR, never listening, keeps the kernel from handing it out, yet lets the new
process listen on it (gRPC's listeners and aiohttp's set SO_REUSEADDR on POSIX).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterable


class HeldPorts:
    """Bound, non-listening sockets on some ports; ``release`` closes them."""

    def __init__(self, ports: Iterable[int]) -> None:
        self._sockets: list[socket.socket] = []
        for port in ports:
            held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                held.bind(("0.0.0.0", port))
            except OSError:  # taken already (by the old process's last moments, or another)
                held.close()  # the restart will say so if it cannot listen
                continue
            self._sockets.append(held)

    def release(self) -> None:
        for held in self._sockets:
            with contextlib.suppress(OSError):
                held.close()
        self._sockets.clear()
