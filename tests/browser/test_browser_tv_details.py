"""Small things on the TV (1920 x 1080) that a guest 3 m away notices: no empty grey strip before
the first shot, the keys' hint only for keys the game has, the ticker's balls in the table's
language, a waiting spot's badge that neither widens the middle column nor squeezes the balls."""

from __future__ import annotations

from typing import Any

import pytest
from screen_checks import box, shown, tv_url
from test_browser import LivePub, _page

pytestmark = pytest.mark.browser


def _tv(ctx: Any, live: LivePub, table: str) -> Any:
    page = _page(ctx, 1920, 1080)
    page.goto(tv_url(live, table))
    shown(page, live, table)
    page.wait_for_selector(".qr img")
    return page


def test_before_the_first_shot_there_is_no_grey_strip_and_golf_has_no_space_key(ctx: Any,
                                                                                live: LivePub) -> None:
    live.call(live.pub.start_match, "1", {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})
    page = _tv(ctx, live, "1")
    strip = page.eval_on_selector("#lastshot", "e => getComputedStyle(e).backgroundColor")
    assert page.inner_text("#lastshot") == "" and strip in ("rgba(0, 0, 0, 0)", "transparent")
    keys = page.inner_text(".qr .keys")
    assert "Backspace" in keys and "Space" not in keys and "+1" not in keys  # golf has no +1


def test_the_ticker_names_balls_in_the_tables_language(ctx: Any, live: LivePub) -> None:
    live.call(live.pub.set_lang, "2", "nl")
    setup = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40}
    live.call(live.pub.start_match, "2", setup)
    live.submit("2", t=1.0, type="cushion", cushion=1, ball="red")
    live.submit("2", t=1.5, type="pocket", pocket=4, ball="red")
    live.submit("2", t=3.0, type="rest")
    page = _tv(ctx, live, "2")
    ticker = page.inner_text("#ticker")
    assert "Zak 4 · Rood" in ticker and "red" not in ticker


def test_a_waiting_spot_keeps_the_middle_column_and_the_balls_round(ctx: Any, live: LivePub) -> None:
    setup = {"game": "golf", "players": {"p1": "Ann-Sofie Lindqvist", "p2": "Bob"}}
    live.call(live.pub.start_match, "1", setup)
    live.submit("1", t=1.0, type="goal", goal="B", ball="p1")
    live.submit("1", t=2.0, type="rest")
    page = _tv(ctx, live, "1")
    before = box(page, ".centre")
    live.call(live.pub.call, "1", {"call": "foul", "foul": "touch"})  # Ann's ball waits for Bob's choice
    shown(page, live, "1")
    page.wait_for_selector(".badge.spot")
    after = box(page, ".centre")
    assert abs(after["width"] - before["width"]) <= 1 and abs(after["x"] - before["x"]) <= 1
    badge = box(page, ".badge.spot")
    assert badge["x"] >= after["x"] - 1 and badge["x"] + badge["width"] <= after["x"] + after["width"] + 1
    for ball in page.locator(".player .ball").all():
        b = ball.bounding_box()
        assert b and abs(b["width"] - b["height"]) <= 1, "a ball drawn as an oval"


def test_keglebillard_last_shot_stays_on_the_tv_while_the_next_shot_plays(ctx: Any, live: LivePub) -> None:
    """A tilt-switch table reports a rest after the pin referee has set the pins up: that rest
    is no shot, and the strip keeps telling the last one while the next plays."""
    setup = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40}
    live.call(live.pub.start_match, "2", setup)
    live.submit("2", t=1.0, type="cushion", cushion=1, ball="red")
    live.submit("2", t=1.5, type="pin", pin=2, state="down")
    live.submit("2", t=3.0, type="rest")
    page = _tv(ctx, live, "2")
    told = page.inner_text("#lastshot-text")
    assert told == "Mette: 2 points, plays on"
    live.submit("2", t=8.0, type="pin", pin=2, state="up")  # the pin referee's hands
    live.submit("2", t=10.0, type="rest")
    live.submit("2", t=15.0, type="cushion", cushion=2, ball="red")  # the next shot rolls
    shown(page, live, "2")
    assert page.inner_text("#lastshot-text") == told


def test_the_tv_shows_the_fields_its_game_declares_and_no_other(ctx: Any, live: LivePub) -> None:
    """Golf declares who of each side of a duo plays next (``Game.tv``): each card says it, in
    the table's language; keglebillard declares nothing beside its own layout: no extra line."""
    live.call(live.pub.set_lang, "1", "nl")
    duo = {"game": "golf", "format": "duo", "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]}}
    live.call(live.pub.start_match, "1", duo)
    live.submit("1", t=1.0, type="cushion", cushion=1, ball="p1")
    live.submit("1", t=1.5, type="rest")
    kegle_setup = {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 40}
    live.call(live.pub.start_match, "2", kegle_setup)
    golf = _tv(ctx, live, "1")
    nxt = live.call(lambda: live.pub.snapshot("1")["state"]["next_up"])
    for p in ("p1", "p2"):
        card = f"section.player.{p} .stat.extra"
        assert golf.text_content(f"{card} .label") == "Hierna"  # Dutch, not the field's English name
        assert golf.text_content(f"{card} .value") == nxt[p]
    assert golf.locator(".centre .stat.extra").count() == 0
    kegle = _tv(ctx, live, "2")
    assert kegle.locator(".stat.extra").count() == 0


def test_a_new_turn_moves_the_tag_on_the_tv_and_the_overview_and_leaves_the_names_standing(
        ctx: Any, live: LivePub) -> None:
    """A turn passing repaints who is at the table, not the whole screen: the names are the
    same elements at the same fitted size (issue 27: a board rewritten at every rest was the
    browser's largest cost per event with eight tables)."""
    setup = {"game": "golf", "players": {"p1": "Ann-Sofie Lindqvist", "p2": "Bob"}}
    live.call(live.pub.start_match, "1", setup)
    tv = _tv(ctx, live, "1")
    overview = _page(ctx, 1920, 1080)
    overview.goto(f"{live.url}/")
    overview.wait_for_selector(".card[data-table='1'] .prow.at")
    names = ".player h2, .card .pname"
    size = "(e.style.fontSize || 'none')"
    for page in (tv, overview):
        page.eval_on_selector_all(names, f"els => els.forEach((e) => {{ e.__kept = {size}; }})")
    at_tv = tv.get_attribute(".player.at", "data-player")
    at_card = overview.get_attribute(".card[data-table='1'] .prow.at", "data-player")
    assert at_tv == at_card
    live.submit("1", t=1.0, type="strike", ball=at_tv)
    live.submit("1", t=2.0, type="rest")
    shown(tv, live, "1")
    tv.wait_for_selector(f".player.at:not([data-player='{at_tv}'])")
    overview.wait_for_selector(f".card[data-table='1'] .prow.at:not([data-player='{at_card}'])")
    for page in (tv, overview):
        kept = page.eval_on_selector_all(names, f"els => els.map((e) => e.__kept === {size})")
        assert kept == [True, True], "a name written anew (or fitted to another size) at a new turn"
