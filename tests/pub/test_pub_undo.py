"""Undo through the pub takes back exactly what the panel's button names (``Table.walk``), on
matches hypothesis varies: shots, fouls called while the balls roll or after the rest, caroms,
undos anywhere. A foul called while the balls rolled is taken back alone (its line voided: the
rest of the shot stands); anything else goes back to the state before it. The foul's player is
written into its call when naming him changes nothing the engine decides; the turn clock stands
still while a question is open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense.events import parse_event
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store, effective_lines

SETUPS = {"golf": {"game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
          "kegle": {"game": "kegle", "players": {"p1": "Ann", "p2": "Bob"}, "distance": 40},
          "carom": {"game": "carom", "discipline": "libre", "players": {"p1": "Ann", "p2": "Bob"},
                    "targets": {"p1": 20, "p2": 20}}}
BALL = {"golf": None, "kegle": "red", "carom": None}

#: one step of a match: a shot (with a foul while it rolls, or none), a call after the rest, an undo
STEP = st.one_of(
    st.tuples(st.just("shot"), st.booleans(), st.booleans()),  # (kind, foul while rolling, a goal/pin)
    st.tuples(st.just("carom"), st.just(False), st.just(False)),
    st.tuples(st.just("foul"), st.just(False), st.just(False)),
    st.tuples(st.just("undo"), st.just(False), st.just(False)),
)


def _replayed(pub: Pub, keep: Any) -> dict[str, Any]:
    """The state of a fresh replay of the match's effective lines that ``keep(seq)`` keeps."""
    rep = Replay()
    for e in effective_lines(pub.table("1").log):
        if keep(e.seq):
            rep.feed_line(e.line, e.seq)
    return rep.to_json()


def _json(pub: Pub) -> dict[str, Any]:
    rep = pub.table("1").replay
    assert rep.engine is not None and rep.state is not None
    return rep.engine.to_json(rep.state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["golf", "kegle", "carom"]), steps=st.lists(STEP, min_size=1, max_size=12))
def test_undo_takes_back_exactly_what_the_button_names(tmp_path_factory: pytest.TempPathFactory, game: str,
                                                       steps: list[tuple[str, bool, bool]]) -> None:
    pub = Pub(Store(str(tmp_path_factory.mktemp("undo") / "pub.db")), ["1"])
    pub.start_match("1", SETUPS[game])
    t = 1.0
    ball = BALL[game]

    def sensor(**e: Any) -> None:
        nonlocal t
        t += 0.5
        pub.submit("1", parse_event({"t": t, **e}))

    for kind, rolling, scoring in steps:
        if _json(pub)["finished"]:
            break
        if kind == "shot":
            sensor(type="cushion", cushion=1, ball=ball)
            if rolling:
                pub.call("1", {"call": "foul", "foul": "push"})
            if scoring and game == "kegle":
                sensor(type="pin", pin=2, state="down")
            sensor(type="cushion", cushion=2, ball=ball)
            sensor(type="rest")
            for q in _json(pub)["questions"]:  # answered at once: the next step starts clean
                pub.call("1", {"call": "answer", "question": q["id"], "answer": q["options"][0]})
        elif kind in ("carom", "foul"):
            try:
                pub.call("1", {"call": "carom"} if kind == "carom" else {"call": "foul", "foul": "push"})
            except Exception:  # the rules refuse it here (no shot yet, a golf carom): nothing logged
                continue
        else:
            unit = pub.table("1").walk.last()
            if unit is None:
                continue
            pub.call("1", {"call": "undo"})
            if unit.kind == "call" and unit.during:
                want = _replayed(pub, lambda seq, u=unit: seq != u.seq)
            else:
                want = _replayed(pub, lambda seq, u=unit: seq < u.seq)
            assert _json(pub) == want, f"undo of {unit} did not take back exactly that"


def test_a_foul_called_without_a_player_is_logged_with_the_player_it_went_against(tmp_path: Path) -> None:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    pub.start_match("1", SETUPS["carom"])
    pub.submit("1", parse_event({"t": 1.0, "type": "cushion", "cushion": 1, "ball": None}))
    pub.submit("1", parse_event({"t": 2.0, "type": "rest"}))  # Ann: nothing; Bob at the table
    pub.call("1", {"call": "foul", "foul": "touch"})  # after the rest: about Ann's shot
    logged = json.loads(pub.table("1").log[-1].line)
    assert logged["call"] == "foul" and logged["player"] == "p1"
    ticker = [e for e in pub.snapshot("1")["ticker"] if e.get("call") == "foul"]
    assert ticker[-1]["player"] == "p1"


def test_the_turn_clock_stands_still_from_the_question_to_its_answer(tmp_path: Path) -> None:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    pub.start_match("1", SETUPS["golf"])
    pub.submit("1", parse_event({"t": 1.0, "type": "goal", "goal": "B", "ball": None}))
    pub.submit("1", parse_event({"t": 2.0, "type": "rest"}))
    snap = pub.snapshot("1")
    assert snap["paused_at"] is not None and snap["turn_clock"] == 50
    rest_at = snap["rest_at"]
    q = snap["state"]["questions"][0]
    pub.call("1", {"call": "answer", "question": q["id"], "answer": "p1"})
    snap = pub.snapshot("1")
    assert snap["paused_at"] is None and snap["rest_at"] >= rest_at  # the clock starts from the answer
