"""The Python client module for hipparchusd: a thin alias of ``hipparchusd.client``.

There is one copy of the client code, the package ``hipparchusd/client/`` (standard library
only; the terminal client ``hipparchus-play`` uses it too). This file makes it importable as
``hipparchus_client`` from this directory, whether or not the ``hipparchusd`` package is
installed: in a source checkout it falls back to the checkout's copy. To take the client to
another project, copy the folder ``hipparchusd/client/`` there as ``hipparchus_client/``; its
modules import only each other, nothing else from the package.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import hipparchusd.client as _client
except ImportError:  # not installed: use the checkout this file lives in
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import hipparchusd.client as _client

sys.modules[__name__] = _client
