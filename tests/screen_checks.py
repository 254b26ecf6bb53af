"""What the screens' browser tests share: matches played into a pub, boxes measured in the
page, axe-core run on it. Not a test file (no ``test_`` prefix)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from test_browser import LivePub

from tablesense.events import Event, Setup
from tablesense.sim.match import play_match
from tablesense.web.guard import tv_code

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
LONG = {"p1": "Marie-Christine Vandenbroucke"[:24], "p2": "Jan-Willem Oosterhuizen-K"[:24]}
#: a short match of each game, as the simulator plays it (seed 0): golf is best of three frames
SIM_OPTS: dict[str, dict[str, Any]] = {"golf": {}, "kegle": {"distance": 20}, "carom": {"targets": 3}}


@functools.cache
def _played(game: str, seed: int) -> tuple[Event, ...]:
    """The simulator's match, played once a process (its events are frozen records)."""
    return tuple(play_match(game, seed=seed, full_info=False, **SIM_OPTS[game]))


def sim_events(game: str, seed: int = 0, players: dict[str, str] | None = None,
               **setup_extra: Any) -> list[Event]:
    """A whole simulated match (no camera: the referee's calls are in it), with ``players``
    and more set-up fields put in its set-up."""
    import msgspec

    events = list(_played(game, seed))
    setup = events[0]
    assert isinstance(setup, Setup)
    changes: dict[str, Any] = {}
    if players:
        changes["players"] = dict(players)
    if setup_extra:
        changes["extra"] = {**(setup.extra or {}), **setup_extra}
    events[0] = msgspec.structs.replace(setup, **changes) if changes else setup
    return events


def feed(live: LivePub, table: str, events: list[Event]) -> None:
    """Each event into the pub as its source would (the set-up and calls as the referee's)."""
    for event in events:
        live.call(live.pub.submit, table, event, "referee" if event.type in ("setup", "call") else "table")


def tv_url(live: LivePub, table: str) -> str:
    """The pub's own TV of ``table`` (paired: the QR code shows)."""
    return f"{live.url}/table/{table}?tv={tv_code(live.pub.table(table).token)}"


def panel_url(live: LivePub, table: str) -> str:
    return f"{live.url}/ref/{table}?token={live.pub.table(table).token}"


def shown(page: Any, live: LivePub, table: str, attr: str = "version") -> None:
    """Wait until ``page`` shows the table's latest snapshot (the TV's data-version, the
    panel's data-ready)."""
    v = live.call(lambda: live.pub.table(table).version)
    page.wait_for_function(f"Number(document.body.dataset.{attr}) >= {v}", timeout=10000)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found, f"{selector} is not on the page"
    return dict(found)


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1.0) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
            or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


#: every element whose content the page clips, with by how much (px): a name cut, a row cut off
CLIPPED = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null)
  .map((e) => ({el: (e.className || e.tagName) + ' ' + e.textContent.trim().slice(0, 40),
                w: e.scrollWidth - e.clientWidth, h: e.scrollHeight - e.clientHeight}))
  .filter((x) => x.w > 1 || x.h > 1)"""


def clipped(page: Any, selector: str) -> list[dict[str, Any]]:
    return list(page.evaluate(CLIPPED, selector))


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is (WCAG 2 A/AA and best practices)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || ''))}));
    }""")
    return list(result)


def describe(violations: list[dict[str, Any]]) -> str:
    return json.dumps(violations, ensure_ascii=False, indent=1)[:3000]
