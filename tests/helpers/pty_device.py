"""The device's end of a pseudo-terminal, for a link test that plays the board itself:
``port`` is what the host opens, ``send`` writes its frames, ``command`` reads the host's
command lines (``!hello``, ``!replay 5``). Non-blocking, raw (no echo, no line editing)."""

from __future__ import annotations

import asyncio
import os
import tty


class Pty:
    """The device end of a pseudo-terminal: write frames, read the host's command lines."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self._rx = b""

    def send(self, *chunks: bytes) -> None:
        os.write(self.master, b"".join(chunks))

    async def command(self, timeout: float = 3.0) -> str:
        """The host's next command line; an ``AssertionError`` if none comes in ``timeout`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while b"\n" not in self._rx:
            assert loop.time() < deadline, f"no command line from the host (got {self._rx!r})"
            try:
                self._rx += os.read(self.master, 256)
            except BlockingIOError:
                pass
            await asyncio.sleep(0.01)
        line, self._rx = self._rx.split(b"\n", 1)
        return line.decode("ascii")

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)
