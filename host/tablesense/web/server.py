"""The aiohttp app: pages, the read-only API and WebSocket, the referee's protected API.

``start(pub, ...)`` starts the web app over a pub; it follows the pub (``Pub.subscribe``:
a screen's WebSocket sends a table's snapshot after each change) and hands a referee's change
to it, nothing else. ``tablesense.pipeline.serve`` runs the whole pub: the match log, the
pub, this app and the tables' feeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from .. import texts
from ..errors import TablesenseError
from ..pub import Pub
from ..store import LANGS, StoreError, StoreUnavailable
from . import guard, pages, view
from .limits import BadBody, Gate, Limits, Screens, TooMany, load_json, path_number, server_logger
from .messages import Pace, message
from .qr import qr_svg

STATIC = Path(str(resources.files(__package__) / "static"))
PUB_KEY: web.AppKey[Pub] = web.AppKey("pub", Pub)
URL_KEY: web.AppKey[str] = web.AppKey("public_url", str)
SOCKETS_KEY: web.AppKey[set[web.WebSocketResponse]] = web.AppKey("sockets", set)
LIMITS_KEY: web.AppKey[Limits] = web.AppKey("limits", Limits)
HOSTS_KEY: web.AppKey[guard.Hosts] = web.AppKey("hosts", guard.Hosts)
TV_CODE_KEY: web.AppKey[str] = web.AppKey("tv_code", str)
THROTTLE_KEY: web.AppKey[guard.Throttle] = web.AppKey("throttle", guard.Throttle)
GATE_KEY: web.AppKey[Gate] = web.AppKey("gate", Gate)
SCREENS_KEY: web.AppKey[Screens] = web.AppKey("screens", Screens)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: seconds between two tries of a referee's change the match log refused (``_kept``)
KEPT_RETRY_S = (0.1, 1.0)
#: what a referee is told when the match log cannot take his change (a 503)
NOT_TAKEN = "not taken (nothing changed): {why}; press again in a moment"


def make_app(pub: Pub, public_url: str = "", *, tv_code: str = "", limits: Limits | None = None,
             hosts: guard.Hosts | None = None) -> web.Application:
    """The web app over ``pub``.

    ``public_url``: how phones reach this host (for the QR code); ``tv_code``: the pub's code
    that pairs a TV (empty: one per table from its token, ``guard.tv_code``); ``hosts``: the
    names it answers to (default: this machine's and the public URL's).
    """
    limits = limits or Limits()
    app = web.Application(middlewares=[_host_check, _errors], client_max_size=limits.max_body)
    app[PUB_KEY] = pub
    app[URL_KEY] = public_url.rstrip("/")
    app[LIMITS_KEY] = limits
    app[HOSTS_KEY] = hosts or guard.Hosts.of(public_url=public_url)
    app[TV_CODE_KEY] = tv_code
    app[THROTTLE_KEY] = guard.Throttle()
    app[GATE_KEY] = Gate(limits)  # start() puts it in front of the server's connections
    app[SCREENS_KEY] = Screens(limits)
    app[SOCKETS_KEY] = set()
    pub.view = view.view
    app.on_shutdown.append(_close_sockets)
    r = app.router
    r.add_get("/", _page("overview.html"))
    r.add_get("/table/{table}", _page("tv.html", table=True))
    r.add_get("/overlay/{table}", _page("tv.html", table=True))
    r.add_get("/ref/{table}", _page("ref.html", table=True))
    r.add_get("/history/{table}", _history)
    r.add_get("/match/{match:\\d+}.jsonl", _export)
    r.add_get("/match/{match:\\d+}/rulings", _rulings)
    r.add_get("/match/{match:\\d+}/sheet", _old_sheet)  # the rulings page's old address: the score sheet now
    r.add_get("/sheet/{match:\\d+}", _club_sheet)  # the printable club score sheet (tablesense.sheet)
    r.add_get("/i18n/{lang}.json", _i18n)
    r.add_get("/favicon.ico", _favicon)
    r.add_get("/api/tables", _tables)
    r.add_get("/api/team-night", _team_night)  # the overview's team score (league.pub_nights)
    r.add_get("/api/table/{table}", _snapshot)
    r.add_get("/api/table/{table}/log", _log)
    r.add_get("/api/table/{table}/matches", _matches)
    r.add_get("/api/table/{table}/panel", _panel)
    r.add_get("/api/table/{table}/qr.svg", _qr)
    r.add_get("/api/table/{table}/tv", _tv_status)
    r.add_post("/api/table/{table}/tv", _tv_pair)
    r.add_post("/api/table/{table}/auth", _auth)
    r.add_post("/api/table/{table}/setup", _setup)
    r.add_post("/api/table/{table}/call", _call)
    r.add_post("/api/table/{table}/void", _void)
    r.add_post("/api/table/{table}/event", _by_hand)  # a sensor event entered by hand
    r.add_post("/api/table/{table}/sensors", _sensors_answer)  # the board's record and the hand's
    r.add_post("/api/table/{table}/lang", _lang)
    r.add_get("/ws", _ws_all)
    r.add_get("/ws/{table}", _ws_table)
    r.add_static("/static", STATIC)
    return app


@web.middleware
async def _host_check(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request for a host name this app does not serve (DNS rebinding) is refused: 421."""
    if not request.app[HOSTS_KEY].allows(request):
        return web.Response(status=421, text="this web app does not serve that host name "
                            "(tablesense run --public-url names the one phones use)\n")
    return await handler(request)


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """User mistakes come back as 400/404 with the reason, never as a traceback; a match log
    that cannot take a change (a full disk, a lock) as 503, saying so, with nothing taken."""
    try:
        return await handler(request)
    except StoreUnavailable as exc:
        return _not_taken(str(exc))
    except sqlite3.Error as exc:  # the database failed under a request (a read): said once, no traceback
        print(f"tablesense: {request.method} {request.path}: the match log failed: {exc}",
              file=sys.stderr, flush=True)
        return _not_taken(f"the match log cannot be read: {exc}")
    except StoreError as exc:
        status = 404 if str(exc).startswith("no ") else 400
        return web.json_response({"error": str(exc)}, status=status)
    except TablesenseError as exc:
        return web.json_response({"error": str(exc)}, status=400)
    except (BadBody, UnicodeError) as exc:  # bad bytes anywhere in the request
        return web.json_response({"error": str(exc) if isinstance(exc, BadBody) else "bad characters"},
                                 status=400)


