"""The pub runtime: log first, then apply; rebuilt by replay; referee calls and corrections."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from tablesense.errors import BadEvent, IllegalCall
from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store, StoreError

PLAYERS = {"p1": "Ann", "p2": "Bob"}


def ev(**kw: object):  # type: ignore[no-untyped-def]
    return parse_event(kw)


def shot(t: float, *events: dict) -> list:  # type: ignore[type-arg]
    return [ev(t=t + i * 0.1, **e) for i, e in enumerate(events)] + [ev(t=t + 1, type="rest")]


@pytest.fixture
def pub(tmp_path: Path) -> Pub:
    return Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])


def _state(pub: Pub, table: str = "1") -> dict:  # type: ignore[type-arg]
    snap = pub.snapshot(table)
    assert snap["state"] is not None
    return snap["state"]


def test_referee_starts_a_match_and_sensor_goals_count(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    for e in shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"}):
        pub.submit("1", e)
    state = _state(pub)
    assert state["balls_left"] == {"p1": 4, "p2": 5}
    assert state["rulings"][-1]["rule"] == "golf.goal"
    assert pub.snapshot("1")["match"]["players"] == PLAYERS
    assert pub.snapshot("2")["match"] is None  # the other table is untouched


def test_every_event_is_logged_before_it_shows(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    events = shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"})
    for e in events:
        pub.submit("1", e)
    match_id = pub.snapshot("1")["match"]["id"]
    logged = [json.loads(e.line) for e in pub.store.events(match_id)]
    assert [x["type"] for x in logged] == ["setup", "goal", "rest"]
    assert logged[1] == events[0].to_dict()


def test_restart_rebuilds_the_same_state_from_the_log(tmp_path: Path) -> None:
    db = str(tmp_path / "pub.db")
    pub = Pub(Store(db), ["1"])
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    for e in shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"}) + shot(3.0, {"type": "goal", "goal": "A",
                                                                                  "ball": "p1"}):
        pub.submit("1", e)
    before = _state(pub)
    again = Pub(Store(db), ["1"])
    assert _state(again) == before
    assert again.table("1").seq == pub.table("1").seq
    kinds = [x["type"] for x in pub.snapshot("1")["ticker"]]
    assert [x["type"] for x in again.snapshot("1")["ticker"]] == kinds


def test_refused_referee_call_is_not_logged(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    with pytest.raises(IllegalCall, match="no open question 'q9'"):
        pub.call("1", {"call": "answer", "question": "q9", "answer": True})
    with pytest.raises(BadEvent):
        pub.call("1", {"call": "start", "player": "p7"})
    assert len(pub.store.events(pub.snapshot("1")["match"]["id"])) == 1


def test_calls_need_a_running_match(pub: Pub) -> None:
    with pytest.raises(IllegalCall, match="no match is running"):
        pub.call("1", {"call": "undo"})


def test_bad_setup_from_the_referee_is_refused(pub: Pub) -> None:
    with pytest.raises(BadEvent, match="players"):
        pub.start_match("1", {"game": "golf", "players": {"p1": "Ann"}})
    assert pub.snapshot("1")["match"] is None


def test_undo_call_is_logged_and_takes_back_the_last_shot(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    for e in shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"}):
        pub.submit("1", e)
    pub.call("1", {"call": "undo"})
    assert _state(pub)["balls_left"] == {"p1": 5, "p2": 5}
    log = pub.export_lines(pub.snapshot("1")["match"]["id"])
    assert json.loads(log[-1])["call"] == "undo"


def test_void_corrects_an_earlier_shot_and_the_log_keeps_it(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    first = shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"})
    second = shot(3.0, {"type": "goal", "goal": "B", "ball": "p1"})
    for e in first + second:
        pub.submit("1", e)
    assert _state(pub)["balls_left"]["p1"] == 3
    items = pub.log_items("1")
    assert [i["kind"] for i in items] == ["shot", "shot"]
    pub.void("1", items[0]["first"], items[0]["last"])
    assert _state(pub)["balls_left"]["p1"] == 4
    match_id = pub.snapshot("1")["match"]["id"]
    raw = [json.loads(x) for x in pub.export_lines(match_id, raw=True)]
    assert raw[-1]["call"] == "void" and (raw[-1]["from"], raw[-1]["to"]) == (2, 3)
    assert len(pub.export_lines(match_id)) == 3  # setup + the second shot
    assert [i["first"] for i in pub.log_items("1")] == [4]


def test_void_refuses_the_setup_and_unknown_events(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    with pytest.raises(IllegalCall, match="nothing to void yet"):
        pub.void("1", 1, 1)
    pub.submit("1", ev(t=1.0, type="rest"))
    with pytest.raises(IllegalCall, match="cannot be voided"):
        pub.void("1", 1, 2)
    with pytest.raises(IllegalCall, match="cannot be voided"):
        pub.void("1", 2, 9)


def test_exported_match_replays_to_the_same_state(pub: Pub, tmp_path: Path,
                                                  tablesense_cmd: list[str]) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    for e in shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"}) + shot(3.0, {"type": "goal", "goal": "A",
                                                                                  "ball": "p2"}):
        pub.submit("1", e)
    pub.void("1", 2, 3)
    out = tmp_path / "match.jsonl"
    out.write_text("\n".join(pub.export_lines(pub.snapshot("1")["match"]["id"])) + "\n")
    done = subprocess.run([*tablesense_cmd, "replay", str(out), "--json"], capture_output=True, text=True,
                          check=True)
    assert json.loads(done.stdout) == Replay().feed_lines(out.read_text().splitlines()).to_json()
    assert json.loads(done.stdout)["balls_left"] == _state(pub)["balls_left"]


def test_sensor_events_without_a_match_are_logged_and_shown(pub: Pub) -> None:
    pub.submit("1", ev(t=1.0, type="goal", goal="A", ball="p2"))
    snap = pub.snapshot("1")
    assert snap["match"] is None and snap["ticker"][-1]["type"] == "goal"
    assert len(pub.store.idle_events("1")) == 1


def test_a_table_source_may_bring_its_own_setup(pub: Pub) -> None:
    async def source():  # type: ignore[no-untyped-def]
        yield ev(t=0.0, type="setup", game="golf", players=PLAYERS)
        for e in shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"}):
            yield e

    asyncio.run(pub.feed("2", source()))
    assert _state(pub, "2")["balls_left"]["p1"] == 4
    assert pub.store.events(pub.snapshot("2")["match"]["id"])[0].source == "table"


def test_a_sensor_event_the_rules_refuse_is_logged_as_an_error(pub: Pub) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    pub.submit("1", ev(t=1.0, type="pocket", pocket=2, ball="red"))  # no pockets in golf
    snap = pub.snapshot("1")
    assert snap["match"]["events"] == 2
    assert snap["errors"] == [{"seq": 2, "error": "pocket event: a golf billiards table has no pockets"}]
    replayed = Replay().feed_lines(pub.export_lines(snap["match"]["id"])).to_json()
    assert replayed["errors"] == [{"line": 2, "error": snap["errors"][0]["error"]}]


def test_language_per_table(pub: Pub) -> None:
    pub.set_lang("2", "da")
    assert pub.snapshot("2")["lang"] == "da" and pub.snapshot("1")["lang"] == "en"
    with pytest.raises(StoreError):
        pub.set_lang("1", "xx")


def test_unknown_table_is_a_clear_error(pub: Pub) -> None:
    with pytest.raises(StoreError, match="no table '9'"):
        pub.snapshot("9")


def test_listeners_hear_of_each_change(pub: Pub) -> None:
    async def go() -> int:
        flag = pub.subscribe("1")
        pub.start_match("1", {"game": "golf", "players": PLAYERS})
        await asyncio.wait_for(flag.wait(), 1)
        pub.unsubscribe(flag)
        return pub.snapshot("1")["version"]

    assert asyncio.run(go()) == 1


def test_one_flag_follows_every_table_it_names_until_it_is_let_go(pub: Pub) -> None:
    """How a screen of all tables (the overview) and the league publisher follow the pub."""
    async def go() -> list[bool]:
        flag = pub.subscribe("1", "2")
        heard = []
        for change in (lambda: pub.start_match("2", {"game": "golf", "players": PLAYERS}),
                       lambda: pub.set_lang("1", "nl"),
                       lambda: pub.unsubscribe(flag),
                       lambda: pub.start_match("1", {"game": "golf", "players": PLAYERS})):
            flag.clear()
            change()
            heard.append(flag.is_set())
        return heard

    assert asyncio.run(go()) == [True, True, False, False]


async def test_async_path_logs_through_the_writer_in_order(tmp_path: Path) -> None:
    from tablesense.store import Writer

    db = str(tmp_path / "pub.db")
    writer = Writer(db)
    pub = Pub(Store(db), ["1", "2"], writer=writer)
    try:
        await pub.start_match_async("1", {"game": "golf", "players": PLAYERS})
        await pub.start_match_async("2", {"game": "golf", "players": PLAYERS})
        events = (shot(1.0, {"type": "goal", "goal": "B", "ball": "p1"})
                  + shot(3.0, {"type": "goal", "goal": "A", "ball": "p2"}))
        # both tables at once; each table's events keep their order
        await asyncio.gather(*(pub.submit_async(t, e) for e in events for t in ("1", "2")))
        await pub.void_async("2", 2, 3)
        await pub.call_async("1", {"call": "undo"})
    finally:
        writer.close()
    again = Pub(Store(db), ["1", "2"])
    for table in ("1", "2"):
        assert _state(again, table) == _state(pub, table)
        seqs = [e.seq for e in again.store.events(again.snapshot(table)["match"]["id"])]
        assert seqs == list(range(1, len(seqs) + 1))
    assert _state(pub, "2")["balls_left"] == {"p1": 5, "p2": 4}  # the first shot voided
    assert _state(pub, "1")["balls_left"] == {"p1": 4, "p2": 5}  # the second shot undone


def test_an_engine_failure_costs_the_event_not_the_table(pub: Pub, monkeypatch: pytest.MonkeyPatch) -> None:
    pub.start_match("1", {"game": "golf", "players": PLAYERS})
    engine = pub.table("1").replay.engine
    assert engine is not None
    real_apply = type(engine).apply

    def broken(self, state, event):  # type: ignore[no-untyped-def]
        if event.type == "cushion":
            raise KeyError("bug")
        return real_apply(self, state, event)

    monkeypatch.setattr(type(engine), "apply", broken)
    pub.submit("1", ev(t=1.0, type="cushion", cushion=1, ball=None))
    for e in shot(2.0, {"type": "goal", "goal": "B", "ball": "p1"}):
        pub.submit("1", e)
    snap = pub.snapshot("1")
    assert "internal error" in snap["errors"][0]["error"]
    assert snap["state"]["balls_left"]["p1"] == 4  # the table goes on
    again = Pub(pub.store, ["1"])  # and the host still starts
    assert again.snapshot("1")["state"]["balls_left"]["p1"] == 4


def test_a_finished_match_goes_into_the_history_and_undo_reopens_it(pub: Pub) -> None:
    pub.start_match("1", {"game": "kegle", "players": {"p1": "Mette", "p2": "Lars"}, "distance": 2})
    first = shot(1.0, {"type": "cushion", "cushion": 1, "ball": "white"},
                 {"type": "pin", "pin": 2, "state": "down"}, {"type": "pin", "pin": 1, "state": "down"})
    for e in first + shot(5.0, {"type": "strike", "ball": "red"}):
        pub.submit("1", e)
    assert _state(pub)["finished"] is True
    row = pub.store.matches("1")[0]
    assert row.result is not None and row.result["winner"] == "p1" and row.ended is not None
    pub.submit("1", ev(t=9.0, type="cushion", cushion=2, ball=None))  # racking up: not part of the match
    assert pub.snapshot("1")["match"]["events"] == 7  # set-up and two shots
    assert len(pub.store.idle_events("1")) == 1
    pub.call("1", {"call": "undo"})
    assert _state(pub)["finished"] is False
    assert pub.store.matches("1")[0].result is None
