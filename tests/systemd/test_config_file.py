"""The TOML configuration file: strict checking against the schema, errors naming the key."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from hipparchusd.config_file import (
    DAEMON_SCHEMA,
    Changes,
    ConfigError,
    Key,
    Schema,
    changes,
    config_path,
    load_settings,
)
from hipparchusd.settings import Settings

GOOD = """\
# A sysadmin's configuration.
host = "::"
port = 7461
log-level = "DEBUG"
max-connections = 500
max-games = 100
max-line-bytes = 8192
idle-timeout = 120          # an integer is fine for a number of seconds
outbound-queue = 64
state-dir = "/var/lib/hipparchusd"
grace-period = 2.5
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_a_good_file_sets_the_fields(tmp_path: Path) -> None:
    values = DAEMON_SCHEMA.load(write(tmp_path, GOOD))
    assert values == {
        "host": "::",
        "port": 7461,
        "log_level": "debug",
        "max_connections": 500,
        "max_games": 100,
        "max_line_bytes": 8192,
        "idle_timeout": 120.0,
        "outbound_queue": 64,
        "state_dir": "/var/lib/hipparchusd",
        "grace_period": 2.5,
    }
    assert isinstance(values["idle_timeout"], float)


def test_an_empty_file_sets_nothing(tmp_path: Path) -> None:
    assert DAEMON_SCHEMA.load(write(tmp_path, "# nothing\n")) == {}


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        ("max-conections = 5\n", "max-conections", "unknown key (did you mean 'max-connections'?)"),
        ("max_games = 5\n", "max_games", "unknown key (did you mean 'max-games'?)"),
        ("[server]\nport = 1\n", "server", "unknown key"),
        ('port = "7460"\n', "port", "expected an integer, got a string"),
        ("port = 7460.0\n", "port", "expected an integer, got a number"),
        ("max-games = true\n", "max-games", "expected an integer, got a boolean"),
        ("idle-timeout = true\n", "idle-timeout", "expected a number, got a boolean"),
        ("host = 127\n", "host", "expected a string, got an integer"),
        ("host = ['a']\n", "host", "expected a string, got an array"),
        ('log-level = "loud"\n', "log-level", "must be one of debug, info, warning, error"),
        ('state-dir = ""\n', "state-dir", "must not be empty"),
        # Ranges are the settings' own checks (hipparchusd.settings), named by the file's key.
        ("port = 70000\n", "port", "port must be 0-65535"),
        ("max-connections = 0\n", "max-connections", "max_connections must be a whole number >= 1"),
        ("grace-period = -1\n", "grace-period", "grace_period must be a number of seconds >= 0"),
        ('host = ""\n', "host", "host must be a host name or address"),
        ("max-line-bytes = 10\n", "max-line-bytes", "max_line_bytes must be at least 64"),
    ],
)
def test_a_bad_key_is_named(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = write(tmp_path, "# sysadmin notes\n" + text)
    with pytest.raises(ConfigError) as caught:
        load_settings(path, {})
    assert caught.value.key == key
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{path}: key {key!r}: ")


def test_defaults_then_file_then_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'max-games = 5\nmax-connections = 6\nlog-level = "warning"\n')
    defaults = load_settings(None, {})
    # The defaults the environment gives (the state directory and the admin socket) aside.
    assert defaults == Settings(state_dir=defaults.state_dir, admin_socket=defaults.admin_socket)
    assert load_settings(path, {}) == attrs.evolve(
        defaults, max_games=5, max_connections=6, log_level="warning"
    )
    assert load_settings(path, {"max_games": 7}) == attrs.evolve(
        defaults, max_games=7, max_connections=6, log_level="warning"
    )


def test_under_systemd_the_admin_socket_is_in_its_runtime_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RUNTIME_DIRECTORY", "/run/hipparchusd")
    assert load_settings(None, {}).admin_socket == "/run/hipparchusd/admin.sock"
    monkeypatch.delenv("RUNTIME_DIRECTORY")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    assert load_settings(None, {}).admin_socket == "/run/user/1000/hipparchusd/admin.sock"
    assert load_settings(None, {"admin_socket": None}).admin_socket is None


