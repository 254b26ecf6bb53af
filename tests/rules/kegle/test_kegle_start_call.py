"""The referee's ``start`` (who shoots first, kegle.lag) taken in one copy of the state by
``KegleEngine._call`` gives what the base's ``_call`` gives (``_call_start``, then the undo point),
refusals included (hypothesis: before the first shot, after one, during one, with pins held, named
p1, p2 or nobody, spelled as the canonical id or otherwise), and a match replayed with it ends the same."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import TablesenseError
from tablesense.events import Call, Cushion, Pin, Rest, parse_event
from tablesense.replay import Replay
from tablesense.rules import find_engine
from tablesense.rules.shot_engine import ShotEngine

ENGINE = find_engine("kegle")
SETUP = parse_event({"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"},
                     "distance": 40})
FIRST = ENGINE.new_state(SETUP)
_SHOT = [Cushion(t=1.0, cushion=1, ball="red"), Pin(t=1.1, pin=2, state="down")]
STATES = [
    FIRST,
    ENGINE.apply(FIRST, Pin(t=0.5, pin=3, state="up")),  # a pin held before the first shot
    ENGINE.apply(FIRST, Cushion(t=0.5, cushion=1, ball="red")),  # the first shot rolling
    ENGINE.whole(FIRST, _SHOT, Rest(t=2.0)),  # after the first shot
]


def _outcome(call: Any, state: Any, event: Call) -> Any:
    try:
        return call(state, event)
    except TablesenseError as exc:
        return type(exc), str(exc)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(STATES))), st.sampled_from([None, "p1", "p2"]),
       st.sampled_from(["start", "START", "Start"]), st.floats(0.6, 0.9))
def test_a_start_in_one_copy_gives_what_the_base_gives(at: int, player: str | None, name: str,
                                                       t: float) -> None:
    state = STATES[at]
    event = Call(t=t, call=name, player=player)
    one = _outcome(ENGINE._call, state, event)
    base = _outcome(lambda s, e: ShotEngine._call(ENGINE, s, e), state, event)
    assert one == base
    if not isinstance(one, tuple):
        assert tuple(one.rulings) == tuple(base.rulings) and one.checkpoint is state is base.checkpoint


def test_a_match_started_by_p2_plays_to_the_same_end() -> None:
    lines = [
        '{"t": 0, "type": "setup", "game": "kegle", "players": {"p1": "A", "p2": "B"}, "distance": 40}',
        '{"t": 0.5, "type": "call", "call": "start", "player": "p2"}',
        '{"t": 1.0, "type": "cushion", "cushion": 1, "ball": "red"}',
        '{"t": 1.1, "type": "pin", "pin": 2, "state": "down"}',
        '{"t": 2.0, "type": "rest"}',
        '{"t": 2.5, "type": "call", "call": "undo"}',
        '{"t": 2.6, "type": "call", "call": "undo"}',
        '{"t": 2.7, "type": "call", "call": "start", "player": "p1"}',
    ]
    state = Replay().feed_lines(lines).to_json()
    assert state["at_table"] == "p1" and state["first"] == "p1"
    assert [r["rule"] for r in state["rulings"]] == ["kegle.lag"]
