"""JSON text in the project's versioned envelope, as the store writes and reads it.

Every structured value the store keeps (creation options, snapshots, records) is JSON data (a
game's codec made the snapshots and records), wrapped by :func:`hipparchusd.codec.envelope`
(``{"version", "kind", "data"}``, kinds ``options``, ``snapshot`` and ``record`` at version
:data:`STORE_VERSION`) and written as compact JSON text. No game is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..codec import InvalidState, envelope, open_envelope
from ..jsondata import JSON
from .base import StoreError

#: Version of the store's own envelopes.
STORE_VERSION = 1


def dump(kind: str, data: JSON) -> str:
    """``data`` (JSON data: a game's codec made it) as enveloped JSON text.

    Raises:
        StoreError: ``data`` cannot be written as JSON.
    """
    try:
        return json.dumps(
            envelope(kind, STORE_VERSION, data), separators=(",", ":"), allow_nan=False
        )
    except (TypeError, ValueError) as error:
        raise StoreError(f"cannot store this {kind}: {error}") from None


def load(text: str, kind: str, where: str) -> JSON:
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
        data: JSON = open_envelope(document, kind, STORE_VERSION)
    except InvalidState as error:  # UnsupportedVersion included
        raise StoreError(f"{where}: the stored {kind} cannot be read: {error}") from None
    return data


def dump_options(options: Mapping[str, str]) -> str:
    """A game's creation options (key to value text, as given to ``new``) as enveloped JSON
    text of kind ``options`` (:func:`dump`)."""
    data: JSON = {key: value for key, value in options.items()}
    return dump("options", data)


def load_options(text: str, where: str) -> dict[str, str]:
    """The creation options in enveloped JSON ``text`` (:func:`dump_options`' inverse).

    Raises:
        StoreError: as :func:`load`, or the data is not an object whose values are all text.
    """
    data = load(text, "options", where)
    if not isinstance(data, dict):
        raise StoreError(f"{where}: the stored options are not a JSON object")
    options: dict[str, str] = {}
    for key, value in data.items():
        if not isinstance(value, str):
            raise StoreError(f"{where}: the stored option {key!r} is not text")
        options[key] = value
    return options
