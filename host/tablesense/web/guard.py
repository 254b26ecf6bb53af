"""Who may change a table: the referee with the table's token, from our own pages.

Public pages and the WebSocket are read-only. Every change (start a match, a call,
a correction, the language) needs the table's token in the ``X-Tablesense-Token``
header (or a ``token`` field of the JSON body), and a browser request whose
``Origin`` is another site is refused even with the right token.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from aiohttp import web

TOKEN_HEADER = "X-Tablesense-Token"


def same_origin(request: web.Request) -> bool:
    """False if the request comes from a page of another site."""
    origin = request.headers.get("Origin")
    if origin is not None:
        if origin == "null":
            return False
        parts = urlsplit(origin)
        if parts.netloc.lower() != request.host.lower():
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
    if not hmac.compare_digest(given.encode(), token.encode()):
        raise web.HTTPForbidden(text="refused: wrong referee token for this table")
