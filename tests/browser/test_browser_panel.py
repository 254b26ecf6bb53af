"""The referee panel in chromium: a whole match of each game, in Dutch or Danish, by buttons only.

The table's sensors are the test (``LivePub.submit``: the events a link hands the host);
everything the referee does is a tap on the panel at 390 x 844, as on a phone.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_browser import LivePub, _page

from tablesense.rules.golf.geometry import REPLACEMENT_SPOTS
from tablesense.web.guard import tv_code

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Referee:
    """The panel on a phone, and the table's sensors."""

    def __init__(self, ctx: Any, live: LivePub, table: str = "1") -> None:
        self.live, self.table = live, table
        self.page = _page(ctx, 390, 844)
        self.page.on("dialog", lambda d: d.accept())
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{live.url}/ref/{table}?token={live.pub.table(table).token}")
        self.page.wait_for_selector("body[data-ready]")

    def version(self) -> int:
        return int(self.live.call(lambda: self.live.pub.table(self.table).version))

    def shown(self) -> None:
        """Wait until the panel shows the table's latest state."""
        v = self.version()
        self.page.wait_for_function(f"Number(document.body.dataset.ready) >= {v}", timeout=5000)

    def tap(self, locator: Any) -> None:
        """Tap a button and wait for the host to have taken the call and the panel to show it."""
        before = self.version()
        locator.click()
        deadline = time.monotonic() + 5
        while self.version() == before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.version() > before, f"the tap changed nothing: {self.page.inner_text('#status')}"
        self.shown()

    def button(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True)

    def sensors(self, *events: dict[str, Any]) -> None:
        for e in events:
            self.t = getattr(self, "t", 0.0) + 1.0
            self.live.submit(self.table, **{"t": self.t, **e})
        self.shown()

    def state(self) -> dict[str, Any]:
        return self.live.call(self.live.pub.snapshot, self.table)["state"]

    def start(self, lang: str, game_label: str, p1: str, p2: str, *choices: str, **numbers: str) -> None:
        """Start a match from the panel: the language, the game and its choices as buttons
        (the players' names and ``numbers``, a distance or targets, typed)."""
        self.page.select_option("#lang", lang)
        self.page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        self.page.wait_for_selector("#setup[open]")
        self.page.click(f"#setup-form label:has-text('{game_label}')")
        for choice in choices:
            self.page.click(f"#setup-form label:visible:has-text('{choice}')")
        self.page.fill("input[name=p1]", p1)  # the players' names: the one thing typed
        self.page.fill("input[name=p2]", p2)
        for field, value in numbers.items():
            self.page.fill(f"input[name={field}]", value)
        self.tap(self.page.locator("#start-match"))
        self.page.wait_for_selector(f"#now:has-text('{p1}')")


def _within_thumb_reach(page: Any, *selectors: str) -> None:
    for sel in selectors:
        box = page.locator(sel).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, f"{sel} is below the phone's screen"


def test_a_whole_golf_match_in_danish_by_buttons(ctx: Any, live: LivePub) -> None:
    ref = Referee(ctx, live)
    ref.start("da", "Golfbillard", "Ann", "Bob")
    ref.tap(ref.page.locator("button.start:has-text('Ann')"))  # who starts: a button with her name
    goal = ({"type": "goal", "goal": "B", "ball": "p1"}, {"type": "rest"})
    miss = ({"type": "cushion", "cushion": 1, "ball": None}, {"type": "rest"})
    ref.sensors(*goal)
    assert ref.page.inner_text("#last-shot").endswith("Ann scorer, spiller videre")
    # whose ball? the beam cannot tell: the engine asks
    ref.sensors({"type": "goal", "goal": "B", "ball": None}, {"type": "rest"})
    ref.page.wait_for_selector("#questions button.answer")
    ref.tap(ref.page.locator("#questions button.answer:has-text('Ann')"))
    assert ref.state()["balls_left"]["p1"] == 3
    # a shot that ends with one of Bob's balls on Ann's replacement spot 1 (the table reports positions)
    ref.sensors(miss[0], {"type": "rest", "positions": {"p2": [list(REPLACEMENT_SPOTS["p1"][1])]}})
    ref.tap(ref.button("Berøring"))  # the referee saw a touch in the shot just ended
    ref.page.wait_for_selector("#spot svg.bed")  # Ann's ball waits: Bob chooses its spot on the drawing
    assert "Bob vælger" in ref.page.inner_text("#spot h2")
    assert ref.page.locator("#spot g.spot.choice").count() == 3
    assert ref.page.locator("#spot g.spot.fallback").count() == 2
    assert ref.page.locator("#spot g.spot.taken").count() == 3  # 1 is covered; 4 and 5 only if 1-3 are
    assert ref.page.locator("#spot button.spot-button:disabled").count() == 3
    ref.tap(ref.page.locator("#spot g.spot[data-spot='2']"))
    assert ref.state()["spots_waiting"] == []
    ref.sensors(*miss)  # Bob
    for _ in range(3):
        ref.sensors(*goal)
    assert ref.state()["frames_won"] == {"p1": 1, "p2": 0}
    ref.sensors(*miss)  # Bob opens frame 2
    for _ in range(5):
        ref.sensors(*goal)
    state = ref.state()
    assert state["finished"] and state["winner"] == "p1"
    ref.page.wait_for_selector("#now .final:has-text('Ann vinder!')")
    # the match is over: nothing to call but undo, which names the shot that ended it
    assert ref.page.locator("#calls button").count() == 1
    assert ref.page.locator("#calls #c-undo").inner_text().startswith("Fortryd")
    assert ref.page.locator("#now .who.at").count() == 0  # nobody at the table
    assert not ref.errors


