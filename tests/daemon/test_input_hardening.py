"""Input the daemon refuses without echoing it whole, without reading non-ASCII letters as
suits, and without logging anyone's cards (issue 16 items 8 and 9)."""

from __future__ import annotations

import logging
import re

import pytest

from hipparchusd.lobby import Lobby, Session
from hipparchusd.protocol import ECHO_LIMIT, parse_request

from .client import Client
from .conftest import StartServer
from .helpers import DEAL, HAND0, HAND1, seated_game

#: Characters that Unicode case mapping or digit rules turn into ASCII suit letters or digits:
#: long s (upper S), Kelvin sign (lower k), dotless i, fullwidth S, Arabic-Indic five,
#: fullwidth one, superscript one.
LOOKALIKES = ("\u017f", "\u212a", "\u0131", "\uff33", "\u0665", "\uff11", "\u00b9")


def _refused(lobby: Lobby, session: Session, line: str) -> tuple[str, str]:
    request = parse_request(line)
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None and response.error is not None, (line, response)
    return str(response.error.code), response.error.message


def _started(lobby: Lobby) -> tuple[Session, Session]:
    a, b = lobby.connect("10.0.0.1:1"), lobby.connect("10.0.0.2:1")
    lines = ((a, f"new hipparchus leader=0 deal={DEAL}"), (a, "join g1 0"), (b, "join g1 1"))
    for session, line in lines:
        request = parse_request(line)
        assert request is not None
        response = lobby.handle(session, request).response
        assert response is not None and response.error is None, response
    return a, b


@pytest.mark.parametrize("char", LOOKALIKES)
def test_notation_reads_only_ascii_letters_and_digits(char: str) -> None:
    lobby = Lobby()
    a, _ = _started(lobby)
    # Every option of new, and a deal whose Suns are written with a look-alike.
    for line in (
        f"new hipparchus deal={DEAL.replace('S', char)}",
        f"new hipparchus deal={DEAL.replace('S', char).lower()}",
        f"new hipparchus seed=1{char}",
        f"new hipparchus seed={char}",
        f"new hipparchus leader={char}",
    ):
        assert _refused(lobby, a, line)[0] == "bad-option", line
    # Plays: the suit letter, the count and the position.
    before = lobby.tables["g1"].game.view_data(0)
    for word in (f"1{char}@1", f"{char}S@1", f"1S@{char}", f"1{char}@1".lower()):
        assert _refused(lobby, a, f"play g1 {word}")[0] == "illegal-move", word
    assert _refused(lobby, a, f"join g1 {char}")[0] in ("syntax", "already-seated")
    c = lobby.connect("10.0.0.3:1")
    assert _refused(lobby, c, f"join g1 name={char}")[0] == "bad-option"
    assert lobby.tables["g1"].game.view_data(0) == before  # refusals change nothing
    assert len(lobby.tables) == 1  # nothing was created by a refused new


def test_no_error_echoes_more_than_a_fixed_length_of_a_word() -> None:
    lobby = Lobby()
    a, _ = _started(lobby)
    long_word = "9" * 4000
    long_name = "x" * 4000
    lines = [
        f"new hipparchus seed={long_word}",
        f"new hipparchus leader={long_name}",
        f"new hipparchus deal={long_name}",
        f"new hipparchus {long_name}=1",
        f"new hipparchus {long_name}=1 {long_name}=2",
        f"new hipparchus ={long_name}",
        f"new {long_name}",
        f"join {long_name}",
        f"join g1 {long_word}",
        f"join g1 {long_name}",
        f"join g1 name={long_name}",
        f"join g1 {long_name}=1",
        f"state {long_name}",
        f"watch {long_name}",
        f"play g1 {long_word}",
        f"play g1 1S@{long_word}",
        f"play g1 {long_name}",
        f"help {long_name}",
        f"resume {long_name}",
        f"{long_name}",
        f"format {long_name}",
    ]
    for line in lines:
        try:
            _, message = _refused(lobby, a, line)
        except Exception as error:  # parse_request refuses the bad command itself
            raise AssertionError(line[:60]) from error
        # A cut word is at most ECHO_LIMIT characters of it (plus quotes and "...").
        assert not re.search(f"[9x]{{{ECHO_LIMIT + 1}}}", message), (line[:60], message[:120])
        assert len(message) < 300, (line[:60], len(message))


def test_an_option_without_a_value_is_a_bad_option() -> None:
    lobby = Lobby()
    a = lobby.connect()
    for line in ("new hipparchus seed=", "new hipparchus leader=", "new hipparchus deal="):
        code, message = _refused(lobby, a, line)
        assert code == "bad-option" and "no value" in message, (line, message)
    assert _refused(lobby, a, "new hipparchus =1")[0] == "syntax"
    lobby.handle(a, parse_request("new hipparchus") or pytest.fail())
    assert _refused(lobby, a, "join g1 name=") == ("bad-option", "option 'name' has no value")


async def test_logs_carry_no_cards_even_at_debug_level(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server = await start_server(log_level="debug")
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    try:
        game = await seated_game(a, b)
        told: list[str] = []
        # Seat 0 holds S M S M ...: each of these names a card of its hand in the refusal.
        for word in ("1M@1", "1S@2", "2S@1", "1E@3", "1S@14", "3E@11x"):
            reply = await a.fail(f"play {game} {word}", "illegal-move")
            told.append(reply.text)
        await b.fail(f"play {game} 1E@1", "not-your-turn")
        await a.ok(f"play {game} 1S@1")
        reply = await b.fail(f"play {game} 1S@1", "illegal-move")
        told.append(reply.text)
    finally:
        await a.aclose()
        await b.aclose()
    assert any("your hand" in text or "Sun" in text or "Moon" in text for text in told), told
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "play" in logged and "illegal-move" in logged  # the refusals are logged...
    for text in told:
        assert text not in logged  # ...but not the games' reasons, which name cards
    for word in ("Sun", "Moon", "Earth", "your hand", HAND0, HAND1, DEAL):
        assert word not in logged, word
