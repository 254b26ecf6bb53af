"""A log's rulings made only when read (``ruling_log.made``) stay recipes when the log packs its
older items: a long match's rulings are made once, when read, and read as rulings made at once;
and a recipe whose values ``marshal`` cannot write has its rulings made and packed as before."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules import ruling_log
from tablesense.rules.records import Ruling
from tablesense.rules.ruling_log import RulingLog, made

MADE: list[int] = []


def _counted(k: int, count: int, extra: Any = None) -> tuple[Ruling, ...]:
    """``count`` rulings numbered from ``k``; each call noted in ``MADE``."""
    MADE.append(k)
    return tuple(Ruling(t=(k + j) * 0.25, rule="r.made", player=("p1", "p2", None)[(k + j) % 3],
                        data=(("n", k + j), ("extra", repr(extra)))) for j in range(count))


class _Opaque:
    """A value ``marshal`` cannot write (as a carom referee's ``Call``)."""

    def __repr__(self) -> str:
        return "opaque"


def test_recipes_are_packed_as_they_are_and_each_made_once_when_read() -> None:
    MADE.clear()
    log = RulingLog()
    model: list[Ruling] = []
    later: list[int] = []  # the recipes of a log shorter than PACK_EVERY: kept, then packed as they are
    for k in range(0, 2 * (ruling_log.PACK_EVERY + 40), 2):
        if len(log) < ruling_log.PACK_EVERY:
            later.append(k)
        log = made(log, 2, [_counted, k, 2])
        model += _counted(k, 2)
        MADE.pop()  # (the model's own)
    packed = 0
    node: RulingLog | None = log
    while node is not None:
        packed += type(node._chunk) is bytes
        node = node._prev
    assert packed > 0
    assert not set(MADE) & set(later)  # packing made none of them
    MADE.clear()
    assert list(log) == model
    assert sorted(MADE) == later  # read whole: each made once


def test_a_long_logs_newest_rulings_are_the_same_objects_at_every_read() -> None:
    log = RulingLog()
    for k in range(0, 2 * ruling_log.PACK_EVERY + 10, 2):
        log = made(log, 2, [_counted, k, 2])
    assert log[-1] is log[-1] and log[-2] is log[-2]  # a reader finds what is new by identity


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["recipe", "opaque", "rulings"])),
                      min_size=1, max_size=120),
       every=st.integers(2, 9), keep=st.integers(1, 5))
def test_logs_of_recipes_rulings_and_values_marshal_cannot_write_read_as_rulings_made_at_once(
        steps: list[tuple[int, str]], every: int, keep: int) -> None:
    log = RulingLog()
    model: tuple[Ruling, ...] = ()
    logs = [(log, model)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruling_log, "PACK_EVERY", every)
        patch.setattr(ruling_log, "KEEP", keep)
        for k, (count, kind) in enumerate(steps):
            extra = _Opaque() if kind == "opaque" else [k, None]
            new = _counted(k * 10, count, extra)
            if kind == "rulings":
                log = log + new
            else:
                log = made(log, count, [_counted, k * 10, count, extra])
            model += new
            logs.append((log, model))
    for log, model in logs:
        assert tuple(log) == model
        assert len(log) == len(model)
        if model:
            assert log[len(model) // 2] == model[len(model) // 2]
            assert log[1:] == model[1:]
