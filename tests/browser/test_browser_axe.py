"""Every page checked by axe-core (vendored under tests/vendor/axe-core, 4.14.1): the TV of each
game, the overview, the referee panel (with its set-up form), a table's history and a match's
score sheet, in chromium, with a match under way; no violation allowed. Each page also asks for
nothing the server does not have (the favicon)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from screen_checks import axe_violations, describe, feed, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

pytestmark = pytest.mark.browser

TABLES = {"1": ("golf", "en"), "2": ("kegle", "da"), "3": ("carom", "nl")}


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("axe") / "pub.db"), [*TABLES, "4"])
    for table, (game, lang) in TABLES.items():
        live.call(live.pub.set_lang, table, lang)
        feed(live, table, sim_events(game, seed=1)[:25])
    feed(live, "4", sim_events("carom", seed=2))  # a match played out: its sheet
    yield live
    live.close()



def _open(ctx: Any, url: str, width: int, height: int) -> tuple[Any, list[str]]:
    page = _page(ctx, width, height)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(url)
    return page, missing


def _clean(page: Any, missing: list[str]) -> None:
    page.wait_for_timeout(300)  # the favicon's request, late images
    found = axe_violations(page)
    assert found == [], describe(found)
    assert missing == [], f"requests that failed: {missing}"


@pytest.mark.parametrize("table", list(TABLES))
def test_the_tv_has_no_accessibility_violations(ctx: Any, pub: LivePub, table: str) -> None:
    page, missing = _open(ctx, tv_url(pub, table), 1920, 1080)
    shown(page, pub, table)
    page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    _clean(page, missing)


def test_the_overview_has_no_accessibility_violations(ctx: Any, pub: LivePub) -> None:
    page, missing = _open(ctx, f"{pub.url}/", 1920, 1080)
    page.wait_for_function("document.querySelectorAll('.card .told').length === 4")
    _clean(page, missing)


@pytest.mark.parametrize("table", list(TABLES))
def test_the_referee_panel_has_no_accessibility_violations(ctx: Any, pub: LivePub, table: str) -> None:
    page, missing = _open(ctx, panel_url(pub, table), 390, 844)
    shown(page, pub, table, "ready")
    page.locator("#setup summary").click()  # the set-up form open: every input labelled
    page.locator("#shots summary").click()
    _clean(page, missing)


def test_the_history_the_score_sheet_and_the_rulings_have_no_accessibility_violations(
        ctx: Any, pub: LivePub) -> None:
    page, missing = _open(ctx, f"{pub.url}/history/4", 1280, 800)
    page.wait_for_selector("h1")
    _clean(page, missing)
    match = pub.call(lambda: pub.pub.table("4").match.id)  # type: ignore[union-attr]
    for path in (f"/sheet/{match}", f"/match/{match}/rulings"):
        sheet, missing = _open(ctx, pub.url + path, 1280, 800)
        sheet.wait_for_selector("h1")
        _clean(sheet, missing)
