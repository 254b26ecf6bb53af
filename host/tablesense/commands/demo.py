"""``tablesense demo``: a whole simulated match, end to end, onto the scoreboard.

By default the match goes through the real firmware under MicroPython's unix port and the
serial link (``tablesense.sim.firmware_feed``); ``--direct`` feeds the simulator's table
events straight in. ``--open`` opens the TV page in chromium (headless when there is no
DISPLAY: the URL is printed and the page kept open). ``--print`` writes the events as
JSON Lines to stdout instead of serving them (no web server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from .. import games
from ..command_line.options import add_db, add_http
from ..errors import TablesenseError
from ..events import Event, dump_event
from ..replay import Replay
from ..web.lan import lan_address

EXAMPLES = """
tablesense demo --game kegle --seed 3 --open
tablesense demo --game carom --direct --speed 0 --exit --http 0
tablesense demo --game carom --direct --speed 0 --print --target 2 > match.jsonl
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=games.names(), default="golf",
                        help=f"which table: {', '.join(games.names())} (default golf)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the match to play: same seed, same match (default 0)")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="time scale: 1 real time, 10 ten times faster, 0 as fast as possible")
    parser.add_argument("--open", action="store_true", help="open the TV scoreboard in chromium")
    parser.add_argument("--direct", action="store_true",
                        help="feed the simulator's events directly (no firmware, no serial link)")
    parser.add_argument("--full-info", action="store_true",
                        help="with --direct: add contacts and ball positions (a full-information table)")
    parser.add_argument("--print", dest="print_events", action="store_true",
                        help="print the events as JSON Lines instead of serving the scoreboard")
    parser.add_argument("--target", type=int, metavar="N", help="carom: caroms each player needs (default 8)")
    parser.add_argument("--distance", type=int, metavar="N", help="kegle: points to reach (default 40)")
    add_http(parser, host="127.0.0.1", any_port=True, old_port="--port")
    add_db(parser, "match log database (default: a fresh one in a temporary directory)")
    parser.add_argument("--exit", action="store_true", help="stop serving when the match is over")