def test_a_whole_keglebillard_match_in_danish_by_buttons(ctx: Any, live: LivePub) -> None:
    ref = Referee(ctx, live)
    ref.start("da", "Keglebillard", "Mette", "Lars", distance="8")
    ref.tap(ref.page.locator("button.start:has-text('Mette')"))
    shot = ({"type": "cushion", "cushion": 1, "ball": "red"}, {"type": "rest"})
    ref.sensors(*shot)
    _within_thumb_reach(ref.page, "#c-carom", "button.foul:not(.rare)", "#c-undo")
    ref.tap(ref.page.locator("#c-carom"))  # the biggest button: the carambole no sensor saw
    assert ref.state()["points"]["p1"] == 4
    assert "Mette: 4 point, spiller videre · 4 mangler" in ref.page.inner_text("#last-shot")
    ref.sensors(*shot)
    ref.tap(ref.button("Rørte en kugle"))
    assert ref.state()["at_table"] == "p2"
    assert "Lars skal spille" in ref.page.inner_text("#last-shot")
    ref.page.click("details.more summary")  # the rare faults, one tap away
    assert ref.button("Mærker på banden").is_visible()
    while not ref.state()["finished"]:
        shooter = ref.state()["at_table"]
        ref.sensors(*shot)
        if shooter == "p1":
            ref.tap(ref.page.locator("#c-carom"))  # Mette's caramboles; Lars misses
    state = ref.state()
    assert state["winner"] == "p1" and state["points"]["p1"] >= state["distance"]
    ref.page.wait_for_selector("#now .final:has-text('Mette vinder!')")


def test_a_whole_carom_match_in_dutch_by_buttons_with_undo(ctx: Any, live: LivePub) -> None:
    ref = Referee(ctx, live)
    ref.start("nl", "Carambole", "Joop", "Kees", "Libre", t1="2", t2="2")
    ref.tap(ref.page.locator("button.start:has-text('Joop')"))
    shot = ({"type": "cushion", "cushion": 1, "ball": None}, {"type": "rest"})
    ref.sensors(*shot)
    _within_thumb_reach(ref.page, "#c-carom", "button.foul:not(.rare)", "#c-undo")
    ref.tap(ref.page.locator("#c-carom"))
    assert ref.state()["caroms"]["p1"] == 1
    undo = ref.page.locator("#c-undo")
    assert undo.inner_text() == "Herstel carambole"  # it says what it takes back
    ref.tap(undo)
    assert ref.state()["caroms"]["p1"] == 0
    assert undo.inner_text() == "Herstel stoot 1"
    ref.tap(ref.page.locator("#c-carom"))
    ref.sensors(*shot)
    ref.tap(ref.button("Aanraking"))  # a fault: Kees to play
    assert "Kees aan stoot" in ref.page.inner_text("#last-shot")
    while not ref.state()["finished"]:
        shooter = ref.state()["at_table"]
        ref.sensors(*shot)
        if shooter == "p1":
            ref.tap(ref.page.locator("#c-carom"))  # Joop's caroms; Kees misses
    assert ref.state()["winner"] == "p1"
    ref.page.wait_for_selector("#now .final:has-text('Joop wint!')")
    tv = _page(ctx)
    tv.goto(f"{live.url}/table/1")
    tv.wait_for_selector(".final:has-text('Joop wint!')")
    assert tv.locator(".player.at").count() == 0 and tv.locator(".cue").count() == 0
    assert tv.locator(".player.p1.won .ribbon").count() == 1
    assert tv.locator(".player.p1.ball-yellow").count() == 1  # Joop plays the yellow
    assert tv.locator(".player.p2.ball-white").count() == 1


