"""What the keglebillard tests that hold a one-pass way to the general way share (no tests here):
an engine step's outcome, each event applied, the pins put up after a shot and the lines after its
rest applied as a replay applies them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tablesense.errors import TablesenseError
from tablesense.events import Event, Rest, parse_event
from tablesense.rules import find_engine

ENGINE = find_engine("kegle")


def outcome(take: Callable[..., Any], *args: Any) -> Any:
    """What ``take(*args)`` gives, or the type of the refusal it raises."""
    try:
        return take(*args)
    except TablesenseError as exc:
        return type(exc)


def apply_each(state: Any, events: Sequence[Event], rest: Rest) -> Any:
    """``apply`` of each of a shot's events and its rest, or the type of the first refusal."""
    try:
        for event in (*events, rest):
            state = ENGINE.apply(state, event)
    except TablesenseError as exc:
        return type(exc)
    return state


def pins_put_up(events: Sequence[dict[str, Any]], put_up: str) -> Sequence[int]:
    """The pins set up after a shot of ``events`` (as drawn): ``all``, the ones it ``toppled``, ``none``."""
    downs = [o["pin"] for o in events if o["type"] == "pin" and o["state"] == "down"]
    return {"all": range(1, 6), "toppled": sorted(set(downs)), "none": ()}[put_up]


def apply_after(state: Any, table: Sequence[Event], rest: Rest, after: Sequence[dict[str, Any]],
                t: float) -> tuple[Any, float]:
    """``apply`` of a shot's lines, its rest and the lines ``after`` it (calls and pins, 0.1 s apart
    from ``t``), a refused line skipped as a replay does: the state and the time after them."""
    lines = (parse_event({"t": round(t + 0.1 * (i + 1), 3), **({"type": "call"} if "call" in o else {}), **o})
             for i, o in enumerate(after))
    for event in (*table, rest, *lines):
        try:
            state = ENGINE.apply(state, event)
        except TablesenseError:
            continue
    return state, t + 0.1 * (len(after) + 1)
