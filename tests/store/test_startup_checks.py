"""A state directory that cannot be used stops start-up with a clear message, and nothing in it
is changed: damaged or foreign files, a directory that cannot be written, a second daemon."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import trio
from store_helpers import open_sqlite, without_root_privileges

from hipparchusd.store.base import StoreError
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME


async def _store_with_games(state_dir: Path, games: int) -> Path:
    async with SqliteStore.open(state_dir) as store:
        for number in range(games):
            await store.create_game(f"game-{number}", "hipparchus", {"note": "x" * 200}, 1.0)
            await store.add_move(f"game-{number}", 0, "1S@1")
    # Closing checkpointed the log into the database file.
    path = state_dir / DB_NAME
    assert not path.with_name(DB_NAME + "-wal").exists()
    return path


def _files(state_dir: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in state_dir.iterdir() if path.is_file()}


async def _refused_untouched(state_dir: Path, message: str) -> None:
    """Assert that opening the store in ``state_dir`` fails with ``message`` (a regex) and
    leaves every file there as it was."""
    before = _files(state_dir)
    with pytest.raises(StoreError, match=message):
        async with SqliteStore.open(state_dir):
            raise AssertionError("opened")
    assert _files(state_dir) == before


async def test_a_file_that_is_not_a_database_is_refused_untouched(state_dir: Path) -> None:
    path = await _store_with_games(state_dir, 3)
    path.write_bytes(random.Random(1).randbytes(path.stat().st_size))
    await _refused_untouched(state_dir, r"is not a SQLite database .*will not overwrite it")


async def test_garbage_inside_the_database_is_found_at_start_up(state_dir: Path) -> None:
    path = await _store_with_games(state_dir, 300)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    data[2 * page : 6 * page] = random.Random(2).randbytes(4 * page)  # header intact
    path.write_bytes(bytes(data))
    await _refused_untouched(state_dir, rf"{DB_NAME} (is damaged|cannot be read).*move it aside")


async def test_a_truncated_database_is_found_at_start_up(state_dir: Path) -> None:
    path = await _store_with_games(state_dir, 300)
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)
    await _refused_untouched(state_dir, rf"{DB_NAME} (is damaged|cannot be read).*move it aside")


async def test_a_state_directory_under_a_regular_file_is_refused(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(StoreError, match=r"cannot create the state directory .*file/state"):
        await open_sqlite(nursery, tmp_path / "file" / "state")
    with pytest.raises(StoreError, match="cannot create the state directory"):
        await open_sqlite(nursery, tmp_path / "file")


async def test_a_second_daemon_on_the_same_directory_is_refused(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    first = await open_sqlite(nursery, state_dir)
    try:
        with pytest.raises(
            StoreError, match=rf"in use by another hipparchusd \(pid {os.getpid()}\)"
        ):
            await open_sqlite(nursery, state_dir)
    finally:
        await first.aclose()
    second = await open_sqlite(nursery, state_dir)  # released on close
    await second.aclose()


_OPEN_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import trio

    from hipparchusd.store.base import StoreError
    from hipparchusd.store.sqlite import SqliteStore


    async def main() -> None:
        try:
            async with SqliteStore.open(Path(sys.argv[1])):
                pass
        except StoreError as error:
            print(error)
            sys.exit(3)


    trio.run(main)
    """
)


@pytest.mark.parametrize("mode", [0o500, 0o000])
def test_a_state_directory_that_cannot_be_written_is_refused(state_dir: Path, mode: int) -> None:
    prefix = without_root_privileges()
    state_dir.mkdir()
    state_dir.chmod(mode)
    try:
        result = subprocess.run(
            [*prefix, sys.executable, "-c", _OPEN_SCRIPT, str(state_dir)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        state_dir.chmod(0o700)
    assert result.returncode == 3, result.stderr
    assert result.stdout.strip() == (
        f"the state directory {state_dir} cannot be written: Permission denied"
    )
    assert list(state_dir.iterdir()) == []


def test_a_read_only_database_file_is_refused(state_dir: Path) -> None:
    prefix = without_root_privileges()
    script = _OPEN_SCRIPT.replace("pass\n", "print('ok')\n")
    first = subprocess.run(
        [sys.executable, "-c", script, str(state_dir)], capture_output=True, text=True
    )
    assert first.stdout.strip() == "ok", first.stderr
    path = state_dir / DB_NAME
    path.chmod(0o400)
    before = path.read_bytes()
    result = subprocess.run(
        [*prefix, sys.executable, "-c", _OPEN_SCRIPT, str(state_dir)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3, result.stderr
    assert str(path) in result.stdout
    assert path.read_bytes() == before
