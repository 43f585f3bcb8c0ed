"""JSON text in the project's versioned envelope, as the store writes and reads it.

Every structured value the store keeps (creation options, snapshots, records) is the
unstructured form made by the project's cattrs converter, wrapped by
:func:`hipparchusd.serialization.envelope` (``{"version", "kind", "data"}``) and written as
compact JSON text.
"""

from __future__ import annotations

import json
from typing import Any

from ..serialization import InvalidState, envelope, open_envelope
from .base import StoreError


def dump(kind: str, data: Any) -> str:
    """``data`` (already unstructured: dicts, lists, strings, numbers) as enveloped JSON text.

    Raises:
        StoreError: ``data`` cannot be written as JSON.
    """
    try:
        return json.dumps(envelope(kind, data), separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise StoreError(f"cannot store this {kind}: {error}") from None


def load(text: str, kind: str, where: str) -> Any:
    """The data inside enveloped JSON ``text`` that must hold a ``kind``, brought up to the
    current serialization version by :func:`hipparchusd.serialization.open_envelope` (its
    migrations).

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
        return open_envelope(document, kind)
    except InvalidState as error:  # UnsupportedVersion included
        raise StoreError(f"{where}: the stored {kind} cannot be read: {error}") from None
