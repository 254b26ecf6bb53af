"""The sensors out, in chromium: the TV says so, the referee panel offers the sensor events as
buttons, play goes on by hand, and the board's replay is merged when it is back.

Golf is played on the real firmware under MicroPython's unix port behind the soak's cable
(tests/soak/board.py: a relay between the firmware's pty and a TCP port that can be cut),
read by ``tablesense run --serial socket://...`` as a pub reads a table. Keglebillard and
carom are played on the pub in the test's process (``LivePub``); their link is told out by
the status the link gives when the board goes silent (``LinkStatus("disconnected")``), as
``run`` passes it on.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import apart, axe_violations, box, clipped, describe
from soak.board import Board
from soak.tables import quick_profile
from test_browser import LivePub, _page

from tablesense.link import LinkStatus

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV_CODE = "bar-tv-1"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cable:
    """The golf table's board and its cable, on an event loop of their own."""

    def __init__(self, workdir: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.toml, board_json, _ = quick_profile(workdir / "profiles", "golf")
        self.board = Board("golf-1", board_json, workdir, random.Random(1))
        asyncio.run_coroutine_threadsafe(self.board.start(), self.loop).result(20)

    def call(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` on the cable's loop (the relay's reader and the board's clock live there)."""
        async def go() -> Any:
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    def goal(self, ch: int, colour: int) -> None:
        """A ball through a goal's beam (ch 0: A, 1: B), its colour (1: p1, 2: p2) read in the chute."""
        due = time.monotonic() + 0.1
        self.call(self.board.feed, [(due, {"ch": ch, "level": 1}),
                                    (due + 0.001, {"ch": ch, "colour": colour}),
                                    (due + 0.04, {"ch": ch, "level": 0})])

    def cut(self) -> None:
        """A broken wire: no byte either way until ``mend`` (the host hears nothing, not even a heartbeat)."""
        self.call(self.board.cut, 3600.0, "silent")

    def mend(self) -> None:
        def go() -> None:
            self.board.cut_until = 0.0
        self.call(go)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.board.stop(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Pub:
    """``tablesense run`` on the cable's far end, its web app on a free port."""

    def __init__(self, cmd: list[str], cable: Cable, workdir: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.err = workdir / "run.stderr"
        argv = [*cmd, "run", "--serial", cable.board.url, "--profile", str(cable.toml), "--http",
                f"127.0.0.1:{self.port}", "--db", str(workdir / "pub.db"), "--tv-code", TV_CODE]
        with open(self.err, "wb") as err:
            self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL,
                                         start_new_session=True, text=True)
        lines = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            lines.append(line)
            if "phones:" in line:
                break
        found = re.search(r"referee \S+/ref/1\?token=(\S+)", "".join(lines))
        assert found, "".join(lines) + self.err.read_text()
        self.token = found.group(1)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        headers = {"Content-Type": "application/json", "X-Tablesense-Token": self.token}
        req = urllib.request.Request(f"{self.url}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers=headers)
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def snap(self) -> dict[str, Any]:
        return self.get("/api/table/1")  # type: ignore[no-any-return]

    def wait(self, what: str, ok: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snap()
            if ok(snap):
                return snap
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {timeout:g} s; sensors {snap.get('sensors')}, "
                            f"ticker {snap.get('ticker')[-4:]}\n{self.err.read_text()[-3000:]}")
            time.sleep(0.1)

    def lines(self, match: int) -> list[dict[str, Any]]:
        with urllib.request.urlopen(f"{self.url}/match/{match}.jsonl", timeout=10) as r:
            return [json.loads(x) for x in r.read().decode().splitlines()]

    def stop(self) -> str:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.err.read_text()


@pytest.fixture
def golf_table(tmp_path: Path, tablesense_cmd: list[str]) -> Iterator[tuple[Cable, Pub]]:
    cable = Cable(tmp_path)
    pub = None
    try:
        pub = Pub(tablesense_cmd, cable, tmp_path)
        yield cable, pub
    finally:
        err = pub.stop() if pub is not None else ""
        cable.close()
        assert "Traceback" not in err, err


def _goal_record(cable: Cable, pub: Pub) -> str:
    """What the board wrote of goal B (each beam edge and colour reading: its value, its
    device time in ms), the host's questions and its stderr: whether the sensors named the
    ball in time (a READING within the link's 50 ms of the edge) when the question did not."""
    frames = "; ".join(f"{r.kind} {r.value} at {r.t_us / 1000:.1f}" for b in cable.board.boots
                       for r in sorted(b.frames.values(), key=lambda r: r.seq) if r.ch == 1)
    questions = pub.snap()["sensors"]["questions"]
    return f"the host's questions: {questions}\nthe board wrote: {frames}\n{pub.err.read_text()[-3000:]}"


def _balls(snap: dict[str, Any]) -> dict[str, int] | None:
    state = snap.get("state") or {}
    return state.get("balls_left")


def test_a_golf_match_goes_on_by_hand_while_the_cable_is_cut_and_the_boards_replay_is_merged(
        browser: Any, golf_table: tuple[Cable, Pub], out: Path) -> None:
    cable, pub = golf_table
    pub.wait("the board heard", lambda s: s["sensors"]["link"] == "up")
    match = pub.post("/api/table/1/setup", {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}})["match"]
    ctx = browser.new_context()
    try:
        tv = _page(ctx, 1280, 720)
        tv.goto(f"{pub.url}/table/1?tv={TV_CODE}")
        tv.wait_for_selector(".player.p1 h2:has-text('Ann')")
        ref = _page(ctx, 390, 844)
        ref.on("dialog", lambda d: d.accept())
        ref.goto(f"{pub.url}/ref/1?token={pub.token}")
        ref.wait_for_selector("body[data-ready]")
        # shot 1, the sensors at work: Ann's ball into goal B
        cable.goal(1, 1)
        pub.wait("shot 1", lambda s: _balls(s) == {"p1": 4, "p2": 5} and s["ticker"][-1]["type"] == "rest")
        assert ref.locator("#sensors button.hand").count() == 0  # no sensor buttons while the board talks
        assert ref.locator("#by-hand details:not([open])").count() == 1  # only folded, the referee's choice
        time.sleep(1.0)

        cable.cut()  # the wire breaks: the board goes on recording, the host hears nothing
        tv.wait_for_selector(".notice.sensors-out", timeout=15000)
        assert "Sensors out — the referee enters the table's events" in tv.inner_text(".notice.sensors-out")
        ref.wait_for_selector("#sensors .sensors-out")
        assert ref.locator("#sensors button.hand").count() == 5  # each goal with whose ball, and the rest
        _board_whole(tv)

        # shot 2: Ann scores again; the board sees it, the referee taps it
        cable.goal(1, 1)
        time.sleep(0.6)
        ref.get_by_role("button", name="Goal B · Ann's ball").click()
        pub.wait("the goal by hand", lambda s: _balls(s) == {"p1": 3, "p2": 5})
        ref.get_by_role("button", name="Balls at rest — end of the shot").click()
        pub.wait("the rest by hand", lambda s: s["ticker"][-1]["type"] == "rest")
        tv.wait_for_selector(".player.p1 .balls[data-left='3']")
        assert "(by hand)" in tv.inner_text(".ticker li[data-type='goal']")
        time.sleep(1.5)
        # shot 3: Ann's ball into B again; the referee misses the goal and taps only the rest
        cable.goal(1, 1)
        time.sleep(1.2)
        ref.get_by_role("button", name="Balls at rest — end of the shot").click()
        pub.wait("the second rest by hand", lambda s: sum(1 for e in s["ticker"] if e["type"] == "rest") >= 3)
        assert _balls(pub.snap()) == {"p1": 3, "p2": 5}

        cable.mend()  # the board is heard again and replays what it kept
        tv.wait_for_selector(".notice.sensors-out", state="detached", timeout=20000)
        ref.wait_for_selector("#sensors [data-sensor-question]", timeout=30000)
        question = ref.inner_text("#sensors [data-sensor-question]")
        assert re.search(r"At \d\d:\d\d:\d\d the sensors saw Goal B · Ann's ball, which was not entered\. "
                         r"Did it happen\?", question), f"{question}\n{_goal_record(cable, pub)}"
        tv.wait_for_selector(".questions.sensors")
        ref.screenshot(path=str(out / "sensors-question-golf.png"), full_page=True)
        snap = pub.snap()
        assert _balls(snap) == {"p1": 3, "p2": 5}, "the goal entered by hand is not doubled by the replay"
        note = [e for e in snap["ticker"] if e["type"] == "sensors"]
        assert note and note[-1]["asked"] == 1 and note[-1]["same"] >= 2, snap["ticker"]
        ref.get_by_role("button", name="Yes, add it").click()
        pub.wait("the answer", lambda s: _balls(s) == {"p1": 2, "p2": 5} and not s["sensors"]["questions"])
        tv.wait_for_selector(".player.p1 .balls[data-left='2']")
        assert ref.locator("#sensors [data-sensor-question]").count() == 0

        goals = [e for e in pub.lines(match) if e["type"] == "goal"]
        assert [(e["goal"], e["ball"], bool(e.get("by_hand"))) for e in goals] == [
            ("B", "p1", False), ("B", "p1", True), ("B", "p1", False)]  # each real goal once
        times = [e["t"] for e in pub.lines(match)]
        assert times == sorted(times), "the board's goal went in at its time"
    finally:
        ctx.close()


# --- keglebillard and carom: a whole shot by hand on the panel ----------------------------------

@pytest.fixture
def live(tmp_path: Path) -> Iterator[LivePub]:
    pub = LivePub(str(tmp_path / "pub.db"), ["1"])
    yield pub
    pub.close()


def _out(live: LivePub) -> None:
    """The table's board goes silent: the status the link gives after the heartbeat's limit."""
    live.call(live.pub.link_status, "1", LinkStatus("disconnected", "socket://127.0.0.1:9: silent for 3.5 s"))


def _panel(browser: Any, live: LivePub) -> tuple[Any, Any, Any]:
    ctx = browser.new_context()
    tv = _page(ctx, 1280, 720)
    tv.goto(f"{live.url}/table/1")
    ref = _page(ctx, 390, 844)
    ref.goto(f"{live.url}/ref/1?token={live.pub.table('1').token}")
    ref.wait_for_selector("body[data-ready]")
    return ctx, tv, ref


def _board_whole(tv: Any) -> None:
    """The banner takes a row of its own: nothing of the board is cut or covered, on a TV of
    either size."""
    for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        tv.set_viewport_size(size)
        tv.wait_for_timeout(200)
        assert clipped(tv, ".player, .player h2, .centre, .notice, .lastshot") == [], size
        banner = box(tv, ".notice.sensors-out")
        assert all(apart(banner, box(tv, sel)) for sel in (".player.p1", ".player.p2", ".centre")), size
    tv.set_viewport_size({"width": 1280, "height": 720})


def _tap(live: LivePub, ref: Any, name: str) -> None:
    before = live.call(lambda: live.pub.table("1").version)
    ref.get_by_role("button", name=name, exact=True).click()
    deadline = time.monotonic() + 5
    while live.call(lambda: live.pub.table("1").version) == before:
        assert time.monotonic() < deadline, ref.inner_text("#status")
        time.sleep(0.02)
    time.sleep(0.25)  # the table's clock moves on between taps


def test_a_keglebillard_shot_by_hand_in_danish(browser: Any, live: LivePub, out: Path) -> None:
    live.call(live.pub.start_match, "1",
              {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 100})
    live.call(live.pub.set_lang, "1", "da")
    ctx, tv, ref = _panel(browser, live)
    try:
        _out(live)
        tv.wait_for_selector(".notice.sensors-out:has-text('Sensorerne er ude')")
        ref.wait_for_selector("#sensors .sensors-out")
        assert ref.locator("#sensors h3").all_inner_texts() == ["Kegle væltet", "Kegle rejst", "Rød i et hul",
                                                                "Hvid i et hul"]
        _tap(live, ref, "Kegle 3 væltet")
        _tap(live, ref, "Kegle 5 væltet")
        _tap(live, ref, "Kuglerne ligger stille — stødet er slut")
        ref.screenshot(path=str(out / "sensors-out-panel-kegle-da.png"), full_page=True)
        tv.screenshot(path=str(out / "sensors-out-tv-kegle-da.png"))
        _board_whole(tv)
        assert axe_violations(tv) == [], describe(axe_violations(tv))
        assert axe_violations(ref) == [], describe(axe_violations(ref))
        overview = _page(ctx, 1920, 1080)  # the bar's overview: the table's card says it too
        overview.goto(f"{live.url}/")
        overview.wait_for_selector(".card .told.sensors-out:has-text('Sensorerne er ude')")
        assert axe_violations(overview) == [], describe(axe_violations(overview))
        state = live.call(live.pub.snapshot, "1")["state"]
        assert state["points"] == {"p1": 4, "p2": 0} and state["pins_down"] == [3, 5]
        tv.wait_for_selector(".pin.down[data-pin='3']")
        # the pin referee sets them up, the next shot pots the white: Bob's turn
        _tap(live, ref, "Kegle 3 rejst")
        _tap(live, ref, "Kegle 5 rejst")
        time.sleep(1.0)
        _tap(live, ref, "Hul 2 · Hvid")
        _tap(live, ref, "Kuglerne ligger stille — stødet er slut")
        assert live.call(live.pub.snapshot, "1")["state"]["at_table"] == "p2"
        lines = [json.loads(e.line) for e in live.pub.table("1").log[1:]]
        assert all(e.get("by_hand") is True for e in lines), lines
    finally:
        ctx.close()


def test_a_carom_shot_by_hand_and_the_referees_choice_while_the_board_talks(
        browser: Any, live: LivePub) -> None:
    live.call(live.pub.start_match, "1",
              {"game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"}})
    ctx, tv, ref = _panel(browser, live)
    try:
        live.call(live.pub.link_status, "1", LinkStatus("hello", "firmware 0.3.0, profile carom"))
        ref.wait_for_selector("#by-hand details")
        assert ref.locator("#by-hand button.hand").first.is_visible() is False  # folded while the board talks
        ref.click("#by-hand summary")  # a cushion piezo misbehaves: the referee opens them himself
        assert ref.locator("#by-hand button.hand").count() == 5
        _out(live)
        tv.wait_for_selector(".notice.sensors-out")
        ref.wait_for_selector("#sensors .sensors-out")
        _tap(live, ref, "Cushion 1")
        _tap(live, ref, "Cushion 3")
        _tap(live, ref, "Balls at rest — end of the shot")
        _tap(live, ref, "+1 carom")
        state = live.call(live.pub.snapshot, "1")["state"]
        assert state["caroms"] == {"p1": 1, "p2": 0} and state["at_table"] == "p1"
        _board_whole(tv)
        tv.wait_for_selector(".player.p1 .big:has-text('1')")
    finally:
        ctx.close()
