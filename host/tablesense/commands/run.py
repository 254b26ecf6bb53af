"""``tablesense run``: serve the pub -- one link per table, the match log, the web app.

    tablesense run --port /dev/ttyUSB0 --port /dev/ttyUSB1 --profile golf --profile carom

Tables are numbered 1, 2, ... in the order of their ``--port``; ``--profile`` pairs with
``--port`` by position (one ``--profile`` serves every port). ``--tables N`` adds tables
without a link (a table refereed by hand).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from typing import Any

from ..errors import TablesenseError
from ..link.lines import BAUD, baud, link_baud
from ..store import LANGS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", action="append", default=[], metavar="URL",
                   help="a table's serial port (/dev/ttyUSB0, socket://host:port, a pty); repeat per table")
    p.add_argument("--profile", action="append", default=[], metavar="ID",
                   help="table profile per --port (golf, kegle, carom or a TOML file); default golf")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of the tables' serial ports (default: each profile's, else {BAUD})")
    p.add_argument("--tables", type=int, default=0, metavar="N",
                   help="tables without a link, refereed by hand")
    p.add_argument("--host", default="127.0.0.1",
                   help="address of the web app (0.0.0.0: the whole pub network)")
    p.add_argument("--port-http", type=int, default=8080, metavar="N", help="port of the web app (8080)")
    p.add_argument("--db", default="tablesense.db", metavar="FILE",
                   help="the match log, SQLite (tablesense.db)")
    p.add_argument("--lang", default="en", choices=LANGS, help="language of new tables (en, nl, da)")
    p.add_argument("--public-url", default="", metavar="URL",
                   help="how phones reach this host, for the referee QR code (default: as the TV sees it)")
    p.add_argument("--tv-code", default="", metavar="CODE",
                   help="the pub's code that pairs a TV with a table (/table/N?tv=CODE shows the referee "
                        "QR code there); default: one per table, printed at start")


def plan(ports: list[str], profiles: list[str], extra: int) -> list[tuple[str, str | None, str | None]]:
    """(table id, port, profile) per table; raises ValueError with the reason for a bad combination."""
    if len(profiles) > 1 and len(profiles) != len(ports):
        raise ValueError(f"give one --profile for all ports or one per --port ({len(ports)} ports, "
                         f"{len(profiles)} profiles)")
    if extra < 0:
        raise ValueError("--tables must be 0 or more")
    if not ports and not extra:
        raise ValueError("give a table: --port URL (one per table) or --tables N")
    if profiles and not ports:
        raise ValueError("--profile goes with --port (a table without a link has no sensors)")
    profs = profiles * len(ports) if len(profiles) == 1 else profiles or ["golf"] * len(ports)
    out: list[tuple[str, str | None, str | None]] = [
        (str(n), port, prof) for n, (port, prof) in enumerate(zip(ports, profs), start=1)
    ]
    out += [(str(len(ports) + n), None, None) for n in range(1, extra + 1)]
    return out


def _sources(tables: list[tuple[str, str | None, str | None]],
             baudrate: int | None = None) -> dict[str, Any]:
    """Per table: None (no link) or a factory of its feed, which the pub calls with the
    table's last checkpoint (link/checkpoint.py)."""
    from ..deploy.ports import PortError, check_port
    from ..link import LinkStatus, table_items
    from ..link.translate import table_profile

    out: dict[str, Any] = {}
    for tid, port, prof in tables:
        if port is None or prof is None:
            out[tid] = None
            continue
        profile = table_profile(prof)  # a bad profile is reported now, not from a background task
        try:
            check_port(port)
        except PortError as exc:  # said once; the link keeps trying until the board is plugged in
            print(f"table {tid}: {exc}; waiting for it", file=sys.stderr, flush=True)

        def status(s: LinkStatus, tid: str = tid) -> None:
            if s.kind != "lost":  # frames lost for good: the pub says so (stderr, log, ticker)
                print(f"table {tid}: {s}", file=sys.stderr, flush=True)

        def feed(resume: Any, port: str = port, profile: Any = profile, status: Any = status) -> Any:
            # called by the pub with the table's last checkpoint: resume where the log got to
            return table_items(port, profile, resume=resume, on_status=status,
                               baudrate=link_baud(baudrate, profile))

        out[tid] = feed
    return out


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    try:
        tables = plan(args.port, args.profile, args.tables)
        sources = _sources(tables, args.baud)
    except (ValueError, OSError) as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    from ..web.guard import tv_code
    from ..web.server import serve

    def ready(url: str, pub: Any) -> None:
        print(f"tablesense: {len(tables)} table(s), scoreboard on {url}/  (match log: {args.db})", flush=True)
        base = args.public_url.rstrip("/") or url
        for tid, port, prof in tables:
            link = f"{port} ({prof})" if port else "no link"
            print(f"  table {tid}: {link}  TV {url}/table/{tid}  referee {base}/ref/{tid}?token="
                  f"{pub.table(tid).token}", flush=True)
        for tid, _port, _prof in tables:  # open once on the pub's own TV: it shows the referee QR code
            print(f"  the pub's TV of table {tid}: {url}/table/{tid}?tv="
                  f"{tv_code(pub.table(tid).token, args.tv_code)}", flush=True)

    signal.signal(signal.SIGTERM, _stop)  # systemd's stop: shut down as on Ctrl-C
    try:
        asyncio.run(serve(sources, host=args.host, port=args.port_http, db=args.db, lang=args.lang,
                          public_url=args.public_url, on_ready=ready, tv_code=args.tv_code))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"tablesense run: cannot serve on {args.host}:{args.port_http}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except TablesenseError as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    return 0
