"""``Trace`` (the events a played state had applied since its base) is a msgspec Struct for its C
``__init__`` (issue 27, branch ruling6): it must read exactly as the ``Sequence`` of its first ``n``
events it was, before and after ``seal``, and compare and hash by identity, not by its fields."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import Cushion, Event, Strike
from tablesense.rules.shot_engine import Trace

events = st.lists(
    st.one_of(
        st.builds(Strike, t=st.floats(0.0, 1e6, allow_nan=False)),
        st.builds(Cushion, t=st.floats(0.0, 1e6, allow_nan=False), cushion=st.integers(1, 4)),
    ),
    max_size=12,
)


def read_every_way(trace: Sequence[Event]) -> tuple[object, ...]:
    """What a reader of ``trace`` may ask of it, as plain values."""
    n = len(trace)
    return (
        n,
        tuple(trace),
        [trace[i] for i in range(n)],
        [trace[-i - 1] for i in range(n)],
        trace[1:],
        trace[::2],
        tuple(reversed(trace)),
        [e in trace for e in trace],
        [trace.index(e) for e in trace],
        [trace.count(e) for e in trace],
        [*trace],
        isinstance(trace, Sequence),
    )


@settings(max_examples=150, deadline=None)
@given(events, st.data())
def test_trace_reads_as_its_first_n_events_sealed_or_not(items: list[Event], data: st.DataObject) -> None:
    n = data.draw(st.integers(0, len(items)))
    first = tuple(items[:n])
    trace = Trace([list(items), None], n)
    assert read_every_way(trace) == read_every_way(first)
    trace.seal()
    assert read_every_way(trace) == read_every_way(first)


@given(events)
def test_trace_compares_and_hashes_by_identity(items: list[Event]) -> None:
    seg = [list(items), None]
    one, same_fields = Trace(seg, len(items)), Trace(seg, len(items))
    assert one == one and not one != one and hash(one) == hash(one)
    assert one != same_fields and not one == same_fields
    assert one != tuple(items) and len({one, same_fields}) == 2
