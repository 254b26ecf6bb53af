"""A live table keeps a played shot's events packed (``shot_engine.Trace.seal``) and an undo
reads them back. Events are packed with their fields at a default left out (``Event`` is
``omit_defaults``: the empty ``extra`` no longer calls the packer's hook once an event), so
every kind of event, each optional field at its default or not, with unknown keys or none,
must come back as it was: equal, and the same JSON line when written out again, whether the
typed decode reads it or (an event made by hand, out of a log line's bounds) the long way."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.events import (
    Call,
    Contact,
    Cushion,
    Event,
    Goal,
    OffTable,
    Pin,
    Pocket,
    Rest,
    Setup,
    Strike,
)
from tablesense.rules.shot_engine import Trace

#: a time a log line may hold, or (an event made by hand) one it may not: read back the long way
times = st.floats(0.0, 1e6, allow_nan=False) | st.sampled_from([-1.0, 1e13])
balls = st.sampled_from(["p1", "p2", "red", "white", "yellow"])
maybe_ball = st.none() | balls
#: unknown keys a log line may carry (kept in ``extra``), or none
extras = st.none() | st.dictionaries(st.sampled_from(["white", "k", "pin", "note"]),
                                     st.integers(-3, 3) | st.text(max_size=3) | st.floats(0, 9)
                                     | st.lists(st.integers(0, 3), max_size=2),
                                     min_size=1, max_size=2)
maybe_text = st.none() | st.text(max_size=4)
positions = st.none() | st.dictionaries(balls, st.tuples(st.floats(0, 1), st.floats(0, 1)).map(list),
                                        max_size=3)


def _with_extra(kind: type[Event], fields: dict[str, Any], extra: dict[str, Any] | None) -> Event:
    """``kind`` made of the drawn ``fields``, a field left out where it was drawn as absent."""
    given_fields = {k: v for k, v in fields.items() if v is not _ABSENT}
    if extra is not None:
        given_fields["extra"] = extra
    return kind(**given_fields)


_ABSENT = object()


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field drawn, or left out (its default)."""
    return st.just(_ABSENT) | strategy


def _kind(kind: type[Event], **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Event]:
    return st.builds(_with_extra, st.just(kind), st.fixed_dictionaries({"t": times, **fields}), extras)


every_event = st.one_of(
    _kind(Setup, game=_maybe(st.sampled_from(["golf", "kegle", "carom"])),
          players=_maybe(st.fixed_dictionaries({"p1": st.text(max_size=3), "p2": st.text(max_size=3)})),
          format=_maybe(maybe_text), discipline=_maybe(maybe_text), profile=_maybe(maybe_text),
          targets=_maybe(st.none() | st.fixed_dictionaries({"p1": st.integers(0, 9)})),
          moyennes=_maybe(st.none() | st.fixed_dictionaries({"p1": st.floats(0, 9)})),
          distance=_maybe(st.none() | st.integers(0, 9))),
    _kind(Goal, goal=st.sampled_from(["A", "B"]), ball=_maybe(maybe_ball)),
    _kind(Pocket, pocket=st.integers(1, 6), ball=_maybe(maybe_ball)),
    _kind(Pin, pin=st.integers(1, 5), state=st.sampled_from(["down", "up"])),
    _kind(Cushion, cushion=st.integers(1, 4), ball=_maybe(maybe_ball)),
    _kind(OffTable, ball=_maybe(maybe_ball)),
    _kind(Rest, positions=_maybe(positions)),
    _kind(Contact, balls=st.tuples(balls, balls) | st.tuples(balls, balls, balls)),
    _kind(Strike, ball=_maybe(maybe_ball)),
    _kind(Call, call=st.sampled_from(["foul", "undo", "answer", "time"]), player=_maybe(maybe_text),
          foul=_maybe(maybe_text), ball=_maybe(maybe_text), spot=_maybe(st.none() | st.integers(0, 99)),
          question=_maybe(maybe_text), answer=_maybe(st.none() | st.booleans() | st.integers(0, 3))),
)


def written(event: Event) -> str:
    """The event as a log line would hold it."""
    return json.dumps(event.to_dict(), sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(every_event, min_size=1, max_size=10))
def test_a_sealed_shot_reads_back_every_event_as_it_was(made: list[Event]) -> None:
    trace = Trace.start(made[0])
    for event in made[1:]:
        trace = trace.plus(event)
    trace.seal()
    back = list(trace)
    assert back == made
    assert [type(e) for e in back] == [type(e) for e in made]
    assert [written(e) for e in back] == [written(e) for e in made]
    assert [dict(e.extra) for e in back] == [dict(e.extra) for e in made]
