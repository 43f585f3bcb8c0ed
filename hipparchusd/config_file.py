"""The TOML configuration file (``/etc/hipparchusd/config.toml``, or ``--config PATH``).

The file holds flat ``key = value`` pairs whose keys are the long command-line options without
their dashes (``max-connections = 500`` is ``--max-connections 500``), so one name serves the
command line, the file and the documentation. A :class:`Schema` maps each key to a field of the
daemon's settings with its TOML type (the daemon's, :data:`DAEMON_SCHEMA`, is generated from the
declarations of :class:`~hipparchusd.settings.Settings`); a file is checked strictly: an unknown
key, a wrong type or a value out of range is a :class:`ConfigError` naming the key, never
silently ignored.

Precedence: built-in defaults, then the file, then the command line.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from .option_fields import Declared, declared
from .settings import Settings

DEFAULT_CONFIG_PATH = Path("/etc/hipparchusd/config.toml")
"""Read when present and no ``--config`` is given."""

EX_CONFIG = 78
"""Exit status for a configuration error (sysexits.h; ``systemctl status`` shows it as
``status=78/CONFIG``, and the unit does not restart on it)."""

Validate = Callable[[str, Any], object]
"""``validate(field, value)``: raises ``ValueError`` when the settings refuse ``value``."""


def _as_given(value: Any) -> Any:
    """The check of a key whose TOML value is the field's value as it stands."""
    return value


_TOML_NAMES: dict[type, str] = {
    bool: "a boolean (true or false)",
    int: "an integer",
    float: "a number",
    str: "a string",
}


class ConfigError(ValueError):
    """A configuration file that cannot be used: unreadable, not TOML, or a bad key.

    Attributes:
        path: the file.
        key: the offending key, or None when the whole file is at fault.
        reason: what is wrong, for a person.
    """

    def __init__(self, path: Path, key: str | None, reason: str) -> None:
        self.path = path
        self.key = key
        self.reason = reason
        where = f"{path}: key {key!r}" if key is not None else str(path)
        super().__init__(f"{where}: {reason}")


@attrs.frozen
class Key:
    """One configuration key.

    Attributes:
        name: the TOML key (the long option without ``--``).
        field: the settings field it sets.
        kind: the TOML type it takes (``bool``, ``int``, ``float`` or ``str``); a ``float`` key
            also takes an integer (``idle-timeout = 300``), an ``int`` key never takes a boolean.
        check: converts the checked value to the field's value; raises ``ValueError`` with a
            message for a value out of range.
        reloadable: whether SIGHUP can apply a new value without a restart.
    """

    name: str
    field: str
    kind: type
    check: Callable[[Any], Any] = attrs.field(default=_as_given)
    reloadable: bool = False

    def convert(self, value: object) -> Any:
        """The field value for the TOML ``value`` of this key.

        Raises:
            TypeError: ``value`` is not of this key's TOML type.
            ValueError: the value is out of range (from ``check``).
        """
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not self.kind:
            raise TypeError(f"expected {_TOML_NAMES[self.kind]}, got {_toml_type(value)}")
        return self.check(value)


@attrs.frozen
class Schema:
    """The keys a configuration file may hold."""

    keys: tuple[Key, ...]

    def __attrs_post_init__(self) -> None:
        names = [key.name for key in self.keys]
        if len(set(names)) != len(names):
            raise ValueError("duplicate configuration keys")

    def __getitem__(self, name: str) -> Key:
        for key in self.keys:
            if key.name == name:
                return key
        raise KeyError(name)

    def parse(
        self, data: Mapping[str, object], path: Path, validate: Validate | None = None
    ) -> dict[str, Any]:
        """The settings fields and values that the parsed TOML ``data`` of the file ``path`` sets.

        ``validate(field, value)``, when given, is called for each converted value and raises
        ``ValueError`` for a value the settings refuse (so their own checks apply to the file,
        and the error names the key).

        Raises:
            ConfigError: the first unknown key (tables included), or the first key whose value
                has the wrong type or is out of range, in file order.
        """
        known = {key.name: key for key in self.keys}
        values: dict[str, Any] = {}
        for name, value in data.items():
            key = known.get(name)
            if key is None:
                hint = _close_match(name, known)
                raise ConfigError(
                    path, name, "unknown key" + (f" (did you mean {hint!r}?)" if hint else "")
                )
            try:
                values[key.field] = key.convert(value)
                if validate is not None:
                    validate(key.field, values[key.field])
            except (TypeError, ValueError) as error:
                raise ConfigError(path, name, str(error)) from error
        return values

    def load(self, path: Path, validate: Validate | None = None) -> dict[str, Any]:
        """Read and check the file ``path``: the settings fields and values it sets
        (``validate`` as for :meth:`parse`).

        Raises:
            ConfigError: the file cannot be read, is not valid TOML (the message gives the line),
                or a key is unknown or has a bad value.
        """
        try:
            with path.open("rb") as stream:
                data = tomllib.load(stream)
        except OSError as error:
            raise ConfigError(path, None, f"cannot read: {error.strerror or error}") from error
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(path, None, f"not valid TOML: {error}") from error
        return self.parse(data, path, validate)


