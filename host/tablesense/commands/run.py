"""``tablesense run``: serve the pub -- one link per table, the match log, the web app.

    tablesense run --serial /dev/ttyUSB0 --serial /dev/ttyUSB1 --profile golf --profile carom

Tables are numbered 1, 2, ... in the order of their ``--serial``; ``--profile`` pairs with
``--serial`` by position (one ``--profile`` serves every port). ``--tables N`` adds tables
without a link (a table refereed by hand). A port that is not there is one line and exit
2; with ``--wait`` (the systemd unit's) the pub starts and the link waits for the board.

The web app serves the pub's network (``0.0.0.0:8080``), and the start says the address
the referee QR codes carry: this PC's on that network (``command_line.phone_address``).
``--http 127.0.0.1:PORT`` keeps it on this PC, with one line saying phones cannot reach it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from ..command_line.options import add_db, add_http, add_lang, add_serial
from ..command_line.phone_address import EVERY_ADDRESS, phone_address
from ..command_line.serial_port import serial_problem
from ..errors import TablesenseError
from ..link.lines import BAUD, baud, link_baud

EXAMPLES = """
tablesense run --serial /dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0 --profile golf
tablesense run --serial /dev/ttyUSB0 --serial /dev/ttyUSB1 --profile golf --profile carom --http 8080
tablesense run --tables 2 --db pub.db --lang nl
tablesense run --tables 1 --http 127.0.0.1:8080   # this PC only: no phone reaches it
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_serial(p, repeat=True)
    p.add_argument("--profile", action="append", default=[], metavar="ID",
                   help="table profile per --serial (golf, kegle, carom or a TOML file); default golf")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of the tables' serial ports (default: each profile's, else {BAUD})")
    p.add_argument("--camera", action="append", default=[], metavar="DEVICE",
                   help="an overhead camera per --serial, by position (docs/camera.md; calibrate it first)")
    p.add_argument("--tables", type=int, default=0, metavar="N",
                   help="tables without a link, refereed by hand")
    add_http(p, host="0.0.0.0", old_port="--port-http")
    add_db(p, "the match log, SQLite (default tablesense.db)", default="tablesense.db")
    add_lang(p, "language of new tables", default="en")
    p.add_argument("--public-url", default="", metavar="URL",
                   help="how phones reach this host, for the referee QR code (default: this PC's address "
                        "on the pub's network, printed at start)")
    p.add_argument("--tv-code", default="", metavar="CODE",
                   help="the pub's code that pairs a TV with a table (/table/N?tv=CODE shows the referee "
                        "QR code there); default: one per table, printed at start")
    p.add_argument("--wait", action="store_true",
                   help="start even when a serial port is not there yet, and wait for its board "
                        "(default: exit 2)")
    p.add_argument("--league", metavar="URL", help="the league's broker, mqtt://PUB:PASSWORD@HOST:1883 "
                   "(or the password in TABLESENSE_BROKER_PASSWORD; docs/league.md): every finished "
                   "match and the live tables go there")
    p.add_argument("--pub", metavar="NAME", help="this pub's name in the league (its broker user)")


def plan(ports: list[str], profiles: list[str], extra: int) -> list[tuple[str, str | None, str | None]]:
    """(table id, port, profile) per table; raises ValueError with the reason for a bad combination."""
    if len(profiles) > 1 and len(profiles) != len(ports):
        raise ValueError(f"give one --profile for all ports or one per --serial ({len(ports)} ports, "
                         f"{len(profiles)} profiles)")
    if extra < 0:
        raise ValueError("--tables must be 0 or more")
    if not ports and not extra:
        raise ValueError("give a table: --serial PORT (one per table) or --tables N")
    if profiles and not ports:
        raise ValueError("--profile goes with --serial (a table without a link has no sensors)")
    profs = profiles * len(ports) if len(profiles) == 1 else profiles or ["golf"] * len(ports)
    out: list[tuple[str, str | None, str | None]] = [
        (str(n), port, prof) for n, (port, prof) in enumerate(zip(ports, profs), start=1)
    ]
    out += [(str(len(ports) + n), None, None) for n in range(1, extra + 1)]
    return out