def _pub(request: web.Request) -> Pub:
    return request.app[PUB_KEY]


def _not_taken(why: str) -> web.Response:
    return web.json_response({"error": NOT_TAKEN.format(why=why)}, status=503, headers={"Retry-After": "5"})


async def _kept(request: web.Request, tid: str, change: Callable[[], Awaitable[Any]]) -> Any:
    """A referee's change (a set-up, a call, a void, the language), made once the match log
    takes it. A refused write leaves nothing on disk and nothing applied, so it is simply
    made again (the table's own events that wait for the log go first: they came before it),
    for up to ``Limits.store_wait`` seconds; then ``StoreUnavailable`` goes up: a 503 that
    says so, and the referee presses again."""
    tab = _pub(request).table(tid)
    deadline = time.monotonic() + request.app[LIMITS_KEY].store_wait
    delay = KEPT_RETRY_S[0]
    while True:
        try:
            return await change()
        except StoreUnavailable:
            if time.monotonic() + delay > deadline:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, KEPT_RETRY_S[1])
            while any(not task.done() for task in tab.waiting) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)


def _trust(request: web.Request) -> None:
    """The request showed the referee token or a paired TV's cookie: its address is kept
    apart from guests' (``limits.Gate``, ``limits.Screens``)."""
    client = request.remote
    if client:
        request.app[GATE_KEY].trust(client)
        request.app[SCREENS_KEY].promote(client)


