"""``RulingLog._pack_below`` walks a log's nodes with fewer steps a node (issue 27, branch ruling6):
over any growth, branches, recipes and values ``marshal`` cannot write, it packs exactly the nodes
the walk it replaced packed, into the same bytes, linked the same way (kept here as the reference)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.rules import ruling_log
from tablesense.rules.records import Ruling
from tablesense.rules.ruling_log import RulingLog, _pack, _pack_made, made


def reference_pack_below(self: RulingLog) -> None:
    """``_pack_below`` as it was before branch ruling6 (its walks, step by step)."""
    node: RulingLog | None = self
    kept = 0
    while node is not None and kept < ruling_log.KEEP and type(node._chunk) is not bytes:
        prev = node._prev
        kept += node._n - (prev._n if prev is not None else 0)
        node = prev
    run: list[RulingLog] = []
    while node is not None and type(node._chunk) is not bytes:
        run.append(node)
        node = node._prev
    base = node
    below = base._n if base is not None else 0
    if not run or run[0]._n - below < ruling_log.KEEP:
        return
    run.reverse()
    chunks = [part._chunk for part in run]
    if list in set(map(type, chunks)):
        blob = _pack_made(chunks)
        if blob is None:
            blob = _pack([r for part in run for r in part._own()])
    else:
        items: list[Any] = []
        for chunk in chunks:
            items += chunk
        blob = _pack(items)
    if blob is None:
        return
    for part in run:
        part._chunk = blob
        part._prev = base


def _rulings(k: int, count: int, extra: Any = None) -> tuple[Ruling, ...]:
    return tuple(Ruling(t=(k + j) * 0.5, rule="r.x", player=("p1", "p2", None)[(k + j) % 3],
                        data=(("n", k + j), ("extra", extra))) for j in range(count))


def shape(log: RulingLog, nodes: list[RulingLog]) -> list[tuple[object, ...]]:
    """Each node of the log as what it holds (its chunk's kind and bytes, its length) and the
    position among ``nodes`` of the node it links to."""
    at = {id(node): i for i, node in enumerate(nodes)}
    out = []
    for node in nodes:
        chunk = node._chunk
        held = chunk if type(chunk) is bytes else (type(chunk).__name__, len(chunk))
        out.append((held, node._n, None if node._prev is None else at[id(node._prev)]))
    return out


def grown(steps: list[tuple[int, int, str]], every: int, keep: int) -> tuple[list[RulingLog], list[Any]]:
    """The logs ``steps`` grow (each from the newest log, or now and then an older one: a branch)."""
    logs: list[RulingLog] = [RulingLog()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruling_log, "PACK_EVERY", every)
        patch.setattr(ruling_log, "KEEP", keep)
        for k, (at, count, kind) in enumerate(steps):
            log = logs[-1] if at % 4 else logs[at % len(logs)]
            extra: Any = Fraction(k, 3) if kind == "opaque" else [k, None]
            if kind == "rulings":
                logs.append(log + _rulings(k * 10, count, extra))
            else:
                logs.append(made(log, count, [_rulings, k * 10, count, extra]))
    return logs, [tuple(log) for log in logs]


@settings(max_examples=120, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 4),
                                st.sampled_from(["rulings", "recipe", "opaque"])), min_size=1, max_size=150),
       every=st.integers(2, 12), keep=st.integers(1, 6))
def test_the_walk_packs_the_nodes_the_old_walk_packed_the_same_way(
        steps: list[tuple[int, int, str]], every: int, keep: int) -> None:
    new_logs, new_read = grown(steps, every, keep)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RulingLog, "_pack_below", reference_pack_below)
        old_logs, old_read = grown(steps, every, keep)
    assert shape(new_logs[-1], new_logs) == shape(old_logs[-1], old_logs)
    assert new_read == old_read
