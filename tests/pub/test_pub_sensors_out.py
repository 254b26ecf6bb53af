"""A match that goes on when the sensors do not: the pub's side (``Pub.link_status``,
``enter_by_hand``, the board's replay merged, ``answer_sensors``), over a real SQLite match
log and the real rule engines, and the referee's API that the panel uses.

The table's feed is the test's (the events and link statuses ``tablesense.link.table_items``
and ``run``'s status callback give the pub); the browser test with the real firmware behind
a cut cable is tests/browser/test_browser_sensors_out.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tablesense.errors import BadEvent, IllegalCall
from tablesense.events import parse_event
from tablesense.link import LinkStatus
from tablesense.pub import Pub
from tablesense.store import Store, effective_lines

SETUPS = {
    "golf": {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
    "kegle": {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 100},
    "carom": {"game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"}},
}
STEP = 0.15  # seconds between the test's taps: the table's clock moves on between them
#: seconds from a rest to the next shot: longer than the settle window (half the profile's quiet
#: time, 0.75 s for golf), in which a goal would be the last shot's ball dropping off the edge
NEXT_SHOT = 0.9


class Table:
    """A pub's table with the test as its link."""

    def __init__(self, tmp_path: Path, game: str | None) -> None:
        """A pub over ``tmp_path``'s match log; ``game``: start a match of it (None: the host
        restarted, the log's match goes on)."""
        self.pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
        self.pub.check_s = 0.3  # the board's record is checked this long after it is back
        self.tab = self.pub.table("1")
        if game is not None:
            self.pub.start_match("1", SETUPS[game])
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self.pub.feed("1", self._items()))

    async def _items(self) -> AsyncIterator[Any]:
        while (item := await self.queue.get()) is not None:
            yield item

    async def link(self, *items: Any) -> None:
        """The link hands the pub these events and statuses; returns once it has taken them."""
        for item in items:
            self.queue.put_nowait(parse_event(item) if isinstance(item, dict) else item)
        while not self.queue.empty():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)

    async def cut(self) -> None:
        if self.lines() and self.lines()[-1]["type"] == "rest":
            await asyncio.sleep(NEXT_SHOT)  # the next shot is played after the cut
        await self.link(LinkStatus("disconnected", "socket://...: silent for 3.5 s"))

    async def back(self) -> None:
        await self.link(LinkStatus("hello", "firmware 0.3.0, profile golf"))

    async def hand(self, **event: Any) -> None:
        last = self.lines()[-1]["type"] if self.lines() else None
        await asyncio.sleep(NEXT_SHOT if last == "rest" and event["type"] != "rest" else STEP)
        await self.pub.enter_by_hand("1", event)

    def now(self) -> float:
        return self.tab.table_time()

    async def checked(self) -> dict[str, Any]:
        await asyncio.sleep(self.pub.check_s + 0.3)
        return self.pub.snapshot("1")

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(e.line) for e in effective_lines(self.tab.log)[1:]]

    def state(self) -> dict[str, Any]:
        return self.pub.snapshot("1")["state"]

    async def close(self) -> None:
        self.queue.put_nowait(None)
        await self.task
        self.pub.store.close()


@pytest.fixture
async def golf(tmp_path: Path) -> AsyncIterator[Table]:
    table = Table(tmp_path, "golf")
    yield table
    await table.close()


def kinds(lines: list[dict[str, Any]]) -> list[str]:
    return [f"{e['type']}{'*' if e.get('by_hand') else ''}" for e in lines]


async def test_the_table_says_its_sensors_are_out_while_the_board_is_silent_and_back_when_heard(
        golf: Table) -> None:
    assert golf.pub.snapshot("1")["sensors"]["link"] is None  # not heard of yet
    await golf.back()
    assert golf.pub.snapshot("1")["sensors"]["link"] == "up"
    await golf.cut()
    out = golf.pub.snapshot("1")["sensors"]
    assert out["link"] == "out" and out["since"] is not None
    await golf.link(LinkStatus("reconnected", "socket://... open"))  # the port opens, the board unheard
    assert golf.pub.snapshot("1")["sensors"]["link"] == "out"
    await golf.back()
    assert golf.pub.snapshot("1")["sensors"]["link"] == "up"


