"""Keglebillard's tables write a pin naming the ball that toppled it (``"ball": "red"``, or
``null``): a key the one-pass decode does not know. A batch holds such lines out of its decode
(``events._held_out``) and gives each what ``parse_line`` gives it (``_named``, a null ball too),
so a shot holding one may be taken at once. Whatever the match, wherever such pins stand and
however the match is logged (strike sensor or none, positions or none, calls while the balls
roll, undos), a replay in batches ends where the same lines fed one at a time end: the same
state, the same errors; played (every undo kept) and with a bounded history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import TESTS

from tablesense import events
from tablesense.events import Pin, parse_batch, parse_line
from tablesense.replay import Replay, history_for

MATCHES = sorted((TESTS / "matches" / "kegle").glob("*.jsonl"))
WITH_PINS = [path for path in MATCHES if '"pin"' in path.read_text(encoding="utf-8")]
#: what a pin line may name as its toppler (``None``: the key left out)
BALLS = [None, "red", "white", "yellow", "null"]


def _logged(lines: list[str], balls: list[str | None], strike: bool, positions: bool, undo_every: int,
            call_early: bool) -> list[str]:
    """The match as a table might log it: each pin naming ``balls[i]`` in turn (cycled), with or
    without its strike lines and positions, an undo after every ``undo_every``-th rest (0: none),
    each call after a rest written just before that rest (``call_early``)."""
    out: list[str] = []
    pins = rests = 0
    for line in lines:
        try:
            obj: Any = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        kind = obj.get("type") if isinstance(obj, dict) else None
        if kind == "strike" and not strike:
            continue
        if kind == "pin":
            ball = balls[pins % len(balls)]
            pins += 1
            if ball is not None:
                obj["ball"] = None if ball == "null" else ball
            line = json.dumps(obj)
        if kind == "rest" and not positions and "positions" in obj:
            del obj["positions"]
            line = json.dumps(obj)
        if kind == "call" and call_early and out and '"rest"' in out[-1]:
            obj["t"] = max(0.0, json.loads(out[-1])["t"] - 0.001)
            out.insert(len(out) - 1, json.dumps(obj))
            continue
        out.append(line)
        if kind == "rest":
            rests += 1
            if undo_every and rests % undo_every == 0:
                out.append(json.dumps({"t": obj["t"] + 0.01, "type": "call", "call": "undo"}))
    return out


def _ended(rep: Replay) -> str:
    return json.dumps([rep.to_json(), [str(e) for e in rep.errors]], sort_keys=True, default=repr)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(WITH_PINS), st.lists(st.sampled_from(BALLS), min_size=1, max_size=6),
       st.booleans(), st.booleans(), st.sampled_from([0, 2, 3]), st.booleans(), st.integers(1, 300))
def test_a_replay_in_batches_of_pins_naming_their_ball_ends_where_one_line_at_a_time_ends(
        path: Path, balls: list[str | None], strike: bool, positions: bool, undo_every: int,
        call_early: bool, copies: int) -> None:
    base = path.read_text(encoding="utf-8").splitlines()
    # copies of the match one after another: its pins fall at every place of a batch of lines
    lines = _logged(base * (1 + copies // 100), balls, strike, positions, undo_every, call_early)
    undos = sum('"undo"' in line for line in lines)
    played_whole, played_each = Replay().feed_lines(lines), Replay()
    for n, text in enumerate(lines, start=1):
        played_each.feed_line(text, n)
    assert _ended(played_whole) == _ended(played_each)
    bounded_whole = Replay(history=history_for(undos))
    bounded_whole.feed_chunks([("\n".join(lines) + "\n").encode()], guard=True)
    bounded_each = Replay(history=history_for(undos))
    for n, text in enumerate(lines, start=1):
        bounded_each.feed_counted([(n, text)], guard=True)
    assert _ended(bounded_whole) == _ended(bounded_each)


@pytest.mark.parametrize("ball", ["red", None])
def test_a_pin_naming_its_ball_or_null_in_a_batch_is_decoded_there_as_parse_line_decodes_it(
        ball: str | None) -> None:
    pin = json.dumps({"t": 2.0, "type": "pin", "pin": 2, "state": "down", "ball": ball})
    cushion = '{"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"}'
    lines = [cushion, pin, '{"t": 3.0, "type": "rest"}', pin, cushion]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(events, "_REFUSED", ('"down", "ball"',))
        got, codes = parse_batch(lines, cut=True)
    assert got[1] == got[3] == parse_line(pin) == Pin(t=2.0, pin=2, state="down", extra={"ball": ball})
    assert codes == "ssrss"