def _table_id(request: web.Request) -> str:
    tid = request.match_info["table"]
    if tid not in _pub(request).tables:
        raise web.HTTPNotFound(text=f"no table {tid[:40]!r}")
    return tid


def _match_id(request: web.Request) -> int:
    n = path_number(request.match_info["match"], request.app[LIMITS_KEY])
    if n is None:
        raise web.HTTPNotFound(text="no such match")
    return n


def _page(name: str, table: bool = False) -> Handler:
    async def handler(request: web.Request) -> web.StreamResponse:
        if table:
            _table_id(request)
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    return handler


# --- read-only -------------------------------------------------------------------------

async def _tables(request: web.Request) -> web.Response:
    pub = _pub(request)
    return web.json_response({"tables": list(pub.tables), "langs": list(LANGS), "lang": pub.lang,
                              "language_names": {code: texts.name(code) for code in LANGS}})


async def _favicon(request: web.Request) -> web.FileResponse:
    """The pages' icon where a browser asks for it by default (the pages link the same one)."""
    return web.FileResponse(STATIC / "favicon.svg", headers={"Content-Type": "image/svg+xml",
                                                              "Cache-Control": "max-age=86400"})


async def _team_night(request: web.Request) -> web.Response:
    """Tonight's team nights at this pub and their score (none: ``{"nights": []}``)."""
    return web.json_response(_pub(request).team_night or {"nights": []})


async def _snapshot(request: web.Request) -> web.Response:
    tid = _table_id(request)
    return web.Response(body=_pub(request).snapshot_message(tid), content_type="application/json",
                        charset="utf-8")


async def _log(request: web.Request) -> web.Response:
    tid = _table_id(request)
    return web.json_response({"items": _pub(request).log_items(tid)})


async def _matches(request: web.Request) -> web.Response:
    tid = _table_id(request)
    return web.json_response({"matches": [m.to_dict() for m in _pub(request).store.matches(tid)]})


async def _panel(request: web.Request) -> web.Response:
    """The referee panel's buttons for the table's match (public: what the rules allow)."""
    tid = _table_id(request)
    pub = _pub(request)
    rep = pub.table(tid).replay
    state = rep.engine.to_json(rep.state) if rep.engine is not None and rep.state is not None else None
    return web.json_response(view.panel(pub.table(tid), state))


def _tv_code(request: web.Request, tid: str) -> str:
    return guard.tv_code(_pub(request).table(tid).token, request.app[TV_CODE_KEY])


async def _qr(request: web.Request) -> web.Response:
    """The referee QR code (it holds the token): only for a TV paired with the table."""
    tid = _table_id(request)
    if not guard.is_paired_tv(request, tid, _tv_code(request, tid)):
        raise web.HTTPForbidden(text="refused: the referee QR code is shown on the pub's own TV only "
                                "(open /table/<id>?tv=CODE there once; tablesense run prints the code)")
    _trust(request)
    tab = _pub(request).table(tid)
    base = request.app[URL_KEY] or f"{request.scheme}://{request.host}"
    if "{port}" in base:  # the port bound (a demo on any free port)
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        base = base.replace("{port}", str(sock[1] if isinstance(sock, tuple) else request.url.port or ""))
    return web.Response(body=qr_svg(f"{base}/ref/{tid}?token={tab.token}"), content_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})


async def _tv_status(request: web.Request) -> web.Response:
    tid = _table_id(request)
    paired = guard.is_paired_tv(request, tid, _tv_code(request, tid))
    if paired:
        _trust(request)
    return web.json_response({"paired": paired}, headers={"Cache-Control": "no-store"})


