"""``python -m hipparchusd.play``: the same as the ``hipparchus-play`` console script."""

import sys

from .app import main

sys.exit(main())
