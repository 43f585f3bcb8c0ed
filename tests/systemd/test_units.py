"""The unit files in systemd/ pass ``systemd-analyze verify`` and rate <= 1.5 on
``systemd-analyze security --offline=yes``.

``verify`` insists that ExecStart's program exists. The units name the documented install
location, /opt/hipparchusd/bin/hipparchusd; the test verifies copies that name this test run's
own ``hipparchusd`` script instead (the one next to the running Python), which changes nothing
else in the units.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "systemd"
INSTALLED = "/opt/hipparchusd/bin/hipparchusd"
EXPOSURE_LIMIT = 1.5

pytestmark = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is missing (Debian package 'systemd'; .ci/run installs it)",
)


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def units(tmp_path: Path) -> Path:
    """Copies of the two units with ExecStart and ExecReload naming this venv's hipparchusd."""
    script = Path(sys.executable).parent / "hipparchusd"
    assert script.exists(), f"{script}: install the package (pip install -e .) first"
    for name in (
        "hipparchusd.service",
        "hipparchusd.socket",
        "hipparchusd-web.socket",
        "hipparchusd-metrics.socket",
        "hipparchusd@.service",
    ):
        text = (UNITS / name).read_text()
        (tmp_path / name).write_text(text.replace(INSTALLED, str(script)))
    return tmp_path


def test_the_web_socket_is_verified_beside_the_others_and_named_web(units: Path) -> None:
    result = analyze(
        "verify",
        str(units / "hipparchusd.socket"),
        str(units / "hipparchusd-web.socket"),
        str(units / "hipparchusd.service"),
    )
    assert result.returncode == 0, result.stderr
    web = (UNITS / "hipparchusd-web.socket").read_text()
    # The daemon serves the web on the descriptors of this name (hipparchusd.systemd.activation).
    from hipparchusd.systemd.activation import WEB_FD_NAME

    assert f"FileDescriptorName={WEB_FD_NAME}\n" in web
    assert "Service=hipparchusd.service\n" in web and "ListenStream=127.0.0.1:" in web


def test_the_metrics_socket_is_verified_beside_the_others_and_named_metrics(units: Path) -> None:
    result = analyze(
        "verify",
        str(units / "hipparchusd.socket"),
        str(units / "hipparchusd-metrics.socket"),
        str(units / "hipparchusd.service"),
    )
    assert result.returncode == 0, result.stderr
    metrics = (UNITS / "hipparchusd-metrics.socket").read_text()
    from hipparchusd.systemd.activation import METRICS_FD_NAME

    assert f"FileDescriptorName={METRICS_FD_NAME}\n" in metrics
    assert "Service=hipparchusd.service\n" in metrics and "ListenStream=127.0.0.1:" in metrics


def test_the_admin_socket_is_in_the_services_runtime_directory() -> None:
    # The daemon's default admin socket is $RUNTIME_DIRECTORY/admin.sock (directories.py),
    # and hipparchusd admin looks for the service's at /run/hipparchusd/admin.sock.
    from hipparchusd.directories import SERVICE_ADMIN_SOCKET

    lines = set((UNITS / "hipparchusd.service").read_text().splitlines())
    assert f"RuntimeDirectory={SERVICE_ADMIN_SOCKET.parent.name}" in lines
    assert "RuntimeDirectoryMode=0700" in lines
    assert str(SERVICE_ADMIN_SOCKET.parent) == "/run/hipparchusd"


def test_the_units_name_the_documented_install_location() -> None:
    service = (UNITS / "hipparchusd.service").read_text()
    assert f"ExecStart={INSTALLED}\n" in service
    assert INSTALLED in (UNITS / "README.md").read_text()


def test_verify_is_clean(units: Path) -> None:
    result = analyze(
        "verify", str(units / "hipparchusd.socket"), str(units / "hipparchusd.service")
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""


def test_verify_catches_a_broken_unit(units: Path) -> None:
    # The check above can fail: a typo in a directive is reported.
    service = units / "hipparchusd.service"
    service.write_text(service.read_text().replace("ProtectHome=yes", "ProtectHom=yes"))
    result = analyze("verify", str(service))
    assert re.search(r"Unknown key( name)? 'ProtectHom'", result.stderr), result.stderr


def exposure(service: Path) -> float:
    result = analyze("security", "--offline=yes", str(service))
    assert result.returncode == 0, result.stderr
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    assert found, result.stdout
    return float(found.group(1))


def test_security_exposure_at_most_1_5(units: Path) -> None:
    level = exposure(units / "hipparchusd.service")
    assert level <= EXPOSURE_LIMIT, analyze(
        "security", "--offline=yes", str(units / "hipparchusd.service")
    ).stdout


def test_the_sandbox_is_what_lowers_exposure(units: Path) -> None:
    # The measurement can fail: without the sandbox lines the same service rates far worse.
    service = units / "hipparchusd.service"
    head, _, _ = service.read_text().partition("# Sandbox:")
    service.write_text(head + "\n[Install]\nWantedBy=multi-user.target\n")
    assert exposure(service) > 5


def test_socket_listens_on_the_default_port_for_ipv4_and_ipv6() -> None:
    socket_unit = (UNITS / "hipparchusd.socket").read_text()
    assert re.search(r"^ListenStream=7460$", socket_unit, re.M)
    assert re.search(r"^BindIPv6Only=both$", socket_unit, re.M)


def test_service_directives_the_issue_asks_for() -> None:
    lines = set((UNITS / "hipparchusd.service").read_text().splitlines())
    for directive in (
        "Type=notify",
        "Restart=on-failure",
        "DynamicUser=yes",
        "StateDirectory=hipparchusd",
        "ProtectSystem=strict",
        "PrivateDevices=yes",
        "PrivateUsers=yes",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "SystemCallFilter=@system-service",
        "CapabilityBoundingSet=",
        "NoNewPrivileges=yes",
        "MemoryDenyWriteExecute=yes",
    ):
        assert directive in lines, directive
    watchdog = [line for line in lines if line.startswith("WatchdogSec=")]
    nofile = [line for line in lines if line.startswith("LimitNOFILE=")]
    assert watchdog and nofile


def test_the_template_for_several_daemons_verifies_clean_and_is_sandboxed(units: Path) -> None:
    # An instance of the template (node "a"), as systemctl start hipparchusd@a would run it.
    instance = units / "hipparchusd@a.service"
    instance.write_text((units / "hipparchusd@.service").read_text())
    result = analyze("verify", str(instance))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert exposure(instance) <= EXPOSURE_LIMIT
    template = (UNITS / "hipparchusd@.service").read_text()
    # Each instance is its own node, sharing one port; the games are in PostgreSQL, not in a
    # state directory.
    assert f"ExecStart={INSTALLED} --node %i --reuse-port on\n" in template
    assert "StateDirectory=" not in template and "synchronous_commit=off" not in template
