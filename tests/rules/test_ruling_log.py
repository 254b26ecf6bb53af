"""A ruling log packs its old rulings (``rules/ruling_log``: one pickle shared by the nodes of a
run) and reads exactly as before, every type kept, from every state that holds it, branches
included; a long match's rulings then take a fraction of their objects' memory; a replay with
its rulings packed at every step shows and undoes what one that never packs shows."""

from __future__ import annotations

import gc
import tracemalloc
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from paths import MATCHES

from tablesense.events import Call
from tablesense.replay import Replay
from tablesense.rules import ruling_log
from tablesense.rules.records import Ruling
from tablesense.rules.ruling_log import PACK_EVERY, RulingLog, Trail

LOGS = sorted(MATCHES.glob("*/*.jsonl"))


def _ruling(k: int) -> Ruling:
    """Rulings whose parameters are of every kind an engine gives: lists, tuples, ints, floats,
    bools, None; a time that is an int now and then; now and then a value of a class that is
    none of those (packed another way)."""
    data: tuple[tuple[str, Any], ...] = (
        (("pins", [k % 5, 7]), ("points", k)),
        (("what", "break"), ("run", k), ("avg", k / 3)),
        (("faults", ("touch", "foot")), ("yes", k % 2 == 0), ("none", None)),
        (),
    )[k % 4]
    if k % 37 == 0:
        data = (*data, ("share", Fraction(k, 3)))
    return Ruling(t=k if k % 7 == 0 else k * 0.5, rule=f"r{k % 3}", player=("p1", "p2", None)[k % 3],
                  data=data)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 4)), min_size=1, max_size=200),
       every=st.integers(2, 12), keep=st.integers(1, 6))
def test_a_log_and_every_log_it_grew_from_read_the_same_after_packing(
        steps: list[tuple[int, int]], every: int, keep: int) -> None:
    logs: list[RulingLog] = [RulingLog()]
    models: list[tuple[Ruling, ...]] = [()]
    k = 0
    with pytest.MonkeyPatch.context() as patch:  # packed every few rulings: many runs, many branches
        patch.setattr(ruling_log, "PACK_EVERY", every)
        patch.setattr(ruling_log, "KEEP", keep)
        for at, count in steps:
            i = len(logs) - 1 if at % 4 else at % len(logs)  # mostly the newest; now and then an older one
            new = tuple(_ruling(k + j) for j in range(count))
            k += count
            logs.append(logs[i] + new)
            models.append(models[i] + new)
    event("some log packed" if any(type(log._chunk) is bytes for log in logs) else "none packed")
    for log, model in zip(logs, models, strict=True):
        assert len(log) == len(model)
        assert repr(tuple(log)) == repr(model)  # a list stays a list, an int time an int
        assert log == model
        if model:
            half = len(model) // 2
            assert log[0] == model[0] and log[-1] == model[-1] and log[half] == model[half]
            assert log[len(model) // 3:] == model[len(model) // 3:]
            assert log[1:len(model) - 1] == model[1:len(model) - 1]


def test_a_log_grown_a_ruling_at_a_time_keeps_its_old_rulings_packed_and_its_newest_as_they_are(
        ) -> None:
    log = RulingLog()
    for k in range(3 * PACK_EVERY):
        log = log + (_ruling(k),)
    assert type(log._chunk) is tuple  # the newest, as it is
    node: RulingLog | None = log
    packed = 0
    while node is not None:
        packed += type(node._chunk) is bytes
        node = node._prev
    assert packed, "nothing packed after three times PACK_EVERY rulings"
    assert list(log) == [_ruling(k) for k in range(3 * PACK_EVERY)]


def test_a_trail_reads_the_same_after_packing() -> None:
    values: Trail | tuple[int, ...] = ()
    for k in range(5 * PACK_EVERY):
        values = Trail.plus(values, k * 3)
    assert tuple(values) == tuple(k * 3 for k in range(5 * PACK_EVERY))
    assert values[-2] == (5 * PACK_EVERY - 2) * 3


def test_what_cannot_be_pickled_stays_as_it_is() -> None:
    odd = type("Odd", (), {})  # a class made here: pickle cannot find it by name
    log = RulingLog()
    items = [Ruling(t=float(k), rule="r", data=(("odd", odd),)) for k in range(3 * PACK_EVERY)]
    for item in items:
        log = log + (item,)
    assert list(log) == items


def _held(build: Any) -> tuple[int, Any]:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before, kept
    finally:
        tracemalloc.stop()


def test_a_long_logs_old_rulings_take_a_fraction_of_their_objects_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    n = 40 * PACK_EVERY

    def build() -> RulingLog:
        log = RulingLog()
        for k in range(n):
            data = (("pins", [k % 5]), ("points", 2))
            log = log + (Ruling(t=k * 0.5, rule="kegle.pin", player="p1", data=data),)
        return log

    packed, log = _held(build)
    assert len(log) == n
    monkeypatch.setattr(ruling_log, "PACK_EVERY", 10**9)
    whole, _ = _held(build)
    assert packed < whole / 4, (packed / n, whole / n)


def _seen(rep: Replay) -> Any:
    """What a replay shows, and what an undo there goes back to."""
    state, engine = rep.state, rep.engine
    if state is None or engine is None:
        return rep.to_json()
    undone = None
    if state.checkpoint is not None:
        t = state.rulings[-1].t if len(state.rulings) else 0.0
        undone = engine.to_json(engine.play(state, Call(t=t, call="undo")))
    return rep.to_json(), undone


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_match_packed_at_every_step_shows_what_an_unpacked_one_shows(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    monkeypatch.setattr(ruling_log, "PACK_EVERY", 10**9)
    plain = Replay()
    want = []
    for line in lines:
        plain.feed_lines([line])
        want.append(_seen(plain))
    monkeypatch.setattr(ruling_log, "PACK_EVERY", 2)
    monkeypatch.setattr(ruling_log, "KEEP", 1)
    packed = Replay()
    for line, seen in zip(lines, want, strict=True):
        packed.feed_lines([line])
        assert _seen(packed) == seen, line