def test_under_systemd_the_state_directory_is_systemds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/hipparchusd")
    assert load_settings(None, {}).state_dir == "/var/lib/hipparchusd"
    path = write(tmp_path, 'state-dir = "/srv/games"\n')
    assert load_settings(path, {}).state_dir == "/srv/games"
    assert load_settings(path, {"state_dir": None}).state_dir is None


def test_state_dir_none_means_memory(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, 'state-dir = "none"\n'), {}).state_dir is None


def test_the_first_bad_key_in_file_order_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        DAEMON_SCHEMA.load(write(tmp_path, 'port = "x"\nmax-games = "y"\n'))
    assert caught.value.key == "port"


def test_not_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2") as caught:
        DAEMON_SCHEMA.load(write(tmp_path, "port = 1\nhost = \n"))
    assert caught.value.key is None


def test_a_duplicate_key_is_not_toml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        DAEMON_SCHEMA.load(write(tmp_path, "port = 1\nport = 2\n"))


def test_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read: No such file or directory"):
        DAEMON_SCHEMA.load(tmp_path / "missing.toml")


def test_which_file_is_read(tmp_path: Path) -> None:
    default = tmp_path / "config.toml"
    assert config_path(None, default) is None  # no default file: no configuration file
    default.write_text("")
    assert config_path(None, default) == default
    assert config_path("/elsewhere.toml", default) == Path("/elsewhere.toml")
    assert config_path("", default) is None  # --config '': not even the default


def test_schema_keys_are_unique() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        Schema((Key("a", "a", int), Key("a", "b", int)))


def test_a_float_key_takes_integers_and_checks_them() -> None:
    def positive(value: float) -> float:
        if value <= 0:
            raise ValueError("must be positive")
        return value

    key = Key("t", "t", float, positive)
    assert key.convert(3) == 3.0 and isinstance(key.convert(3), float)
    with pytest.raises(ValueError, match="must be positive"):
        key.convert(0)


def test_reloadable_keys() -> None:
    reloadable = {key.name for key in DAEMON_SCHEMA.keys if key.reloadable}
    assert {
        "log-level",
        "max-connections",
        "max-games",
        "idle-timeout",
        "grace-period",
    } <= reloadable
    assert not reloadable & {"host", "port", "state-dir"}


@attrs.frozen
class FakeSettings:
    host: str = "127.0.0.1"
    port: int = 7460
    log_level: str = "info"
    max_games: int = 100
    other: int = 0  # no configuration key


def test_changes_split_what_a_reload_can_apply() -> None:
    schema = Schema(
        (
            Key("host", "host", str),
            Key("port", "port", int),
            Key("log-level", "log_level", str, reloadable=True),
            Key("max-games", "max_games", int, reloadable=True),
        )
    )
    old = FakeSettings()
    new = FakeSettings(port=7461, log_level="debug", other=5)
    found = changes(old, new, schema)
    assert found.applied == {"log-level": ("info", "debug")}
    assert found.need_restart == {"port": (7460, 7461)}
    assert found.effective(old, new, schema) == FakeSettings(log_level="debug", other=5)
    assert changes(old, old, schema) == Changes({}, {})


def test_the_settings_own_checks_name_the_key(tmp_path: Path) -> None:
    def validate(field: str, value: object) -> None:
        if field == "max_games" and value == 13:
            raise ValueError("max_games must not be unlucky")

    path = write(tmp_path, "max-games = 12\n")
    assert DAEMON_SCHEMA.load(path, validate) == {"max_games": 12}
    with pytest.raises(ConfigError) as caught:
        DAEMON_SCHEMA.load(write(tmp_path, "max-games = 13\n"), validate)
    assert str(caught.value) == f"{path}: key 'max-games': max_games must not be unlucky"


def test_every_setting_has_a_key_named_after_its_option() -> None:
    from hipparchusd.cli import build_parser

    options = {name for action in build_parser()._actions for name in action.option_strings}
    for key in DAEMON_SCHEMA.keys:
        assert f"--{key.name}" in options, key.name
    assert {key.field for key in DAEMON_SCHEMA.keys} == {f.name for f in attrs.fields(Settings)}
