"""Who may change a table, and who may see the way in.

- Every request names a host this app serves (``Host`` header): its own addresses, the
  configured ``--host``, the ``--public-url``'s, ``localhost`` and the machine's names.
  Anything else is refused with 421, so a page of another site that has its name
  resolve to this machine (DNS rebinding) reads nothing and changes nothing.
- Every change (start a match, a call, a correction, the language) needs the table's
  referee token in the ``X-Tablesense-Token`` header (or a ``token`` field of the JSON
  body), and a browser request whose ``Origin`` is another site is refused even with it.
- The token travels in the referee QR code, which only a *paired TV* is shown: a
  browser that has given the pub's TV code for the table (``/table/<id>?tv=CODE``, the
  code ``tablesense run`` prints) holds a cookie for it. Public pages never carry the
  token.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import socket
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import web

TOKEN_HEADER = "X-Tablesense-Token"
TV_COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
WRONG_CODES_PER_MINUTE = 10  # per client address
WRONG_CODES_IN_ALL = 30  # per minute from all addresses together


def _bytes(text: str) -> bytes:
    """A header's text as its bytes again (aiohttp keeps non-UTF-8 bytes as surrogates)."""
    return text.encode("utf-8", "surrogateescape")


# --- the Host header ---------------------------------------------------------------------

def host_name(host: str) -> str | None:
    """The name or address of a ``Host`` header, lowercase, without port; None if malformed."""
    h = host.strip().lower()
    if h.startswith("["):
        end = h.find("]")
        if end < 0:
            return None
        name, rest = h[1:end], h[end + 1:]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return name
    name, _, port = h.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


def machine_names() -> set[str]:
    """This machine's own names: ``localhost``, its host name, that name in ``.local``, its FQDN."""
    names = {"localhost"}
    for get in (socket.gethostname, socket.getfqdn):
        try:
            name = get().lower().rstrip(".")
        except OSError:
            continue
        if name:
            names.add(name)
            names.add(name.split(".")[0] + ".local")
    return names


@functools.lru_cache(maxsize=256)
def _is_local_address(addr: str) -> bool:
    """Whether ``addr`` is an address of this machine (it can be bound to)."""
    ip = ipaddress.ip_address(addr)
    if ip.is_unspecified or ip.is_multicast:
        return False
    if ip.is_loopback:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((addr, 0))
    except OSError:
        return False
    return True


class Hosts:
    """The names and addresses this app answers to."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = machine_names()
        for n in names:
            name = host_name(n) if n else None
            if name and name not in ("0.0.0.0", "::"):
                self.names.add(name)

    @classmethod
    def of(cls, host: str = "", public_url: str = "", extra: Iterable[str] = ()) -> Hosts:
        names = [host, *extra]
        if public_url:
            try:
                names.append(urlsplit(public_url).netloc)
            except ValueError:
                pass
        return cls(names)

    def allows(self, request: web.Request) -> bool:
        """Whether the request's ``Host`` names this app (an HTTP/1.0 request without one passes)."""
        raw = request.headers.get("Host")
        if raw is None:
            return True
        name = host_name(raw)
        if name is None:
            return False
        if name in self.names or name.endswith(".localhost"):
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False  # a name we do not have: DNS rebinding, or a name to add with --public-url
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        if isinstance(sock, tuple) and sock:
            here = ipaddress.ip_address(sock[0].split("%")[0])
            if isinstance(here, ipaddress.IPv6Address) and here.ipv4_mapped:
                here = here.ipv4_mapped
            if ip == here:
                return True
        return _is_local_address(str(ip))


# --- the origin and the token ------------------------------------------------------------

def same_origin(request: web.Request) -> bool:
    """False if the request comes from a page of another site."""
    origin = request.headers.get("Origin")
    if origin is not None:
        if origin == "null":
            return False
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:
            return False
        if netloc.lower() != request.host.lower():
            return False
    return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")


def check(request: web.Request, token: str, body_token: object = None) -> None:
    """Raise 403 unless the request carries ``token`` and comes from our own pages."""
    if not same_origin(request):
        raise web.HTTPForbidden(text="refused: the request comes from another site")
    given = request.headers.get(TOKEN_HEADER)
    if given is None and isinstance(body_token, str):
        given = body_token
    if not given:
        raise web.HTTPForbidden(text="refused: the referee token of this table is needed")
    if not hmac.compare_digest(_bytes(given), _bytes(token)):
        raise web.HTTPForbidden(text="refused: wrong referee token for this table")


# --- the TV: pairing a browser behind the bar ----------------------------------------------

def tv_code(token: str, configured: str = "") -> str:
    """The code that pairs a TV with a table: the pub's own (``--tv-code``) or 8 digits from the token."""
    if configured:
        return configured
    digest = hmac.new(token.encode(), b"tablesense tv code", hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**8:08d}"


def tv_cookie_name(table: str) -> str:
    return "tablesense-tv-" + hashlib.sha256(table.encode()).hexdigest()[:12]


def tv_key(code: str, table: str) -> str:
    """What a paired TV's cookie holds: changes when the code changes, so a new code unpairs every TV."""
    return hmac.new(_bytes(code), f"tablesense tv {table}".encode(), hashlib.sha256).hexdigest()


def is_paired_tv(request: web.Request, table: str, code: str) -> bool:
    given = request.cookies.get(tv_cookie_name(table), "")
    return bool(given) and hmac.compare_digest(_bytes(given), tv_key(code, table).encode())


class Throttle:
    """Counts wrong TV codes per client address and from all addresses together: more than
    ``per_minute`` from one address, or ``in_all`` from all, within a minute are refused
    (429) for the rest of that minute, the right code too (a right code let through would
    tell a guesser which code is right). Addresses are forgotten a minute after their
    first wrong code, never earlier: a flood of addresses makes no room by forgetting the
    one being throttled; past ``max_clients`` addresses, the count in all holds them."""

    def __init__(self, per_minute: int = WRONG_CODES_PER_MINUTE, in_all: int = WRONG_CODES_IN_ALL,
                 clock: Callable[[], float] = time.monotonic, max_clients: int = 4096) -> None:
        self.per_minute = per_minute
        self.in_all = in_all
        self.clock = clock
        self.max_clients = max_clients
        self.wrong: dict[str, tuple[float, int]] = {}  # client -> (window start, wrong codes in it)
        self.total: tuple[float, int] = (-60.0, 0)

    def check(self, client: str) -> None:
        now = self.clock()
        since, count = self.wrong.get(client, (0.0, 0))
        if count >= self.per_minute and now - since < 60:
            raise web.HTTPTooManyRequests(text="refused: too many wrong codes from here; wait a minute",
                                          headers={"Retry-After": str(max(1, int(60 - (now - since))))})
        since, count = self.total
        if count >= self.in_all and now - since < 60:
            raise web.HTTPTooManyRequests(text="refused: too many wrong codes were tried; wait a minute",
                                          headers={"Retry-After": str(max(1, int(60 - (now - since))))})

    def failed(self, client: str) -> None:
        now = self.clock()
        since, count = self.total
        self.total = (now, 1) if now - since >= 60 else (since, count + 1)
        since, count = self.wrong.get(client, (now, 0))
        if now - since >= 60:
            since, count = now, 0
        if client not in self.wrong and len(self.wrong) >= self.max_clients:
            self.wrong = {c: v for c, v in self.wrong.items() if now - v[0] < 60}  # the expired only
            if len(self.wrong) >= self.max_clients:
                return  # the count in all holds them
        self.wrong[client] = (since, count + 1)
