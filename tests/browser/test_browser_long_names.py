"""Many tables, long names, three languages, in chromium: eight tables on the overview (1920 x
1080), each card in its own table's language while the page's frame keeps the pub's; names of
24 characters whole on the overview, the TV and the phone (390 x 844), nothing hidden or
overlapping, measured by the elements' boxes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import LONG, apart, box, clipped, feed, inside, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

from tablesense.web.pages import strings

pytestmark = pytest.mark.browser

#: table -> (game, language): eight tables, three games, three languages
TABLES = {"1": ("golf", "en"), "2": ("kegle", "nl"), "3": ("carom", "da"), "4": ("golf", "nl"),
          "5": ("carom", "en"), "6": ("kegle", "da"), "7": ("golf", "da"), "8": ("carom", "nl")}
#: how many events of each simulated match to play: the middle of a match (table 5 to its end)
PART = {"golf": 30, "kegle": 30, "carom": 60}


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("long") / "pub.db"), list(TABLES))
    for table, (game, lang) in TABLES.items():
        live.call(live.pub.set_lang, table, lang)
        events = sim_events(game, seed=int(table), players=LONG)
        feed(live, table, events if table == "5" else events[:PART[game]])
    yield live
    live.close()



def test_eight_tables_in_three_languages_each_card_in_its_own_and_no_name_cut(ctx: Any, pub: LivePub,
                                                                               out: Path) -> None:
    page = _page(ctx, 1920, 1080)
    page.goto(f"{pub.url}/")
    page.wait_for_function("document.querySelectorAll('.card .told').length === 8")
    total = sum(pub.call(lambda t=t: pub.pub.table(t).version) for t in TABLES)
    page.wait_for_function(f"Number(document.body.dataset.shown) >= {total}")
    page.wait_for_timeout(200)
    page.screenshot(path=str(out / "overview-long-names.png"))
    for table, (_game, lang) in TABLES.items():
        card = f".card[data-table='{table}']"
        assert page.get_attribute(card, "lang") == lang
        assert page.inner_text(f"{card} h2").startswith(f"{strings(lang)['table']} {table}")
        frame = box(page, card)
        assert frame["x"] >= 0 and frame["y"] >= 0 and frame["x"] + frame["width"] <= 1920
        assert frame["y"] + frame["height"] <= 1080
        for p in ("p1", "p2"):
            name = page.locator(f"{card} .prow[data-player='{p}'] .pname")
            assert name.inner_text() == LONG[p]
            assert inside(name.bounding_box(), frame), f"table {table}: {p}'s name leaves the card"
            score = box(page, f"{card} .prow[data-player='{p}'] .n")
            assert inside(score, frame) and apart(score, name.bounding_box())
        told = page.locator(f"{card} .told")
        assert inside(told.bounding_box(), frame), f"table {table}: the last shot leaves the card"
        snap = pub.call(pub.pub.snapshot, table)
        said = snap["view"]["last_shot"] if not snap["state"]["finished"] else None
        if said:
            assert told.inner_text() == said  # whole, in the table's own language
    assert clipped(page, ".card .pname, .card .told, .card h2") == []
    # golf: each player's balls left in the colour of his balls, large enough to count from 3 m
    for p, colour in (("p1", "red"), ("p2", "yellow")):
        pips = page.locator(f".card[data-table='1'] .prow[data-player='{p}'] .pip")
        classes = [pips.nth(i).get_attribute("class") or "" for i in range(pips.count())]
        assert len(classes) == 5 and all(colour in c for c in classes)
        assert pips.first.bounding_box()["height"] >= 24  # type: ignore[index]
    # the page's frame speaks the pub's language, whichever table changed last (a Danish one)
    feed(pub, "6", sim_events("kegle", seed=6, players=LONG)[PART["kegle"]:PART["kegle"] + 6])
    page.wait_for_function(f"Number(document.body.dataset.shown) > {total}")
    assert page.inner_text("header h1") == strings("en")["overview"]
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.get_attribute(".card[data-table='6']", "lang") == "da"


@pytest.mark.parametrize("table", ["1", "2", "3"])
def test_long_names_on_the_tv_are_whole_and_clear_of_the_at_table_label(ctx: Any, pub: LivePub, out: Path,
                                                                         table: str) -> None:
    page = _page(ctx, 1920, 1080)
    page.goto(tv_url(pub, table))
    shown(page, pub, table)
    page.wait_for_timeout(200)
    game, lang = TABLES[table]
    page.screenshot(path=str(out / f"tv-long-names-{game}-{lang}.png"))
    for p in ("p1", "p2"):
        card = box(page, f".player.{p}")
        assert card["x"] >= 0 and card["x"] + card["width"] <= 1920 and card["y"] + card["height"] <= 1080
        name = box(page, f".player.{p} h2")
        assert page.inner_text(f".player.{p} h2") == LONG[p]
        assert inside(name, card)
        assert apart(name, box(page, f".player.{p} .tag"))  # "AT THE TABLE" above the name, not over it
        assert apart(name, box(page, f".player.{p} .big"))
        assert inside(box(page, f".player.{p} .big"), card)
    # the two cards line up: their scores at the same height
    assert abs(box(page, ".player.p1 .big")["y"] - box(page, ".player.p2 .big")["y"]) <= 1
    assert clipped(page, ".player h2, .player") == []


@pytest.mark.parametrize("table", ["1", "2", "3"])
def test_long_names_on_the_phone_keep_both_players_and_their_scores_on_the_screen(
        ctx: Any, pub: LivePub, out: Path, table: str) -> None:
    page = _page(ctx, 390, 844)
    page.goto(panel_url(pub, table))
    shown(page, pub, table, "ready")
    game, lang = TABLES[table]
    page.screenshot(path=str(out / f"referee-long-names-{game}-{lang}.png"))
    cells = [box(page, f".who[data-player='{p}']") for p in ("p1", "p2")]
    assert apart(cells[0], cells[1])
    for p, cell in zip(("p1", "p2"), cells, strict=True):
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= 390, f"{p}'s card leaves the phone's screen"
        name = page.locator(f".who[data-player='{p}'] .pname")
        assert LONG[p] in name.inner_text()
        assert inside(name.bounding_box(), cell)
        score = box(page, f".who[data-player='{p}'] .main b")
        assert inside(score, cell) and score["width"] > 10
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing pushed off sideways
    assert json.loads(json.dumps(clipped(page, ".who, .pname"))) == []
