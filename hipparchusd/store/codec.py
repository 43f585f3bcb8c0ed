"""JSON text in the project's versioned envelope, as the store writes and reads it.

Every structured value the store keeps (creation options, snapshots, records) is the
unstructured form made by the project's cattrs converter, wrapped by
:func:`hipparchusd.serialization.envelope` (``{"version", "kind", "data"}``) and written as
compact JSON text.
"""

from __future__ import annotations

import json
from typing import Any

from ..serialization import SCHEMA_VERSION, envelope
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
    """The data inside enveloped JSON ``text`` that must hold a ``kind``.

    ``where`` names the place (file and game) for error messages.

    Raises:
        StoreError: not JSON, not an envelope, another kind, or a serialization version other
            than :data:`~hipparchusd.serialization.SCHEMA_VERSION` (a newer one is refused;
            there is no older one yet).
    """
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as error:
        raise StoreError(f"{where}: the stored {kind} is not JSON ({error})") from None
    if not isinstance(value, dict) or set(value) != {"version", "kind", "data"}:
        raise StoreError(f"{where}: the stored {kind} is not in a versioned envelope")
    if value["kind"] != kind:
        raise StoreError(f"{where}: expected a stored {kind}, found {value['kind']!r}")
    version = value["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise StoreError(f"{where}: the stored {kind} has a bad version {version!r}")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{where}: the stored {kind} has serialization version {version}, newer than this "
            f"hipparchusd understands ({SCHEMA_VERSION}); run a newer hipparchusd"
        )
    if version < SCHEMA_VERSION:
        raise StoreError(
            f"{where}: the stored {kind} has serialization version {version}, and this "
            f"hipparchusd has no migration from it to {SCHEMA_VERSION}"
        )
    return value["data"]