@pytest.mark.parametrize("game,events,figure", [
    ("golf", [{"type": "goal", "goal": "B", "ball": "p1"}, {"type": "rest"}],
     ("balls_left", {"p1": 4, "p2": 5})),
    ("kegle", [{"type": "pin", "pin": 3, "state": "down"}, {"type": "rest"}], ("points", {"p1": 2, "p2": 0})),
    ("kegle", [{"type": "pocket", "pocket": 2, "ball": "white"}, {"type": "rest"}], ("at_table", "p2")),
    ("carom", [{"type": "cushion", "cushion": 1}, {"type": "rest"}], ("innings", {"p1": 1, "p2": 0})),
])
async def test_a_whole_shot_entered_by_hand_while_the_sensors_are_out(tmp_path: Path, game: str,
                                                                     events: list[dict[str, Any]],
                                                                     figure: tuple[str, Any]) -> None:
    table = Table(tmp_path, game)
    try:
        await table.back()
        await table.cut()
        for ev in events:
            await table.hand(**ev)
        key, want = figure
        assert table.state()[key] == want
        assert kinds(table.lines()) == [f"{e['type']}*" for e in events]  # marked: entered by hand
        assert all(e["t"] > 0 for e in table.lines())  # stamped with the table's clock
    finally:
        await table.close()


async def test_the_boards_replay_of_what_was_entered_by_hand_is_not_doubled(golf: Table) -> None:
    await golf.link({"t": 1.0, "type": "goal", "goal": "A", "ball": "p2"}, {"t": 2.0, "type": "rest"})
    await golf.cut()
    t0 = golf.now()
    await golf.hand(type="goal", goal="B", ball="p1")
    await golf.hand(type="rest")
    await golf.hand(type="goal", goal="B", ball="p1")
    await golf.back()
    # the board kept its frames: the same shots, stamped when the ball dropped (before the taps)
    await golf.link({"t": t0 + 0.05, "type": "goal", "goal": "B", "ball": "p1"},
                    {"t": t0 + 0.1, "type": "rest"},
                    {"t": t0 + 0.3, "type": "goal", "goal": "B", "ball": "p1"})
    snap = await golf.checked()
    assert kinds(golf.lines()) == ["goal", "rest", "goal*", "rest*", "goal*"]
    assert snap["state"]["balls_left"] == {"p1": 3, "p2": 4}
    assert snap["sensors"]["questions"] == [] and not snap["sensors"]["checking"]
    assert snap["ticker"][-1]["type"] == "sensors" and snap["ticker"][-1]["same"] == 3
    await golf.hand(type="rest")  # the shot goes on by hand until the referee ends it
    # the board talks again: its next goal is applied as ever
    await golf.link({"t": golf.now() + 1, "type": "goal", "goal": "A", "ball": "p2"})
    assert kinds(golf.lines())[-1] == "goal"


async def test_a_goal_the_board_saw_and_the_referee_did_not_enter_is_asked_and_added_in_its_shot(
        golf: Table) -> None:
    await golf.link({"t": 1.0, "type": "rest"})
    await golf.cut()
    t0 = golf.now()
    await golf.hand(type="goal", goal="B", ball="p1")
    await golf.hand(type="rest")
    await golf.hand(type="goal", goal="A", ball="p2")  # Ann missed, Bob's shot
    await golf.hand(type="rest")
    await golf.back()
    await golf.link({"t": t0 + 0.1, "type": "goal", "goal": "B", "ball": "p1"},
                    {"t": t0 + 0.2, "type": "goal", "goal": "B", "ball": "p1"},  # a second one: not entered
                    {"t": t0 + 0.25, "type": "rest"},
                    {"t": t0 + 0.4, "type": "goal", "goal": "A", "ball": "p2"},
                    {"t": t0 + 0.55, "type": "rest"})
    snap = await golf.checked()
    (q,) = snap["sensors"]["questions"]
    assert q["kind"] == "board" and q["board"]["goal"] == "B" and q["board"]["ball"] == "p1"
    assert snap["state"]["balls_left"] == {"p1": 4, "p2": 4}
    await golf.pub.answer_sensors("1", q["id"], True)
    snap = golf.pub.snapshot("1")
    # the second goal joins Ann's shot, at its time: she scored twice and played on
    assert kinds(golf.lines()) == ["rest", "goal", "goal*", "rest*", "goal*", "rest*"]
    assert snap["state"]["balls_left"] == {"p1": 3, "p2": 4}
    assert snap["sensors"]["questions"] == []
    raw = [json.loads(e.line) for e in golf.tab.log]
    assert any(e.get("call") == "void" for e in raw), "the correction is in the log, nothing deleted"
    assert golf.tab.replay.errors == []


