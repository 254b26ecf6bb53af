"""The undo walk the pub keeps for each table (``tablesense.undo_walk``) holds a match's units at a
cost that does not grow with the match: a long match's walk holds as much a line as a short
one's (each unit kept its own copy of every rest before it: memory and time that grew with the
square of the shots)."""

from __future__ import annotations

import gc
import json
import tracemalloc

from paths import MATCHES

from tablesense.undo_walk import Walk

MATCH = MATCHES / "kegle" / "shot__simulated_full_information.jsonl"


def _match(repeat: int) -> list[str]:
    """One long keglebillard match: a recorded one's shots played ``repeat`` times over."""
    lines = [json.loads(x) for x in MATCH.read_text(encoding="utf-8").splitlines() if x.strip()]
    setup, body = lines[0], lines[1:]
    span = max(e["t"] for e in body) + 1.0
    out = [json.dumps(setup)]
    for k in range(repeat):
        out += [json.dumps({**e, "t": e["t"] + k * span}) for e in body
                if not (k and e.get("call") == "start")]
    return out


def _held_a_line(lines: list[str]) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        walk = Walk()
        for seq, line in enumerate(lines, 1):
            walk.feed(line, seq)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert walk.shots > 0
    return held / len(lines)


def test_a_long_matchs_undo_walk_holds_no_more_a_line_than_a_short_ones() -> None:
    short, long = _held_a_line(_match(10)), _held_a_line(_match(80))
    assert long < 1.5 * short, (short, long)
