"""A pub's data, from each table's serial port to the TVs, one way.

    port --link.transport.Link--> frames, checked and in order (replayed after a cut)
         --link.table_items--> events, checkpoints, losses (link.translate: the table's profile)
         --ProfileGuard--> only from a board that runs that profile
         [--vision.live.with_camera--> the overhead camera's events merged in (``--camera``)]
         --Pub.feed--> the match log first (store.Writer), then the match (replay.Replay)
         --Pub.subscribe--> whoever follows the pub: the web app's screens (web.server: each
                            TV, overview and referee panel a WebSocket), the league publisher
                            (league.publisher, ``--league``)

``table_feeds`` makes the first half per table, ``serve`` the rest: it makes the pub over the
match log, starts the web app and the league publisher, which follow it, and feeds each
table's events into it until it is cancelled. Nothing downstream calls back up: the web app
and the league read the pub and hand a referee's change to it (``Pub.call_async``, ...), never
to a feed; the links' statuses reach the pub by ``LinkStatuses`` (a silent board yields no
item to carry one, docs/design.md "Sensors out").

``tablesense run`` (commands/run.py) reads its command line into this; ``tablesense demo``
feeds ``serve`` from the simulator instead of a port.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .link.lines import link_baud
from .log_holder import LogHeld, hold_log, let_go
from .pub import Feed, Pub
from .store import Store, Writer

if TYPE_CHECKING:
    from .league.broker_url import BrokerURL
    from .link.transport import Link, LinkStatus
    from .web.limits import Limits

#: (table id, port or None, profile or None) per table: ``commands.run.plan``
TablePlan = tuple[str, str | None, str | None]

#: how long a board that names another profile in its HELLO has to switch after ``!profile``
SWITCH_WAIT = 5.0


class LinkStatuses:
    """Where the links' statuses go: each said on stderr (but frames lost for good: the pub
    says those, on stderr, in the log and on the ticker) and handed to the pub
    (``Pub.link_status``: the TV and the referee panel say when the sensors are out), once
    ``serve`` has made it."""

    def __init__(self) -> None:
        self.pub: Pub | None = None

    def __call__(self, tid: str, status: LinkStatus) -> None:
        if status.kind != "lost":
            print(f"table {tid}: {status}", file=sys.stderr, flush=True)
        if self.pub is not None:
            self.pub.link_status(tid, status)


def table_feeds(tables: list[TablePlan], baudrate: int | None = None,
                statuses: Callable[[str, LinkStatus], None] | None = None,
                cameras: list[str] | None = None) -> dict[str, Feed | None]:
    """Per table: None (no link) or a factory of its feed, which ``Pub.feed`` calls with the
    table's last checkpoint (link/checkpoint.py). ``statuses``: where the links' statuses go;
    ``cameras``: an overhead camera per linked table, by position (the camera extra).

    A bad profile raises now, not from a background task; a port that is not there is said
    once, and its link keeps trying until the board is plugged in."""
    from .deploy.ports import PortError, check_port
    from .link import table_items
    from .link.translate import table_profile
    from .link.transport import Link

    out: dict[str, Feed | None] = {}
    for tid, port, prof in tables:
        if port is None or prof is None:
            out[tid] = None
            continue
        profile = table_profile(prof)
        try:
            check_port(port)
        except PortError as exc:
            print(f"table {tid}: {exc}; waiting for it", file=sys.stderr, flush=True)

        def status(s: LinkStatus, tid: str = tid) -> None:
            if statuses is not None:
                statuses(tid, s)

        def feed(resume: Any, tid: str = tid, port: str = port, profile: Any = profile,
                 status: Any = status) -> Any:
            link = Link(port, baudrate=link_baud(baudrate, profile), profile_id=profile.id)
            guard = ProfileGuard(tid, port, profile.id, link)
            return guard.items(table_items(port, profile, resume=resume, link=link,
                                           on_status=guard.watch(status)))

        out[tid] = feed
    if cameras:  # the camera's events merged with the sensors' (tablesense.vision.live)
        from .vision.live import cameras_for

        out = cameras_for(out, tables, cameras)
    return out


class ProfileGuard:
    """A table's events are translated with its profile only if its board runs it.

    The link asks a board whose HELLO names another profile to switch (``!profile ID``,
    as ``tablesense doctor`` does). Until its HELLO names the right one no event of it
    is passed on; if it has not switched ``SWITCH_WAIT`` seconds after that HELLO, one
    line says so (the board does not hold that profile: flash it, or give the right
    ``--profile``), and its events stay refused. A board that later comes back on the
    right profile (flashed, replugged) is read again, with one line saying so.
    """

    def __init__(self, tid: str, port: str, profile_id: str, link: Link) -> None:
        self.tid, self.port, self.profile_id, self.link = tid, port, profile_id, link
        self.refused = False
        self._timer: asyncio.TimerHandle | None = None

    def wrong(self) -> str | None:
        """The other profile the board runs, or None."""
        hello = self.link.hello
        if hello is not None and hello.profile_id != self.profile_id:
            return str(hello.profile_id)
        return None

    def watch(self, status: Callable[[LinkStatus], None]) -> Callable[[LinkStatus], None]:
        def on_status(s: LinkStatus) -> None:
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
        from .link.transport import LinkStatus

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


def _feed_ended(task: asyncio.Task[None]) -> None:
    """A table's feed stopped: say why (the web app and the other tables go on)."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        print(f"tablesense: {task.get_name()}: its events stopped: {exc}", file=sys.stderr, flush=True)


