"""The items daemons send one another over the bus (:mod:`.bus`): each a JSON array whose
first element names its kind. A forwarded session is named by its ``sid``, its session id on
the node it is connected to (the *origin*); the node that owns the game (the *owner*) serves it
through a proxy session of its own.

From the origin to the owner:

- ``["req", sid, n, mode, peer, line, epoch]``: the session's request line ``line`` (its
  ``n``-th forwarded one), in output ``mode`` (``text``/``json``), from the client at ``peer``,
  addressed to the owner's ``epoch`` under which the session's proxy there was made (``null``:
  it has none there yet). An owner of another epoch (it restarted under its name, and the proxy,
  with the seats it held, went with the old process) carries out nothing and answers ``close``;
- ``["gone", sid]``: the session closed;
- ``["mode", sid, mode]``: the session switched its output mode;
- ``["stop", sid]``: the session sent another request: its analysis ends;
- ``["list", ask]``: the owner's games waiting or in progress, for ``games``.

From the owner to the origin:

- ``["out", sid, data, count]``: ``count`` messages (responses, events) for the session, as
  the bytes its connection sends (``data``, UTF-8 text);
- ``["done", sid, n, close, follows]``: request ``n`` is answered (its response was in the
  ``out`` before); ``close``: the session asked to close (``quit``); ``follows``: the proxy
  still follows a game there (else the owner let it go);
- ``["moved", sid, n, owner]``: request ``n`` names a game this node does not hold: ``owner``
  does (or nobody: ``null``); nothing was done;
- ``["close", sid, why]``: the owner gave up a game the session follows (drained, lost):
  the origin closes the connection, and the client resumes its seat through any node;
- ``["listed", ask, games]``: the answer to ``list``: the games' summaries.

Every message carries its sender's name and epoch (:mod:`.bus`): items of an earlier epoch of a
node, or for a session that is gone, are ignored.
"""

from __future__ import annotations

from typing import Final

REQUEST: Final = "req"
GONE: Final = "gone"
MODE: Final = "mode"
STOP: Final = "stop"
LIST: Final = "list"
OUTPUT: Final = "out"
DONE: Final = "done"
MOVED: Final = "moved"
CLOSE: Final = "close"
LISTED: Final = "listed"
