"""Each game's scoreboard, the overview and the referee panel in chromium, as screenshots.

The pictures go to tmp; with TABLESENSE_SCREENSHOTS=1 they go to docs/screenshots/ (the
ones the README and docs/scoreboard.md show)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import SCREENSHOTS, LivePub, _page, browser  # noqa: F401  (fixture)

from tablesense.web.guard import tv_code

pytestmark = pytest.mark.browser

GOLF = [
    {"t": 1.0, "type": "strike", "ball": "p1"}, {"t": 2.0, "type": "goal", "goal": "B", "ball": "p1"},
    {"t": 3.0, "type": "rest"},
    {"t": 10.0, "type": "strike", "ball": "p1"}, {"t": 11.0, "type": "goal", "goal": "B", "ball": "p1"},
    {"t": 12.0, "type": "rest"},
    {"t": 20.0, "type": "strike", "ball": "p1"}, {"t": 21.0, "type": "cushion", "cushion": 2, "ball": None},
    {"t": 23.0, "type": "rest"},
    {"t": 30.0, "type": "strike", "ball": "p2"}, {"t": 31.0, "type": "goal", "goal": "A", "ball": "p2"},
    {"t": 32.0, "type": "rest"},
]
KEGLE = [
    {"t": 1.0, "type": "strike", "ball": "white"},
    {"t": 1.2, "type": "cushion", "cushion": 1, "ball": "white"},
    {"t": 1.5, "type": "pin", "pin": 2, "state": "down"},
    {"t": 1.6, "type": "pin", "pin": 1, "state": "down"},
    {"t": 3.0, "type": "rest"},
    {"t": 9.0, "type": "strike", "ball": "white"},
    {"t": 9.3, "type": "cushion", "cushion": 3, "ball": "white"},
    {"t": 9.5, "type": "pin", "pin": 4, "state": "down"}, {"t": 11.0, "type": "rest"},
]
CAROM = [
    {"t": 1.0, "type": "strike", "ball": "yellow"}, {"t": 2.0, "type": "rest"},
    {"t": 2.5, "type": "call", "call": "carom"},
    {"t": 3.0, "type": "strike", "ball": "yellow"}, {"t": 4.0, "type": "rest"},
    {"t": 4.5, "type": "call", "call": "carom"},
    {"t": 5.0, "type": "strike", "ball": "yellow"}, {"t": 6.0, "type": "rest"},
    {"t": 7.0, "type": "strike", "ball": "white"}, {"t": 8.0, "type": "rest"},
    {"t": 8.5, "type": "call", "call": "carom"},
    {"t": 9.0, "type": "strike", "ball": "white"}, {"t": 10.0, "type": "rest"},
    {"t": 10.5, "type": "call", "call": "carom"},
    {"t": 11.0, "type": "strike", "ball": "white"}, {"t": 12.0, "type": "rest"},
    {"t": 12.5, "type": "call", "call": "carom"},
    {"t": 13.0, "type": "strike", "ball": "white"},
]
SETUPS = {
    "1": ({"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}, GOLF),
    "2": ({"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 100}, KEGLE),
    "3": ({"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
           "targets": {"p1": 30, "p2": 45}}, CAROM),
}


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("shots") / "pub.db"), list(SETUPS))
    for table, (setup, events) in SETUPS.items():
        live.call(live.pub.start_match, table, setup)
        for event in events:
            if event["type"] == "call":
                live.call(live.pub.call, table, {k: v for k, v in event.items() if k not in ("t", "type")})
            else:
                live.submit(table, **event)
    yield live
    live.close()


@pytest.fixture
def out(tmp_path: Path) -> Path:
    if os.environ.get("TABLESENSE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path


@pytest.fixture
def ctx(browser: Any, pub: LivePub) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(device_scale_factor=1)
    yield context
    context.close()


def _tv(pub: LivePub, table: str) -> str:
    """The address of the pub's own TV (paired: it shows the referee QR code)."""
    return f"{pub.url}/table/{table}?tv={tv_code(pub.pub.table(table).token)}"


def _shot(ctx: Any, url: str, ready: str, path: Path, width: int = 1280, height: int = 720) -> Any:
    page = _page(ctx, width, height)
    page.goto(url)
    page.wait_for_selector(ready)
    if "?tv=" in url:  # the pub's own TV: its referee QR code is part of the picture
        page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    return page


def test_golf_scoreboard(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _page(ctx)
    page.goto(_tv(pub, "1"))
    page.wait_for_selector(".balls")
    page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    assert page.locator(".player.p1 .ball.on").count() == 3
    assert page.locator(".player.p2 .ball.on").count() == 4
    for event in ({"t": 40.0, "type": "strike", "ball": "p2"},
                  {"t": 41.0, "type": "goal", "goal": "A", "ball": "p2"}, {"t": 42.0, "type": "rest"}):
        pub.submit("1", **event)  # Bob scores while the TV looks: the ruling's banner
    page.wait_for_selector("#banner.show:has-text('golf.goal')")
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / "golf.png"))
    assert page.locator(".player.p2 .ball.on").count() == 3
    assert page.inner_text(".clock")  # counting down from the last rest
    assert (out / "golf.png").stat().st_size > 10_000


def test_kegle_scoreboard(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _shot(ctx, _tv(pub, "2"), ".pins", out / "kegle.png")
    assert page.locator(".pin").count() == 5
    state = pub.call(pub.pub.snapshot, "2")["state"]
    shown = page.eval_on_selector_all(".pin.down", "els => els.map(e => e.dataset.pin)")
    down = sorted(int(x) for x in shown)
    assert down == sorted(state["pins_down"]) and down
    assert page.inner_text(".player.p1 .big") == str(state["points"]["p1"])
    assert str(state["remaining"]["p1"]) in page.inner_text(".player.p1 .stats")


def test_carom_scoreboard(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _shot(ctx, _tv(pub, "3"), ".player.p1 .big", out / "carom.png")
    state = pub.call(pub.pub.snapshot, "3")["state"]
    assert page.inner_text(".player.p1 .big") == str(state["caroms"]["p1"])
    assert "30" in page.inner_text(".player.p1 .stats")  # the target


def test_overview(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _shot(ctx, f"{pub.url}/", ".card >> nth=2", out / "overview.png")
    assert page.locator(".card").count() == 3


def test_referee_panel(ctx: Any, pub: LivePub, out: Path) -> None:
    token = pub.pub.table("1").token
    page = _shot(ctx, f"{pub.url}/ref/1?token={token}", ".shot", out / "referee.png", 390, 844)
    page.screenshot(path=str(out / "referee-full.png"), full_page=True)
    assert page.locator(".shot").count() >= 4


def test_overlay(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _page(ctx)
    page.goto(f"{pub.url}/overlay/3")
    page.wait_for_selector(".player.p1")
    page.screenshot(path=str(out / "overlay.png"), omit_background=True)
    assert page.locator(".qr").count() == 0
