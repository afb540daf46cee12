"""What the test stacks set apart from a deployment, and why.

Players at many times a person's pace (sped-up bots, scripted loads) would meet the
gateway's command rate per player (services/gateway/ratelimit.py), which is set for
people; the stacks that run them raise it, so the tests measure the game, not the limit.

The clock's tolerances (services/arbitration/faults.py) are set for a deployment: a
process whose loop stalls past 100 ms voids the rated matches it holds. The unit and
browser stages run up to four stacks, browsers and an image build at once on two cores,
where such a stall is a real fault of that machine, not of the program under test; their
stacks accept a second (tests/conftest.py sets it for every process a test starts). The
tests whose subject is the tolerance itself (fault injection, the clean load) set the
tolerances as deployed, ``AS_DEPLOYED_ENV``.
"""

from services.arbitration.faults import Tolerances

FAST_PLAY_ENV = (("PF_COMMANDS_PER_S", "100000"), ("PF_COMMANDS_BURST", "100000"))

_DEPLOYED = Tolerances()
_TOLERANCE_VARIABLES = {
    "PF_TOLERANCE_LOOP_LAG_MS": _DEPLOYED.event_loop_lag_ms,
    "PF_TOLERANCE_TIMER_LATE_MS": _DEPLOYED.timer_late_ms,
    "PF_TOLERANCE_FORWARDING_MS": _DEPLOYED.forwarding_delay_ms,
}
SHARED_MACHINE_TOLERANCE_MS = 1000.0
SHARED_MACHINE_ENV = tuple(
    (name, f"{SHARED_MACHINE_TOLERANCE_MS:g}") for name in _TOLERANCE_VARIABLES
)
AS_DEPLOYED_ENV = tuple((name, f"{ms:g}") for name, ms in _TOLERANCE_VARIABLES.items())
