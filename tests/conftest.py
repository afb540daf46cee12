"""Shared test setup: hypothesis profiles sized for CI and for long runs."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "ci" keeps `make test` within its budget on a 2-core machine and draws the same examples
# on every run, so a result can be reproduced; "long" draws new ones each time, for soak
# runs that look further: HYPOTHESIS_PROFILE=long make test.
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
