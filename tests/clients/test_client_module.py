"""hipparchusd.client (the Python client module) against scripted server lines, one
PROTOCOL.md rule per test: greeting, ids, responses, events kept in order, error codes, modes."""

from __future__ import annotations

import ast
import random
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hipparchusd.client
from hipparchusd.client import (
    ERRORS,
    BadSyntax,
    Client,
    ConnectionClosed,
    IllegalMove,
    Pick,
    ProtocolViolation,
    ServerError,
    can_move,
    int_list,
    parse_event,
    parse_fields,
    random_move,
    split_list,
    split_lists,
)

#: The client package's folder, the one copy of its code.
CLIENT_PACKAGE = Path(hipparchusd.client.__file__).parent

HELLO = b"* server hello name=hipparchusd version=0.1.0 protocol=1\n"


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    client_end, server_end = socket.socketpair()
    client_end.settimeout(5)
    server_end.settimeout(5)
    yield client_end, server_end
    client_end.close()
    server_end.close()


def sent(server_end: socket.socket) -> bytes:
    return server_end.recv(65536)


def test_greeting_is_read_on_connect(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    client = Client(client_end)
    assert client.greeting == {"name": "hipparchusd", "version": "0.1.0", "protocol": "1"}


def test_no_greeting_is_a_protocol_violation(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(b"= hello\n\n")
    with pytest.raises(ProtocolViolation):
        Client(client_end)


def test_request_carries_an_id_and_keeps_events_in_order(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    client = Client(client_end)
    server_end.sendall(
        b"* g1 2 joined seat=1 name=bob\n"
        b"* g1 3 round-started round_number=1 leader=0 round_wins=0,0\n"
        b"=1 1S@1 2S@1\n1M@3\n\n"
        b"* g1 4 turn seat=0 lead=-\n"
    )
    response = client.request("legal", "g1")
    assert sent(server_end) == b"1 legal g1\n"
    assert response.request_id == 1
    assert response.words() == ["1S@1", "2S@1", "1M@3"]
    events = [client.next_event() for _ in range(3)]
    assert [(e.game, e.seq, e.kind) for e in events] == [
        ("g1", 2, "joined"),
        ("g1", 3, "round-started"),
        ("g1", 4, "turn"),
    ]
    assert events[1].data == {"round_number": "1", "leader": "0", "round_wins": "0,0"}
    assert events[2].data["lead"] == "-"


def test_multi_line_payload_fields(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"=1 game=g1\nkind=hipparchus\nview.won=0,2,1/3,0,0\n\n")
    fields = Client(client_end).request("state", "g1").fields()
    assert fields == {"game": "g1", "kind": "hipparchus", "view.won": "0,2,1/3,0,0"}


def test_empty_payload(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"=1\n\n")
    assert Client(client_end).request("legal", "g1").words() == []


def test_failure_raises_the_class_of_its_code(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"?1 illegal-move 3E@1 is not a play of your hand\n\n")
    with pytest.raises(IllegalMove) as caught:
        Client(client_end).request("play", "g1", "3E@1")
    assert caught.value.code == "illegal-move"
    assert caught.value.message == "3E@1 is not a play of your hand"
    assert caught.value.request_id == 1


def test_unknown_code_is_still_a_server_error(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"?1 brand-new-code something\n\n")
    with pytest.raises(ServerError) as caught:
        Client(client_end).request("name")
    assert type(caught.value) is ServerError
    assert caught.value.code == "brand-new-code"


def test_every_protocol_error_code_has_a_class() -> None:
    codes = [
        "syntax",
        "unknown-command",
        "unknown-kind",
        "bad-option",
        "unknown-game",
        "not-seated",
        "already-seated",
        "seat-taken",
        "not-your-turn",
        "illegal-move",
        "game-over",
        "game-not-over",
        "not-started",
        "not-following",
        "bad-token",
        "line-too-long",
        "limit",
        "shutting-down",
        "internal",
    ]
    assert sorted(ERRORS) == sorted(codes)
    assert all(ERRORS[code].code == code for code in codes)
    assert ERRORS["syntax"] is BadSyntax


def test_answer_to_another_id_is_a_protocol_violation(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"=7 hipparchusd\n\n")
    with pytest.raises(ProtocolViolation):
        Client(client_end).request("name")


def test_json_mode(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(
        HELLO
        + b'=1 {"format": "json"}\n\n'
        + b'* {"game": "g1", "seq": 5, "kind": "played", "data": {"seat": 0, "play": "2S@1"}}\n'
        + b'=2 {"game": "g1", "move": "2S@1"}\n\n'
        + b'?3 {"code": "not-your-turn", "message": "seat 1 is to move"}\n\n'
    )
    client = Client(client_end, json=True)
    assert client.json_mode
    assert client.request_json("play", "g1", "2s@1") == {"game": "g1", "move": "2S@1"}
    assert sent(server_end) == b"1 format json\n2 play g1 2s@1\n"
    with pytest.raises(ServerError) as caught:
        client.request_json("play", "g1", "1S@1")
    assert caught.value.code == "not-your-turn"
    event = client.next_event()
    assert (event.game, event.seq, event.kind) == ("g1", 5, "played")
    assert event.data == {"seat": 0, "play": "2S@1"}


def test_request_json_needs_json_mode(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    with pytest.raises(RuntimeError):
        Client(client_end).request_json("name")


def test_words_with_blanks_are_refused_before_sending(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    client = Client(client_end)
    for bad in ("two words", "", "line\nbreak"):
        with pytest.raises(ValueError):
            client.send("join", "g1", bad)
    server_end.setblocking(False)
    with pytest.raises(BlockingIOError):
        server_end.recv(10)


def test_closed_connection(pair: tuple[socket.socket, socket.socket]) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO + b"* g1 1 joined seat=0 name=a\n")
    client = Client(client_end)
    server_end.shutdown(socket.SHUT_WR)
    assert [e.kind for e in client.events()] == ["joined"]
    with pytest.raises(ConnectionClosed):
        client.request("name")


def test_text_forms_of_section_6() -> None:
    assert parse_fields("seat=0 token=5f0c trick.lead=2E@5") == {
        "seat": "0",
        "token": "5f0c",
        "trick.lead": "2E@5",
    }
    assert split_list("1,0") == ["1", "0"]
    assert split_list("-") == []
    assert split_lists("0,2,1/3,0,0") == [["0", "2", "1"], ["3", "0", "0"]]
    with pytest.raises(ProtocolViolation):
        parse_fields(["noequals"])


def test_server_event() -> None:
    event = parse_event("* server shutdown grace=10", json_mode=False)
    assert (event.game, event.seq, event.kind, event.data) == (
        "server",
        None,
        "shutdown",
        {"grace": "10"},
    )


def test_answer_without_id_is_the_answer_to_the_waiting_request(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    # e.g. `? line-too-long`: the server could not read the id of a line it discarded.
    client_end, server_end = pair
    server_end.sendall(HELLO + b"? line-too-long the line exceeded 4096 bytes\n\n")
    with pytest.raises(ServerError) as caught:
        Client(client_end).request("name")
    assert caught.value.code == "line-too-long"
    assert caught.value.request_id is None


def test_legal_reads_a_list_or_a_pick_in_text_mode(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    client = Client(client_end)
    server_end.sendall(
        b"=1 JS V1 M7\n\n=2 pick 3 E1 J2 M7 V1 to=1,2,3\n\n=3 pick 2 E1 J2\n\n=4\n\n"
    )
    assert client.legal("g1") == ["JS", "V1", "M7"]
    pick = client.legal("g1")
    assert pick == Pick(3, ("E1", "J2", "M7", "V1"), (1, 2, 3))
    assert client.legal("g1") == Pick(2, ("E1", "J2"), None)
    assert client.legal("g1") == []
    assert sent(server_end) == b"1 legal g1\n2 legal g1\n3 legal g1\n4 legal g1\n"
    assert pick.move(["V1", "E1", "M7"]) == "V1,E1,M7"
    with pytest.raises(ValueError):
        pick.move(["V1", "V1", "M7"])
    with pytest.raises(ValueError):
        pick.move(["V1", "E1", "S5"])


def test_legal_reads_a_list_or_a_pick_in_json_mode(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    client_end, server_end = pair
    server_end.sendall(HELLO)
    client = Client(client_end)
    server_end.sendall(b'=1 {"format": "json"}\n\n')
    client.set_format("json")
    server_end.sendall(
        b'=2 {"game": "g1", "moves": [{"move": "JS"}, {"move": "V1"}]}\n\n'
        b'=3 {"game": "g1", "pick": 2, "of": ["E1", "J2", "M7"], "to": [4, 4]}\n\n'
        b'=4 {"game": "g1", "pick": 4, "of": ["E1", "J2", "M7", "N7"], "to": null}\n\n'
    )
    assert client.legal("g1") == ["JS", "V1"]
    assert client.legal("g1") == Pick(2, ("E1", "J2", "M7"), (4, 4))
    assert client.legal("g1") == Pick(4, ("E1", "J2", "M7", "N7"), None)


def test_random_move_is_a_legal_move_of_either_form() -> None:
    rng = random.Random(5)
    pick = Pick(3, ("E1", "J2", "M7", "N7", "V1"), (1, 2, 3))
    for _ in range(50):
        chosen = random_move(pick, rng).split(",")
        assert len(chosen) == len(set(chosen)) == 3 and set(chosen) <= set(pick.items)
        assert random_move(["JS", "V1"], rng) in ("JS", "V1")
    # Every choice of the pick comes up: the move is a uniform sample, in random order.
    seen = {random_move(Pick(2, ("A", "B", "C")), rng) for _ in range(300)}
    assert seen == {"A,B", "B,A", "A,C", "C,A", "B,C", "C,B"}
    for nothing in ([], Pick(2, ("E1",)), Pick(3, ())):
        assert not can_move(nothing)
        with pytest.raises(ValueError):
            random_move(nothing, rng)


def test_int_list_reads_text_and_json_seat_lists() -> None:
    assert int_list("0,2,5") == [0, 2, 5]
    assert int_list("-") == []
    assert int_list([1, 3]) == [1, 3]
    assert int_list(None) == []


def test_the_client_folder_works_copied_elsewhere(tmp_path: Path) -> None:
    """clients/python/README.md: the folder ``hipparchusd/client/`` copied to another project as
    ``hipparchus_client/`` imports with the standard library only (``-S -s -E``: no
    site-packages, no environment) and nothing of the ``hipparchusd`` package."""
    shutil.copytree(
        CLIENT_PACKAGE, tmp_path / "hipparchus_client", ignore=shutil.ignore_patterns("__pycache__")
    )
    program = (
        "import sys; from hipparchus_client import Client, Pick, random_move, ERRORS; "
        "print(sorted(name for name in sys.modules if name.startswith('hipparchus')))"
    )
    run = subprocess.run(
        [sys.executable, "-S", "-s", "-E", "-c", program],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,  # an import: seconds at most even on a loaded machine
    )
    assert run.returncode == 0, run.stderr
    loaded = set(ast.literal_eval(run.stdout))
    assert "hipparchus_client" in loaded
    assert not {name for name in loaded if name.startswith("hipparchusd")}
