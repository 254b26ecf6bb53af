"""Every recorded match (tests/matches) referees the same when its log is written another way the
format allows: the lines of a shot in another order (``t`` orders a shot's events, whatever
their order in the log), or a strike reported before every shot (a table with a strike sensor,
docs/events.md). Every rule of every game is held to it at once, on the matches that exercise
them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from paths import TESTS

from tablesense.replay import Replay
from tablesense.shots import Role, cut

MATCHES = sorted((TESTS / "matches").glob("*/*.jsonl"))


def _objects(path: Path) -> list[dict[str, Any]] | None:
    """The log's objects; None for a log with a line that is no event object with a time."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            return None
        t = obj.get("t") if isinstance(obj, dict) else None
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            return None
        out.append(obj)
    return out


def _state(objs: list[dict[str, Any]]) -> dict[str, Any]:
    rep = Replay()
    for n, obj in enumerate(objs, 1):
        rep.feed_line(json.dumps(obj), n)
    state = rep.to_json()
    state.pop("errors", None)
    for q in state["questions"]:
        q.pop("index", None)  # where its pocket event is in the shot's lines
    state["errors"] = sorted(e.error for e in rep.errors)
    return state


def _reordered(objs: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Each shot's run of lines before its rest shuffled; lines with the same ``t`` keep their
    order (at the same ``t`` the log's order decides, e.g. golf.frame.double-finish)."""
    roles = cut(objs).roles
    out = list(objs)
    i = 0
    while i < len(out):
        if roles[i] is not Role.OPEN:
            i += 1
            continue
        j = i + 1
        while j < len(out) and roles[j] is Role.PLAY and out[j].get("type") != "call":
            j += 1
        run = out[i:j]
        times = sorted({o["t"] for o in run})
        rng.shuffle(times)
        rank = {t: k for k, t in enumerate(times)}
        out[i:j] = sorted(run, key=lambda o: rank[o["t"]])  # stable: same t, same order
        i = j
    return out


@pytest.mark.parametrize("log", MATCHES, ids=[f"{p.parent.name}/{p.stem}" for p in MATCHES])
def test_a_recorded_match_referees_the_same_whatever_the_order_of_a_shots_lines(log: Path) -> None:
    objs = _objects(log)
    if objs is None:
        pytest.skip("a line that is no event with a time: its place decides what it is")
    expected = _state(objs)
    rng = random.Random(log.name)
    for _ in range(3):
        variant = _reordered(objs, rng)
        if variant != objs:
            assert _state(variant) == expected


def _with_strikes(objs: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """A strike before the first event (in time) of every shot; None for a log this cannot
    say: one with strikes already, a rest with nothing open (a lay-out, the rest of a shot a
    call made), or a game whose cue ball the log does not name."""
    result = cut(objs)
    if any(o.get("type") == "strike" for o in objs) or Role.EMPTY in result.roles:
        return None
    first = {}
    for shot in result.shots:
        times = [e["t"] for e, r in zip(shot.events, shot.roles, strict=True)
                 if r is not Role.SETTLE and e.get("type") != "rest"]
        first[shot.seqs[0]] = min(times)
    out: list[dict[str, Any]] = []
    game = None
    for n, (obj, role) in enumerate(zip(objs, result.roles, strict=True), 1):
        if obj.get("type") == "setup":
            game = obj.get("game")
        if role is Role.OPEN:
            cue = "red" if game == "kegle" else None  # golf and carom logs do not say whose turn it is
            out.append({"t": round(first[n] - 0.01, 6), "type": "strike", "ball": cue})
        out.append(obj)
    return out


@pytest.mark.parametrize("log", MATCHES, ids=[f"{p.parent.name}/{p.stem}" for p in MATCHES])
def test_a_recorded_match_referees_the_same_with_a_strike_reported_before_every_shot(log: Path) -> None:
    objs = _objects(log)
    variant = _with_strikes(objs) if objs is not None else None
    if variant is None:
        pytest.skip("no strike can be added to every shot of this log as it is written")
    expected, got = _state(objs), _state(variant)  # type: ignore[arg-type]
    if any("the match is over" in e for e in expected["errors"]):
        pytest.skip("events after the end: a strike is refused there, a drop is a drop")
    if expected["errors"] or got["errors"]:  # a line refused: its number moved
        assert len(got["errors"]) == len(expected["errors"])
        expected.pop("errors"), got.pop("errors")
    assert got == expected
