"""The install that systemd/README.md documents, and the CI script that tests it (issue 16
items 10 and 11): no ``pip install hipparchusd`` (the package is not published), the wheel
steps run in CI, and CI installs packages only as root with apt and cleans up after itself."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CI = (REPO / ".ci" / "run").read_text()
README = (REPO / "systemd" / "README.md").read_text()


def test_the_readme_installs_from_a_checkout_or_a_wheel_built_from_it() -> None:
    assert not re.search(r"pip install hipparchusd\b", README)
    assert "pip install ." in README
    assert "python3 -m build --wheel" in README
    assert "pip install dist/hipparchusd-*.whl" in README
    assert "hipparchusd --check-config" in README


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
