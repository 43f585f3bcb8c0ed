"""The install that systemd/README.md documents, and the CI script that tests it (issue 16
items 10 and 11, issue 25 point 17): no ``pip install hipparchusd`` (the package is not
published), not to install nor to upgrade; ``build`` in a virtual environment of its own (Debian
12's Python is externally managed); the units checked before the install and after it, the web
socket too; the wheel steps run in CI, and CI installs packages only as root with apt and cleans
up after itself."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CI = (REPO / ".ci" / "run").read_text()
README = (REPO / "systemd" / "README.md").read_text()


def section(title: str) -> str:
    """The text of README's section ``## <title>``, up to the next section."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else len(README)]


def blocks(text: str) -> list[tuple[str, str]]:
    """The indented code blocks of ``text``, each with the prose paragraph just before it:
    ``[(paragraph, code)]``, the code without its four spaces of indentation."""
    found: list[tuple[str, str]] = []
    paragraph: list[str] = []
    code: list[str] = []
    ended = False  # a blank line closed the paragraph: the next prose line starts a new one
    for line in [*text.splitlines(), "(end)"]:
        if line.startswith("    "):
            code.append(line[4:])
        elif not line.strip():
            ended = True
        else:
            if code:
                found.append((" ".join(paragraph), "\n".join(code)))
                code = []
            if ended:
                paragraph, ended = [], False
            paragraph.append(line)
    return found


def test_the_readme_installs_from_a_checkout_or_a_wheel_built_from_it() -> None:
    assert not re.search(r"pip install hipparchusd\b", README)
    assert "pip install ." in README
    assert "pip install dist/hipparchusd-*.whl" in README
    assert "hipparchusd --check-config" in README


def test_the_wheel_is_built_with_build_from_a_virtual_environment_of_its_own() -> None:
    # Debian 12's Python is externally managed: `python3 -m pip install build` is refused.
    install = section("Install")
    assert "python3 -m pip install" not in install
    pip_build = re.search(r"(\S+)/bin/pip install build\n", install)
    assert pip_build is not None
    build_env = pip_build.group(1)
    venv = install.index(f"python3 -m venv {build_env}\n")
    wheel = install.index(f"{build_env}/bin/python -m build --wheel")
    assert venv < pip_build.start() < wheel


def test_the_upgrade_installs_the_new_checkout_or_wheel_not_a_name_pip_cannot_find() -> None:
    upgrade = section("Upgrade")
    # `pip install --upgrade hipparchusd` looks the name up on PyPI, where it is not.
    assert not re.search(r"pip install[^\n]* hipparchusd\s", upgrade)
    commands = "\n".join(code for _, code in blocks(upgrade))
    assert "/opt/hipparchusd/bin/pip install .  " in commands
    # A wheel of the installed version number is skipped unless forced.
    assert re.search(r"/opt/hipparchusd/bin/pip install --force-reinstall \S+\.whl", commands)
    for unit in ("hipparchusd.service", "hipparchusd.socket", "hipparchusd-web.socket"):
        assert f"systemd/{unit}" in commands, unit
    check = commands.index("/opt/hipparchusd/bin/hipparchusd --check-config")
    assert commands.index("pip install") < check < commands.index("systemctl restart")


def test_the_units_are_checked_before_and_after_the_install_with_the_web_socket() -> None:
    (before_text, before), (after_text, after) = blocks(section("Checking the units"))
    assert "Before installing" in before_text and "After installing" in after_text
    for code in (before, after):
        assert "hipparchusd-web.socket" in code and "systemd-analyze security" in code
    assert "/opt/hipparchusd" in before  # replaced, since nothing is installed there yet
    assert "/opt/hipparchusd" not in after.replace("/opt/hipparchusd/bin/hipparchusd", "")


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is missing (Debian package 'systemd'; .ci/run installs it)",
)
def test_the_units_check_before_the_install_passes_as_written(tmp_path: Path) -> None:
    """The reader's steps, run as they are in a checkout: only the checkout's ``.venv`` is
    replaced by this test run's own (the one next to the running Python)."""
    (_, before), _ = blocks(section("Checking the units"))
    script = Path(sys.executable).parent / "hipparchusd"
    assert "$PWD/.venv/bin/hipparchusd" in before
    steps = before.replace("$PWD/.venv/bin/hipparchusd", str(script))
    result = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", steps],
        cwd=REPO,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        # systemd-analyze takes a few seconds; generous for a loaded machine.
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Overall exposure level for hipparchusd.service" in result.stdout
    assert list(tmp_path.iterdir()) == []  # the copies are removed


def test_ci_builds_the_wheel_installs_it_afresh_and_checks_the_configuration() -> None:
    build = CI.index("-m build --wheel")
    venv = CI.index('python3 -m venv "$wheel_check/venv"')
    install = CI.index('"$wheel_check/venv/bin/pip" install "$wheel_check"/dist/hipparchusd-*.whl')
    check = CI.index('"$wheel_check/venv/bin/hipparchusd" --config')
    assert build < venv < install < check
    assert "--check-config" in CI[check:]


def test_ci_installs_packages_only_as_root_with_apt() -> None:
    lines = CI.splitlines()
    for number, line in enumerate(lines):
        if "apt-get install" in line:
            guard = "\n".join(lines[max(0, number - 3) : number + 1])
            assert '"$(id -u)" = 0' in guard and "command -v apt-get" in guard, line


def test_ci_removes_its_temporary_folders_at_exit() -> None:
    trap = re.search(r"trap '([^']*)' EXIT", CI)
    assert trap is not None
    assert trap.start() < CI.index("make -s -C clients/c")
    for variable in ("client_build", "wheel_check"):
        assert f'"${variable}"' in trap.group(1)
        assert f"{variable}=$(mktemp -d)" in CI
