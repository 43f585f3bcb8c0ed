"""Two versions of hipparchusd in one benchmark run: this tree and an old one out of git.

The benchmarks that compare old and new code (bench_rules.py, bench_engine.py,
compare_rules.py) run each version in a process of its own, with ``PYTHONPATH`` naming the
version's tree: the old tree is ``git archive <revision> hipparchusd`` unpacked into a
temporary folder, so the old code stays reachable after it is deleted from this tree.

Instruction counts come from callgrind (``valgrind --tool=callgrind``), which counts the same
whatever the machine's load: a workload's count is that of a run doing it ``N`` times less that
of a run doing the same set-up and none of it (start-up and imports cancel out), over ``N``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(revision: str, into: Path) -> Path:
    """The ``hipparchusd`` package of ``revision`` of this repository, unpacked under
    ``into`` (which is returned, to go into ``PYTHONPATH``).

    Raises:
        subprocess.CalledProcessError: ``revision`` is not known to git.
    """
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "hipparchusd"],
        capture_output=True,
        check=True,
    ).stdout
    with tempfile.TemporaryFile() as file:
        file.write(archive)
        file.seek(0)
        with tarfile.open(fileobj=file) as tar:
            tar.extractall(into, filter="data")
    return into


def run_in(tree: Path, script: Path, args: list[str], *, callgrind: bool = False) -> str:
    """Run ``script`` with ``args`` on the version in ``tree``; its output. With
    ``callgrind``, under callgrind with a fixed ``PYTHONHASHSEED``, and the output is the
    run's instruction count.

    Raises:
        RuntimeError: the script failed.
    """
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(script), *args]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        if callgrind:
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command]
            # A fixed string hash, so that the count repeats: with a random one, the layout of
            # the dicts and sets of strings moved an old tree's planets hand by about 1%.
            environment["PYTHONHASHSEED"] = "0"
        done = subprocess.run(command, env=environment, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} in {tree} failed:\n{done.stderr[-3000:]}")
        if not callgrind:
            return done.stdout
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"no instruction count in {out}")
        return totals.group(1)


def instructions(tree: Path, script: Path, args: list[str], count: int) -> float:
    """Instructions per repetition of the workload ``args`` of ``script`` on ``tree``, warm: a
    run of ``count + 1`` repetitions less a run of one, over ``count`` (the script takes the
    count as its last argument), so that what a process does once (imports made on first use,
    caches filled, code written out) is not counted as the work of every repetition."""
    full = int(run_in(tree, script, [*args, str(count + 1)], callgrind=True))
    first = int(run_in(tree, script, [*args, "1"], callgrind=True))
    return (full - first) / count
