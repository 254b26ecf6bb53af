"""A replay decodes its lines in batches and ends a batch, where it can, between shots
(``replay._batch_end``: after a rest not followed by a call, or before a set-up), so that a shot
seldom runs from one batch into the next. Where a batch ends changes nothing else: for every
game's recorded matches, one after another, logged with undos after rests or while the balls
roll, and any batch size and slack, a replay in batches (bounded, ``feed_chunks``; played,
``feed_lines``) ends where the same lines fed one at a time end."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import TESTS

from tablesense import replay
from tablesense.replay import BATCH, BATCH_SLACK, Replay, _batch_end, history_for

MATCHES = TESTS / "matches"
LOGS = {game: sorted((MATCHES / game).glob("*.jsonl")) for game in ("golf", "kegle", "carom")}


def _with_undos(lines: list[str], every: int) -> list[str]:
    """An undo after every ``every``-th line naming a rest or a cushion (0: none)."""
    out: list[str] = []
    seen = 0
    for line in lines:
        out.append(line)
        if every and ('"rest"' in line or '"cushion"' in line):
            seen += 1
            if seen % every == 0:
                try:
                    t = float(json.loads(line)["t"]) + 0.01
                except (ValueError, KeyError, TypeError):
                    continue
                out.append(json.dumps({"t": t, "type": "call", "call": "undo"}))
    return out


def _ended(rep: Replay) -> str:
    return json.dumps([rep.to_json(), [str(e) for e in rep.errors]], sort_keys=True, default=repr)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(LOGS)), st.data(), st.integers(2, 48), st.integers(1, 48),
       st.sampled_from([0, 3, 7]))
def test_a_replay_in_batches_ending_between_shots_ends_where_one_line_at_a_time_ends(
        game: str, data: st.DataObject, batch: int, slack: int, every: int) -> None:
    paths = data.draw(st.lists(st.sampled_from(LOGS[game]), min_size=1, max_size=6))
    lines = _with_undos([line for path in paths for line in path.read_text(encoding="utf-8").splitlines()
                         if line.strip()], every)
    undos = sum('"undo"' in line for line in lines)
    each = Replay(history=history_for(undos))
    for n, text in enumerate(lines, start=1):
        each.feed_counted([(n, text)], guard=True)
    played_each = Replay()
    for n, text in enumerate(lines, start=1):
        played_each.feed_line(text, n)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(replay, "BATCH", batch)
        mp.setattr(replay, "BATCH_SLACK", min(slack, batch))
        whole = Replay(history=history_for(undos))
        whole.feed_chunks([("\n".join(lines) + "\n").encode()], guard=True)
        played = Replay().feed_lines(lines)
    assert _ended(whole) == _ended(each)
    assert _ended(played) == _ended(played_each)


def test_a_batch_ends_after_a_rest_not_followed_by_a_call_or_before_a_set_up() -> None:
    shot = ['{"t": 1.0, "type": "cushion", "cushion": 1}', '{"t": 2.0, "type": "rest"}']
    call = '{"t": 3.0, "type": "call", "call": "foul"}'
    setup = '{"t": 0.0, "type": "setup", "game": "carom", "players": {"p1": "A", "p2": "B"}}'
    lines = shot * BATCH
    assert _batch_end(lines, 0, len(lines)) == BATCH  # line BATCH - 1 is a rest, BATCH a shot's first
    lines = shot * (BATCH // 2 - 2) + ["{}", call] * 2 + shot * BATCH
    assert _batch_end(lines, 0, len(lines)) == BATCH - 4  # (not after a rest followed by a call)
    lines = ["{}"] * (BATCH - 10) + [setup] + ["{}"] * BATCH
    assert _batch_end(lines, 0, len(lines)) == BATCH - 10
    lines = ["{}"] * (2 * BATCH)  # no place between shots: BATCH lines
    assert _batch_end(lines, 5, len(lines)) == 5 + BATCH
    assert _batch_end(lines, 2 * BATCH - 7, len(lines)) == 2 * BATCH  # the last lines
    lines = ["{}"] * (BATCH - BATCH_SLACK - 1) + [setup] + ["{}"] * BATCH  # too far back: BATCH lines
    assert _batch_end(lines, 0, len(lines)) == BATCH
