"""A live table keeps every state an undo can reach (as the events since a state kept whole,
``ShotEngine.play``): it is freed without recursion at any length, and so is a replay that keeps
every state whole (``apply``); a shot of any length keeps its events right whichever state it
grows from, and an undo goes back to exactly the state before, whole or rebuilt."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from tablesense.events import parse_event
from tablesense.replay import Replay
from tablesense.rules.shot_engine import RUN_FROM

MATCH = ROOT / "tests" / "matches" / "kegle" / "shot__simulated_full_information.jsonl"

FREE = """
import json, sys
from tablesense.replay import Replay
from tablesense.rules.shot_engine import Redo
lines = [json.loads(x) for x in open(sys.argv[1], encoding="utf-8") if x.strip()]
setup, body = lines[0], lines[1:]
setup["distance"] = 10**9  # nobody wins: one long match, every state an undo can reach kept
span = max(e["t"] for e in body) + 1.0
rep = Replay() if sys.argv[3] == "play" else Replay(history=10**9)  # every state whole: ``apply``
rep.feed_lines([json.dumps(setup)])
for k in range(int(sys.argv[2])):
    rep.feed_lines([json.dumps({**e, "t": e["t"] + k * span}) for e in body
                    if not (k and e.get("call") == "start")])
assert not rep.errors, rep.errors[:2]
depth, s = 0, rep.state
while s is not None:
    s, depth = s.checkpoint, depth + 1
    if type(s) is Redo:
        s = s.base