async def _tv_pair(request: web.Request) -> web.Response:
    """Pair this browser as the table's TV: the pub's TV code in, a cookie out."""
    tid = _table_id(request)
    if not guard.same_origin(request):
        raise web.HTTPForbidden(text="refused: the request comes from another site")
    client = request.remote or "?"
    throttle = request.app[THROTTLE_KEY]
    throttle.check(client)
    body = await _body(request)
    code = _tv_code(request, tid)
    given = body.get("code")
    if not isinstance(given, str) or not hmac.compare_digest(given.encode("utf-8", "surrogateescape"),
                                                             code.encode("utf-8", "surrogateescape")):
        throttle.failed(client)
        raise web.HTTPForbidden(text="refused: wrong TV code")
    _trust(request)
    resp = web.json_response({"ok": True, "paired": True})
    resp.set_cookie(guard.tv_cookie_name(tid), guard.tv_key(code, tid), max_age=guard.TV_COOKIE_AGE,
                    path="/", httponly=True, samesite="Strict")
    return resp


async def _i18n(request: web.Request) -> web.Response:
    lang = request.match_info["lang"]
    if lang not in LANGS:
        raise web.HTTPNotFound(text=f"no language {lang!r} (languages: {', '.join(LANGS)})")
    return web.json_response(pages.strings(lang))


