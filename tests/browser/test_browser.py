"""The scoreboard and the referee panel in a real browser (Playwright driving Debian's chromium)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from browser_launch import ARGS, CHROMIUM  # noqa: F401  (for the tests that start their own)
from paths import TESTS

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.store import Store
from tablesense.web.server import start

pytestmark = pytest.mark.browser


class LivePub:
    """A pub with its web app on its own event loop in a thread: the browser's host."""

    def __init__(self, db: str, tables: list[str]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.pub = Pub(Store(db), tables)
        self.runner, self.url = self.run(start(self.pub, port=0))

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def call(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` on the pub's loop (where the pub lives) and return its result."""
        done: Future[Any] = Future()

        def go() -> None:
            try:
                done.set_result(fn(*args))
            except Exception as exc:
                done.set_exception(exc)

        self.loop.call_soon_threadsafe(go)
        return done.result(10)

    def submit(self, table: str, **event: Any) -> float:
        """A table event entering the host; returns when it did (ms since the epoch)."""
        entered = time.time() * 1000
        self.call(self.pub.submit, table, parse_event(event))
        return entered

    def close(self) -> None:
        self.run(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def _page(ctx: Any, width: int = 1280, height: int = 720) -> Any:
    page = ctx.new_page()
    page.set_viewport_size({"width": width, "height": height})
    return page


def _golf_start(live: LivePub, table: str = "1") -> None:
    live.call(live.pub.start_match, table, {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})


def test_tv_shows_a_goal_within_a_second(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    page = _page(ctx, 1280, 720)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector(".player.p1 h2:has-text('Ann')")
    assert page.locator(".player.p1 .balls[data-left='5'] .ball.on").count() == 5
    entered = live.submit("1", t=1.0, type="goal", goal="B", ball="p1")
    page.wait_for_selector(".ticker li[data-type='goal']", timeout=1000)
    shown = page.evaluate("performance.timeOrigin + performance.now()")
    assert shown - entered < 1000
    assert "Goal B" in page.inner_text(".ticker li[data-type='goal']")
    page.wait_for_selector(".player.p1 .balls[data-left='4']", timeout=1000)
    live.submit("1", t=2.0, type="rest")  # the shot is over: told in one line, lit up
    page.wait_for_selector("#lastshot.fresh:has-text('Ann scores, plays on')", timeout=1000)
    page.close()


def test_tv_shows_the_simulators_goals_within_a_second(ctx: Any, live: LivePub) -> None:
    from tablesense.sim.match import simulated_match

    entered: dict[str, float] = {}
    page = _page(ctx)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector(".nomatch")

    async def table() -> Any:
        """The simulator's golf match (set-up included), each goal marked as it enters the host."""
        goals = 0
        async for event in simulated_match("golf", seed=1, speed=0, full_info=False):
            if event.type == "goal":
                goals += 1
                event = parse_event({**event.to_dict(), "mark": f"goal-{goals}"})
                entered[f"goal-{goals}"] = time.time() * 1000
            yield event
            if goals == 3:
                return

    live.run(live.pub.feed("1", table()))
    page.wait_for_function("Object.keys(window.__marks).length >= 3", timeout=5000)
    shown = page.evaluate("window.__marks")
    for mark, at in entered.items():
        assert shown[mark] - at < 1000, mark
    assert page.locator(".ticker li[data-type='goal']").count() >= 1
    page.close()


def test_tv_shows_goals_of_a_simulated_table_stream(ctx: Any, live: LivePub) -> None:
    page = _page(ctx, 1280, 720)
    page.goto(f"{live.url}/table/2")
    page.wait_for_selector(".nomatch")

    async def table() -> Any:  # a table whose stream brings its own set-up, as the demo's does
        yield parse_event({"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Cor", "p2": "Dirk"}})
        for t in (1.0, 3.0):
            await asyncio.sleep(0.05)
            yield parse_event({"t": t, "type": "goal", "goal": "A", "ball": "p2"})
            yield parse_event({"t": t + 1, "type": "rest"})

    live.run(live.pub.feed("2", table()))
    page.wait_for_selector(".player.p2 .balls[data-left='3']", timeout=10_000)
    assert page.locator(".player.p2.at").count() == 1  # scored: stays at the table
    assert page.inner_text(".clock")  # the turn clock runs from the rest
    page.close()


def test_tv_shows_the_pins_of_a_scenario_go_down_and_up(ctx: Any, live: LivePub) -> None:
    """tests/scenarios/kegle_pins.jsonl played on the simulated table, onto the TV."""
    from tablesense.events import Rest
    from tablesense.sim.scenario import load

    events = load(TESTS / "scenarios" / "kegle_pins.jsonl").play().events
    rest = next(i for i, e in enumerate(events) if isinstance(e, Rest))
    down = {e.pin for e in events[:rest] if e.type == "pin" and e.state == "down"}
    assert down  # the scenario topples pins
    page = _page(ctx)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector(".nomatch")
    for event in events[: rest + 1]:  # the shot, up to the balls at rest
        live.call(live.pub.submit, "1", event)
    page.wait_for_function(f"document.querySelectorAll('.pin.down').length === {len(down)}", timeout=10_000)
    shown = {int(x) for x in page.eval_on_selector_all(".pin.down", "els => els.map(e => e.dataset.pin)")}
    assert shown == down
    points = live.call(live.pub.snapshot, "1")["state"]["points"]["p1"]
    assert points == 2 * len(down)
    assert page.inner_text(".player.p1 .big") == str(points)
    for event in events[rest + 1:]:  # the referee sets the pins up again
        live.call(live.pub.submit, "1", event)
    page.wait_for_function("document.querySelectorAll('.pin.down').length === 0", timeout=10_000)
    page.close()


def test_tv_shows_a_ball_waiting_for_its_replacement_spot(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    live.call(live.pub.call, "1", {"call": "start", "player": "p1"})
    page = _page(ctx)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector(".player.p1 h2:has-text('Ann')")
    assert page.locator(".badge.spot").count() == 0
    for event in ({"t": 1.0, "type": "strike", "ball": "p1"}, {"t": 2.0, "type": "off_table", "ball": "p1"},
                  {"t": 3.0, "type": "rest"}):
        live.submit("1", **event)
    page.wait_for_selector(".badge.spot:has-text('Ann')", timeout=10_000)
    live.call(live.pub.call, "1", {"call": "spot", "ball": "p1", "spot": 1})  # Bob chooses spot 1
    page.wait_for_function("!document.querySelector('.badge.spot')", timeout=10_000)
    page.close()


def _ref_page(ctx: Any, live: LivePub, table: str = "1") -> Any:
    page = _page(ctx, 390, 844)  # a phone
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{live.url}/ref/{table}?token={live.pub.table(table).token}")
    return page


def test_referee_starts_a_match_and_corrects_a_shot(ctx: Any, live: LivePub) -> None:
    page = _ref_page(ctx, live)
    assert "token=" not in page.url  # the token leaves the address bar
    page.wait_for_selector("#setup[open]")
    page.click("#setup-form label:has-text('Golf billiards')")
    page.fill("input[name=p1]", "Ann")
    page.fill("input[name=p2]", "Bob")
    started = time.monotonic()
    page.click("#start-match")
    page.wait_for_selector("#now:has-text('Ann')", timeout=10_000)
    assert time.monotonic() - started < 30
    snap = live.call(live.pub.snapshot, "1")
    assert snap["match"]["players"] == {"p1": "Ann", "p2": "Bob"}
    for event in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"},
                  {"t": 3.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 4.0, "type": "rest"}):
        live.submit("1", **event)
    page.click("#shots summary")  # the list of shots, one tap away
    page.wait_for_selector(".shot >> nth=1")
    assert live.call(live.pub.snapshot, "1")["state"]["balls_left"]["p1"] == 3
    page.click(".shot:last-child button.void")  # the older shot: the list is newest first
    # it says what it takes back: the shot that counts, shot 1 now that the first is void (the
    # panel's "OK" of the start may still show for 2.5 s: it says nothing of the void)
    page.wait_for_function("document.querySelector('#c-undo').textContent === 'Undo shot 1'")
    state = live.call(live.pub.snapshot, "1")["state"]
    assert state["balls_left"]["p1"] == 4
    raw = live.call(live.pub.export_lines, snap["match"]["id"], True)
    assert json.loads(raw[-1])["call"] == "void"  # the log keeps the correction
    page.click("#c-undo")  # undo takes back the last shot that counts: the second
    page.wait_for_function("document.querySelectorAll('.shot').length === 2")  # the shot and the undo
    assert page.locator("#shots details[open]").count() == 1  # the list still open, as the referee left it
    assert live.call(live.pub.snapshot, "1")["state"]["balls_left"]["p1"] == 5
    page.close()


def test_the_list_of_shots_and_the_rarer_fouls_stay_open_while_the_next_shot_is_played(
        ctx: Any, live: LivePub) -> None:
    """The panel is drawn again at each shot: what the referee unfolded stays unfolded (was:
    the list of shots and the rarer fouls folded at each shot, under the referee's finger)."""
    _golf_start(live)
    page = _ref_page(ctx, live)
    page.wait_for_selector("body[data-ready]")
    page.click("#shots summary")
    page.click("#calls details.more summary")
    shots = page.locator("#shots .shot")
    before = shots.count()
    for event in ({"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"}, {"t": 2.0, "type": "rest"}):
        live.submit("1", **event)
    page.wait_for_function(f"document.querySelectorAll('#shots .shot').length > {before}", timeout=15_000)
    page.wait_for_function("document.querySelector('#c-undo').textContent === 'Undo shot 1'", timeout=15_000)
    assert page.locator("#shots details[open]").count() == 1
    assert shots.first.is_visible() and "Goal B" in shots.first.inner_text()  # the new shot, newest first
    assert page.locator("#calls details.more[open]").count() == 1
    page.click("#shots summary")  # and folded, it stays folded
    live.submit("1", t=3.0, type="goal", goal="B", ball="p1")
    live.submit("1", t=4.0, type="rest")
    page.wait_for_function("document.querySelector('#c-undo').textContent === 'Undo shot 2'", timeout=15_000)
    page.wait_for_function(f"document.querySelectorAll('#shots .shot').length > {before + 1}", timeout=15_000)
    assert page.locator("#shots details[open]").count() == 0 and not shots.first.is_visible()
    page.close()


def test_referee_answers_a_question(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    for event in ({"t": 1.0, "type": "goal", "goal": "B", "ball": None}, {"t": 2.0, "type": "rest"}):
        live.submit("1", **event)  # the beam saw a ball but not whose: the engine asks
    question = live.call(live.pub.snapshot, "1")["state"]["questions"][0]
    assert question["options"] == ["p1", "p2"]
    tv = _page(ctx)
    tv.goto(f"{live.url}/table/1")
    tv.wait_for_selector(".questions")  # the TV says it waits for the referee
    page = _ref_page(ctx, live)
    page.click(f"#questions [data-question='{question['id']}'] button >> nth=0")  # p1's ball
    page.wait_for_function("document.querySelector('#questions').children.length === 0")
    state = live.call(live.pub.snapshot, "1")["state"]
    assert state["questions"] == [] and state["balls_left"]["p1"] == 4
    tv.wait_for_selector(".player.p1 .balls[data-left='4']")
    assert tv.locator(".questions").count() == 0
    page.close()
    tv.close()


def test_unauthorised_change_is_refused(ctx: Any, live: LivePub) -> None:
    page = _page(ctx)
    page.goto(f"{live.url}/ref/1")  # no token: one message, and nothing to press
    page.wait_for_selector(".status.error:has-text('Scan the QR code')")
    assert page.locator("#start-match").is_disabled() and page.locator("input[name=p1]").is_disabled()
    refused = page.evaluate(
        """async () => (await fetch("/api/table/1/setup", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({game: "golf", players: {p1: "E", p2: "M"}})})).status""")
    assert refused == 403  # and the host refuses it all the same
    assert live.call(live.pub.snapshot, "1")["match"] is None
    # a page of another site posting with the token it somehow learnt: refused by origin
    other = _page(ctx)
    other.goto("about:blank")
    status = other.evaluate(
        """async ([url, token]) => {
            try {
              const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json",
                "X-Tablesense-Token": token},
                body: JSON.stringify({game: "golf", players: {p1: "E", p2: "M"}})});
              return r.status;
            } catch (e) { return "blocked"; }
        }""",
        [f"{live.url}/api/table/1/setup", live.pub.table("1").token],
    )
    assert status in (403, "blocked")
    assert live.call(live.pub.snapshot, "1")["match"] is None
    page.close()
    other.close()


def test_overlay_has_a_transparent_background(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    page = _page(ctx)
    page.goto(f"{live.url}/overlay/1")
    page.wait_for_selector(".player.p1")
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.locator(".qr").count() == 0
    page.close()


def test_language_per_table(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    live.call(live.pub.set_lang, "1", "da")
    page = _page(ctx)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector("header .table:has-text('Bord 1')")
    live.call(live.pub.set_lang, "1", "nl")
    page.wait_for_selector("header .table:has-text('Tafel 1')")
    page.close()


def test_a_wrong_token_is_refused_at_once(ctx: Any, live: LivePub) -> None:
    page = _page(ctx, 390, 844)
    page.goto(f"{live.url}/ref/1?token={live.pub.table('2').token}")  # table 2's code on table 1
    page.wait_for_selector(".status.error:has-text('cannot referee table 1')")
    assert page.locator("#start-match").is_disabled()
    page.close()


SPEECH_PROBE = """
window.__said = [];
const speak = speechSynthesis.speak.bind(speechSynthesis);
speechSynthesis.speak = (u) => { window.__said.push([u.text, u.lang]); speak(u); };
"""


def test_rulings_are_spoken_and_speech_switches_off(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    live.call(live.pub.set_lang, "1", "nl")
    page = _page(ctx)
    page.add_init_script(SPEECH_PROBE)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector("#speech.on")
    live.submit("1", t=1.0, type="goal", goal="B", ball="p1")
    live.submit("1", t=2.0, type="rest")
    page.wait_for_function("window.__said.length === 1")
    text, lang = page.evaluate("window.__said[0]")
    assert text == "Ann scoort, speelt door" and lang == "nl-NL"  # the last shot, in Dutch
    page.click("#speech")
    page.wait_for_selector("#speech.off")
    live.submit("1", t=3.0, type="goal", goal="B", ball="p1")
    live.submit("1", t=4.0, type="rest")
    page.wait_for_selector(".player.p1 .balls[data-left='3']")
    page.wait_for_selector("#lastshot.fresh")
    assert page.evaluate("window.__said.length") == 1  # switched off: shown, not spoken
    page.close()


def test_turn_clock_starts_by_itself_at_rest(ctx: Any, live: LivePub) -> None:
    _golf_start(live)
    page = _page(ctx)
    page.goto(f"{live.url}/table/1")
    page.wait_for_selector(".player.p1")
    assert page.inner_text("#clock") == ""  # no shot has ended yet
    live.submit("1", t=1.0, type="strike", ball="p1")
    live.submit("1", t=2.0, type="rest")
    page.wait_for_function("document.querySelector('#clock').textContent === '0:50'")
    page.wait_for_function("document.querySelector('#clock').textContent === '0:48'", timeout=4000)
    live.submit("1", t=5.0, type="strike", ball="p2")  # the next shot: the clock stops
    page.wait_for_function("document.querySelector('#clock').textContent === ''")
    page.close()


def test_referee_starts_a_carom_match_with_targets_and_counts_a_carom(ctx: Any, live: LivePub) -> None:
    page = _ref_page(ctx, live, "2")
    page.wait_for_selector("#setup[open]")
    page.click("#setup-form label:has-text('Carom')")
    page.click("#setup-form label:has-text('Three-cushion')")
    page.click("#setup-form label:has-text('liemers')")
    page.fill("input[name=p1]", "Joop")
    page.fill("input[name=p2]", "Kees")
    page.fill("input[name=t1]", "15")
    page.fill("input[name=t2]", "25")
    page.click("#start-match")
    page.wait_for_selector("#c-carom")
    state = live.call(live.pub.snapshot, "2")["state"]
    assert (state["discipline"], state["profile"], state["targets"]) == ("driebanden", "liemers",
                                                                         {"p1": 15, "p2": 25})
    live.submit("2", t=1.0, type="strike", ball="yellow")
    live.submit("2", t=2.0, type="rest")
    page.click("#c-carom")  # the referee saw a carom the sensors could not
    # p1's caroms, the main figure; "#now" holds "Inning 1" and the targets before the call lands
    page.wait_for_function(
        "document.querySelector('#now .who[data-player=p1] .main b')?.textContent === '1'")
    assert live.call(live.pub.snapshot, "2")["state"]["caroms"]["p1"] == 1
    page.close()


def test_overview_lists_the_tables_in_number_order(browser: Any, tmp_path: Path) -> None:
    pub = LivePub(str(tmp_path / "ten.db"), [str(n) for n in range(1, 12)])
    context = browser.new_context()
    try:
        page = _page(context)
        page.goto(f"{pub.url}/")
        page.wait_for_function("document.querySelectorAll('.card').length === 11")
        order = page.eval_on_selector_all(".card", "els => els.map(e => e.dataset.table)")
        assert order == [str(n) for n in range(1, 12)]  # table 10 after table 9, not after table 1
    finally:
        context.close()
        pub.close()
