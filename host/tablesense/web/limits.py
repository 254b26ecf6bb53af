"""What one client may cost the web app: connections, time, body size, JSON shape.

A pub's web app faces whoever is on the pub's Wi-Fi. ``Limits`` holds the figures;
``Gate`` counts open connections (in all and per client address) and closes the ones
over the cap at once, with one line on stderr when a cap is reached (not one per
socket); ``load_json`` parses a request body with bounded depth and number size.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestHandler


def _fd_budget(wanted: int) -> int:
    """``wanted`` connections, or fewer when the process may open few files (half the soft limit)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft // 2 - 32))


@dataclass(frozen=True)
class Limits:
    """The web app's limits (see docs/scoreboard.md, "Limits")."""

    #: a connection must bring a whole request head within this many seconds of opening or
    #: of its last response, else it is closed (idle keep-alive and slow headers alike)
    idle_timeout: float = 10.0
    #: a request body must arrive within this many seconds
    body_timeout: float = 10.0
    #: open connections in all (a TV, a dozen phones and the overview need a few dozen)
    max_connections: int = 256
    #: open connections from one client address
    max_per_client: int = 64
    #: largest request body, bytes
    max_body: int = 64 * 1024
    #: deepest nesting of a JSON body
    max_depth: int = 16
    #: longest integer in a JSON body or a path, digits
    max_digits: int = 15
    #: largest WebSocket message a page may send (pages send nothing that matters)
    max_ws_message: int = 4096

    def capped(self) -> Limits:
        """These limits with the connection cap fitted to the process's file limit."""
        cap = _fd_budget(self.max_connections)
        return self if cap == self.max_connections else dataclasses.replace(self, max_connections=cap)


# --- connections ----------------------------------------------------------------------------

class Gate:
    """Counts a server's connections and closes, at once, each one over a cap."""

    def __init__(self, limits: Limits, say: Callable[[str], None] | None = None) -> None:
        self.limits = limits
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.clients: dict[RequestHandler, str] = {}
        self.per_client: Counter[str] = Counter()
        self.refused = 0  # closed at a cap since the last line that said so
        self._full: str | None = None  # what is full now ("all", or a client)
        self._said_at = -60.0  # when a cap was last said: at most once a minute
        self._said = False

    def attach(self, server: web.Server) -> None:
        """Put the gate in front of ``server``'s own bookkeeping of its connections."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: Any) -> None:
            client = _client(transport)
            if self._admit(client):
                self.clients[handler] = client
                self.per_client[client] += 1
                made(handler, transport)
            else:  # closed once the handler has started (the socket and its descriptor freed)
                asyncio.get_running_loop().call_soon(transport.abort)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            client = self.clients.pop(handler, None)
            if client is not None:
                self.per_client[client] -= 1
                if self.per_client[client] <= 0:
                    del self.per_client[client]
                lost(handler, exc)
                self._maybe_reopen()

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    @property
    def open(self) -> int:
        return len(self.clients)

    def _admit(self, client: str) -> bool:
        lim = self.limits
        if len(self.clients) >= lim.max_connections:
            self._refuse("all", f"{lim.max_connections} connections open (the limit)")
            return False
        if self.per_client[client] >= lim.max_per_client:
            self._refuse(client, f"{client} holds {lim.max_per_client} connections (the limit per client)")
            return False
        return True

    def _refuse(self, what: str, why: str) -> None:
        self.refused += 1
        if self._full is None:
            self._full = what
            now = time.monotonic()
            if now - self._said_at >= 60:
                self._said_at, self._said = now, True
                self.say(f"tablesense: {why}: new connections are closed until some end")

    def _maybe_reopen(self) -> None:
        if self._full is None:
            return
        lim = self.limits
        if self._full == "all":
            calm = len(self.clients) <= lim.max_connections * 3 // 4
        else:
            calm = self.per_client[self._full] <= lim.max_per_client * 3 // 4
        if calm:
            if self._said:
                self.say(f"tablesense: connections accepted again ({self.refused} closed at the limit)")
                self._said, self.refused = False, 0
            self._full = None


def _client(transport: Any) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


# --- request bodies ---------------------------------------------------------------------------

class BadBody(ValueError):
    """A request body the app will not parse: the reason is for the client."""


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(raw: bytes, limits: Limits) -> Any:
    """The JSON value of ``raw``; raises ``BadBody`` for bad UTF-8 or JSON, deep nesting, long numbers."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody("the request body is not UTF-8") from None
    if nesting(text) > limits.max_depth:
        raise BadBody(f"the request body nests deeper than {limits.max_depth} levels")

    def integer(s: str) -> int:
        if len(s.lstrip("-")) > limits.max_digits:
            raise BadBody(f"a number in the request body has more than {limits.max_digits} digits")
        return int(s)

    def number(s: str) -> float:
        value = float(s)
        if not math.isfinite(value) or len(s) > 64:
            raise BadBody("a number in the request body is out of range")
        return value

    def constant(s: str) -> Any:
        raise BadBody(f"{s} is not a JSON number")

    try:
        return json.loads(text, parse_int=integer, parse_float=number, parse_constant=constant)
    except (json.JSONDecodeError, RecursionError):
        raise BadBody("the request body must be a JSON object") from None


def path_number(text: str, limits: Limits) -> int | None:
    """A number from a path (``/match/<n>``), or None when it is too long to be one of ours."""
    if not text.isdigit() or len(text) > limits.max_digits:
        return None
    return int(text)


# --- what the server says ---------------------------------------------------------------------

class _Brief(logging.Handler):
    """The server's complaints on stderr: a bad request is one line (no traceback), an error
    of ours keeps its traceback; at most ``per_minute`` lines a minute, the rest counted."""

    def __init__(self, per_minute: int = 10) -> None:
        super().__init__(logging.WARNING)
        self.per_minute = per_minute
        self.window = 0.0
        self.lines = 0
        self.dropped = 0

    def emit(self, record: logging.LogRecord) -> None:
        now = time.monotonic()
        if now - self.window >= 60:
            if self.dropped:
                print(f"tablesense: web: {self.dropped} more complaint(s) in the last minute, not shown",
                      file=sys.stderr, flush=True)
            self.window, self.lines, self.dropped = now, 0, 0
        if self.lines >= self.per_minute:
            self.dropped += 1
            return
        self.lines += 1
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError | ConnectionError):
            lines = (getattr(exc, "message", "") or str(exc)).strip().splitlines()
            reason = lines[0][:120] if lines else type(exc).__name__
            client = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            text = f"tablesense: web: a bad request from {client}: {reason}"
        else:
            text = "tablesense: web: " + logging.Formatter().format(record)
        print(text, file=sys.stderr, flush=True)


def server_logger() -> logging.Logger:
    """The logger the web server's connections report to (see ``_Brief``)."""
    log = logging.getLogger("tablesense.web.server")
    if not log.handlers:
        log.addHandler(_Brief())
        log.propagate = False
        log.setLevel(logging.WARNING)
    return log
