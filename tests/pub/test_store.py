"""The match log: append-only SQLite in WAL mode, durable, corrections as records."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tablesense.corrections import void_record
from tablesense.store import LoggedEvent, Store, StoreError, effective_lines

SETUP = {"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}


def _goal(t: float, ball: str = "p1") -> str:
    return json.dumps({"t": t, "type": "goal", "goal": "B" if ball == "p1" else "A", "ball": ball})


def test_log_survives_reopening_in_order(tmp_path: Path) -> None:
    db = str(tmp_path / "pub.db")
    store = Store(db)
    mid = store.new_match("1", SETUP)
    for seq in range(2, 12):
        store.append("1", mid, seq, _goal(float(seq)), "table")
    store.close()
    again = Store(db)
    events = again.events(mid)
    assert [e.seq for e in events] == list(range(1, 12))
    assert json.loads(events[0].line)["type"] == "setup"
    assert json.loads(events[5].line)["t"] == 6.0
    assert again.latest_match("1") is not None and again.latest_match("1").players["p1"] == "Ann"


def test_log_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "pub.db"))
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_appended_event_is_committed_for_other_readers(tmp_path: Path) -> None:
    db = str(tmp_path / "pub.db")
    store = Store(db)
    mid = store.new_match("1", SETUP)
    store.append("1", mid, 2, _goal(1.0), "table")
    other = sqlite3.connect(db)  # another process would see the same
    assert other.execute("SELECT count(*) FROM events WHERE match_id=?", (mid,)).fetchone()[0] == 2


def test_an_event_cannot_be_logged_twice(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "pub.db"))
    mid = store.new_match("1", SETUP)
    store.append("1", mid, 2, _goal(1.0), "table")
    with pytest.raises(StoreError, match="already has an event 2"):
        store.append("1", mid, 2, _goal(2.0), "table")


def test_token_and_language_persist_per_table(tmp_path: Path) -> None:
    db = str(tmp_path / "pub.db")
    store = Store(db)
    token1, lang = store.table("1", "da")
    token2, _ = store.table("2")
    assert lang == "da" and token1 != token2 and len(token1) >= 16
    store.set_lang("2", "nl")
    store.close()
    again = Store(db)
    assert again.table("1") == (token1, "da")
    assert again.table("2") == (token2, "nl")
    with pytest.raises(StoreError, match="unknown language 'fr'"):
        again.set_lang("1", "fr")


def test_history_lists_matches_newest_first_with_results(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "pub.db"))
    first = store.new_match("1", SETUP)
    store.finish(first, {"winner": "p1", "summary": "2-0"})
    second = store.new_match("1", {**SETUP, "game": "kegle"})
    store.new_match("2", SETUP)
    rows = store.matches("1")
    assert [r.id for r in rows] == [second, first]
    assert rows[1].result == {"winner": "p1", "summary": "2-0"} and rows[1].ended is not None
    assert rows[0].result is None
    store.finish(first, None)  # the referee undid the deciding shot
    assert store.match(first).ended is None
    with pytest.raises(StoreError, match="no match 99"):
        store.match(99)


def test_events_without_a_match_are_kept_apart(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "pub.db"))
    store.append("1", None, 0, _goal(1.0), "table")
    store.append("1", None, 0, _goal(2.0), "table")
    mid = store.new_match("1", SETUP)
    assert [json.loads(e.line)["t"] for e in store.idle_events("1")] == [1.0, 2.0]
    assert len(store.events(mid)) == 1


def _log(*lines: str) -> list[LoggedEvent]:
    return [LoggedEvent(n, "table", 0.0, line) for n, line in enumerate(lines, start=1)]


def test_void_record_leaves_out_an_earlier_shot_and_itself() -> None:
    log = _log(json.dumps(SETUP), _goal(1), _goal(2), _goal(3), json.dumps(void_record(4.0, 2, 3)), _goal(5))
    assert [e.seq for e in effective_lines(log)] == [1, 4, 6]


def test_void_cannot_reach_the_setup_or_the_future() -> None:
    log = _log(json.dumps(SETUP), _goal(1), json.dumps(void_record(2.0, 1, 9)), _goal(3))
    assert [e.seq for e in effective_lines(log)] == [1, 4]


def test_undo_is_kept_in_the_log_for_the_engine() -> None:
    undo = json.dumps({"t": 2.0, "type": "call", "call": "undo"})
    log = _log(json.dumps(SETUP), _goal(1), undo)
    assert [e.line for e in effective_lines(log)][-1] == undo


async def test_writer_commits_events_that_arrive_together_in_one_sync(tmp_path: Path) -> None:
    import asyncio

    from tablesense.store import Writer

    db = str(tmp_path / "pub.db")
    store = Store(db)
    matches = [store.new_match(str(n), SETUP) for n in range(1, 9)]
    writer = Writer(db)
    try:
        await asyncio.gather(*(writer.append(str(n), mid, seq, _goal(float(seq)), "table")
                               for seq in range(2, 12) for n, mid in enumerate(matches, start=1)))
        assert writer.commits < 80  # 80 events, fewer disk syncs
    finally:
        writer.close()
    for mid in matches:
        assert [e.seq for e in Store(db).events(mid)] == list(range(1, 12))


async def test_writer_refuses_a_duplicate_without_losing_its_neighbours(tmp_path: Path) -> None:
    import asyncio

    from tablesense.store import Writer

    db = str(tmp_path / "pub.db")
    mid = Store(db).new_match("1", SETUP)
    writer = Writer(db)
    try:
        results = await asyncio.gather(
            writer.append("1", mid, 2, _goal(1.0), "table"),
            writer.append("1", mid, 2, _goal(2.0), "table"),
            writer.append("1", mid, 3, _goal(3.0), "table"),
            return_exceptions=True,
        )
    finally:
        writer.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StoreError) and "already has an event 2" in str(results[1])
    assert [e.seq for e in Store(db).events(mid)] == [1, 2, 3]


async def test_shown_events_written_again_twice_are_logged_once_and_the_table_goes_on(tmp_path: Path) -> None:
    """A try to write a table's shown events again whose waiter was gone (cancelled while the
    writer committed them) is taken as written by the next try, not refused as a duplicate
    (which would hold every later event of the table back); a different event at the same
    place is still refused."""
    from tablesense.store import Writer

    db = str(tmp_path / "pub.db")
    mid = Store(db).new_match("1", SETUP)
    writer = Writer(db)
    rows = [("1", mid, seq, _goal(float(seq)), "table", 100.0 + seq) for seq in (2, 3)]
    try:
        await writer.again(rows)
        await writer.again(rows)  # the same rows: already there
        await writer.append("1", mid, 4, _goal(4.0), "table")
        with pytest.raises(StoreError, match="already has an event 2"):
            await writer.again([("1", mid, 2, _goal(9.0), "table", 109.0)])
    finally:
        writer.close()
    assert [e.seq for e in Store(db).events(mid)] == [1, 2, 3, 4]


@pytest.mark.parametrize("name", ["", "\n", "  ", "x" * 10_000, "Ann\x1b[2J"])
def test_a_match_with_a_bad_players_name_is_not_opened(tmp_path: Path, name: str) -> None:
    from tablesense.errors import BadEvent

    store = Store(str(tmp_path / "pub.db"))
    with pytest.raises(BadEvent, match="name") as caught:
        store.new_match("1", {**SETUP, "players": {"p1": name, "p2": "Bob"}})
    assert len(str(caught.value)) < 200
    assert store.matches("1") == []
