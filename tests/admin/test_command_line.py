"""``hipparchusd admin``'s own part (hipparchusd.admin.command_line): which socket it asks,
and what it says and exits with when nobody answers (the daemon's answers are tested with a
daemon, tests/daemon/test_admin.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipparchusd.admin.command_line import EX_UNAVAILABLE, main, socket_path
from hipparchusd.admin.wire import WireError, read_answer, read_request, request_line


def test_the_socket_given_wins_then_the_files_then_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(tmp_path / "run"))
    assert socket_path(str(tmp_path / "given.sock"), "") == tmp_path / "given.sock"
    configured = tmp_path / "configured.sock"
    configured.touch()
    config = tmp_path / "config.toml"
    config.write_text(f'admin-socket = "{configured}"\n')
    assert socket_path(None, str(config)) == configured
    assert socket_path(None, "") == tmp_path / "run" / "admin.sock"


def test_no_daemon_on_the_socket_says_so_and_exits_69(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nobody.sock"
    assert main(["--socket", str(missing), "status"]) == EX_UNAVAILABLE
    assert f"no answer on {missing}" in capsys.readouterr().err


def test_a_bad_configuration_file_exits_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("admin-sockett = 1\n")
    assert main(["--config", str(config), "status"]) == 78
    assert "unknown key" in capsys.readouterr().err


def test_the_messages_both_ways() -> None:
    assert read_request(request_line("end", ["g3", "two words"])) == ("end", ["g3", "two words"])
    for bad in (b"not json", b"[]", b'{"command": ""}', b'{"command": "x", "args": [1]}'):
        with pytest.raises(WireError):
            read_request(bad)
    with pytest.raises(WireError):
        read_answer(b'{"data": 1}')
    refused = read_answer(b'{"ok": false, "code": "syntax", "message": "why"}')
    assert not refused.ok and (refused.code, refused.message) == ("syntax", "why")
