"""A spectator's watch, as the gateway and the arbitration agree on it.

The spectators' view is built and published only while someone watches: a spectator
stream's GetUpdate for seat :data:`SPECTATORS` keeps the match watched for
:data:`LEASE_S`, and the gateway repeats it every :data:`RENEW_S` while the stream is
open (a renewal may be late twice before the lease runs out).
"""

from __future__ import annotations

SPECTATORS = -1  # the seat number that stands for the spectators
LEASE_S = 60.0
RENEW_S = LEASE_S / 3
