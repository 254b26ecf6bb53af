"""A carom shot taken whole (``CaromEngine.whole``) cuts it as one record (``engine.whole_cut``):
from any cutter a carom match leaves (its events, rests and calls fed in turn, with or without a
strike sensor, any settle window), the cutter after the shot's events and its rest is the one
``Cutter.feed`` of each in turn gives, or none where its first event opens no shot."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_carom_plain_shot import sensor

from tablesense.events import Rest, parse_event
from tablesense.rules.carom.engine import whole_cut
from tablesense.shots import R_OPEN, Cutter

#: what a carom table logs between shots: its sensors, rests, the referee's calls
line = st.one_of(sensor, st.just({"type": "rest"}),
                 st.builds(lambda c: {"type": "call", "call": c}, st.sampled_from(["carom", "undo", "note"])))
gap = st.sampled_from([0.0, 0.02, 0.3, 1.5, 4.0])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(gap, line), max_size=30), st.lists(st.tuples(gap, sensor), min_size=1, max_size=6),
       gap, st.booleans(), st.sampled_from([None, 0.5]))
def test_a_carom_shot_taken_whole_is_cut_as_its_events_fed_in_turn_cut_it(
        before: list[tuple[float, dict[str, Any]]], shot: list[tuple[float, dict[str, Any]]], last: float,
        strike: bool, window: float | None) -> None:
    cut = Cutter(strike_sensor=strike, window=window, game="carom")
    t = 0.0
    for dt, obj in before:
        t += dt
        cut = cut.feed(parse_event({"t": round(t, 6), **obj}))[1]
    events = []
    for dt, obj in shot:
        t += dt
        events.append(parse_event({"t": round(t, 6), **obj}))
    rest = parse_event({"t": round(t + last, 6), "type": "rest"})
    assert isinstance(rest, Rest)
    role, want = cut.feed(events[0])
    if role is not R_OPEN:
        assert whole_cut(cut, tuple(events), rest) is None
        return
    for event in (*events[1:], rest):
        want = want.feed(event)[1]
    assert whole_cut(cut, tuple(events), rest) == want
