"""Each game's scoreboard and referee panel in English, Dutch and Danish, the overview of eight
tables on a 1080p screen and the overlay, in chromium, as screenshots.

The pictures go to tmp; with TABLESENSE_SCREENSHOTS=1 they go to docs/screenshots/ (the
ones the README and docs/scoreboard.md, docs/referee.md show)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import LivePub, _page

from tablesense.web.guard import tv_code

pytestmark = pytest.mark.browser

GOLF = [
    {"t": 0.5, "type": "call", "call": "start", "player": "p1"},
    {"t": 1.0, "type": "strike", "ball": "p1"}, {"t": 2.0, "type": "goal", "goal": "B", "ball": "p1"},
    {"t": 3.0, "type": "rest"},
    {"t": 10.0, "type": "strike", "ball": "p1"}, {"t": 11.0, "type": "goal", "goal": "B", "ball": "p1"},
    {"t": 12.0, "type": "rest"},
    {"t": 20.0, "type": "strike", "ball": "p1"}, {"t": 21.0, "type": "cushion", "cushion": 2, "ball": None},
    {"t": 23.0, "type": "rest"},
    {"t": 30.0, "type": "strike", "ball": "p2"}, {"t": 31.0, "type": "goal", "goal": "A", "ball": "p2"},
    {"t": 32.0, "type": "rest"},
    {"t": 40.0, "type": "strike", "ball": "p2"}, {"t": 41.0, "type": "cushion", "cushion": 1, "ball": None},
    {"t": 42.0, "type": "rest"}, {"t": 43.0, "type": "call", "call": "foul", "foul": "touch"},
]
KEGLE = [
    {"t": 0.5, "type": "call", "call": "start", "player": "p1"},
    {"t": 1.2, "type": "cushion", "cushion": 1, "ball": "red"},
    {"t": 1.5, "type": "pin", "pin": 2, "state": "down"},
    {"t": 1.6, "type": "pin", "pin": 1, "state": "down"},
    {"t": 3.0, "type": "rest"},
    {"t": 5.0, "type": "pin", "pin": 2, "state": "up"}, {"t": 5.5, "type": "pin", "pin": 1, "state": "up"},
    {"t": 6.0, "type": "rest"},
    {"t": 9.3, "type": "cushion", "cushion": 3, "ball": "red"},
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
]
FINISHED = [  # a short carom match played out: the overview shows its winner
    {"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 2.0, "type": "rest"},
    {"t": 2.5, "type": "call", "call": "carom"},
    {"t": 3.0, "type": "cushion", "cushion": 1, "ball": None}, {"t": 4.0, "type": "rest"},
]
GAMES = {
    "golf": ({"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}, GOLF),
    "kegle": ({"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 100}, KEGLE),
    "carom": ({"game": "carom", "discipline": "libre", "players": {"p1": "Joop", "p2": "Kees"},
               "targets": {"p1": 30, "p2": 45}}, CAROM),
}
LANGS = ("en", "nl", "da")
#: table id -> (game, language): each game in each language
TABLES = {str(n): (g, lang) for n, (g, lang) in enumerate(((g, la) for g in GAMES for la in LANGS), start=1)}


def _play(live: LivePub, table: str, setup: dict[str, Any], events: list[dict[str, Any]]) -> None:
    live.call(live.pub.start_match, table, setup)
    for event in events:
        if event["type"] == "call":
            live.call(live.pub.call, table, {k: v for k, v in event.items() if k not in ("t", "type")})
        else:
            live.submit(table, **event)


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("shots") / "pub.db"), list(TABLES))
    for table, (game, lang) in TABLES.items():
        live.call(live.pub.set_lang, table, lang)
        _play(live, table, *GAMES[game])
    yield live
    live.close()



def _table(game: str, lang: str) -> str:
    return next(t for t, gl in TABLES.items() if gl == (game, lang))


def _tv(pub: LivePub, table: str) -> Any:
    """The pub's own TV of ``table`` (paired: it shows the referee QR code), ready."""
    return f"{pub.url}/table/{table}?tv={tv_code(pub.pub.table(table).token)}"


def _ready_tv(ctx: Any, pub: LivePub, table: str) -> Any:
    page = _page(ctx)
    page.goto(_tv(pub, table))
    page.wait_for_selector("#lastshot-text")
    page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    page.wait_for_timeout(300)
    return page


def _name(game: str, lang: str) -> str:
    return game if lang == "en" else f"{game}-{lang}"


def _no_overlap(page: Any, a: str, b: str) -> None:
    ra, rb = page.locator(a).bounding_box(), page.locator(b).bounding_box()
    assert ra and rb
    apart = (ra["x"] + ra["width"] <= rb["x"] or rb["x"] + rb["width"] <= ra["x"]
             or ra["y"] + ra["height"] <= rb["y"] or rb["y"] + rb["height"] <= ra["y"])
    assert apart, f"{a} covers {b}"


