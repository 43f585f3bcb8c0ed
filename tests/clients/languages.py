"""The six example bots (clients/<language>/) as commands the harness can run.

Python, JavaScript (node) and shell (bash) run from source; C, Rust and Java are built first,
once per test session, into a temporary directory, with warnings as errors (as .ci/run does).
A language whose toolchain is not on the machine is skipped with the missing tool named (never
silently); a failed build fails the test, with the compiler's output.

Use the ``bots`` fixture (tests/clients/conftest.py): ``bots.command("rust")``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import CLIENTS

LANGUAGES = ("python", "javascript", "shell", "c", "rust", "java")
"""Every example bot, in the order the tests seat them."""

BUILD_TIMEOUT = 600.0

C_FLAGS = "-std=c99 -Wall -Wextra -pedantic -Werror -O2"
"""The C client must build without a warning (issue 4): warnings are errors here and in CI."""


def require(language: str, *tools: str) -> None:
    """Skip the test, naming what is missing, unless every tool is on PATH."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{language} client not tested: {', '.join(missing)} not found on PATH")


class BuildFailed(Exception):
    """A build command exited non-zero; the message holds its output."""


def run_build(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a build command. Raises :class:`BuildFailed` (with the output) on a non-zero exit."""
    done = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    if done.returncode != 0:
        raise BuildFailed(
            f"build failed: {' '.join(command)} (exit {done.returncode})\n"
            f"{done.stdout}\n{done.stderr}"
        )


def build_c(out: Path) -> list[str]:
    """``make`` with warnings as errors, objects and binary in ``out``."""
    cc = os.environ.get("CC", "cc")
    require("C", cc, "make")
    run_build(["make", f"BUILD={out}", f"CC={cc}", f"CFLAGS={C_FLAGS}"], cwd=CLIENTS / "c")
    return [str(out / "hipparchus-bot")]


def build_rust(out: Path) -> list[str]:
    """``cargo build --offline --locked`` (std only: nothing to download), target in ``out``."""
    require("Rust", "cargo")
    run_build(
        ["cargo", "build", "--offline", "--locked", "--quiet"],
        cwd=CLIENTS / "rust",
        env={"CARGO_TARGET_DIR": str(out)},
    )
    return [str(out / "debug" / "hipparchus-bot")]


def build_java(out: Path) -> list[str]:
    """Plain ``javac`` with every lint as an error, classes in ``out``."""
    require("Java", "javac", "java")
    sources = sorted(str(path) for path in (CLIENTS / "java").glob("*.java"))
    run_build(["javac", "-Xlint:all", "-Werror", "-d", str(out), *sources], cwd=CLIENTS / "java")
    return [shutil.which("java") or "java", "-cp", str(out), "RandomBot"]


BUILDERS: dict[str, Callable[[Path], list[str]]] = {
    "c": build_c,
    "rust": build_rust,
    "java": build_java,
}

# language -> (the program it needs on PATH, the bot's source)
INTERPRETED: dict[str, tuple[str, Path]] = {
    "javascript": ("node", CLIENTS / "javascript" / "bot.mjs"),
    "shell": ("bash", CLIENTS / "shell" / "bot.sh"),
}


class Bots:
    """Each language's bot command, built on first use and kept for the session."""

    def __init__(self, build_root: Callable[[str], Path]) -> None:
        self._build_root = build_root
        self._built: dict[str, list[str] | BuildFailed] = {}

    def command(self, language: str) -> list[str]:
        """The command that runs ``language``'s bot (the harness adds the arguments).

        Skips the test when the toolchain is missing; fails it when the build fails (every
        later test of that language fails with the same output, without building again).
        """
        if language == "python":
            return [sys.executable, str(CLIENTS / "python" / "bot.py")]
        if language in INTERPRETED:
            tool, source = INTERPRETED[language]
            require(language, tool)
            return [shutil.which(tool) or tool, str(source)]
        if language not in self._built:
            builder = BUILDERS[language]  # KeyError: not one of LANGUAGES
            try:
                self._built[language] = builder(self._build_root(language))
            except BuildFailed as failed:
                self._built[language] = failed
        built = self._built[language]
        if isinstance(built, BuildFailed):
            pytest.fail(str(built))
        return list(built)
