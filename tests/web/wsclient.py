"""A protocol client over WebSocket for the tests: the daemon tests' :class:`Client`, with
each text message read as one line and each line sent as one message, so that every helper of
tests/daemon (``ok``, ``fail``, ``events_until``, ``seated_game``...) runs over WebSocket too."""

from __future__ import annotations

import trio
import trio_websocket
from daemon.client import Client


class WsClient(Client):
    """A WebSocket session (``ws``) read and written line by line. ``messages`` keeps every
    message received, in order."""

    def __init__(self, ws: trio_websocket.WebSocketConnection) -> None:
        super().__init__(None)  # type: ignore[arg-type]  # no stream: the WebSocket carries it
        self.ws = ws
        self.messages: list[str | bytes] = []

    @classmethod
    async def open(
        cls,
        nursery: trio.Nursery,
        port: int,
        origin: str | None = None,
        greet: bool = True,
        path: str = "/ws",
    ) -> WsClient:
        """Connect to the web port (with ``Origin: origin`` when given) and read the greeting.

        Raises:
            trio_websocket.ConnectionRejected: the handshake was refused (e.g. 403).
        """
        headers = [(b"Origin", origin.encode())] if origin is not None else []
        ws = await trio_websocket.connect_websocket(
            nursery, "127.0.0.1", port, path, use_ssl=False, extra_headers=headers
        )
        client = cls(ws)
        if greet:
            hello = await client.read_line()
            assert hello.startswith("* server hello "), hello
        return client

    async def read_line(self) -> str:
        """The next message as a line; EOFError once the connection is closed."""
        try:
            message = await self.ws.get_message()
        except trio_websocket.ConnectionClosed:
            self.closed = True
            raise EOFError from None
        self.messages.append(message)
        assert isinstance(message, str), message
        self.received += message.encode() + b"\n"
        return message

    async def send(self, data: str | bytes) -> None:
        """Send each line of ``data`` (LF-terminated text) as one text message."""
        text = data.decode() if isinstance(data, bytes) else data
        for line in text.split("\n")[:-1]:
            await self.ws.send_message(line)

    async def aclose(self) -> None:
        """Close the WebSocket."""
        await self.ws.aclose()