class PubLinks:
    """The pub, once it runs: every table's link statuses go to it (``Pub.link_status``: the
    TV and the referee panel say when the sensors are out, docs/referee.md)."""

    def __init__(self) -> None:
        self.pub: Any = None

    def status(self, tid: str, s: Any) -> None:
        if self.pub is not None:
            self.pub.link_status(tid, s)


def _sources(tables: list[tuple[str, str | None, str | None]],
             baudrate: int | None = None, links: PubLinks | None = None) -> dict[str, Any]:
    """Per table: None (no link) or a factory of its feed, which the pub calls with the
    table's last checkpoint (link/checkpoint.py). ``links``: where the links' statuses go."""
    from ..deploy.ports import PortError, check_port
    from ..link import LinkStatus, table_items
    from ..link.translate import table_profile
    from ..link.transport import Link

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
            if links is not None:
                links.status(tid, s)

        def feed(resume: Any, tid: str = tid, port: str = port, profile: Any = profile,
                 status: Any = status) -> Any:
            # called by the pub with the table's last checkpoint: resume where the log got to
            link = Link(port, baudrate=link_baud(baudrate, profile), profile_id=profile.id)
            guard = ProfileGuard(tid, port, profile.id, link)
            return guard.items(table_items(port, profile, resume=resume, link=link,
                                           on_status=guard.watch(status)))

        out[tid] = feed
    return out


#: how long a board that names another profile in its HELLO has to switch after ``!profile``
SWITCH_WAIT = 5.0


class ProfileGuard:
    """A table's events are translated with its profile only if its board runs it.

    The link asks a board whose HELLO names another profile to switch (``!profile ID``,
    as ``tablesense doctor`` does). Until its HELLO names the right one no event of it
    is passed on; if it has not switched ``SWITCH_WAIT`` seconds after that HELLO, one
    line says so (the board does not hold that profile: flash it, or give the right
    ``--profile``), and its events stay refused. A board that later comes back on the
    right profile (flashed, replugged) is read again, with one line saying so.
    """

    def __init__(self, tid: str, port: str, profile_id: str, link: Any) -> None:
        self.tid, self.port, self.profile_id, self.link = tid, port, profile_id, link
        self.refused = False
        self._timer: asyncio.TimerHandle | None = None

    def wrong(self) -> str | None:
        """The other profile the board runs, or None."""
        hello = self.link.hello
        if hello is not None and hello.profile_id != self.profile_id:
            return str(hello.profile_id)
        return None

    def watch(self, status: Any) -> Any:
        def on_status(s: Any) -> None:
            status(s)
            if s.kind == "hello" and self.wrong() is not None and self._timer is None:
                self._timer = asyncio.get_running_loop().call_later(SWITCH_WAIT, self._check)
        return on_status

    def _check(self) -> None:
        self._timer = None
        other = self.wrong()
        if other is not None and not self.refused:
            self.refused = True
            print(f"table {self.tid}: the board on {self.port} runs profile {other!r}, not "
                  f"{self.profile_id!r}, and did not switch to it (!profile {self.profile_id}): its events "
                  f"are refused; flash it with that profile or give --profile {other}",
                  file=sys.stderr, flush=True)

    async def items(self, source: Any) -> Any:
        from ..link.transport import LinkStatus

        try:
            async for item in source:
                if self.wrong() is not None and not isinstance(item, LinkStatus):
                    continue  # translated with the wrong pin map: never believed
                if self.refused and self.wrong() is None:
                    self.refused = False
                    print(f"table {self.tid}: the board on {self.port} now runs profile "
                          f"{self.profile_id!r}; reading it again", file=sys.stderr, flush=True)
                yield item
        finally:
            if self._timer is not None:
                self._timer.cancel()
            self.link.close()


def check_http_port(value: int, *, allow_any: bool = False) -> str | None:
    """Why ``value`` is not a TCP port to serve on (1..65535; 0 = any free one when
    ``allow_any``), or None."""
    low = 0 if allow_any else 1
    if low <= value <= 65535:
        return None
    return f"the web port must be {low}..65535{' (0: any free one)' if allow_any else ''}, not {value}"