@pytest.mark.parametrize("lang", LANGS)
def test_golf_scoreboard(ctx: Any, pub: LivePub, out: Path, lang: str) -> None:
    page = _ready_tv(ctx, pub, _table("golf", lang))
    page.screenshot(path=str(out / f"{_name('golf', lang)}.png"))
    assert page.locator(".player.p1 .ball.on").count() == 3
    assert page.locator(".player.p2 .ball.on").count() == 4
    assert page.locator(".player.p1.ball-red").count() == 1  # the stock set: red and yellow
    assert page.locator(".player.p2.ball-yellow").count() == 1
    told = {"en": "Bob: Touch — ball to a replacement spot",
            "nl": "Bob: Aanraking — bal naar een vervangplek",
            "da": "Bob: Berøring — kuglen på et erstatningspunkt"}[lang]
    assert page.inner_text("#lastshot-text") == told
    assert page.inner_text("#clock-label")  # the turn clock says what it is
    _no_overlap(page, "#lastshot", ".qr")


@pytest.mark.parametrize("lang", LANGS)
def test_kegle_scoreboard(ctx: Any, pub: LivePub, out: Path, lang: str) -> None:
    table = _table("kegle", lang)
    page = _ready_tv(ctx, pub, table)
    page.screenshot(path=str(out / f"{_name('kegle', lang)}.png"))
    state = pub.call(pub.pub.snapshot, table)["state"]
    shown = page.eval_on_selector_all(".pin.down", "els => els.map(e => e.dataset.pin)")
    down = sorted(int(x) for x in shown)
    assert down == sorted(state["pins_down"]) == [4]
    assert page.inner_text(".player.p1 .big") == str(state["points"]["p1"]) == "6"
    assert page.locator(".player.ball-none").count() == 2  # both play the red: no colour of their own


@pytest.mark.parametrize("lang", LANGS)
def test_carom_scoreboard(ctx: Any, pub: LivePub, out: Path, lang: str) -> None:
    table = _table("carom", lang)
    page = _ready_tv(ctx, pub, table)
    page.screenshot(path=str(out / f"{_name('carom', lang)}.png"))
    state = pub.call(pub.pub.snapshot, table)["state"]
    assert page.inner_text(".player.p1 .big") == str(state["caroms"]["p1"])
    assert "30" in page.inner_text(".player.p1 .stats")  # the target
    assert page.locator(".player.p1.ball-yellow").count() == 1


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("lang", LANGS)
def test_referee_panel(ctx: Any, pub: LivePub, out: Path, game: str, lang: str) -> None:
    table = _table(game, lang)
    page = _page(ctx, 390, 844)
    page.goto(f"{pub.url}/ref/{table}?token={pub.pub.table(table).token}")
    page.wait_for_selector("#calls button.foul")
    if game == "golf":
        page.wait_for_selector("#spot svg.bed")  # Bob's ball waits for Ann's choice of spot
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"referee-{game}-{lang}.png"))
    if (game, lang) == ("golf", "en"):
        page.screenshot(path=str(out / "referee-full.png"), full_page=True)
    labels = page.eval_on_selector_all("button.foul", "els => els.map(e => e.textContent)")
    assert len(labels) == len(set(labels)) >= 10 and not any("." in x for x in labels)


def test_overview_of_eight_tables_on_a_1080p_screen(browser: Any, tmp_path: Path, out: Path) -> None:
    games = ["golf", "kegle", "carom", "golf", "carom", "kegle", "golf", "carom"]
    live = LivePub(str(tmp_path / "eight.db"), [str(n) for n in range(1, 9)])
    context = browser.new_context(device_scale_factor=1)
    try:
        for n, game in enumerate(games, start=1):
            setup, events = GAMES[game]
            if n == 5:
                setup, events = {**setup, "targets": {"p1": 1, "p2": 1}}, FINISHED
            _play(live, str(n), setup, events)
        page = _page(context, 1920, 1080)
        page.goto(f"{live.url}/")
        page.wait_for_function("document.querySelectorAll('.card .told').length === 8")
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / "overview.png"))
        for n in range(1, 9):  # every card whole on the screen, its figures at least 40 px high
            box = page.locator(f".card[data-table='{n}']").bounding_box()
            assert box and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920
            size = page.eval_on_selector(f".card[data-table='{n}'] .n",
                                         "e => parseFloat(getComputedStyle(e).fontSize)")
            assert size >= 40
        assert page.locator(".card[data-table='5'] .prow.won").count() == 1
        assert page.locator(".card[data-table='5'] .prow.at").count() == 0  # over: nobody at the table
    finally:
        context.close()
        live.close()


def test_overlay(ctx: Any, pub: LivePub, out: Path) -> None:
    page = _page(ctx)
    page.goto(f"{pub.url}/overlay/{_table('carom', 'en')}")
    page.wait_for_selector(".player.p1")
    page.screenshot(path=str(out / "overlay.png"), omit_background=True)
    assert page.locator(".qr").count() == 0
