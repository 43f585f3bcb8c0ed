"""Options declared once, as fields of an attrs settings class.

Each field of the daemon's :class:`~hipparchusd.settings.Settings` is declared with
:func:`option`, which puts an :class:`Option` in the field's metadata: its help, unit, how a
text value becomes the field's value, whether a reload applies it, and so on. The field itself
gives the rest: the option's name (the field's, with ``-`` for ``_``: ``max_games`` is
``--max-games`` on the command line and ``max-games`` in the configuration file), its type (the
annotation) and default. The command line (:mod:`hipparchusd.cli`) and the configuration file's
schema (:mod:`hipparchusd.config_file`) are generated from :func:`declared`, so that a new option
is one declaration. attrs keeps such metadata for exactly this (attrs' "Extending" chapter).

The checks here (:func:`whole`, :func:`non_negative`, :func:`port_number`, :func:`one_of`) are
attrs validators that name the field and, where it has one, its unit, so that a message says
what the option accepts without the name or the unit being written twice.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

#: Where an :class:`Option` sits in a field's ``metadata``.
METADATA_KEY = "hipparchusd.option"

#: An attrs validator: ``check(instance, attribute, value)`` raises for a bad value.
Check = Callable[[Any, "attrs.Attribute[Any]", Any], None]

#: The value types a configuration file writes an option in. A ``bool`` option is a switch:
#: ``--x``/``--no-x`` on the command line (:func:`hipparchusd.cli.add_setting`), ``x = true``
#: in the file.
SCALARS: tuple[type, ...] = (bool, int, float, str)


class SettingsError(ValueError):
    """An option with a bad value; the message names the option and says what it accepts."""


@attrs.frozen(kw_only=True)
class Option:
    """What an option declares besides its name, type and default (see the module docstring).

    Attributes:
        help: what the option does, for ``--help`` (and for a person reading the declaration);
            the default is appended to it.
        unit: the plural unit of a number (``"seconds"``, ``"days"``, ``"bytes"``,
            ``"games"``...), or None; checks name it, and it is the command line's metavar
            unless ``metavar`` is given.
        metavar: what stands for the value in ``--help`` (default: the unit in capitals, else
            argparse's).
        parse: turns a text value (a command-line argument, or the string a configuration file
            gives) into the field's value, raising ``ValueError`` with a message for a bad one;
            None takes the text as the field's own type (``int``, ``float``, ``str``). A field of
            another type (a tuple) needs one, and is written as a string in the file.
        choices: the values the option accepts, when they are a few words (``--help`` lists
            them; the command line refuses others; the :func:`one_of` check uses them).
        default_text: how ``--help`` states the default, when the value alone would not say it
            (None, a tuple, or a default chosen at start-up by ``environ_default``).
        reloadable: a running daemon takes a new value on a reload (SIGHUP) without a restart.
        in_file: the configuration file may set it (as well as the command line).
        aliases: other command-line spellings (``--grace`` for ``--grace-period``).
        environ_default: when given, the default the daemon starts with, computed then from its
            environment (e.g. systemd's ``$STATE_DIRECTORY``), rather than the field's default,
            which stays what ``Settings()`` has, so that tests and embedders need no environment.
    """

    help: str
    unit: str | None = None
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None
    choices: tuple[str, ...] = ()
    default_text: str | None = None
    reloadable: bool = False
    in_file: bool = True
    aliases: tuple[str, ...] = ()
    environ_default: Callable[[], Any] | None = None


def option(
    default: T,
    check: Check | None = None,
    *,
    help: str,
    unit: str | None = None,
    metavar: str | None = None,
    parse: Callable[[str], Any] | None = None,
    choices: tuple[str, ...] = (),
    default_text: str | None = None,
    reloadable: bool = False,
    in_file: bool = True,
    aliases: tuple[str, ...] = (),
    environ_default: Callable[[], Any] | None = None,
    converter: Callable[[Any], T] | None = None,
) -> T:
    """An attrs field that is an option: ``default`` and ``check`` (an attrs validator) as for
    ``attrs.field``, ``converter`` too; the other arguments are the :class:`Option`'s."""
    declared_option = Option(
        help=help,
        unit=unit,
        metavar=metavar,
        parse=parse,
        choices=choices,
        default_text=default_text,
        reloadable=reloadable,
        in_file=in_file,
        aliases=aliases,
        environ_default=environ_default,
    )
    field: T = attrs.field(
        default=default,
        validator=check,
        converter=converter,
        metadata={METADATA_KEY: declared_option},
    )
    return field


@attrs.frozen
class Declared:
    """One option of a settings class, as :func:`declared` finds it.

    Attributes:
        field: the settings field it sets (``max_games``).
        kind: the type its value is written in, on the command line (before ``parse``) and in
            the configuration file: ``bool`` (a switch), ``int``, ``float`` or ``str``.
        default: the field's default.
        option: the rest of its declaration.
    """

    field: str
    kind: type
    default: object
    option: Option

    @property
    def name(self) -> str:
        """The option's name: the configuration file's key, and the long option without
        ``--`` (``max-games``)."""
        return self.field.replace("_", "-")

    @property
    def flag(self) -> str:
        """The long command-line option (``--max-games``)."""
        return f"--{self.name}"

    @property
    def metavar(self) -> str | None:
        """What stands for the value in ``--help``: the declared metavar, else the unit in
        capitals, else None (argparse's own: the choices, or the name in capitals)."""
        if self.option.metavar is not None:
            return self.option.metavar
        return self.option.unit.upper() if self.option.unit else None

    @property
    def default_shown(self) -> str:
        """The default as ``--help`` states it (a number of seconds without a needless
        ``.0``)."""
        if self.option.default_text is not None:
            return self.option.default_text
        if isinstance(self.default, bool):
            return "on" if self.default else "off"
        if isinstance(self.default, float):
            return f"{self.default:g}"
        return str(self.default)


@functools.cache
def declared(cls: type) -> tuple[Declared, ...]:
    """The options of the attrs class ``cls``, in field order: every field declared with
    :func:`option` (other fields are not options).

    Raises:
        TypeError: an option whose type is not ``bool``, ``int``, ``float`` or ``str`` (or
            one of them or None) and that has no ``parse``, or whose default ``--help`` could
            not state without a ``default_text``; found when the class is first read, not by
            a user.
    """
    hints = typing.get_type_hints(cls)
    found: list[Declared] = []
    for field in attrs.fields(cls):
        declared_option = field.metadata.get(METADATA_KEY)
        if not isinstance(declared_option, Option):
            continue
        kind = _written_as(hints[field.name], declared_option)
        if kind is None:
            raise TypeError(f"option {field.name}: a {hints[field.name]} field needs a parse")
        if declared_option.default_text is None and not isinstance(field.default, SCALARS):
            raise TypeError(f"option {field.name}: a default of {field.default!r} needs a text")
        found.append(Declared(field.name, kind, field.default, declared_option))
    return tuple(found)


def _written_as(hint: object, declared_option: Option) -> type | None:
    """The scalar type an option of type ``hint`` is written in: the type itself, without a
    ``None`` alternative (``int | None`` is written as an int); ``str`` for any other type
    when the option has a ``parse``; None when it has not."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        alternatives = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(alternatives) == 1:
            hint = alternatives[0]
    if hint in SCALARS:
        assert isinstance(hint, type)
        return hint
    return str if declared_option.parse is not None else None


def switch(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A check: ``True`` or ``False`` (a switch: ``--x``/``--no-x``, ``x = true``).

    Raises:
        SettingsError: naming the field.
    """
    if not isinstance(value, bool):
        raise SettingsError(f"{attribute.name} must be true or false, not {value!r}")


def option_of(attribute: attrs.Attribute[Any]) -> Option | None:
    """The :class:`Option` an attrs field was declared with, or None."""
    found = attribute.metadata.get(METADATA_KEY)
    return found if isinstance(found, Option) else None


# Checks any option can use ----------------------------------------------------------------------


def whole(minimum: int) -> Check:
    """A check: a whole number (not a boolean) of at least ``minimum``.

    Raises:
        SettingsError: ``"<field> must be a whole number >= <minimum>, not <value>"``.
    """

    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise SettingsError(
                f"{attribute.name} must be a whole number >= {minimum}, not {value!r}"
            )

    return check


def non_negative(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A check: a number (not a boolean, not NaN) of at least 0, in the option's unit.

    Raises:
        SettingsError: ``"<field> must be a number of <unit> >= 0, not <value>"``.
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        declared_option = option_of(attribute)
        unit = declared_option.unit if declared_option and declared_option.unit else "units"
        raise SettingsError(f"{attribute.name} must be a number of {unit} >= 0, not {value!r}")


def port_number(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A check: a TCP port, 0 to 65535 (0 asks the system for a free one).

    Raises:
        SettingsError: naming the field and the range.
    """
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 65535:
        raise SettingsError(f"{attribute.name} must be 0-65535 (0: any free port), not {value!r}")


def one_of(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A check: one of the option's declared ``choices``.

    Raises:
        SettingsError: naming the field and listing the choices.
    """
    declared_option = option_of(attribute)
    choices = declared_option.choices if declared_option else ()
    if value not in choices:
        raise SettingsError(f"{attribute.name} must be one of {', '.join(choices)}, not {value!r}")