def _serial_problem(tables: list[tuple[str, str | None, str | None]], wait: bool) -> str | None:
    """The first table's port that is not there (its profile checked first), unless ``wait``."""
    from ..link.translate import table_profile

    for _tid, port, prof in tables:
        if port is not None and prof is not None:
            table_profile(prof)  # a bad profile is the first thing said
            problem = None if wait else serial_problem(port)
            if problem:
                return problem
    return None


def league_link(url: str | None, pub: str | None) -> Any:
    """The broker of ``--league`` with ``--pub`` (None without), or ValueError saying what is wrong."""
    if url is None and pub is None:
        return None
    if url is None or pub is None:
        raise ValueError("--league and --pub go together")
    from ..league.broker_url import check_pub_name, parse_broker_url

    check_pub_name(pub)
    return parse_broker_url(url)


def run(args: argparse.Namespace) -> int:
    from ..command_line.extras import needs

    missing = needs("tablesense run", "cv2", "numpy") if args.camera else None  # --camera: the camera extra
    if missing:
        print(missing, file=sys.stderr)
        return 2
    problem = check_http_port(args.http.port)  # a fixed port: the pub's TVs and phones keep its address
    if problem:
        print(f"tablesense run: --http: {problem}", file=sys.stderr)
        return 2
    try:
        league = league_link(args.league, args.pub)
        tables = plan(args.serial, args.profile, args.tables)
        problem = _serial_problem(tables, args.wait)
        if problem:
            print(f"tablesense run: {problem} (--wait: start and wait for it)", file=sys.stderr)
            return 2
        links = PubLinks()
        sources = _sources(tables, args.baud, links)
        if args.camera:  # the camera's events merged with the sensors' (tablesense.vision.live)
            from ..vision.live import cameras_for
            sources = cameras_for(sources, tables, args.camera)
    except (ValueError, OSError, TablesenseError) as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    from ..link.translate import table_profile
    from ..web.guard import tv_code
    from ..web.lan import lan_address
    from ..web.server import serve

    tasks: list[Any] = []  # the league link, kept referenced while it runs
    every = args.http.host in EVERY_ADDRESS
    phones = phone_address(args.http.host, args.public_url, lan_address() if every else None)

    def ready(url: str, pub: Any) -> None:
        links.pub = pub  # before the feeds run: their first status finds it
        bound = url.rsplit(":", 1)[1]
        base = phones.at(bound)  # what the referee QR codes carry
        here = f"http://127.0.0.1:{bound}"
        site = base if every and not args.public_url else url
        also = f" (on this PC {here}/)" if every and site != here else ""
        print(f"tablesense: {len(tables)} table(s), scoreboard on {site}/{also}  (match log: {args.db})",
              flush=True)
        for tid, port, prof in tables:
            link = f"{port} ({prof})" if port else "no link"
            print(f"  table {tid}: {link}  TV {site}/table/{tid}  referee {base}/ref/{tid}?token="
                  f"{pub.table(tid).token}", flush=True)
        for tid, _port, _prof in tables:  # open once on the pub's own TV: it shows the referee QR code
            print(f"  the pub's TV of table {tid}: {site}/table/{tid}?tv="
                  f"{tv_code(pub.table(tid).token, args.tv_code)}", flush=True)
        print(f"  phones: the referee QR code on each TV carries {base}/ref/N?token=...", flush=True)
        if phones.warning:
            print(f"tablesense run: {phones.warning}", file=sys.stderr, flush=True)
        if league is not None:
            from ..league.publisher import start_publisher

            tasks.append(start_publisher(pub, args.db, args.pub, league))
            print(f"  league: {args.pub} on {league}", flush=True)

    try:  # SIGTERM (systemd's stop) arrives as Ctrl-C does (tablesense.cli): exit 0
        games = {tid: (table_profile(prof).game,) for tid, _port, prof in tables if prof}  # the set-up form's
        asyncio.run(serve(sources, host=args.http.host, port=args.http.port, db=args.db, lang=args.lang,
                          public_url=phones.base, on_ready=ready, tv_code=args.tv_code, games=games))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"tablesense run: cannot serve on {args.http}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except TablesenseError as exc:
        print(f"tablesense run: {exc}", file=sys.stderr)
        return 2
    return 0
