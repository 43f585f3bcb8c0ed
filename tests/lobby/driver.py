"""Driving a :class:`~hipparchusd.lobby.Lobby` with no socket, the way h11 is tested with bytes:
request lines in, :class:`~hipparchusd.lobby.Result` values out (the response, the store calls,
the deliveries, the change still pending). Nothing here runs trio or a store.

The store calls are read through :func:`call_names` and :func:`store_calls` only, so that a
change of their representation touches this module alone.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from hipparchusd.lobby import Lobby, Result, Session
from hipparchusd.protocol import parse_request


def call_names(result: Result) -> list[str]:
    """The store calls ``result``'s commands name, in order (``add_move``, ``finish``...)."""
    return [command.call for command in result.store_calls]


def store_calls(result: Result) -> list[tuple[str, tuple[Any, ...]]]:
    """The store commands of ``result`` as (call, arguments in the call's order)."""
    return [(command.call, attrs.astuple(command, recurse=False)) for command in result.store_calls]


def observable(lobby: Lobby) -> Any:
    """Everything a client could learn from ``lobby`` now, and every seat's private position,
    as one comparable value: each table's lifecycle, seq, seat names, holders and token
    digests, spectators, and its game's views for every seat and a spectator (and its record
    data, the whole truth, once started); the connections' seats and watched games."""
    tables = {}
    for game_id, table in lobby.tables.items():
        game = table.game
        views = (
            [json.dumps(game.view_data(seat)) for seat in [None, *range(game.seat_count)]]
            if table.started
            else []
        )
        tables[game_id] = (
            table.lifecycle,
            table.seq,
            [(s.name, s.holder and s.holder.id, s.token_digest) for s in table.seats],
            [s.id for s in table.spectators],
            views,
            json.dumps(game.record_data()) if table.started else None,
            game.outcome,
        )
    sessions = {
        session.id: (dict(session.seats), sorted(session.watching), session.mode)
        for session in lobby.sessions.values()
    }
    return tables, sessions, lobby.active_games


class Driver:
    """A lobby and named connections. ``send`` carries a request out as the server does with
    a store that accepts everything (prepare, then commit); ``prepare`` stops before the
    commit."""

    def __init__(self, lobby: Lobby | None = None) -> None:
        self.lobby = lobby if lobby is not None else Lobby(clock=lambda: 1000.0)
        self.sessions: dict[str, Session] = {}
        #: The server's monotonic time given with each request (seconds): what the games'
        #: clocks read (issue 27). Tests of clocks set it; it stays 0 otherwise.
        self.now = 0.0

    def __getitem__(self, name: str) -> Session:
        session = self.sessions.get(name)
        if session is None:
            session = self.sessions[name] = self.lobby.connect(name)
        return session

    def prepare(self, who: str, line: str) -> Result:
        """``who``'s request ``line`` checked and worked out, its change still pending."""
        request = parse_request(line)
        assert request is not None, line
        return self.lobby.prepare(self[who], request, self.now)

    def send(self, who: str, line: str) -> Result:
        """``who``'s request ``line`` carried out."""
        result = self.prepare(who, line)
        result.commit()
        return result

    def ok(self, who: str, line: str) -> Result:
        """:meth:`send`, which must succeed."""
        result = self.send(who, line)
        assert result.response is not None and result.response.error is None, (
            line,
            result.response,
        )
        return result

    def fail(self, who: str, line: str, code: str) -> Result:
        """:meth:`send`, which must fail with ``code``."""
        result = self.send(who, line)
        assert result.response is not None and result.response.error is not None, line
        assert result.response.error.code == code, (line, result.response.error)
        return result

    def answer(self, who: str, result: Result) -> bytes:
        """The response of ``result`` as ``who``'s connection gets it (in its mode)."""
        assert result.response is not None
        return result.response.encode(self[who].mode)

    def heard(self, who: str, result: Result) -> list[bytes]:
        """The event lines ``result`` delivers to ``who``, in its mode."""
        session = self[who]
        return [d.message.encode(session.mode) for d in result.deliveries if session in d.sessions]

    def kinds_heard(self, who: str, result: Result) -> list[str]:
        """The kinds of the events ``result`` delivers to ``who``."""
        session = self[who]
        return [d.message.kind for d in result.deliveries if session in d.sessions]

    def events_heard(self, who: str, result: Result) -> list[tuple[int, str, dict[str, Any]]]:
        """(seq, kind, JSON data) of each event ``result`` delivers to ``who``."""
        session = self[who]
        return [
            (d.message.seq, d.message.kind, dict(d.message.data))
            for d in result.deliveries
            if session in d.sessions
        ]
