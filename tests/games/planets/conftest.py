"""Hypothesis settings for the planets engine tests: few enough examples that the suite runs in
seconds, derandomized in CI (``CI`` set) so that a CI run is reproducible."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "planets-engine",
    max_examples=int(os.environ.get("PLANETS_EXAMPLES", "30")),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow],
)
