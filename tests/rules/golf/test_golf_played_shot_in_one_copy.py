"""A golf shot taken at once in a played match (``GolfEngine.whole_played``, ``played.whole_played``:
a shot of several cushions alone with the played links in its one copy of the state) gives the
state ``ShotEngine.whole_played`` gives, links and all (the undo a ``Redo`` from the same base, the
events since it the same), over made-up played states and shots (hypothesis: cushions alone or with
a goal or a strike, a rest with positions, a table that reports strikes, a shot open, the states
before the shots eight deep and more, the events since the base shared or not, near
``KEEP_EVERY``); and every recorded golf match played ends where it ends with the base's step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from paths import MATCHES
from test_golf_one_event_shot import before_shot

from tablesense.events import Cushion, Goal, Rest, Strike
from tablesense.replay import Replay
from tablesense.rules.golf.engine import GolfEngine
from tablesense.rules.golf.state import GolfState
from tablesense.rules.shot_engine import KEEP_EVERY, Redo, ShotEngine, Trace

replace = msgspec.structs.replace


@st.composite
def a_shot(draw: Any) -> tuple[list[Any], Rest]:
    """Cushions alone most often (one to four), now and then a goal or a strike among them, and the
    rest after them (with positions now and then)."""
    events: list[Any] = [Cushion(t=1.0 + 0.1 * k, cushion=draw(st.integers(1, 4)))
                         for k in range(draw(st.integers(1, 4)))]
    extra = draw(st.integers(0, 5))
    if extra == 0:
        goal, ball = draw(st.sampled_from(["A", "B"])), draw(st.sampled_from(["p1", "p2"]))
        events.append(Goal(t=1.9, goal=goal, ball=ball))
    elif extra == 1:
        events.insert(draw(st.integers(0, len(events))), Strike(t=0.9, ball="p1"))
    rest = Rest(t=draw(st.sampled_from([4.0, 4])),
                positions={"p1": [[0.2, 0.3]], "p2": []} if draw(st.integers(0, 5)) == 0 else None)
    return events, rest


def _played(state: GolfState, base: GolfState, n: int, shared: bool, depth: int) -> GolfState:
    """``state`` as a played match holds it: ``n`` events since ``base`` (their list ``shared``
    with a later state, which has more: a new list then), its states before shots ``depth`` deep."""
    events = [Cushion(t=0.01 * k, cushion=1) for k in range(n + (1 if shared else 0))]
    chain = None
    for _ in range(depth):
        chain = GolfState(before=chain)
    return replace(state, base=base, since=Trace([events, None], n), before=chain if depth else state.before)


def _read(state: Any) -> Any:
    """``state`` with the events since its base (and those of its undo's ``Redo``) as tuples, in it
    and in the states before its shots (a ``Trace`` is equal to itself alone)."""
    if state is None:
        return None
    back = state.checkpoint
    if type(back) is Redo:
        back = (id(back.base), tuple(back.events))
    elif isinstance(back, GolfState):
        back = _read(back)
    return replace(state, since=tuple(state.since), checkpoint=back, before=_read(state.before))


def played_both(state: GolfState, events: list[Any], rest: Rest, n: int, shared: bool,
                depth: int) -> GolfState | None:
    """The shot played by golf's ``whole_played`` and by the base's on two equal played matches
    (``_played``), held equal: the same refusal, the same "not whole", or the same state, rulings
    and undo point on the same base. Gives the golf engine's state, None where there is none."""
    engine = GolfEngine()
    base = GolfState(players=state.players)
    mine, theirs = _played(state, base, n, shared, depth), _played(state, base, n, shared, depth)
    try:
        quick = GolfEngine.whole_played(engine, mine, events, rest)
    except Exception as exc:
        with pytest.raises(type(exc)):
            ShotEngine.whole_played(engine, theirs, events, rest)
        event("refused")
        return None
    general = ShotEngine.whole_played(engine, theirs, events, rest)
    assert (quick is None) == (general is None)
    if quick is None or general is None:
        event("not whole")
        return None
    assert type(quick.checkpoint) is Redo and type(general.checkpoint) is Redo
    assert quick.checkpoint.base is base and general.checkpoint.base is base
    assert quick.base is base and general.base is base
    assert _read(quick) == _read(general)
    assert list(quick.rulings) == list(general.rulings)
    return quick


@settings(max_examples=800, deadline=None)
@given(before_shot(), a_shot(), st.sampled_from([0, 1, 5, KEEP_EVERY - 6, KEEP_EVERY - 2]), st.booleans(),
       st.sampled_from([0, 1, 4, 7, 8, 9]))
def test_a_played_shot_in_one_copy_is_the_state_the_base_gives(
        state: GolfState, shot: tuple[list[Any], Rest], n: int, shared: bool, depth: int) -> None:
    events, rest = shot
    quick = played_both(state, events, rest, n, shared, depth)
    if quick is None:
        return
    event("one copy" if all(type(e) is Cushion for e in events) and len(events) > 1 and quick.at_table !=
          (state.at_table or "p1") and not rest.positions else "the base's steps")


LOGS = sorted((MATCHES / "golf").glob("*.jsonl"))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_golf_match_played_ends_where_it_ends_with_the_bases_step(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    quick = json.dumps(Replay().feed_lines(lines).to_json(), sort_keys=True, default=repr)
    monkeypatch.setattr(GolfEngine, "whole_played", ShotEngine.whole_played)
    assert json.dumps(Replay().feed_lines(lines).to_json(), sort_keys=True, default=repr) == quick
