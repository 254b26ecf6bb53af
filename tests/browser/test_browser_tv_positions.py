"""The TV's plan of the table in chromium: the balls drawn where the last rest put them,
moved by the next rest, none without positions, hostile positions harmless, and the plan
beside the QR code and above the last-shot strip at 1920x1080 and 1280x720.

The pictures go to tmp; with TABLESENSE_SCREENSHOTS=1 they go to docs/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import LivePub, _page

from tablesense.web.guard import tv_code

pytestmark = pytest.mark.browser

CAROM = {"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
         "targets": {"p1": 30, "p2": 30}}
KEGLE = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 100}
GOLF = {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}
#: per game: its setup and the positions of a rest (metres on the bed)
GAMES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # Joop's shot leaves Kees's object balls (yellow, red) in the head-left corner: entree
    "carom": (CAROM, {"white": [1.6, 0.9], "yellow": [0.07, 0.12], "red": [0.12, 0.06]}),
    "kegle": (KEGLE, {"red": [0.56, 0.56], "white": [[1.68, 0.3], [1.9, 0.9]]}),
    "golf": (GOLF, {"p1": [[0.3, 0.2], [0.6, 0.45], [1.5, 0.7]], "p2": [[1.2, 0.3], [1.7, 0.8]]}),
}
#: the balls' colours as the page paints them (tv.css .ball-*)
PAINT = {"red": "rgb(210, 48, 42)", "yellow": "rgb(242, 194, 48)", "white": "rgb(244, 241, 230)"}


LIVE_TABLES = ("1", "2", "3")  # the pub's tables (tests/browser/conftest.py: live)


class Table:
    """A table of the live pub: its sensors and camera feed the host; its TV is a page."""

    def __init__(self, live: LivePub, table: str, setup: dict[str, Any], lang: str = "en") -> None:
        self.live, self.table, self.t = live, table, 0.0
        live.call(live.pub.set_lang, table, lang)
        live.call(live.pub.start_match, table, setup)

    def shot(self, positions: dict[str, Any] | None, ball: str | None = None, pin: int | None = None) -> None:
        """A shot: a cushion (a pin down), then the rest (with the camera's positions when given)."""
        self.t += 5.0
        self.live.submit(self.table, t=self.t, type="cushion", cushion=1, ball=ball)
        if pin is not None:
            self.live.submit(self.table, t=self.t + 0.5, type="pin", pin=pin, state="down")
        rest: dict[str, Any] = {"positions": positions} if positions is not None else {}
        self.live.submit(self.table, t=self.t + 1.0, type="rest", **rest)

    def tv(self, ctx: Any, width: int = 1280, height: int = 720) -> Any:
        """The pub's own TV of the table (paired: it shows the referee QR code), ready."""
        page = _page(ctx, width, height)
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        code = tv_code(self.live.pub.table(self.table).token)
        page.goto(f"{self.live.url}/table/{self.table}?tv={code}")
        page.wait_for_selector(".player.p1")
        page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
        return page

    def version(self) -> int:
        return int(self.live.call(lambda: self.live.pub.table(self.table).version))


def _balls(page: Any) -> dict[str, list[tuple[float, float]]]:
    """Each drawn ball's centre as a fraction of the cloth on the screen (0..1 along, across)."""
    where = page.evaluate("""() => {
      const cloth = document.querySelector('.plan .cloth').getBoundingClientRect();
      return [...document.querySelectorAll('.plan circle.b')].map((c) => {
        const r = c.getBoundingClientRect();
        return [c.dataset.ball, (r.x + r.width / 2 - cloth.x) / cloth.width,
                (r.y + r.height / 2 - cloth.y) / cloth.height, getComputedStyle(c).fill];
      });
    }""")
    out: dict[str, list[tuple[float, float]]] = {}
    for ball, fx, fy, _fill in where:
        out.setdefault(ball, []).append((round(fx, 3), round(fy, 3)))
    return out


def _fills(page: Any) -> dict[str, str]:
    return dict(page.eval_on_selector_all(
        ".plan circle.b", "els => els.map((c) => [c.dataset.ball, getComputedStyle(c).fill])"))


def _expected(positions: dict[str, Any], length: float, width: float) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {}
    for ball, v in positions.items():
        for x, y in v if isinstance(v[0], list) else [v]:
            out.setdefault(ball, []).append((round(x / length, 3), round(y / width, 3)))
    return out


def _near(a: dict[str, list[tuple[float, float]]], b: dict[str, list[tuple[float, float]]]) -> bool:
    return a.keys() == b.keys() and all(
        len(a[k]) == len(b[k]) and all(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01
                                       for p, q in zip(a[k], b[k], strict=True)) for k in a)


def _shown(page: Any, tab: Table) -> None:
    """Wait until the TV has drawn the table's latest snapshot."""
    page.wait_for_timeout(150)
    v = tab.version()
    page.wait_for_function("(v) => Number(document.body.dataset.version) >= v", arg=v, timeout=5000)


def test_the_tv_draws_each_carom_ball_where_the_rest_put_it_and_moves_it_at_the_next(
        ctx: Any, live: LivePub) -> None:
    tab = Table(live, "1", CAROM)
    page = tab.tv(ctx)
    first = GAMES["carom"][1]
    tab.shot(first)
    page.wait_for_selector(".plan circle.b")
    _shown(page, tab)
    assert _near(_balls(page), _expected(first, 2.84, 1.42))
    assert _fills(page) == {b: PAINT[b] for b in ("white", "yellow", "red")}  # each in its real colour
    assert page.locator(".plan polygon.zone").count() == 4  # libre: the four corner zones
    assert page.eval_on_selector_all(".plan polygon.zone.on", "els => els.map((e) => e.dataset.corner)") == [
        "head-left"]  # the one the object balls lie in, as the entree badge says
    assert page.locator(".badge.entree").count() == 1
    assert page.locator(".badge.entree").inner_text().strip() == "ENTREE bottom left"  # the corner in words
    moved = {"white": [0.2, 1.2], "yellow": [2.6, 0.25], "red": [0.9, 0.4]}
    tab.shot(moved)
    _shown(page, tab)
    assert _near(_balls(page), _expected(moved, 2.84, 1.42))
    assert page.locator(".plan polygon.zone.on").count() == 0  # out of the corner: no zone marked
    assert page.errors == []


def test_the_tv_draws_no_plan_without_positions(ctx: Any, live: LivePub) -> None:
    tab = Table(live, "1", CAROM)
    page = tab.tv(ctx)
    tab.shot(None)
    _shown(page, tab)
    assert page.locator("#lastshot-text").count() == 1  # the shot is told ...
    assert page.locator(".plan").count() == 0  # ... and no plan, no empty box
    tab.shot(GAMES["carom"][1])
    page.wait_for_selector(".plan circle.b")
    tab.shot(None)  # the camera could not tell this time: no old places shown as if they were now
    _shown(page, tab)
    assert page.locator(".plan").count() == 0
    assert page.errors == []


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_plan_has_its_balls_in_their_colours_in_the_tables_language(
        ctx: Any, live: LivePub, game: str) -> None:
    setup, positions = GAMES[game]
    lang = {"carom": "nl", "kegle": "da", "golf": "da"}[game]
    tab = Table(live, "1", setup, lang)
    page = tab.tv(ctx)
    tab.shot(positions, ball="red" if game == "kegle" else None)
    page.wait_for_selector(".plan circle.b")
    _shown(page, tab)
    length, width = {"carom": (2.84, 1.42), "kegle": (2.24, 1.12), "golf": (1.80, 0.90)}[game]
    assert _near(_balls(page), _expected(positions, length, width))
    fills = page.eval_on_selector_all(".plan circle.b", "els => els.map((c) => getComputedStyle(c).fill)")
    want = {"carom": {PAINT["white"], PAINT["yellow"], PAINT["red"]},
            "kegle": {PAINT["red"], PAINT["white"]},
            "golf": {PAINT["red"], PAINT["yellow"]}}[game]  # golf: the players' colours, as their cards
    assert set(fills) == want
    caption = {"nl": "Waar de ballen liggen", "da": "Hvor kuglerne ligger"}[lang]
    assert page.inner_text(".plan figcaption").lower() == caption.lower()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_plan_fits_the_tv_beside_the_qr_code_and_above_the_last_shot(
        ctx: Any, live: LivePub, out: Path, game: str, size: tuple[int, int]) -> None:
    setup, positions = GAMES[game]
    tab = Table(live, "1", setup)
    # each centre column at its fullest: keglebillard a pin down (and the ticker runs), golf a
    # touch foul (the ball waiting for its spot), carom the entree badge (GAMES)
    tab.shot(positions, ball="red" if game == "kegle" else None, pin=4 if game == "kegle" else None)
    if game == "golf":
        live.call(live.pub.call, "1", {"call": "foul", "foul": "touch"})
    page = tab.tv(ctx, *size)
    page.wait_for_selector(".plan circle.b")
    page.wait_for_selector("#lastshot-text")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"plan-{game}-{size[0]}.png"))
    plan = page.locator(".plan").bounding_box()
    assert plan is not None
    for other in (".qr", "#lastshot", ".player.p1", ".player.p2", "#ticker"):
        box = page.locator(other).bounding_box()
        assert box is not None
        apart = (plan["x"] + plan["width"] <= box["x"] or box["x"] + box["width"] <= plan["x"]
                 or plan["y"] + plan["height"] <= box["y"] or box["y"] + box["height"] <= plan["y"])
        assert apart, f"the plan covers {other}"
    assert plan["x"] >= 0 and plan["y"] >= 0
    assert plan["x"] + plan["width"] <= size[0] and plan["y"] + plan["height"] <= size[1]
    # readable from 3 m: the bed at least a sixth of the screen wide, a ball at least 12 px (at 1080p)
    bed = page.locator(".plan .cloth").bounding_box()
    ball = page.locator(".plan circle.b").first.bounding_box()
    assert bed and ball and bed["width"] >= size[0] / 6 and ball["width"] >= 12 * size[0] / 1920
    # everything still fits on the screen: the cards, the centre and the QR code above the
    # last-shot strip, the ticker whole
    strip = page.locator("#lastshot").bounding_box()
    ticker = page.locator("#ticker").bounding_box()
    assert strip and ticker and ticker["y"] + ticker["height"] <= size[1] + 1
    for above in (".player.p1", ".player.p2", ".centre", ".qr"):
        box = page.locator(above).bounding_box()
        assert box and box["y"] + box["height"] <= strip["y"] + 1, f"{above} runs under the last shot"
    if game == "kegle":
        assert page.locator(".plan .kpin.down").count() == 1  # pin 4 is down on the plan too
    if game == "golf":
        assert page.locator(".badge.spot").count() == 1
    assert page.errors == []


def test_hostile_positions_neither_break_the_page_nor_draw_junk(ctx: Any, live: LivePub) -> None:
    tab = Table(live, "1", KEGLE)
    page = tab.tv(ctx)
    junk: dict[str, Any] = {f"ball{n}": [n, n] for n in range(1000)}  # 1000 balls no table has
    junk |= {"red": [1e300, -1e300], "white": [[0.5, 0.5]] * 1000 + [[1.0, 2.0]]}
    tab.shot(junk, ball="red")
    page.wait_for_selector(".plan circle.b")
    _shown(page, tab)
    drawn = _balls(page)
    assert list(drawn) == ["white"] and len(drawn["white"]) == 2  # the table has two whites, no more
    tab.shot({"red": [0.56, 0.56]}, ball="red")  # and the page goes on with the next rest
    _shown(page, tab)
    assert _near(_balls(page), {"red": [(0.25, 0.5)]})
    assert page.errors == []
