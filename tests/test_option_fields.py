"""Options declared once (hipparchusd.option_fields): a field declared with ``option`` is found
by ``declared`` with its name, type and default, and the command line and the configuration
file's schema are generated from it alone; the common checks name the field and its unit."""

from __future__ import annotations

import argparse
from pathlib import Path

import attrs
import pytest

from hipparchusd.cli import add_setting
from hipparchusd.config_file import ConfigError, Schema, option_key
from hipparchusd.option_fields import (
    SettingsError,
    declared,
    non_negative,
    one_of,
    option,
    port_number,
    switch,
    whole,
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.replace(",", " ").split())


@attrs.frozen(kw_only=True)
class Toy:
    """A settings class of the kind the daemon's is, to generate from."""

    wait: float = option(
        2.5, non_negative, help="how long to wait", unit="seconds", reloadable=True
    )
    lanes: int = option(3, whole(1), help="lanes at once", unit="lanes")
    mode: str = option("slow", one_of, help="how to go", parse=str.lower, choices=("slow", "fast"))
    tags: tuple[str, ...] = option(
        (), help="tags, split by commas", parse=_words, default_text="none", aliases=("--tag",)
    )
    port: int | None = option(None, attrs.validators.optional(port_number), help="a port",
                              default_text="off")  # fmt: skip
    other: int = 0  # not an option


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toy")
    for setting in declared(Toy):
        add_setting(parser, setting)
    return parser


def _schema() -> Schema:
    return Schema(tuple(option_key(setting) for setting in declared(Toy)))


def test_declared_finds_each_option_with_its_name_type_and_default() -> None:
    found = {setting.field: setting for setting in declared(Toy)}
    assert list(found) == ["wait", "lanes", "mode", "tags", "port"]  # field order; not `other`
    assert [(s.name, s.kind, s.default) for s in found.values()] == [
        ("wait", float, 2.5),
        ("lanes", int, 3),
        ("mode", str, "slow"),
        ("tags", str, ()),  # a tuple is written as a string and parsed
        ("port", int, None),  # `int | None` is written as an int
    ]
    assert found["wait"].flag == "--wait" and found["wait"].metavar == "SECONDS"
    assert found["wait"].option.reloadable and not found["lanes"].option.reloadable


def test_the_command_line_is_generated_from_the_declarations() -> None:
    parser = _parser()
    # Only what is given lands in the namespace: the defaults are the class's.
    assert vars(parser.parse_args([])) == {}
    ns = parser.parse_args(["--wait", "4", "--lanes", "2", "--mode", "FAST", "--tag", "a,b"])
    assert vars(ns) == {"wait": 4.0, "lanes": 2, "mode": "fast", "tags": ("a", "b")}
    assert Toy(**vars(ns)) == Toy(wait=4.0, lanes=2, mode="fast", tags=("a", "b"))
    text = " ".join(parser.format_help().split())
    assert "--wait SECONDS how long to wait (default 2.5)" in text
    assert "--lanes LANES lanes at once (default 3)" in text
    assert "--mode {slow,fast} how to go (default slow)" in text
    assert "--tags TAGS, --tag TAGS tags, split by commas (default none)" in text
    assert "--port PORT a port (default off)" in text
    assert "--other" not in text


def test_the_command_line_refuses_what_the_declaration_refuses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, message in [
        (["--lanes", "x"], "argument --lanes: invalid int value: 'x'"),
        (["--mode", "sideways"], "argument --mode: invalid choice: 'sideways'"),
    ]:
        with pytest.raises(SystemExit):
            _parser().parse_args(argv)
        assert message in capsys.readouterr().err


def test_the_file_schema_is_generated_from_the_declarations(tmp_path: Path) -> None:
    schema = _schema()
    assert [key.name for key in schema.keys] == ["wait", "lanes", "mode", "tags", "port"]
    assert [key.name for key in schema.keys if key.reloadable] == ["wait"]
    path = tmp_path / "toy.toml"
    path.write_text('wait = 1\nmode = "Fast"\ntags = "x, y"\nport = 80\n')
    assert schema.load(path) == {"wait": 1.0, "mode": "fast", "tags": ("x", "y"), "port": 80}
    path.write_text('lanes = "two"\n')
    with pytest.raises(ConfigError, match="expected an integer, got a string"):
        schema.load(path)


def test_the_common_checks_name_the_field_and_its_unit() -> None:
    with pytest.raises(SettingsError, match=r"^wait must be a number of seconds >= 0, not -1$"):
        Toy(wait=-1)
    with pytest.raises(SettingsError, match=r"^wait must be a number of seconds >= 0, not nan$"):
        Toy(wait=float("nan"))
    with pytest.raises(SettingsError, match=r"^lanes must be a whole number >= 1, not 0$"):
        Toy(lanes=0)
    with pytest.raises(SettingsError, match=r"^lanes must be a whole number >= 1, not True$"):
        Toy(lanes=True)
    with pytest.raises(SettingsError, match=r"^mode must be one of slow, fast, not 'FAST'$"):
        Toy(mode="FAST")  # the class takes values, not text: parse lower-cases text
    with pytest.raises(SettingsError, match=r"^port must be 0-65535"):
        Toy(port=65536)
    assert Toy(port=None).port is None


def test_a_declaration_the_generators_could_not_use_is_refused() -> None:
    @attrs.frozen
    class NoParse:
        names: tuple[str, ...] = option((), help="names", default_text="none")

    @attrs.frozen
    class NoText:
        limit: int | None = option(None, help="a limit")

    with pytest.raises(TypeError, match="needs a parse"):
        declared(NoParse)
    with pytest.raises(TypeError, match="needs a text"):
        declared(NoText)


@attrs.frozen(kw_only=True)
class Switched:
    """A settings class with a switch (a ``bool`` option)."""

    drain: bool = option(False, switch, help="drain first")


def test_a_switch_is_x_and_no_x_on_the_command_line_and_a_boolean_in_the_file(
    tmp_path: Path,
) -> None:
    parser = argparse.ArgumentParser(prog="toy")
    (setting,) = declared(Switched)
    add_setting(parser, setting)
    assert setting.kind is bool and setting.default_shown == "off"
    assert vars(parser.parse_args([])) == {}
    assert vars(parser.parse_args(["--drain"])) == {"drain": True}
    assert vars(parser.parse_args(["--drain", "--no-drain"])) == {"drain": False}
    assert "--drain, --no-drain drain first (default off)" in " ".join(parser.format_help().split())
    schema = Schema((option_key(setting),))
    path = tmp_path / "toy.toml"
    assert schema.parse({"drain": True}, path) == {"drain": True}
    with pytest.raises(ConfigError, match="expected a boolean"):
        schema.parse({"drain": 1}, path)
    with pytest.raises(SettingsError, match="drain must be true or false"):
        Switched(drain=1)  # type: ignore[arg-type]
