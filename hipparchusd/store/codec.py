"""JSON text in the project's versioned envelope, as the store writes and reads it.

Every structured value the store keeps (creation options, snapshots, records) is JSON data (a
game's codec made the snapshots and records), wrapped by :func:`hipparchusd.codec.envelope`
(``{"version", "kind", "data"}``, kinds ``options``, ``snapshot`` and ``record`` at version
:data:`STORE_VERSION`) and written as compact JSON text. No game is imported here.
"""

from __future__ import annotations

import json
from typing import Any

from ..codec import InvalidState, envelope, open_envelope
from .base import StoreError

#: Version of the store's own envelopes.
STORE_VERSION = 1


def dump(kind: str, data: Any) -> str:
    """``data`` (already unstructured: dicts, lists, strings, numbers) as enveloped JSON text.

    Raises:
        StoreError: ``data`` cannot be written as JSON.
    """
    try:
        return json.dumps(
            envelope(kind, STORE_VERSION, data), separators=(",", ":"), allow_nan=False
        )
    except (TypeError, ValueError) as error:
        raise StoreError(f"cannot store this {kind}: {error}") from None


def load(text: str, kind: str, where: str) -> Any:
    """The data inside enveloped JSON ``text`` that must hold a ``kind``, brought up to the
    current version by :func:`hipparchusd.codec.open_envelope` (its migrations).

    ``where`` names the place (file and game) for error messages.

    Raises:
        StoreError: not JSON, not an envelope, another kind, or a serialization version this
            program cannot read (a newer one, or an older one without a migration).
    """
    try:
        document = json.loads(text)
    except (TypeError, ValueError) as error:
        raise StoreError(f"{where}: the stored {kind} is not JSON ({error})") from None
    try:
        return open_envelope(document, kind, STORE_VERSION)
    except InvalidState as error:  # UnsupportedVersion included
        raise StoreError(f"{where}: the stored {kind} cannot be read: {error}") from None
