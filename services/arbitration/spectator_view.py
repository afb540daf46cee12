"""Spectators: their view is built and published only while someone watches.

Each spectator GetUpdate keeps the match watched for ``LEASE_S`` (see
``services/common/watching.py``); until then the rules service builds the spectators'
perspective with every step and the arbitration publishes it. A match nobody watches
costs no spectator view at all.
"""

from __future__ import annotations

from services.arbitration import whole_views
from services.arbitration.match import Match
from services.arbitration.rules_client import RulesClient
from services.common.watching import LEASE_S, SPECTATORS


async def watch(match: Match, rules: RulesClient, now_ns: int) -> None:
    """Keep ``match`` watched for :data:`LEASE_S` from ``now_ns``, its spectators' view
    current (fetched from the rules service when the last step did not build it) and
    published with every step from now on."""
    match.spectators_until_ns = max(match.spectators_until_ns, now_ns + int(LEASE_S * 1e9))
    if SPECTATORS in match.perspectives:
        return
    await whole_views.fetch(match, rules, SPECTATORS)
    if SPECTATORS in match.views:
        match.perspectives.setdefault(SPECTATORS, match.views[SPECTATORS])
