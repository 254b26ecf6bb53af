"""The end of a match on the TV (1920 x 1080) and the phone (390 x 844), each game in each
language, as the simulator plays it: both names whole, the winner's strip beside the cards and
not over them, no figure cut off, nobody at the table; and the call that ended the match can
still be undone from the panel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import apart, box, clipped, feed, inside, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

from tablesense import games, texts

pytestmark = pytest.mark.browser

GAMES = games.names()
LANGS = texts.LANGS  # every language found, so a new one is checked at a match's end too
TABLES = {f"{g}-{lang}": (g, lang) for g in GAMES for lang in LANGS}
#: the same matches again, for the panel's undo (which changes them)
UNDONE = {f"undo-{g}-{lang}": (g, lang) for g, lang in (("golf", "da"), ("kegle", "en"), ("carom", "nl"))}
NAMES = {"golf": {"p1": "Ann-Sofie", "p2": "Bob"}, "kegle": {"p1": "Mette", "p2": "Lars Peter"},
         "carom": {"p1": "Joop", "p2": "Kees van Dijk"}}
#: golf's duos, whose names take a plural verb (a pair wins: "Ann & Cor win!", "winnen!")
DUOS = {f"duo-golf-{lang}": lang for lang in ("en", "nl")}
PAIRS = {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("ends") / "pub.db"), [*TABLES, *UNDONE, *DUOS])
    for table, (game, lang) in {**TABLES, **UNDONE}.items():
        live.call(live.pub.set_lang, table, lang)
        feed(live, table, sim_events(game, players=NAMES[game]))
        assert live.call(live.pub.snapshot, table)["state"]["finished"], f"{table}: the match did not end"
    for table, lang in DUOS.items():
        live.call(live.pub.set_lang, table, lang)
        feed(live, table, sim_events("golf", players=PAIRS))
        assert live.call(live.pub.snapshot, table)["state"]["finished"], f"{table}: the match did not end"
    yield live
    live.close()



@pytest.mark.parametrize("table", list(TABLES))
def test_the_end_of_a_match_on_the_tv_shows_both_names_and_cuts_nothing(ctx: Any, pub: LivePub, out: Path,
                                                                         table: str) -> None:
    page = _page(ctx, 1920, 1080)
    page.goto(tv_url(pub, table))
    shown(page, pub, table)
    page.wait_for_selector(".final")
    page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    page.screenshot(path=str(out / f"end-{table}.png"))
    game, _ = TABLES[table]
    final = box(page, ".final")
    assert final["y"] + final["height"] <= 1080
    for p in ("p1", "p2"):
        card = box(page, f".player.{p}")
        name = box(page, f".player.{p} h2")
        assert page.inner_text(f".player.{p} h2") == NAMES[game][p]
        assert inside(name, card) and name["height"] > 20, f"{p}'s name is not whole in the card"
        assert apart(card, final), "the winner's strip covers a card"
        for stat in page.locator(f".player.{p} .stat, .player.{p} .big").all():
            b = stat.bounding_box()
            assert b and inside(b, card), f"{stat.inner_text()!r} is cut off the card"
    assert page.locator(".player.at").count() == 0  # nobody is at the table any more
    assert page.locator(".player.won").count() == 1
    for el in page.locator(".centre > *").all():  # the QR code, its caption, the pins: beside the strip
        b = el.bounding_box()
        assert b and apart(b, final), f"{el.inner_text()[:30]!r} lies over the winner's strip"
    assert clipped(page, ".player, .player h2, .centre, .final") == []
    snap = pub.call(pub.pub.snapshot, table)
    winner = NAMES[game][snap["state"]["winner"]]
    assert winner in page.inner_text(".final")
    series = ".stat .label:text-is('Deze serie'), .stat .label:text-is('This series')"
    assert page.locator(series).count() == 0  # no series under way after the end


@pytest.mark.parametrize("table", list(UNDONE))
def test_the_call_that_ended_a_match_can_be_undone_from_the_panel(ctx: Any, pub: LivePub, out: Path,
                                                                   table: str) -> None:
    page = _page(ctx, 390, 844)
    page.goto(panel_url(pub, table))
    shown(page, pub, table, "ready")
    page.screenshot(path=str(out / f"referee-end-{table}.png"))
    undo = page.locator("#c-undo")
    words = undo.inner_text()
    assert not undo.is_disabled() and words
    before = pub.call(pub.pub.snapshot, table)
    for p in ("p1", "p2"):  # the names whole on the phone
        cell = box(page, f".who[data-player='{p}']")
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= 390
    undo.click()
    page.wait_for_function(f"Number(document.body.dataset.ready) > {before['version']}")
    after = pub.call(pub.pub.snapshot, table)
    assert not after["state"]["finished"], f"'{words}' did not take the match's end back"
    assert page.locator("#calls button.foul").count() > 0  # the match goes on: the calls are back


@pytest.mark.parametrize("table", list(DUOS))
def test_a_pair_that_wins_is_told_in_the_plural_and_zone_play_ends_with_the_match(
        ctx: Any, pub: LivePub, table: str) -> None:
    """A duo is two players: "Ann & Cor win!" ("winnen!"), not "wins!"; and golf's zone play,
    which lasts to the end of a frame, has no badge on a finished match's TV."""
    page = _page(ctx, 1920, 1080)
    page.goto(tv_url(pub, table))
    shown(page, pub, table)
    page.wait_for_selector(".final")
    winner = " & ".join(PAIRS[pub.call(pub.pub.snapshot, table)["state"]["winner"]])
    verb = {"en": "win!", "nl": "winnen!"}[DUOS[table]]
    assert f"{winner} {verb}" in page.inner_text(".final")
    assert page.locator(".badge.zone").count() == 0
