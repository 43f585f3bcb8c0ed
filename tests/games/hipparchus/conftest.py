"""Hypothesis settings for the Hipparchus engine tests: few enough examples that the engine's
suite runs in seconds, derandomized in CI (``CI`` set) so a CI run is reproducible."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "hipparchus-engine",
    max_examples=int(os.environ.get("HIPPARCHUS_EXAMPLES", "40")),
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow],
)
