"""Rulings made only when read (``ruling_log.made``: a node keeps what to build them from) read
exactly as rulings handed over made: from every log grown so, branches included, packed or not,
whole, by index and by slice; and a carom replay whose plain shots hand the log their makers shows
the rulings a replay making each at once shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from paths import MATCHES

from tablesense.replay import Replay
from tablesense.rules import ruling_log
from tablesense.rules.carom import plain
from tablesense.rules.records import Ruling
from tablesense.rules.ruling_log import RulingLog, made


def _rulings(k: int, count: int) -> tuple[Ruling, ...]:
    """``count`` rulings numbered from ``k`` (a maker: the same rulings for the same values)."""
    return tuple(Ruling(t=(k + j) * 0.5, rule=f"r{(k + j) % 3}", player=("p1", None)[(k + j) % 2],
                        data=(("n", k + j), ("pins", [j, 7])) if j % 2 else ()) for j in range(count))


@settings(max_examples=80, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 4), st.booleans()), min_size=1,
                      max_size=200),
       every=st.integers(2, 12), keep=st.integers(1, 6))
def test_a_log_of_rulings_made_when_read_reads_as_one_of_rulings_made_at_once(
        steps: list[tuple[int, int, bool]], every: int, keep: int) -> None:
    logs: list[RulingLog] = [RulingLog()]
    models: list[tuple[Ruling, ...]] = [()]
    k = 0
    with pytest.MonkeyPatch.context() as patch:  # packed every few rulings: many runs, many branches
        patch.setattr(ruling_log, "PACK_EVERY", every)
        patch.setattr(ruling_log, "KEEP", keep)
        for at, count, later in steps:
            i = len(logs) - 1 if at % 4 else at % len(logs)  # mostly the newest; now and then an older one
            new = _rulings(k, count)
            logs.append(made(logs[i], count, [_rulings, k, count]) if later else logs[i] + new)
            models.append(models[i] + new)
            k += count
    event("some made when read" if any(type(log._chunk) is list for log in logs) else "none made when read")
    event("some log packed" if any(type(log._chunk) is bytes for log in logs) else "none packed")
    for log, model in zip(logs, models, strict=True):
        assert len(log) == len(model)
        assert repr(tuple(log)) == repr(model)  # a list stays a list
        assert log == model
        half = len(model) // 2
        if model:
            assert log[0] == model[0] and log[-1] == model[-1] and log[half] == model[half]
        assert log[half:] == model[half:] and log[1:len(model) - 1] == model[1:len(model) - 1]


CAROM = sorted((MATCHES / "carom").glob("*.jsonl"))


@pytest.mark.parametrize("path", CAROM, ids=lambda p: p.stem)
def test_a_carom_match_whose_rulings_are_made_when_read_shows_what_one_making_them_at_once_shows(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines(path)
    later = Replay(history=64).feed_lines(lines)
    monkeypatch.setattr(plain, "made_when_read", _at_once)
    now = Replay(history=64).feed_lines(lines)
    assert later.to_json() == now.to_json()
    assert [e.to_dict() for e in later.errors] == [e.to_dict() for e in now.errors]


def test_the_recorded_carom_matches_hold_rulings_made_when_read() -> None:
    lazy = 0
    for path in CAROM:
        state = Replay(history=64).feed_lines(_lines(path)).state
        if state is not None:
            lazy += sum(type(node._chunk) is list for node in _nodes(state.rulings))
    assert lazy > 0


def _lines(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _at_once(log: RulingLog, count: int, recipe: list[Any]) -> RulingLog:
    """``made`` with the rulings made at once."""
    rulings = recipe[0](*recipe[1:])
    assert len(rulings) == count
    return RulingLog(rulings, log)


def _nodes(log: RulingLog) -> list[RulingLog]:
    out = []
    node: RulingLog | None = log
    while node is not None:
        out.append(node)
        node = node._prev
    return out