del rep, s
print(depth)
"""


def _small_stack() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (256 * 1024, resource.getrlimit(resource.RLIMIT_STACK)[1]))


@pytest.mark.parametrize(("mode", "repeat", "least"), [("apply", 300, 5000), ("play", 1500, 500)])
def test_a_long_undo_chain_is_freed_without_overflowing_the_stack(mode: str, repeat: int, least: int) -> None:
    # with a quarter-megabyte C stack a chain of a few thousand states freed recursively overflows it
    env = dict(os.environ, PYTHONPATH=str(ROOT / "host"))
    done = subprocess.run([sys.executable, "-c", FREE, str(MATCH), str(repeat), mode], capture_output=True,
                          text=True, env=env, preexec_fn=_small_stack, timeout=600)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]}"
    assert int(done.stdout) > least  # the undo chain that was freed (played: the states kept whole)


CAROM_SETUP = {"t": 0, "type": "setup", "game": "carom", "discipline": "libre", "profile": "liemers",
               "players": {"p1": "Ann", "p2": "Bob"}, "targets": {"p1": 1000, "p2": 1000}}


def _cushion(t: float, k: int) -> dict[str, object]:
    return {"t": round(t, 6), "type": "cushion", "cushion": k % 4 + 1, "ball": "yellow"}


@settings(max_examples=25, deadline=None)
@given(length=st.integers(1, 3 * RUN_FROM), branch_at=st.integers(0, 3 * RUN_FROM),
       extra=st.integers(1, RUN_FROM + 5))
def test_a_shot_grown_from_an_older_state_keeps_its_own_events(length: int, branch_at: int,
                                                               extra: int) -> None:
    rep = Replay()
    rep.apply(parse_event(CAROM_SETUP))
    engine = rep.engine
    assert engine is not None and rep.state is not None
    state = engine.apply(rep.state, parse_event({"t": 1.0, "type": "strike", "ball": "yellow"}))
    states = [state]
    for k in range(length):
        state = engine.apply(state, parse_event(_cushion(1.0 + 0.01 * (k + 1), k)))
        states.append(state)
    older = states[min(branch_at, length)]
    kept = tuple(older.shot.events)
    branch = older
    for k in range(extra):  # another line of events from an older state (a screen's what-if)
        branch = engine.apply(branch, parse_event(_cushion(50.0 + k, k + 1)))
    # the newest state and the older one are as they were; the branch has the older's and its own
    assert tuple(states[-1].shot.events)[: len(kept)] == kept
    assert len(states[-1].shot.events) == length + 1
    assert tuple(older.shot.events) == kept
    own = tuple(parse_event(_cushion(50.0 + k, k + 1)) for k in range(extra))
    assert tuple(branch.shot.events) == (*kept, *own)
    # the shot comes to rest the same whichever way its events were kept
    rest = parse_event({"t": 99.0, "type": "rest"})
    grown = engine.apply(states[-1], rest)
    lines = [json.dumps(CAROM_SETUP), json.dumps({"t": 1.0, "type": "strike", "ball": "yellow"})]
    lines += [json.dumps(_cushion(1.0 + 0.01 * (k + 1), k)) for k in range(length)]
    lines.append(json.dumps({"t": 99.0, "type": "rest"}))
    assert engine.to_json(grown) == Replay().feed_lines(lines).to_json()
    assert type(grown.shot.events) is tuple
    # undo after the rest takes the whole shot back, to the state before its strike
    undone = engine.apply(grown, parse_event({"t": 99.5, "type": "call", "call": "undo"}))
    assert undone is rep.state


MATCHES = sorted((ROOT / "tests" / "matches").glob("*/*.jsonl"))


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_played_match_shows_and_undoes_as_an_applied_one_at_every_line(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A live table (``play``: undo kept as events since a state kept whole, rebuilt when asked)
    shows what a replay keeping every state whole (``apply``) shows, after every line, and an
    undo there (and a second one) goes back to the same: a state kept whole every 3 events and
    the states before shots cut 3 deep, to rebuild and cut far more often than a table does."""
    from tablesense.errors import TablesenseError
    from tablesense.events import parse_line
    from tablesense.replay import effective_lines
    from tablesense.rules import shot_engine

    monkeypatch.setattr(shot_engine, "KEEP_EVERY", 3)
    monkeypatch.setattr(shot_engine, "BEFORE_DEPTH", 3)
    undo = parse_event({"t": 0.0, "type": "call", "call": "undo"})
    played, applied = Replay(), Replay(history=10**9)
    for _, text in effective_lines(path.read_text(encoding="utf-8").splitlines()):
        try:
            event = parse_line(text)
        except TablesenseError:
            continue
        outcomes = []
        for rep in (played, applied):
            try:
                rep.apply(event)
                outcomes.append(None)
            except TablesenseError as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1], text
        if played.engine is None or played.state is None or applied.state is None:
            continue
        engine = played.engine
        assert engine.to_json(played.state) == engine.to_json(applied.state), text
        a, b = played.state, applied.state
        for _ in range(2):
            try:
                a = engine.play(a, undo)
            except TablesenseError as exc:
                with pytest.raises(TablesenseError, match=re.escape(str(exc))):
                    engine.apply(b, undo)
                break
            b = engine.apply(b, undo)
            assert engine.to_json(a) == engine.to_json(b), f"undo after {text}"


def test_an_undo_comes_back_across_events_made_out_of_a_log_lines_bounds() -> None:
    """A live table keeps its undo as the events since a state kept whole, sealed as bytes
    (``Trace.seal``) and decoded again by an undo: an event made by hand, not read from a log,
    may hold what a log line may not (a time out of range, a contact of three balls); it comes
    back as it was made."""
    from tablesense.events import Call, Contact, Cushion, Rest, Strike
    from tablesense.rules.shot_engine import Trace

    made = [Cushion(t=-1.0, cushion=2), Contact(t=1e12, balls=("red", "white", "yellow")),
            Rest(t=3.0, positions={"red": [0.5, 0.25]}),
            Call(t=4.0, call="foul", foul="push", extra={"k": [1]}),
            Strike(t=5.0, ball="red")]
    trace = Trace.start(made[0])
    for event in made[1:]:
        trace = trace.plus(event)
    trace.seal()
    assert list(trace) == made
    assert [e.to_dict() for e in trace] == [e.to_dict() for e in made]
