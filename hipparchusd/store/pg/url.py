"""How the PostgreSQL store names its database: in messages and logs (:func:`describe`,
never a password) and to its writer process (:data:`URL_VARIABLE`). Standard library only: the
daemon imports it whatever its store."""

from __future__ import annotations

from typing import Final
from urllib.parse import parse_qs, urlsplit

#: The environment variable that gives the writer process its database's URL (not its command
#: line, which ``ps`` shows to everyone).
URL_VARIABLE: Final = "HIPPARCHUSD_STORE_URL"


def describe(url: str) -> str:
    """``url`` (``postgresql://user@host:port/database?...``) as messages name it:
    ``postgresql://host:port/database``, never a user's password."""
    try:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        host = parts.hostname or query.get("host", ["localhost"])[0]
        port = parts.port or int(query.get("port", ["5432"])[0])
    except ValueError:
        return "the PostgreSQL store"
    database = parts.path.lstrip("/") or query.get("dbname", [""])[0] or parts.username or "?"
    return f"postgresql://{host}:{port}/{database}"