async def test_another_ball_is_asked_and_the_answer_is_applied(golf: Table) -> None:
    await golf.link({"t": 1.0, "type": "rest"})
    await golf.cut()
    t0 = golf.now()
    await golf.hand(type="goal", goal="B", ball="p2")  # Bob's ball, by the referee
    await golf.hand(type="rest")
    await golf.back()
    await golf.link({"t": t0 + 0.1, "type": "goal", "goal": "B", "ball": "p1"},
                    {"t": t0 + 0.2, "type": "rest"})
    snap = await golf.checked()
    (q,) = snap["sensors"]["questions"]
    assert q["kind"] == "other" and q["options"] == ["hand", "board", "both"]
    # as entered until answered: Bob's ball in the goal he defends (an own goal, no ball off)
    assert snap["state"]["balls_left"] == {"p1": 5, "p2": 5}
    assert snap["state"]["rulings"][-1]["rule"] == "golf.own-goal"
    await golf.pub.answer_sensors("1", q["id"], "board")
    assert kinds(golf.lines()) == ["rest", "goal", "rest*"]
    assert golf.state()["balls_left"] == {"p1": 4, "p2": 5}


async def test_a_hand_entry_the_board_did_not_see_is_kept_or_taken_out_as_the_referee_says(
        golf: Table) -> None:
    await golf.link({"t": 1.0, "type": "rest"})
    await golf.cut()
    await golf.hand(type="goal", goal="A", ball="p1")  # Ann's own goal? the referee thought so
    await golf.hand(type="rest")
    await golf.back()
    snap = await golf.checked()
    (q,) = snap["sensors"]["questions"]
    assert q["kind"] == "hand" and q["hand"]["by_hand"] is True
    with pytest.raises(IllegalCall, match="the answer is one of"):
        await golf.pub.answer_sensors("1", q["id"], "board")
    await golf.pub.answer_sensors("1", q["id"], False)
    assert kinds(golf.lines()) == ["rest", "rest*"]
    assert golf.state()["balls_left"] == {"p1": 5, "p2": 5}
    with pytest.raises(IllegalCall, match="no open question"):
        await golf.pub.answer_sensors("1", q["id"], False)


async def test_frames_lost_while_out_leave_the_hand_record_unasked(golf: Table) -> None:
    await golf.cut()
    await golf.hand(type="goal", goal="B", ball="p1")
    await golf.link(LinkStatus("lost", "frames 10..40 lost for good"))
    await golf.back()
    snap = await golf.checked()
    assert snap["sensors"]["questions"] == [] and snap["ticker"][-1]["lost"] is True


async def test_while_the_board_talks_a_tap_of_what_it_reported_is_refused(golf: Table) -> None:
    await golf.back()
    await golf.link({"t": golf.now(), "type": "goal", "goal": "B", "ball": "p1"})
    with pytest.raises(IllegalCall, match="the board reported this goal already"):
        await golf.pub.enter_by_hand("1", {"type": "goal", "goal": "B", "ball": "p1"})
    await golf.hand(type="goal", goal="A", ball="p2")  # one the board missed: the referee's choice
    assert kinds(golf.lines()) == ["goal", "goal*"]


async def test_what_a_game_does_not_offer_and_what_its_rules_refuse_are_refused_with_nothing_logged(
        golf: Table) -> None:
    with pytest.raises(BadEvent, match="are goal, rest"):
        await golf.pub.enter_by_hand("1", {"type": "pin", "pin": 2, "state": "down"})
    with pytest.raises(BadEvent, match="needs 'ball'"):
        await golf.pub.enter_by_hand("1", {"type": "goal", "goal": "A"})
    assert golf.lines() == []


