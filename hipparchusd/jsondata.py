"""JSON data, as the codecs make it and the wire carries it.

One alias that every layer types its views, events, records and snapshots with (the games, the
codec, the lobby, the store, the protocol, the engine). It lives apart from all of them so
that no layer imports another only for a type.
"""

from __future__ import annotations

from typing import TypeAlias

#: JSON data: what views, events and records become on the wire (``json.loads`` gives one).
JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"

#: A JSON object: a view, an event's fields, a record.
JSONObject: TypeAlias = "dict[str, JSON]"