async def serve(sources: Mapping[str, Feed | None], *, host: str = "127.0.0.1",
                port: int = 8080, db: str = "tablesense.db", lang: str = "en",
                public_url: str = "", on_ready: Callable[[str, Pub], None] | None = None,
                tv_code: str = "", limits: Limits | None = None, also: tuple[str, ...] = (),
                games: dict[str, tuple[str, ...]] | None = None,
                statuses: LinkStatuses | None = None,
                league: tuple[str, BrokerURL] | None = None) -> None:
    """Serve the pub until cancelled: make it over the match log ``db``, start the web app
    (on ``host`` and the ``also`` addresses) and, with ``league`` (this pub's name, the
    broker), the league publisher, both following the pub; then feed each table's events in.

    ``public_url`` may hold ``{port}``: the port bound (``--port 0``). ``games``: the games
    each table is set up for (its profile's; the panel's set-up form offers those only).
    ``statuses``: the links' statuses (``table_feeds``), handed to the pub from now on.
    ``on_ready(url, pub)`` is called once it all runs, before the first event is fed."""
    from .web.server import start

    store = Store(db)
    try:
        held = hold_log(db)  # one host a log: a second is refused (LogHeld) before it serves
    except LogHeld:
        store.close()
        raise
    writer = Writer(db)
    pub = Pub(store, sources, lang=lang, writer=writer, games=games)
    if statuses is not None:
        statuses.pub = pub
    runner = None
    followers: list[asyncio.Task[None]] = []
    feeds: list[asyncio.Task[None]] = []
    try:
        runner, url = await start(pub, host, port, public_url, tv_code=tv_code, limits=limits, also=also)
        if league is not None:
            from .league.publisher import start_publisher

            followers.append(start_publisher(pub, db, *league))
        for tid, src in sources.items():
            if src is not None:
                task = asyncio.create_task(pub.feed(tid, src), name=f"table {tid}")
                task.add_done_callback(_feed_ended)
                feeds.append(task)
        if on_ready is not None:
            on_ready(url, pub)
        await asyncio.Event().wait()
    finally:
        for task in (*feeds, *followers):  # the feeds first: nothing new while the rest stops
            task.cancel()
        for task in (*feeds, *followers):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if runner is not None:
            await runner.cleanup()
        writer.close()
        await pub.settled()  # what the writer's last commits settle (a match's end) before the store closes
        store.close()
        let_go(held)
