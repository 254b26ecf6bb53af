"""What one client may cost the web app: connections, time, body size, JSON shape.

A pub's web app faces whoever is on the pub's Wi-Fi. ``Limits`` holds the figures;
``Gate`` counts open connections (in all and per client address): one over the cap of
its address is closed at once; when all are taken, a new one takes the place of the
oldest connection of the guest address that holds the most, so that a crowd can slow
the pub's pages but never shut a newcomer out. Addresses that have shown the referee
token or the paired TV's cookie (``Gate.trust``) are kept apart: their connections are
never the ones closed. ``Screens`` does the same for live WebSockets (a cap per guest
address, a share for guests in all, an idle limit). One line on stderr when a cap is
reached (not one per socket); ``load_json`` parses a request body with bounded depth
and number size.
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
    #: open connections from one client address (a browser needs up to seven)
    max_per_client: int = 32
    #: live WebSockets (scoreboards, panels) from one guest address (a PC behind the bar may
    #: show a scoreboard for each of its tables)
    max_ws_per_client: int = 16
    #: live WebSockets of guests in all: the rest of ``max_connections`` stays for pages,
    #: the referee and the paired TVs
    max_guest_ws: int = 128
    #: a guest's WebSocket on which nothing has passed either way for this long is closed
    #: (a page that is still open reconnects at once and gets the scoreboard again)
    ws_idle_timeout: float = 300.0
    #: an address that has shown the referee token or a paired TV's cookie is kept apart
    #: from guests this long after it last did
    trusted_for: float = 12 * 3600.0
    #: a referee's change waits this long, seconds, for a match log that refuses writes (a full
    #: disk, a lock another program holds) before it is refused with 503 (nothing taken)
    store_wait: float = 5.0
    #: largest request body, bytes
    max_body: int = 64 * 1024
    #: deepest nesting of a JSON body
    max_depth: int = 16
    #: longest integer in a JSON body or a path, digits
    max_digits: int = 15
    #: largest WebSocket message a page may send (pages send nothing that matters)
    max_ws_message: int = 4096

    def capped(self) -> Limits:
        """These limits with the connection cap fitted to the process's file limit (and the
        guests' WebSockets to half of it at most)."""
        cap = _fd_budget(self.max_connections)
        guests = min(self.max_guest_ws, max(1, cap // 2))
        if cap == self.max_connections and guests == self.max_guest_ws:
            return self
        return dataclasses.replace(self, max_connections=cap, max_guest_ws=guests)


# --- connections ----------------------------------------------------------------------------

class Trusted:
    """Addresses that have shown the referee token or a paired TV's cookie, for a while."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.until: dict[str, float] = {}

    def add(self, client: str) -> None:
        now = self.clock()
        if len(self.until) >= 1024 and client not in self.until:  # bounded: forget the expired
            self.until = {c: t for c, t in self.until.items() if t > now}
            if len(self.until) >= 1024:
                return
        self.until[client] = now + self.seconds

    def __contains__(self, client: object) -> bool:
        until = self.until.get(client) if isinstance(client, str) else None
        return until is not None and until > self.clock()


@dataclass(eq=False, slots=True)
class _Conn:
    client: str
    opened: float
    transport: Any


class Gate:
    """Counts a server's connections; makes room for a newcomer at the cap (see the module)."""

    def __init__(self, limits: Limits, say: Callable[[str], None] | None = None,
                 trusted: Trusted | None = None) -> None:
        self.limits = limits
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.trusted = trusted or Trusted(limits.trusted_for)
        self.conns: dict[RequestHandler, _Conn] = {}
        self.per_client: Counter[str] = Counter()
        self.refused = 0  # closed at a cap since the last line that said so
        self.evicted = 0  # closed to make room for a newcomer, since that line
        self._gone: set[RequestHandler] = set()  # closed to make room, not yet lost by the server
        self._full: str | None = None  # what is full now ("all", or a client)
        self._said_at = -60.0  # when a cap was last said: at most once a minute
        self._said = False

    @property
    def clients(self) -> dict[RequestHandler, str]:
        return {h: c.client for h, c in self.conns.items()}

    def trust(self, client: str | None) -> None:
        """``client`` showed the referee token or a paired TV's cookie."""
        if client:
            self.trusted.add(client)

    def attach(self, server: web.Server) -> None:
        """Put the gate in front of ``server``'s own bookkeeping of its connections."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: Any) -> None:
            client = _client(transport)
            if self._admit(client):
                self.conns[handler] = _Conn(client, time.monotonic(), transport)
                self.per_client[client] += 1
                made(handler, transport)
            else:  # closed once the handler has started (the socket and its descriptor freed)
                asyncio.get_running_loop().call_soon(transport.abort)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            if handler in self._gone:
                self._gone.discard(handler)
                lost(handler, exc)
                return
            if self._forget(handler):
                lost(handler, exc)
                self._maybe_reopen()

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    @property
    def open(self) -> int:
        return len(self.conns)

    def _forget(self, handler: RequestHandler) -> bool:
        conn = self.conns.pop(handler, None)
        if conn is None:
            return False
        self.per_client[conn.client] -= 1
        if self.per_client[conn.client] <= 0:
            del self.per_client[conn.client]
        return True

    def _admit(self, client: str) -> bool:
        lim = self.limits
        trusted = client in self.trusted
        if not trusted and self.per_client[client] >= lim.max_per_client:
            self._refuse(client, f"{client} holds {lim.max_per_client} connections (the limit per client)")
            return False
        if len(self.conns) < lim.max_connections:
            return True
        victim = self._victim(client, trusted)
        if victim is None:
            self._refuse("all", f"{lim.max_connections} connections open (the limit)")
            return False
        self._refuse("all", f"{lim.max_connections} connections open (the limit)", evicting=True)
        conn = self.conns[victim]
        self._forget(victim)
        self._gone.add(victim)
        conn.transport.abort()
        return True

    def _victim(self, client: str, trusted: bool) -> RequestHandler | None:
        """The connection to close for a newcomer from ``client``: the oldest of the guest
        address holding the most, when it holds more than the newcomer's would (a trusted
        newcomer: any guest's); None when there is none."""
        guests = [(n, c) for c, n in self.per_client.items() if c not in self.trusted]
        if not guests:
            return None
        most, addr = max(guests)
        if not trusted and most <= self.per_client[client] + 1:
            return None
        oldest = min((c.opened, id(h), h) for h, c in self.conns.items() if c.client == addr)
        return oldest[2]

    def _refuse(self, what: str, why: str, evicting: bool = False) -> None:
        if evicting:
            self.evicted += 1
        else:
            self.refused += 1
        if self._full is None:
            self._full = what
            now = time.monotonic()
            if now - self._said_at >= 60:
                self._said_at, self._said = now, True
                then = ("the oldest connections of the busiest guests are closed for new ones" if evicting
                        else "new connections are closed until some end")
                self.say(f"tablesense: {why}: {then}")

    def _maybe_reopen(self) -> None:
        if self._full is None:
            return
        lim = self.limits
        if self._full == "all":
            calm = len(self.conns) <= lim.max_connections * 3 // 4
        else:
            calm = self.per_client[self._full] <= lim.max_per_client * 3 // 4
        if calm:
            if self._said:
                self.say(f"tablesense: connections accepted again ({self.refused} closed at the limit, "
                         f"{self.evicted} closed to make room)")
                self._said, self.refused, self.evicted = False, 0, 0
            self._full = None


# --- live WebSockets ----------------------------------------------------------------------------

@dataclass(eq=False, slots=True)
class Screen:
    """One live WebSocket: whose, since when, when something last passed on it."""

    client: str
    trusted: bool
    opened: float
    last: float
    close: Callable[[], Any]
    #: closed, or being closed to make room: it counts no more
    gone: bool = False


class Screens:
    """The live WebSockets: a cap per guest address and a share for guests in all; at
    the share, a newcomer takes the place of the oldest socket of the guest address that
    holds the most (when it holds more than the newcomer's would). Sockets of trusted
    addresses (the referee, the paired TV) count against neither."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.screens: list[Screen] = []
        self.guests: Counter[str] = Counter()
        self.closed_for_room = 0

    def open(self, client: str, trusted: bool, close: Callable[[], Any]) -> Screen:
        """Admit a socket or raise ``TooMany`` with the reason (before the upgrade)."""
        lim = self.limits
        if not trusted:
            if self.guests[client] >= lim.max_ws_per_client:
                raise TooMany(f"{lim.max_ws_per_client} live screens from this address already")
            if sum(self.guests.values()) >= lim.max_guest_ws:
                victim = self._victim(client)
                if victim is None:
                    raise TooMany("the pub's screens are all taken; try again in a moment")
                self.closed_for_room += 1
                self.done(victim)
                victim.close()
        now = self.clock()
        screen = Screen(client, trusted, now, now, close)
        self.screens.append(screen)
        if not trusted:
            self.guests[client] += 1
        return screen

    def _victim(self, client: str) -> Screen | None:
        if not self.guests:
            return None
        most, addr = max((n, c) for c, n in self.guests.items())
        if most <= self.guests[client] + 1:
            return None
        return next(s for s in self.screens if not s.trusted and s.client == addr)  # the oldest

    def done(self, screen: Screen) -> None:
        """The socket closed (or is being closed): it counts no more."""
        if screen.gone:
            return
        screen.gone = True
        self.screens.remove(screen)
        if not screen.trusted:
            self.guests[screen.client] -= 1
            if self.guests[screen.client] <= 0:
                del self.guests[screen.client]

    def promote(self, client: str) -> None:
        """``client`` has shown the referee token or a TV's cookie: its sockets are trusted now."""
        for screen in self.screens:
            if screen.client == client and not screen.trusted:
                screen.trusted = True
                self.guests[client] -= 1
        if self.guests.get(client, 1) <= 0:
            del self.guests[client]

    def idle_left(self, screen: Screen) -> float | None:
        """Seconds until a guest's socket is idle too long (None: a trusted one never is)."""
        if screen.trusted:
            return None
        return screen.last + self.limits.ws_idle_timeout - self.clock()

    def touch(self, screen: Screen) -> None:
        screen.last = self.clock()


class TooMany(Exception):
    """A WebSocket refused at a cap (429): the reason is for the client."""


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