@attrs.frozen
class Changes:
    """What a reload found changed, by configuration key: ``(old, new)`` values.

    Attributes:
        applied: keys whose new value a running daemon can take (``Key.reloadable``).
        need_restart: keys whose new value waits for a restart (e.g. ``host``, ``port``).
    """

    applied: dict[str, tuple[Any, Any]]
    need_restart: dict[str, tuple[Any, Any]]

    def effective(self, old: Any, new: Any, schema: Schema) -> Any:
        """The settings a running daemon has after the reload: ``new``, but with ``old``'s value
        for every field that needs a restart. ``old`` and ``new`` are attrs instances."""
        keep = {schema[name].field: values[0] for name, values in self.need_restart.items()}
        return attrs.evolve(new, **keep)


def changes(old: Any, new: Any, schema: Schema) -> Changes:
    """The configuration keys whose fields differ between the attrs instances ``old`` and
    ``new`` (settings before and after re-reading the configuration), split by
    :attr:`Key.reloadable`. Fields without a key are not compared."""
    applied: dict[str, tuple[Any, Any]] = {}
    need_restart: dict[str, tuple[Any, Any]] = {}
    for key in schema.keys:
        before, after = getattr(old, key.field), getattr(new, key.field)
        if before != after:
            (applied if key.reloadable else need_restart)[key.name] = (before, after)
    return Changes(applied, need_restart)


def config_path(given: str | None, default: Path = DEFAULT_CONFIG_PATH) -> Path | None:
    """The configuration file to read: ``given`` (``--config``) if any, else ``default`` when it
    exists, else None. ``--config ''`` means no file at all, not even the default."""
    if given is not None:
        return Path(given) if given else None
    return default if default.exists() else None


def _toml_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"


def _close_match(name: str, known: Iterable[str]) -> str | None:
    """A known key ``name`` was probably meant to be (``max_games`` for ``max-games``)."""
    normal = name.replace("_", "-").lower()
    matches = difflib.get_close_matches(normal, list(known), n=1, cutoff=0.75)
    return matches[0] if matches else None


# The daemon's keys -----------------------------------------------------------------------------


def option_key(declared_option: Declared) -> Key:
    """The configuration key of a declared option: its name, field, scalar type, ``parse``
    (for a string) and whether a reload applies it."""
    option = declared_option.option
    return Key(
        declared_option.name,
        declared_option.field,
        declared_option.kind,
        _as_given if option.parse is None else option.parse,
        reloadable=option.reloadable,
    )


DAEMON_SCHEMA = Schema(tuple(option_key(d) for d in declared(Settings) if d.option.in_file))
"""The daemon's configuration keys, generated from the declarations of
:class:`~hipparchusd.settings.Settings`: the long options of ``hipparchusd --help`` without their
dashes. Value ranges are the settings' own checks."""


def _check_setting(field: str, value: Any) -> None:
    """Raises ``SettingsError`` (a ``ValueError``) when :class:`Settings` refuses ``value``."""
    attrs.evolve(Settings(), **{field: value})


def load_settings(path: Path | None, given: Mapping[str, Any]) -> Settings:
    """The daemon's settings: the defaults, then the file ``path`` (if any), then ``given`` (the
    command-line options, field to value). An option declared with an ``environ_default`` starts
    from that rather than from the field's default: the state directory is the default one
    (``$STATE_DIRECTORY`` under systemd, see
    :func:`hipparchusd.directories.default_state_dir`) unless the file or ``given`` sets it.

    Raises:
        ConfigError: the file cannot be read, or a key in it is unknown or has a bad value.
        SettingsError: a value in ``given`` is refused.
    """
    from_environment = {
        d.field: d.option.environ_default()
        for d in declared(Settings)
        if d.option.environ_default is not None
    }
    from_file = DAEMON_SCHEMA.load(path, _check_setting) if path is not None else {}
    return Settings(**{**from_environment, **from_file, **given})
