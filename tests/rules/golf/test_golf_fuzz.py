"""An outsider's fuzzing of the golf engine: random but well-formed JSON event lines of every
kind docs/events.md names (and some it does not), fed through the real Replay one line at a
time. A user mistake may only ever be a TablesenseError (recorded as a line error, never a
traceback), and after every line the printed state stays a consistent match."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesense.replay import Replay

BALL = st.sampled_from(["p1", "p2", None])
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 9), st.text(max_size=6), st.lists(st.integers(0, 3), max_size=2)
)
T = st.floats(0.0, 500.0, allow_nan=False, allow_infinity=False)
POINT = st.one_of(st.tuples(st.floats(-0.5, 2.5), st.floats(-0.5, 1.5)).map(list), ODD)
POSITIONS = st.one_of(
    st.dictionaries(st.sampled_from(["p1", "p2"]), st.lists(POINT, max_size=6), max_size=2),
    st.dictionaries(st.sampled_from(["p1", "p2"]), POINT, max_size=2),
    st.dictionaries(st.sampled_from(["red", "white", "p1.1", "x"]), POINT, max_size=3),
    ODD,
)
FOUL_NAMES = st.one_of(
    st.sampled_from(
        [
            "touch",
            "push",
            "foot",
            "jump",
            "wrong_ball",
            "off_table",
            "own_goal",
            "time",
            "zone",
            "triangle",
            "hold_opponent",
            "aim",
            "early",
            "order",
            "opening",
            "consult",
            "lift",
            "hard_shot",
            "own_ball",
            "touch_own",
            "touch_opponent",
            "push_through",
            "off_table_opponent",
            "held_back_opponent",
        ]
    ),
    st.text(max_size=12),
)
CALL = st.one_of(
    st.fixed_dictionaries(
        {"call": st.just("foul"), "foul": FOUL_NAMES},
        optional={"player": st.sampled_from(["p1", "p2", "p3"]), "ball": BALL},
    ),
    st.fixed_dictionaries(
        {
            "call": st.just("answer"),
            "question": st.sampled_from(["q1", "q2", "q3", "q9"]),
            "answer": st.one_of(st.sampled_from(["p1", "p2", True, False, 1, 3]), ODD),
        }
    ),
    st.fixed_dictionaries(
        {"call": st.just("spot"), "ball": BALL, "spot": st.one_of(st.integers(0, 6), st.booleans())}
    ),
    st.fixed_dictionaries(
        {"call": st.just("start"), "player": st.sampled_from(["p1", "p2", "p3"])},
        optional={"member": st.one_of(st.integers(-1, 2), st.sampled_from(["Ann", "Zed"]))},
    ),
    st.fixed_dictionaries(
        {"call": st.sampled_from(["off_table", "rail", "edge", "wedged"]), "ball": BALL},
        optional={"where": st.sampled_from(["attacking", "defending", "cushion", "x"])},
    ),
    st.fixed_dictionaries({"call": st.sampled_from(["undo", "time", "carom", "replay", "TIME", "Undo"])}),
)
EVENT = st.one_of(
    st.fixed_dictionaries({"type": st.just("goal"), "goal": st.sampled_from(["A", "B", "C"]), "ball": BALL}),
    st.fixed_dictionaries({"type": st.just("off_table"), "ball": BALL}),
    st.fixed_dictionaries({"type": st.just("cushion"), "cushion": st.integers(0, 6), "ball": BALL}),
    st.fixed_dictionaries({"type": st.just("rest")}, optional={"positions": POSITIONS}),
    st.fixed_dictionaries({"type": st.just("strike"), "ball": BALL}),
    st.fixed_dictionaries({"type": st.just("contact"), "balls": st.lists(BALL, max_size=3)}),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["pin", "pocket"]),
            "pin": st.integers(1, 9),
            "pocket": st.integers(1, 6),
            "state": st.just("down"),
            "ball": BALL,
        }
    ),
)
CALL_EVENT = CALL.map(lambda c: {"type": "call", **c})
# a goal-heavy stream finishes frames and matches, so the end of a match is exercised too
SCORING = st.sampled_from(
    [
        [{"type": "goal", "goal": "B", "ball": "p1"}, {"type": "rest"}],
        [{"type": "goal", "goal": "A", "ball": "p2"}, {"type": "rest"}],
        [{"type": "cushion", "cushion": 1, "ball": None}, {"type": "rest"}],
        # a frame for p1 or p2 (their balls count for them whoever plays them)
        [{"type": "goal", "goal": "B", "ball": "p1"}, {"type": "rest"}] * 5,
        [{"type": "goal", "goal": "A", "ball": "p2"}, {"type": "rest"}] * 5,
    ]
)
_P1_FRAME = [{"type": "goal", "goal": "B", "ball": "p1"}, {"type": "rest"}] * 5
_P2_FRAME = [{"type": "goal", "goal": "A", "ball": "p2"}, {"type": "rest"}] * 5
# where the random lines start: a fresh match, 1-0 in frames, or 1-1 (the next frame decides)
PREFIXES = st.sampled_from([[], _P1_FRAME, _P1_FRAME + _P2_FRAME])
SETUPS = st.sampled_from(
    [
        {"type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}},
        {
            "type": "setup",
            "game": "golf",
            "format": "duo",
            "players": {"p1": ["Ann", "Cor"], "p2": ["Bob", "Dirk"]},
        },
    ]
)


def _consistent(s: dict[str, Any]) -> None:
    json.dumps(s, allow_nan=False)  # the printed state is plain JSON
    assert s["game"] == "golf"
    assert s["winner"] in (None, "p1", "p2", "draw")
    assert s["finished"] == (s["winner"] is not None)
    assert all(isinstance(n, int) and 0 <= n <= 5 for n in s["balls_left"].values())
    assert all(0 <= n <= 2 for n in s["frames_won"].values())
    assert s["finished"] == (max(s["frames_won"].values()) == 2)
    if s["finished"]:
        assert s["frames_won"][s["winner"]] == 2 and s["questions"] == []
    else:
        assert s["at_table"] in ("p1", "p2")
    if not s["finished"] and not s["shot_in_progress"]:
        assert s["zone_play"] == (1 in s["balls_left"].values())  # zone play: a player has one ball left
    assert all(b in ("p1", "p2") for b in s["spots_waiting"])
    if s["finished"]:
        assert s["spots_waiting"] == [] and s["clock"] is None
    ids = [q["id"] for q in s["questions"]]
    assert len(ids) == len(set(ids))
    assert all(r["rule"].startswith("golf.") and isinstance(r["t"], (int, float)) for r in s["rulings"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SETUPS,
    PREFIXES,
    st.lists(
        st.one_of(EVENT.map(lambda e: [e]), CALL_EVENT.map(lambda e: [e]), SCORING), min_size=5, max_size=80
    ),
    st.randoms(),
)
def test_golf_random_event_lines_never_crash_and_keep_the_state_consistent(
    setup: dict[str, Any], prefix: list[dict[str, Any]], chunks: list[list[dict[str, Any]]], rnd: Any
) -> None:
    rep = Replay()
    rep.feed_line(json.dumps({"t": 0, **setup}), 1)
    t = 0.0
    n = 1
    for chunk in [prefix, *chunks]:
        for event in chunk:
            t += rnd.choice([0.0, 0.000001, 0.3, 1.0, -0.5])  # equal and backwards t as well
            n += 1
            rep.feed_line(json.dumps({"t": round(max(t, 0.0), 6), **event}), n)  # only TablesenseError
            _consistent(rep.to_json())
    for err in rep.errors:
        assert err.error and err.line >= 2 and "Traceback" not in err.error