async def _export(request: web.Request) -> web.Response:
    match_id = _match_id(request)
    raw = request.query.get("raw") == "1"
    lines = _pub(request).export_lines(match_id, raw=raw)
    name = f"match-{match_id}{'-raw' if raw else ''}.jsonl"
    return web.Response(
        text="".join(line + "\n" for line in lines), content_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def _history(request: web.Request) -> web.Response:
    tid = _table_id(request)
    pub = _pub(request)
    html = pages.history_html(tid, pub.store.matches(tid, limit=200), pub.table(tid).lang)
    return web.Response(text=html, content_type="text/html")


async def _rulings(request: web.Request) -> web.Response:
    """A match's rulings with their rule ids, in the table's language."""
    match_id = _match_id(request)
    pub = _pub(request)
    match = pub.store.match(match_id)
    lang = pub.tables[match.table_id].lang if match.table_id in pub.tables else "en"
    html = pages.rulings_html(match, pub.export_lines(match_id), lang)
    return web.Response(text=html, content_type="text/html")


async def _old_sheet(request: web.Request) -> web.Response:
    """``/match/<id>/sheet`` (the rulings, before the club's sheet came): the score sheet now."""
    raise web.HTTPMovedPermanently(f"/sheet/{_match_id(request)}")


async def _club_sheet(request: web.Request) -> web.Response:
    """The club's score sheet for printing on A4, in the table's language or ``?lang=``."""
    from ..sheet.source import store_sheet

    lang = request.query.get("lang")
    html = store_sheet(_pub(request).store, _match_id(request), lang if lang in LANGS else None)
    return web.Response(text=html, content_type="text/html")


# --- live --------------------------------------------------------------------------------

async def _close_sockets(app: web.Application) -> None:
    for ws in list(app[SOCKETS_KEY]):
        await ws.close(code=1001, message=b"server shutdown")

async def _ws_table(request: web.Request) -> web.WebSocketResponse:
    tid = _table_id(request)
    return await _stream(request, [tid])


async def _ws_all(request: web.Request) -> web.WebSocketResponse:
    return await _stream(request, list(_pub(request).tables))


def _screen_trusted(request: web.Request, table_ids: list[str]) -> bool:
    """Whether a WebSocket is the referee's or a paired TV's: its address showed the token
    or a TV cookie before, or the request carries the cookie of one of its tables."""
    if request.remote in request.app[GATE_KEY].trusted:
        return True
    for tid in table_ids:
        if guard.is_paired_tv(request, tid, _tv_code(request, tid)):
            _trust(request)
            return True
    return False


async def _stream(request: web.Request, table_ids: list[str]) -> web.WebSocketResponse:
    """Send each table's snapshot now and after every change (latest wins, nothing queues).

    A page that asks for it (``?ack=1``: the pages do) says when it has shown a message by
    sending any text back; it is sent nothing more while a message of its is unanswered,
    and then the newest snapshot of each table that changed meanwhile. So a page whose
    browser is busy skips states instead of receiving a queue of them (``messages.Pace``).
    A guest's socket counts against the caps of ``limits.Screens`` (429 before the upgrade
    when it is over one) and is closed after ``ws_idle_timeout`` with nothing passing
    either way; the referee's and the paired TV's never are."""
    pub = _pub(request)
    limits = request.app[LIMITS_KEY]
    screens = request.app[SCREENS_KEY]
    ws = web.WebSocketResponse(heartbeat=20, compress=False, max_msg_size=limits.max_ws_message)

    async def closed_for_room() -> None:
        with contextlib.suppress(Exception):  # not prepared yet, or gone already
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"the pub's screens are all taken")

    def make_room() -> None:  # another guest needs the place of this socket
        asyncio.get_running_loop().create_task(closed_for_room())

    try:
        screen = screens.open(request.remote or "?", _screen_trusted(request, table_ids), make_room)
    except TooMany as exc:
        raise web.HTTPTooManyRequests(text=f"refused: {exc}", headers={"Retry-After": "5"}) from None
    try:
        await ws.prepare(request)
    except BaseException:
        screens.done(screen)
        raise
    if screen.gone:  # its place was given to another guest while it was being opened
        await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"the pub's screens are all taken")
        return ws
    request.app[SOCKETS_KEY].add(ws)
    flag = pub.subscribe(*table_ids)  # set at every change of its tables, and by the page (below)
    sent = dict.fromkeys(table_ids, -1)
    pace = Pace(request.query.get("ack") == "1")

    async def drain() -> None:
        try:
            async for msg in ws:
                screens.touch(screen)
                if msg.type == WSMsgType.ERROR:
                    break
                if pace.answered():
                    flag.set()
        finally:
            flag.set()  # the page went: the sender stops

    reader = asyncio.create_task(drain())
    try:
        while not ws.closed and not reader.done():
            flag.clear()
            if pace.free():
                for tid in table_ids:
                    version = pub.tables[tid].version
                    if sent[tid] != version:
                        sent[tid] = version
                        pace.sending()
                        await ws.send_frame(message(pub, tid), WSMsgType.TEXT)
                        screens.touch(screen)
            left = screens.idle_left(screen)
            if left is not None and left <= 0:
                await ws.close(code=WSCloseCode.OK, message=b"idle")
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await flag.wait()
    except (ConnectionResetError, RuntimeError):
        pass
    finally:
        screens.done(screen)
        pub.unsubscribe(flag)
        reader.cancel()
        request.app[SOCKETS_KEY].discard(ws)
        await ws.close()
    return ws


# --- protected: the referee --------------------------------------------------------------

async def _body(request: web.Request) -> dict[str, Any]:
    """The JSON object of the body: bounded in size (413), time (408), depth and numbers (400)."""
    limits = request.app[LIMITS_KEY]
    try:
        async with asyncio.timeout(limits.body_timeout):
            raw = await request.read()
    except TimeoutError:
        raise web.HTTPRequestTimeout(text="the request body came too slowly") from None
    except (ConnectionError, web.RequestPayloadError):  # the client went away, or sent a broken body
        raise BadBody("the request body did not arrive whole") from None
    body = load_json(raw, limits)
    if not isinstance(body, dict):
        raise BadBody("the request body must be a JSON object")
    return body