def _opts(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if args.target is not None:
        opts["targets"] = args.target
    if args.distance is not None:
        opts["distance"] = args.distance
    return opts


def _check(args: argparse.Namespace) -> str | None:
    if not math.isfinite(args.speed) or args.speed < 0:  # nan and inf are no time scale
        return f"--speed must be 0 (as fast as possible) or more, not {args.speed:g}"
    game = games.get(args.game)  # what its set-up's length is declares which option it takes
    if args.target is not None and (game.played_to != "targets" or args.target <= 0):
        which = " or ".join(games.played_to("targets"))
        return f"--target is for --game {which}, a positive number of caroms"
    if args.distance is not None and (game.played_to != "distance" or args.distance <= 0):
        which = " or ".join(games.played_to("distance"))
        return f"--distance is for --game {which}, a positive number of points"
    if args.full_info and not args.direct:
        return "--full-info needs --direct (a real table's sensors have no full information)"
    from .run import check_http_port

    why = check_http_port(args.http.port, allow_any=True)
    return f"--http: {why}" if why else None


def events(args: argparse.Namespace, notes: list[str]) -> AsyncIterator[Event]:
    """The demo's event source: direct from the simulator, or through firmware and link."""
    if args.direct:
        from ..sim.match import simulated_match

        return simulated_match(args.game, seed=args.seed, speed=args.speed, full_info=args.full_info,
                               **_opts(args))
    from ..sim.firmware_feed import firmware_match

    return firmware_match(args.game, seed=args.seed, speed=args.speed, notes=notes, **_opts(args))


def run(args: argparse.Namespace) -> int:
    from ..command_line.extras import needs

    missing = needs("tablesense demo", "pymunk", *(() if args.direct else ("micropython",)))
    if missing:
        print(missing, file=sys.stderr)
        return 2
    problem = _check(args)
    if problem:
        print(f"tablesense demo: {problem}", file=sys.stderr)
        return 2
    try:
        if args.print_events:
            return asyncio.run(_print(args))
        return asyncio.run(_serve(args))
    except TablesenseError as exc:  # a match log that cannot be opened or another host serves
        print(f"tablesense demo: {exc}", file=sys.stderr)
        return 2  # could not start, as run says the same (docs/cli.md, "Exit status")


async def _print(args: argparse.Namespace) -> int:
    notes: list[str] = []
    replay = Replay()
    players: dict[str, Any] = {}
    async for event in events(args, notes):
        with contextlib.suppress(TablesenseError):
            replay.apply(event)
        if event.type == "setup":
            players = dict(event.to_dict().get("players") or {})
        print(dump_event(event), flush=True)
    _report(replay, notes, players)
    return 0


def _name(players: dict[str, Any], player: str) -> str:
    v = players.get(player, player)
    return " & ".join(map(str, v)) if isinstance(v, list) else str(v)


def _report(replay: Replay, notes: list[str], players: dict[str, Any]) -> None:
    """The result, the winner by name ("Jan wins"), and what the simulator noticed."""
    state = replay.to_json()
    line = replay.engine.summary(replay.state) if replay.engine and replay.state else ""
    for p in ("p1", "p2"):  # the engines' summaries say p1/p2 where the players have names
        if p in players:
            name = _name(players, p)  # "p1 Ann" (keglebillard), "Ann (p1)" (golf), "p1" alone
            line = line.replace(f"{p} {name}", name).replace(f"{name} ({p})", name).replace(p, name)
    winner = state.get("winner")
    found = games.find(str(state.get("game")))
    game = found.title or found.name if found is not None else str(state.get("game"))
    if winner == "draw":
        result = f"the {game} match is a draw."
    elif winner:
        result = f"{_name(players, winner)} wins the {game} match."
    else:
        result = f"the {game} match did not finish."
    print(f"tablesense demo: {result} {line}".rstrip(), file=sys.stderr, flush=True)
    for note in notes:
        if note.startswith("no rest"):
            print(f"tablesense demo: {note}", file=sys.stderr)


async def _serve(args: argparse.Namespace) -> int:
    try:
        from ..pipeline import serve
    except ImportError as exc:  # the scoreboard is not part of this build
        print(f"tablesense demo: the scoreboard is not available ({exc}); try --print", file=sys.stderr)
        return 2
    notes: list[str] = []
    table_id = args.game
    done = asyncio.Event()
    replay = Replay()
    players: dict[str, Any] = {}

    async def source() -> AsyncIterator[Event]:
        played = False  # the match played to its end (not stopped by Ctrl-C or SIGTERM)
        try:
            async for event in events(args, notes):
                with contextlib.suppress(TablesenseError):
                    replay.apply(event)
                if event.type == "setup":
                    players.update(event.to_dict().get("players") or {})
                yield event
            played = True
        finally:
            _report(replay, notes, players)
            if played and not args.exit:  # said only while the scoreboard does stay up
                print("tablesense demo: the scoreboard stays up: Ctrl-C stops the demo", file=sys.stderr,
                      flush=True)
            done.set()

    browser: list[subprocess.Popen[bytes]] = []

    def ready(url: str, pub: Any) -> None:
        from ..web.guard import tv_code

        token = pub.table(table_id).token
        page = f"{url}/table/{table_id}?tv={tv_code(token)}"  # this screen is the pub's TV: the QR code shows
        port = url.rsplit(":", 1)[1]
        phones = f"http://{lan}:{port}" if lan else url
        print(f"tablesense demo: scoreboard at {page}", flush=True)
        print(f"tablesense demo: referee panel at {phones}/ref/{table_id}?token={token}"
              + ("  (the TV's QR code opens it on a phone on this network)" if lan else
                 "  (no network but this machine: phones cannot reach it)"), flush=True)
        stop = "it stops when the match is over, or at Ctrl-C" if args.exit else \
            "Ctrl-C stops it (--exit: stop when the match is over)"
        print(f"tablesense demo: the {args.game} match plays at --speed {args.speed:g}; {stop}", flush=True)
        if args.open:
            proc = open_browser(page)
            if proc is not None:
                browser.append(proc)

    # phones reach the demo at this machine's address on the network (its QR code says so)
    host = args.http.host
    lan = lan_address() if _loopback(host) else (None if host in ("0.0.0.0", "::") else host)
    if lan is None and host in ("0.0.0.0", "::"):
        lan = lan_address()
    public_url = f"http://{lan}:{{port}}" if lan else ""
    also = (lan,) if lan and _loopback(host) else ()
    with tempfile.TemporaryDirectory(prefix="tablesense-demo-") as tmp:
        db = args.db or str(Path(tmp) / "demo.db")
        server = asyncio.create_task(serve({table_id: source()}, host=args.http.host, port=args.http.port,
                                           db=db, on_ready=ready, public_url=public_url, also=also,
                                           games={table_id: (args.game,)}))
        try:
            waiter = asyncio.create_task(done.wait() if args.exit else asyncio.Event().wait())
            await asyncio.wait({server, waiter}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if not server.done():
                await asyncio.sleep(0.3)  # the match is over: let the last state reach the pages
        finally:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await server  # a failure is looked at below
            for proc in browser:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(3)
        failed = server.exception() if server.done() and not server.cancelled() else None
        if isinstance(failed, OSError):  # the port is taken (a `tablesense run` on 8080, ...)
            print(f"tablesense demo: cannot serve on {args.http}: {failed.strerror or failed}; "
                  "--http 0 takes any free port", file=sys.stderr)
            return 2
        if failed is not None:
            raise failed
    return 0


def _loopback(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")


def open_browser(url: str) -> subprocess.Popen[bytes] | None:
    """Chromium on ``url``: a window when there is a DISPLAY, else headless (URL printed)."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        print(f"tablesense demo: no chromium found; open {url} in a browser", file=sys.stderr)
        return None
    cmd = [exe, "--no-first-run", "--no-default-browser-check"]
    if os.geteuid() == 0:
        cmd.append("--no-sandbox")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        cmd += ["--headless", "--disable-gpu", "--remote-debugging-port=0"]
        print(f"tablesense demo: no display; chromium runs headless on {url}", flush=True)
    else:
        cmd.append(f"--app={url}")
    return subprocess.Popen(cmd + ([url] if "--headless" in cmd else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
