"""The referee racing the balls, in chromium: a foul tapped on the phone while the balls still
roll, then undone; the turn clock while the referee answers a question or picks a spot; the
TV saying one thing at a time. The table's sensors are ``LivePub.submit`` (what a link hands
the host); the referee taps the panel at 390 x 844."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from screen_checks import box, panel_url, shown, tv_url
from test_browser import LivePub, _page

pytestmark = pytest.mark.browser

SETUPS = {"golf": {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          "carom": {"game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"},
                    "targets": {"p1": 20, "p2": 20}},
          "kegle": {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 40}}
#: a shot of the player at the table that touches a cushion and scores nothing
CUSHION = {"golf": None, "carom": None, "kegle": "red"}


LIVE_TABLES = ("1",)  # the pub's tables (tests/browser/conftest.py: live)


def _panel(ctx: Any, live: LivePub) -> Any:
    page = _page(ctx, 390, 844)
    page.on("dialog", lambda d: d.accept())
    page.goto(panel_url(live, "1"))
    shown(page, live, "1", "ready")
    return page


def _tap(page: Any, live: LivePub, locator: Any) -> None:
    before = live.call(lambda: live.pub.table("1").version)
    locator.click()
    deadline = time.monotonic() + 5
    while live.call(lambda: live.pub.table("1").version) == before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert live.call(lambda: live.pub.table("1").version) > before, page.inner_text("#status")
    shown(page, live, "1", "ready")


def _snap(live: LivePub) -> dict[str, Any]:
    return live.call(live.pub.snapshot, "1")  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", ["golf", "carom", "kegle"])
def test_a_foul_tapped_while_the_balls_roll_is_undone_and_the_shot_stands(ctx: Any, live: LivePub, out: Path,
                                                                           game: str) -> None:
    live.call(live.pub.start_match, "1", SETUPS[game])
    ball = CUSHION[game]
    live.submit("1", t=1.0, type="cushion", cushion=1, ball=ball)
    live.submit("1", t=2.0, type="rest")  # Ann's shot: nothing; Bob to play
    page = _panel(ctx, live)
    live.submit("1", t=5.0, type="cushion", cushion=2, ball=ball)  # Bob's shot: the balls roll
    shown(page, live, "1", "ready")
    assert (page.text_content("#fouls-title") or "").endswith("Bob")  # whom a foul now goes against
    touch = page.locator("button.foul").first
    label = touch.inner_text()
    _tap(page, live, touch)
    assert page.inner_text("#status") == f"Done: {label} (Bob)"
    live.submit("1", t=5.5, type="cushion", cushion=3, ball=ball)
    live.submit("1", t=6.0, type="rest")  # the shot ends after the foul
    shown(page, live, "1", "ready")
    page.screenshot(path=str(out / f"referee-foul-rolling-{game}.png"))
    undo = page.locator("#c-undo")
    assert undo.inner_text() == f"Undo foul: {label} (Bob)"  # names the foul, and on whom
    rulings = _snap(live)["state"]["rulings"]
    fouls = [r for r in rulings if r.get("player") == "p2" and re.search(r"\.(foul|fault)\.", r["rule"])]
    assert fouls, "the undo button names a foul the match does not have"
    _tap(page, live, undo)
    snap = _snap(live)
    assert not any(r["rule"] == fouls[0]["rule"] for r in snap["state"]["rulings"])  # the foul is gone
    assert snap["state"].get("shot_in_progress") in (None, False)  # and the shot stands, at rest
    words = page.locator("#c-undo").inner_text()
    n = int(re.fullmatch(r"Undo shot (\d+)", words).group(1))  # type: ignore[union-attr]
    shots = {item["shot"] for item in live.call(live.pub.log_items, "1") if item["kind"] == "shot"}
    assert n in shots and n == max(shots), f"{words!r}: the match's shots are {sorted(shots)}"
    _tap(page, live, page.locator("#c-undo"))  # the next undo takes that shot back, whole
    assert page.locator("#c-undo").inner_text() == f"Undo shot {n - 1}"


def test_the_turn_clock_stands_still_while_a_question_is_open_and_the_header_keeps_its_height(
        ctx: Any, live: LivePub, out: Path) -> None:
    live.call(live.pub.start_match, "1", SETUPS["golf"])
    tv = _page(ctx, 1920, 1080)
    tv.goto(tv_url(live, "1"))
    shown(tv, live, "1")
    tv.wait_for_selector(".qr img")
    header = box(tv, "header")
    assert tv.inner_text("#clock") == ""  # no rest yet: no clock
    live.submit("1", t=1.0, type="cushion", cushion=1, ball=None)
    live.submit("1", t=1.5, type="goal", goal="B", ball=None)  # whose ball? the sensors cannot tell
    live.submit("1", t=2.0, type="rest")
    shown(tv, live, "1")
    tv.wait_for_function("document.getElementById('clock').textContent !== ''")
    assert box(tv, "header")["height"] == header["height"]  # the board does not jump when the clock appears
    assert "stands still" in (tv.text_content("#clock-label") or "")
    assert "paused" in (tv.get_attribute("#clock", "class") or "")
    told = tv.inner_text("#lastshot-text")
    assert "to play" not in told and "referee decides" in told  # no "Bob to play" beside the question
    first = tv.inner_text("#clock")
    panel = _panel(ctx, live)
    clock = panel.inner_text("#panel-clock")
    assert "0:50" in clock and "stands still" in clock  # the panel shows the clock too
    time.sleep(1.6)
    assert tv.inner_text("#clock") == first == "0:50"  # still: nobody can be over time meanwhile
    tv.screenshot(path=str(out / "clock-question.png"))
    _tap(panel, live, panel.locator("button.answer").first)  # "Ann": the referee answers
    shown(tv, live, "1")
    tv.wait_for_function("!document.getElementById('clock').className.includes('paused')")
    time.sleep(1.6)
    assert tv.inner_text("#clock") != "0:50"  # now it runs
    assert box(tv, "header")["height"] == header["height"]


def test_the_turn_clock_stands_still_while_a_replacement_spot_waits(ctx: Any, live: LivePub) -> None:
    live.call(live.pub.start_match, "1", SETUPS["golf"])
    live.submit("1", t=1.0, type="goal", goal="B", ball="p1")
    live.submit("1", t=2.0, type="rest")
    panel = _panel(ctx, live)
    # Ann touched: her ball goes to a replacement spot, Bob chooses it
    _tap(panel, live, panel.get_by_role("button", name="Touch", exact=True))
    assert _snap(live)["paused_at"] is not None
    panel.wait_for_selector("#spot svg.bed")
    first = panel.inner_text("#panel-clock")
    time.sleep(1.3)
    assert panel.inner_text("#panel-clock") == first and "stands still" in first
    _tap(panel, live, panel.locator("#spot button.spot-button:not([disabled])").first)
    snap = _snap(live)
    assert snap["paused_at"] is None and not snap["state"]["spots_waiting"]
    panel.wait_for_function("!document.getElementById('panel-clock').textContent.includes('stands still')")


def test_a_driebanden_match_with_an_innings_limit_and_a_shot_clock_set_up_on_the_panel(
        ctx: Any, live: LivePub, out: Path) -> None:
    """The competition's own settings typed into the set-up form reach the TV: the inning of
    the limit, the shot clock counting down from its seconds, a time-out giving one more period."""
    panel = _panel(ctx, live)
    panel.locator("input[name=game][value=carom]").check(force=True)
    panel.locator("input[name=discipline][value=driebanden]").check(force=True)
    panel.fill("#f-p1", "Ann")
    panel.fill("#f-p2", "Bob")
    panel.fill("#f-t1", "15")
    panel.fill("#f-t2", "25")
    panel.fill("#f-innings_limit", "20")
    panel.fill("#f-shot_clock", "40")
    panel.fill("#f-timeouts", "1")
    _tap(panel, live, panel.locator("#start-match"))
    setup = _snap(live)["match"]["setup"]
    assert setup["innings_limit"] == 20 and setup["shot_clock"] == 40 and setup["timeouts"] == 1
    live.submit("1", t=1.0, type="cushion", cushion=1, ball=None)
    live.submit("1", t=2.0, type="rest")
    tv = _page(ctx, 1920, 1080)
    tv.goto(tv_url(live, "1"))
    shown(tv, live, "1")
    assert tv.inner_text(".limit b") == "Inning 1 of 20"  # Ann's inning is over; Bob's makes the first whole
    tv.wait_for_function("document.getElementById('clock').textContent.startsWith('0:')")
    left = int(tv.inner_text("#clock").split(":")[1])
    assert 30 <= left <= 40  # counting down the shot clock's 40 s
    shown(panel, live, "1", "ready")
    timeout = panel.locator("#c-timeout")
    assert timeout.inner_text() == "Time-out (1 left)"
    _tap(panel, live, timeout)  # Bob takes his time-out: one more period
    shown(tv, live, "1")
    tv.wait_for_function("Number(document.getElementById('clock').textContent.split(':')[0]) >= 1")
    assert panel.locator("#c-timeout").is_disabled()
    assert "Bob 0" in tv.inner_text(".timeouts")
    tv.screenshot(path=str(out / "carom-shot-clock.png"))
