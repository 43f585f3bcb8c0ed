"""The ``hipparchusd`` command line: options to :class:`~hipparchusd.settings.Settings`, then
run the daemon.

A first word naming a subcommand (see :data:`SUBCOMMANDS`) runs that instead, e.g.
``hipparchusd export [--game ID] [--since DATE] [--state-dir DIR]`` or ``hipparchusd admin
status``; with no subcommand,
``hipparchusd [options]`` serves.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .config_file import DEFAULT_CONFIG_PATH, EX_CONFIG, ConfigError, config_path, load_settings
from .games.registry import KINDS
from .logs import configure_logging
from .option_fields import Declared, declared
from .settings import Settings, SettingsError
from .store.export import export_main
from .systemd.activation import ActivationError, activated_listener_groups
from .systemd.notify import Notifier

log = logging.getLogger("hipparchusd")

#: The options that set a :class:`Settings` field (the rest steer the command itself).
SETTINGS_FIELDS = frozenset(setting.field for setting in declared(Settings))


def admin_main(argv: list[str]) -> int:
    """``hipparchusd admin ...`` (:mod:`hipparchusd.admin.command_line`), imported only when
    run."""
    from .admin.command_line import main as run_admin

    return run_admin(argv)


def match_main(argv: list[str]) -> int:
    """``hipparchusd match ...`` (:mod:`hipparchusd.match`), imported only when run."""
    from .match import main as run_match

    return run_match(argv)


#: Subcommands by name: each takes the arguments after its name and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {
    "admin": admin_main,
    "export": export_main,
    "match": match_main,
}


def build_parser() -> argparse.ArgumentParser:
    """The parser of the daemon's options: one per :class:`Settings` field, generated from its
    declaration (:func:`add_setting`), then those that steer the command itself."""
    served = ", ".join(f"{kind.name} ({kind.summary})" for kind in KINDS.values())
    parser = argparse.ArgumentParser(
        prog="hipparchusd",
        description=(
            f"Game engine daemon for card games: serves {served}. Speaks protocol 1 "
            "(protocol/PROTOCOL.md) over TCP, and with --ws-port serves the web page and the "
            "protocol over WebSocket. Stop it with SIGINT or SIGTERM (a second one stops at "
            "once; with --drain-on-stop SIGTERM drains first); SIGHUP reloads the configuration "
            "file. 'hipparchusd admin ...' talks to a running daemon."
        ),
        epilog=(f"subcommands: {', '.join(SUBCOMMANDS)}" if SUBCOMMANDS else None),
    )
    add = parser.add_argument
    add("--version", action="version", version=f"hipparchusd {__version__}")
    for setting in declared(Settings):
        add_setting(parser, setting)
    add(
        "--config",
        metavar="PATH",
        help=f"TOML configuration file whose keys are these long options without '--', e.g. "
        f"'max-games = 50'; options given here win over it (default {DEFAULT_CONFIG_PATH} "
        f"when it exists; '' for none)",
    )
    add(
        "--check-config",
        action="store_true",
        help=f"check the configuration file and the options, say OK and exit 0; or name the "
        f"offending key and exit {EX_CONFIG}",
    )
    return parser


def add_setting(parser: argparse.ArgumentParser, setting: Declared) -> None:
    """Add the command-line option of the declared ``setting`` to ``parser``: its long option
    (and aliases), value type or ``parse``, choices, metavar, and help with the default; for a
    ``bool`` option, the switch ``--x`` and its negation ``--no-x``.

    Its default is not the parser's: the namespace holds only the options actually given,
    which win over the configuration file (the defaults come from :class:`Settings`, or from
    the environment, see :func:`~hipparchusd.config_file.load_settings`)."""
    option = setting.option
    if setting.kind is bool:
        # A switch: --x turns it on, --no-x off (argparse's BooleanOptionalAction).
        parser.add_argument(
            setting.flag,
            *option.aliases,
            dest=setting.field,
            action=argparse.BooleanOptionalAction,
            default=argparse.SUPPRESS,
            help=f"{option.help} (default {setting.default_shown})".replace("%", "%%"),
        )
        return
    parser.add_argument(
        setting.flag,
        *option.aliases,
        dest=setting.field,
        type=setting.kind if option.parse is None else _argument_type(option.parse),
        choices=option.choices or None,
        metavar=setting.metavar,
        default=argparse.SUPPRESS,
        # argparse formats help with %: a literal one is written %%.
        help=f"{option.help} (default {setting.default_shown})".replace("%", "%%"),
    )


def _argument_type(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """``parse`` as an argparse type: its ``ValueError`` becomes the message argparse prints
    (``argument --x: <message>``) rather than argparse's ``invalid <name> value``."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return convert


def given_options(ns: argparse.Namespace) -> dict[str, Any]:
    """The settings fields set on the command line in ``ns``."""
    return {name: value for name, value in vars(ns).items() if name in SETTINGS_FIELDS}


def parse_settings(argv: Sequence[str]) -> Settings:
    """Parse the daemon's options into :class:`Settings`: the defaults, then the configuration
    file (``--config``, or the default file when it exists), then the options given.

    Raises:
        SystemExit: bad options or a bad configuration file (argparse prints the usage and the
            error; status 2).
    """
    parser = build_parser()
    ns = parser.parse_args(list(argv))
    try:
        return load_settings(config_path(ns.config), given_options(ns))
    except (ConfigError, SettingsError) as error:
        parser.error(str(error))


def check_config(path: Path | None, load: Callable[[], Settings]) -> int:
    """``--check-config``: print ``<file>: OK`` and return 0, or print the error (naming the
    offending key) to stderr and return :data:`EX_CONFIG`."""
    try:
        load()
    except (ConfigError, SettingsError) as error:
        print(f"hipparchusd: {error}", file=sys.stderr)
        return EX_CONFIG
    print(f"{path}: OK" if path is not None else "no configuration file; options: OK")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hipparchusd`` with ``argv`` (default ``sys.argv[1:]``); the exit status: 0 after
    a clean stop, 1 when the address cannot be bound, 2 for bad options, :data:`EX_CONFIG`
    (78) for a bad configuration file or unusable sockets from systemd."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return SUBCOMMANDS[args[0]](args[1:])
    parser = build_parser()
    ns = parser.parse_args(args)
    path = config_path(ns.config)
    given = given_options(ns)

    def load() -> Settings:
        return load_settings(path, given)

    if ns.check_config:
        return check_config(path, load)
    try:
        settings = load()
    except ConfigError as error:
        print(f"hipparchusd: {error}", file=sys.stderr)
        return EX_CONFIG
    except SettingsError as error:
        parser.error(str(error))
    configure_logging(settings.log_level, log_format=settings.log_format)
    if path is not None:
        log.info("configuration file %s", path)
    try:
        passed = activated_listener_groups()
    except ActivationError as error:
        log.error("socket activation: %s", error)
        return EX_CONFIG
    notifier = Notifier.from_environment()
    from .server import run

    # Passed sockets replace the bound ones: a web socket passed alone still serves the web
    # only, and the protocol binds its own only when nothing at all was passed.
    activated = passed.activated
    try:
        return run(
            settings,
            listeners=passed.protocol if activated else None,
            web_listeners=passed.web if activated else None,
            metrics_listeners=passed.metrics if activated else None,
            notifier=notifier,
            load_settings=load,
        )
    except OSError as error:
        log.error("cannot serve: %s", error)
        return 1