async def test_the_panels_api_takes_a_tap_and_an_answer_with_the_token_only(app: Any) -> None:
    pub, url, http = app
    pub.check_s = 0.2
    tid = "1"
    token = pub.table(tid).token
    pub.start_match(tid, SETUPS["golf"])
    pub.link_status(tid, LinkStatus("disconnected", "silent"))
    h = {"X-Tablesense-Token": token}
    r = await http.post(f"{url}/api/table/{tid}/event", json={"type": "goal", "goal": "B", "ball": "p1"})
    assert r.status == 403
    goal = {"type": "goal", "goal": "B", "ball": "p1"}
    r = await http.post(f"{url}/api/table/{tid}/event", json=goal, headers=h)
    assert r.status == 200, await r.text()
    r = await http.post(f"{url}/api/table/{tid}/event", json={"type": "goal", "goal": "C"}, headers=h)
    assert r.status == 400 and "needs 'goal'" in (await r.json())["error"]
    r = await http.post(f"{url}/api/table/{tid}/sensors", json={"question": "s9", "answer": True}, headers=h)
    assert r.status == 400 and "no open question" in (await r.json())["error"]
    r = await http.post(f"{url}/api/table/{tid}/sensors", json={"answer": True}, headers=h)
    assert r.status == 400
    snap = await (await http.get(f"{url}/api/table/{tid}")).json()
    assert snap["sensors"]["link"] == "out" and snap["state"]["balls_left"]["p1"] == 4
    panel = await (await http.get(f"{url}/api/table/{tid}/panel")).json()
    goals = [b for g in panel["by_hand"]["groups"] for b in g["buttons"]]
    assert [b["label"] for b in goals] == ["Goal A · Ann's ball", "Goal A · Bob's ball",
                                           "Goal B · Ann's ball", "Goal B · Bob's ball"]
    assert panel["by_hand"]["rest"]["event"] == {"type": "rest"}
    # the board back, having seen none of it: the referee is asked, in the table's words
    pub.link_status(tid, LinkStatus("hello", "board"))
    await asyncio.sleep(0.6)
    snap = await (await http.get(f"{url}/api/table/{tid}")).json()
    (q,) = snap["view"]["sensor_questions"]
    assert "Goal B · Ann's ball was entered by hand; the sensors did not see it. Keep it?" in q["text"]
    assert [o["label"] for o in q["options"]] == ["Keep it", "Take it out"]
    answer = {"question": q["id"], "answer": True}
    r = await http.post(f"{url}/api/table/{tid}/sensors", json=answer, headers=h)
    assert r.status == 200
    snap = await (await http.get(f"{url}/api/table/{tid}")).json()
    assert snap["view"]["sensor_questions"] == [] and snap["state"]["balls_left"]["p1"] == 4


async def test_a_host_restarted_while_the_sensors_were_out_merges_the_replay_with_the_hand_entries(
        tmp_path: Path) -> None:
    first = Table(tmp_path, "golf")
    await first.link({"t": 1.0, "type": "rest"})
    await first.cut()
    t0 = first.now()
    await first.hand(type="goal", goal="B", ball="p1")
    await first.hand(type="rest")
    await first.close()  # the host goes down while the board is silent
    again = Table(tmp_path, None)
    try:
        await again.back()  # the board replays from the last checkpoint: the goal the referee entered
        await again.link({"t": t0 + 0.1, "type": "goal", "goal": "B", "ball": "p1"},
                         {"t": t0 + 0.3, "type": "rest"})
        snap = await again.checked()
        assert kinds(again.lines()) == ["rest", "goal*", "rest*"]
        assert snap["state"]["balls_left"] == {"p1": 4, "p2": 5} and snap["sensors"]["questions"] == []
    finally:
        await again.close()


async def test_a_goal_entered_by_hand_and_undone_leaves_the_boards_goal_to_be_asked(golf: Table) -> None:
    await golf.link({"t": 1.0, "type": "rest"})
    await golf.cut()
    t0 = golf.now()
    await golf.hand(type="goal", goal="B", ball="p1")
    await golf.hand(type="rest")
    await golf.pub.call_async("1", {"call": "undo"})  # the referee takes the shot back
    assert golf.state()["balls_left"] == {"p1": 5, "p2": 5}
    await golf.back()
    await golf.link({"t": t0 + 0.1, "type": "goal", "goal": "B", "ball": "p1"},
                    {"t": t0 + 0.3, "type": "rest"})
    snap = await golf.checked()
    (q,) = snap["sensors"]["questions"]
    assert q["kind"] == "board" and q["board"]["ball"] == "p1"  # not dropped as the undone tap's twin
    await golf.pub.answer_sensors("1", q["id"], True)
    assert golf.state()["balls_left"] == {"p1": 4, "p2": 5}


async def test_keglebillard_another_pin_and_both_happened(tmp_path: Path) -> None:
    table = Table(tmp_path, "kegle")
    try:
        await table.link({"t": 1.0, "type": "rest"})
        await table.cut()
        t0 = table.now()
        await table.hand(type="pin", pin=2, state="down")  # the referee saw pin 2 fall
        await table.hand(type="rest")
        await table.back()
        await table.link({"t": t0 + 0.1, "type": "pin", "pin": 3, "state": "down"},  # the board saw pin 3
                         {"t": t0 + 0.3, "type": "rest"})
        snap = await table.checked()
        (q,) = snap["sensors"]["questions"]
        assert q["kind"] == "other" and q["hand"]["pin"] == 2 and q["board"]["pin"] == 3
        assert snap["state"]["points"] == {"p1": 0, "p2": 2}  # Bob's shot (Ann's was the empty one)
        await table.pub.answer_sensors("1", q["id"], "both")  # both fell
        state = table.state()
        assert state["points"] == {"p1": 0, "p2": 4} and sorted(state["pins_down"]) == [2, 3]
        assert kinds(table.lines()) == ["rest", "pin", "pin*", "rest*"]
    finally:
        await table.close()
