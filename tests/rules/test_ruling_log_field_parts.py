"""``RulingLog.field_parts`` (what ``replay --json`` writes the rulings from) gives every ruling's
fields, ``(t, rule, player, data)``, as ``parts`` gives the rulings: packed runs, recipes made only
when read, and rulings holding values ``marshal`` cannot write (pickled) among them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules import ruling_log
from tablesense.rules.records import Ruling
from tablesense.rules.ruling_log import RulingLog, made


class _Opaque:
    """A value ``marshal`` cannot write (pickled when packed)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Opaque)

    def __hash__(self) -> int:
        return 0


def _rulings(k: int, count: int, extra: Any = None) -> tuple[Ruling, ...]:
    return tuple(Ruling(t=(k + j) * 0.25, rule="r.made", player=("p1", "p2", None)[(k + j) % 3],
                        data=(("n", k + j), ("extra", extra))) for j in range(count))


def _fields(log: RulingLog) -> list[tuple[Any, ...]]:
    return [f for part in log.field_parts() for f in part]


KINDS = ["recipe", "rulings", "opaque", "listed"]


@settings(max_examples=80, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(1, 3), st.sampled_from(KINDS)),
                      min_size=1, max_size=120),
       every=st.integers(2, 9), keep=st.integers(1, 5))
def test_field_parts_give_each_rulings_fields_as_parts_give_the_rulings(
        steps: list[tuple[int, str]], every: int, keep: int) -> None:
    log = RulingLog()
    logs = [log]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruling_log, "PACK_EVERY", every)
        patch.setattr(ruling_log, "KEEP", keep)
        for k, (count, kind) in enumerate(steps):
            extra = _Opaque() if kind == "opaque" else [k, None] if kind == "listed" else k
            if kind == "recipe":
                log = made(log, count, [_rulings, k * 10, count, extra])
            else:
                log = log + _rulings(k * 10, count, extra)
            logs.append(log)
    for log in logs:
        want = [msgspec.structs.astuple(r) for part in log.parts() for r in part]
        assert _fields(log) == want
        assert [len(p) for p in log.field_parts()] == [len(p) for p in log.parts()]


def test_a_long_match_of_recipes_gives_the_fields_of_the_rulings_made_at_once() -> None:
    log = RulingLog()
    model: list[Ruling] = []
    for k in range(0, 3 * ruling_log.PACK_EVERY, 2):
        log = made(log, 2, [_rulings, k, 2, [k]])
        model += _rulings(k, 2, [k])
        if k % 300 == 0:
            log = log + _rulings(k + 1, 1, _Opaque())  # pickled when packed
            model += _rulings(k + 1, 1, _Opaque())
    kinds = set()
    node: RulingLog | None = log
    while node is not None:
        chunk = node._chunk
        kinds.add(chunk[:1] if chunk.__class__ is bytes else chunk.__class__)
        node = node._prev
    assert b"\x80" in kinds and len(kinds - {b"\x80", tuple, list}) > 0  # runs pickled and marshalled seen
    assert _fields(log) == [msgspec.structs.astuple(r) for r in model]