async def _guarded(request: web.Request, tv: bool = False) -> tuple[str, dict[str, Any]]:
    """The table and the body of a referee's request; refused (403) without the table's
    token, or, when ``tv``, from the table's paired TV (its keyboard or remote: the TV
    shows the token's QR code anyway)."""
    tid = _table_id(request)
    body = await _body(request) if request.can_read_body else {}
    token = body.pop("token", None)
    if tv and guard.TOKEN_HEADER not in request.headers and token is None and guard.same_origin(request) \
            and guard.is_paired_tv(request, tid, _tv_code(request, tid)):
        _trust(request)
        return tid, body
    guard.check(request, _pub(request).table(tid).token, token)
    _trust(request)
    return tid, body


async def _auth(request: web.Request) -> web.Response:
    await _guarded(request)
    return web.json_response({"ok": True})


async def _setup(request: web.Request) -> web.Response:
    tid, body = await _guarded(request)
    match_id = await _kept(request, tid, lambda: _pub(request).start_match_async(tid, body))
    return web.json_response({"ok": True, "match": match_id})


async def _call(request: web.Request) -> web.Response:
    tid, body = await _guarded(request, tv=True)
    await _kept(request, tid, lambda: _pub(request).call_async(tid, body))
    return web.json_response({"ok": True})


async def _void(request: web.Request) -> web.Response:
    tid, body = await _guarded(request)
    first, last = body.get("from"), body.get("to", body.get("from"))
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (first, last)):
        raise BadBody("void needs 'from' and 'to': event numbers")
    await _kept(request, tid, lambda: _pub(request).void_async(tid, first, last))
    return web.json_response({"ok": True})


async def _by_hand(request: web.Request) -> web.Response:
    """A sensor event the referee enters (the sensors are out, or he chose to):
    ``{"type": "goal", "goal": "B", "ball": "p1"}``; the host stamps it (docs/referee.md)."""
    tid, body = await _guarded(request)
    await _pub(request).enter_by_hand(tid, body)
    return web.json_response({"ok": True})


async def _sensors_answer(request: web.Request) -> web.Response:
    """The referee's answer where the board's record and the hand entries disagree:
    ``{"question": "s1", "answer": true}``."""
    tid, body = await _guarded(request)
    question = body.get("question")
    if not isinstance(question, str):
        raise BadBody("an answer needs 'question': the question's id (s1, s2, ...)")
    await _pub(request).answer_sensors(tid, question, body.get("answer"))
    return web.json_response({"ok": True})


async def _lang(request: web.Request) -> web.Response:
    tid, body = await _guarded(request)

    async def set_lang() -> None:
        _pub(request).set_lang(tid, str(body.get("lang")))

    await _kept(request, tid, set_lang)
    return web.json_response({"ok": True})


# --- running -------------------------------------------------------------------------------

async def start(pub: Pub, host: str = "127.0.0.1", port: int = 8080, public_url: str = "", *,
                tv_code: str = "", limits: Limits | None = None,
                allowed_hosts: tuple[str, ...] = (), also: tuple[str, ...] = ()) -> tuple[web.AppRunner, str]:
    """Start the web app; returns the runner (``await runner.cleanup()``) and its base URL.

    ``limits`` (default ``Limits()``, its connection cap fitted to the file limit) bound
    what clients may cost; ``allowed_hosts``: more host names to answer to; ``also``: more
    addresses to listen on, at the same port (the demo's LAN address, for phones).
    """
    limits = (limits or Limits()).capped()
    hosts = guard.Hosts.of(host, public_url, (*allowed_hosts, *also))
    app = make_app(pub, public_url, tv_code=tv_code, limits=limits, hosts=hosts)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                           keepalive_timeout=limits.idle_timeout, logger=server_logger())
    await runner.setup()
    assert runner.server is not None
    app[GATE_KEY].attach(runner.server)
    site = web.TCPSite(runner, host, port, backlog=128)
    await site.start()
    server = site._server
    bound = server.sockets[0].getsockname()[1] if server and server.sockets else port  # type: ignore[union-attr]
    for extra in also:
        if extra != host:
            await web.TCPSite(runner, extra, bound, backlog=128).start()
    return runner, f"http://{host}:{bound}"
