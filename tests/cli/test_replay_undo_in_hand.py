"""A played table (``Replay()``, ``feed_lines``: every undo kept) undoes its last step to the state
it had in hand before it (``shot_engine.IN_HAND``, ``ShotEngine.redo``), not to that state played
again from its base: for any recorded match of any game, logged any way a table logs it (as
recorded, no strike sensor, rests without positions, calls while the balls roll), with undos, one
or two in a row, put after any lines Hypothesis picks (after a rest, a call, a pin, inside a shot),
and a state kept whole every few events or every ``KEEP_EVERY``, the replay ends in the same state
as without the state in hand: its value with every link (the states before shots, the ``Redo``s,
the events since the base: ``shape``), its account, errors and the states an undo after another
reaches from it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_replay_fast_paths import _kind, _objs, _undo, ways
from test_replay_played_shot_and_call import shape, walked

from tablesense import replay
from tablesense.replay import Replay
from tablesense.rules import shot_engine

LOGS = sorted(MATCHES.glob("*/*.jsonl"))
WAYS = ("as recorded", "no strike sensor", "rests without positions", "calls while the balls roll")
#: (match, way) -> the lines, made once
_LOGGED: dict[tuple[int, str], list[str]] = {}


def _logged(match: int, way: str) -> list[str]:
    key = (match, way)
    if key not in _LOGGED:
        lines = LOGS[match].read_text(encoding="utf-8").splitlines()
        _LOGGED[key] = dict(ways(lines))[way]
    return _LOGGED[key]


def _with_undos(lines: list[str], after: list[int], twice: list[bool]) -> list[str]:
    """``lines`` with an undo (two where ``twice``) after each line of ``after`` that is no set-up."""
    objs = _objs(lines)
    out: list[str] = []
    marks = dict(zip(after, twice))
    for k, (line, o) in enumerate(zip(lines, objs)):
        out.append(line)
        if k in marks and _kind(o) not in (None, "setup") and isinstance(o.get("t"), (int, float)):
            out += [_undo(o["t"] + 0.001)] * (2 if marks[k] else 1)
    return out


def _played(lines: list[str]) -> tuple[Any, ...]:
    rep = Replay().feed_lines(lines)
    return shape(rep.state, {}), rep.errors, rep.to_json(), rep.events, walked(rep)


@st.composite
def _logs(draw: st.DrawFn) -> list[str]:
    match = draw(st.integers(0, len(LOGS) - 1))
    lines = _logged(match, draw(st.sampled_from(WAYS)))
    n = len(lines)
    after = draw(st.lists(st.integers(0, n - 1), max_size=max(1, n // 3), unique=True))
    twice = draw(st.lists(st.booleans(), min_size=len(after), max_size=len(after)))
    return _with_undos(lines, after, twice)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=_logs(), keep=st.sampled_from([shot_engine.KEEP_EVERY, 5, 9]))
def test_an_undo_goes_back_to_the_state_in_hand_as_it_goes_back_played_again(
        lines: list[str], keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(shot_engine, "KEEP_EVERY", keep)
        fast = _played(lines)
        assert shot_engine.IN_HAND == [None]  # (cleared after every call played)
        m.setattr(replay, "IN_HAND", [None])  # the loop's writes go elsewhere: never in hand
        slow = _played(lines)
    assert fast == slow


def test_an_undo_after_a_played_shot_takes_the_state_in_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorded matches with an undo after every rest: undos do find the state in hand (the
    property above compares something), and each one found is the state the replay had before."""
    found: list[bool] = []
    redo = shot_engine.ShotEngine.redo

    def counted(self: Any, back: Any) -> Any:
        held = shot_engine.IN_HAND[0]
        out = redo(self, back)
        found.append(out is held)
        return out

    monkeypatch.setattr(shot_engine.ShotEngine, "redo", counted)
    for path in LOGS:
        lines = path.read_text(encoding="utf-8").splitlines()
        rests = [k for k, o in enumerate(_objs(lines)) if _kind(o) == "rest"]
        Replay().feed_lines(_with_undos(lines, rests, [False] * len(rests)))
    assert any(found) and not all(found)