def test_a_missing_or_wrong_token_shows_one_message_and_disables_every_control(ctx: Any,
                                                                              live: LivePub) -> None:
    live.call(live.pub.start_match, "1", {"game": "carom", "discipline": "libre",
                                          "players": {"p1": "Joop", "p2": "Kees"}})
    for url in (f"{live.url}/ref/1", f"{live.url}/ref/1?token={live.pub.table('2').token}"):
        page = _page(ctx, 390, 844)
        page.goto(url)
        page.wait_for_selector("body.locked #calls button")
        text = page.inner_text("#status")
        assert "Scan the QR code" in text and text.count("efused") == 0
        enabled = page.eval_on_selector_all("main button, main input, header select",
                                            "els => els.filter(e => !e.disabled).length")
        assert enabled == 0
        page.keyboard.press("Space")  # a key does nothing either
        page.close()
    assert live.call(live.pub.snapshot, "1")["state"]["caroms"]["p1"] == 0


def test_keys_at_the_panel_and_at_a_paired_tv(ctx: Any, live: LivePub) -> None:
    live.call(live.pub.start_match, "1", {"game": "carom", "discipline": "libre",
                                          "players": {"p1": "Joop", "p2": "Kees"}})
    ref = Referee(ctx, live)
    ref.sensors({"type": "cushion", "cushion": 1, "ball": None}, {"type": "rest"})
    ref.page.wait_for_selector("#c-carom")
    ref.page.keyboard.press("Space")  # nothing focused: Space is the big +1
    ref.page.wait_for_function("document.querySelector('#c-undo').textContent.includes('carom')")
    assert ref.state()["caroms"]["p1"] == 1
    ref.page.keyboard.press("Backspace")  # undo
    ref.page.wait_for_function("document.querySelector('#c-undo').textContent.includes('shot')")
    assert ref.state()["caroms"]["p1"] == 0
    ref.page.keyboard.press("ArrowRight")  # the arrows walk the buttons: a remote's keys
    ref.page.keyboard.press("ArrowRight")
    focused = ref.page.evaluate("document.activeElement.textContent")
    assert focused and ref.page.evaluate("document.activeElement.tagName") == "BUTTON"
    tv = _page(ctx)
    tv.goto(f"{live.url}/table/1?tv={tv_code(live.pub.table('1').token)}")
    tv.wait_for_selector(".qr img")  # paired: the pub's own TV
    tv.keyboard.press("Space")
    deadline = time.monotonic() + 5
    while ref.state()["caroms"]["p1"] != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ref.state()["caroms"]["p1"] == 1
    tv.wait_for_selector("#lastshot:has-text('Joop scores 1, plays on')")


def test_the_tv_speaks_the_last_shot_in_the_tables_language(ctx: Any, live: LivePub) -> None:
    from test_browser import SPEECH_PROBE

    live.call(live.pub.start_match, "1", {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"},
                                          "distance": 40})
    live.call(live.pub.set_lang, "1", "da")
    tv = _page(ctx)
    tv.add_init_script(SPEECH_PROBE)
    tv.goto(f"{live.url}/table/1")
    tv.wait_for_selector("#speech.on")
    for e in ({"t": 1.0, "type": "cushion", "cushion": 1, "ball": "red"},
              {"t": 1.5, "type": "pin", "pin": 2, "state": "down"},
              {"t": 1.6, "type": "pin", "pin": 1, "state": "down"}, {"t": 3.0, "type": "rest"}):
        live.submit("1", **e)
    tv.wait_for_function("window.__said.length === 1")
    assert tv.evaluate("window.__said[0]") == ["Mette: 4 point, spiller videre", "da-DK"]
