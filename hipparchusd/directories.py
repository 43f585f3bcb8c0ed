"""Where the daemon keeps its files, as the service manager or the user's environment says.

The state directory (its games): ``--state-dir`` takes a directory, or ``none`` to keep nothing
(a memory store, for throwaway servers and tests). Without it: ``$STATE_DIRECTORY`` when systemd
set one (``StateDirectory=`` in the unit; the first path when it lists several), else the user's
data directory (``$XDG_DATA_HOME/hipparchusd``, by default ``~/.local/share/hipparchusd``).

The runtime directory (its admin socket, :func:`default_admin_socket`): ``$RUNTIME_DIRECTORY``
when systemd set one (``RuntimeDirectory=`` in the unit), else the user's runtime directory
(``$XDG_RUNTIME_DIR/hipparchusd``).

Pure path arithmetic over the environment, with no store behind it, so that the settings can
declare their defaults from it (:mod:`hipparchusd.settings`) without importing the store.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path

import platformdirs

#: The ``--state-dir`` value that keeps everything in memory.
NO_STATE_DIR = "none"
#: The admin socket's name in the runtime directory.
ADMIN_SOCKET_NAME = "admin.sock"
#: Where the shipped service's admin socket is (``RuntimeDirectory=hipparchusd``), for an
#: operator's ``hipparchusd admin`` run outside the service.
SERVICE_ADMIN_SOCKET = Path("/run/hipparchusd") / ADMIN_SOCKET_NAME


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The state directory when ``--state-dir`` is not given (see the module's docstring);
    ``environ`` defaults to ``os.environ``."""
    env = os.environ if environ is None else environ
    systemd = env.get("STATE_DIRECTORY", "")
    if systemd:
        return Path(systemd.split(":")[0])
    return platformdirs.user_data_path("hipparchusd", appauthor=False)


def resolve_state_dir(value: str | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The state directory meant by a ``--state-dir`` value: ``None`` (keep nothing) for
    ``none``, the default for ``None`` or an empty value, else the path, ``~`` expanded.
    (A directory really called ``none`` is given as ``./none``.)"""
    if value is None or value == "":
        return default_state_dir(environ)
    if value == NO_STATE_DIR:
        return None
    return Path(value).expanduser()


def default_runtime_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The runtime directory: ``$RUNTIME_DIRECTORY`` when systemd set one (the first path when
    it lists several), else the user's (``$XDG_RUNTIME_DIR/hipparchusd``; platformdirs falls
    back to a folder of the user's in the temporary directory when that variable is unset).
    ``environ`` defaults to ``os.environ``."""
    env = os.environ if environ is None else environ
    systemd = env.get("RUNTIME_DIRECTORY", "")
    if systemd:
        return Path(systemd.split(":")[0])
    xdg = env.get("XDG_RUNTIME_DIR", "")
    if xdg:
        return Path(xdg) / "hipparchusd"
    with warnings.catch_warnings():
        # Its fallback is what we want; its warning would reach every command's stderr.
        warnings.simplefilter("ignore")
        return platformdirs.user_runtime_path("hipparchusd", appauthor=False)


def default_admin_socket(environ: Mapping[str, str] | None = None) -> Path:
    """The admin socket when ``--admin-socket`` is not given: ``admin.sock`` in the runtime
    directory (:func:`default_runtime_dir`)."""
    return default_runtime_dir(environ) / ADMIN_SOCKET_NAME
