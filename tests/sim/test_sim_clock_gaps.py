"""Quiet gaps across the board's 2^30 us tick wrap lose no edge and shift no time.

``tablesense sim --fast`` plays an edges file through the real firmware under MicroPython's
unix port. The board's ``ticks_us`` is 30 bits: it wraps every 2^30 us (17.9 min), and the
firmware's tick arithmetic (the 64-bit clock, the poller's debounce, the level scan) needs
its main loop to read the ticks at least every 2^29 us (537 s). A board's loop passes every
millisecond; the simulator's feed skipped a quiet gap in one pass, so every gap over 537 s
lost the edges around it (2 a gap) and one over 2^30 us shifted every later time by 17.9
min. Each file here has bursts touching every channel of the profile, with gaps of every
length across one and several wraps between them; it is played beside its anchor, the same
bursts with 5 s gaps, and the events must be the same, at the same times less the gaps.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from effort import share

from tablesense.table.profile import load_profile

pytestmark = pytest.mark.micropython

WRAP = 1 << 30  # us: the 30-bit tick counter's period
HALF = WRAP // 2
GAPS = [  # the quiet gaps between bursts, in us
    HALF - 1_000_000,
    HALF + 1_000_000,  # the gap that used to lose two edges
    700_000_000,
    WRAP,  # exactly one wrap: the ticks come back to where they were
    WRAP + 1_000_000,
    3 * WRAP + 200_000_000,
    5 * WRAP + 7,
]
ANCHOR_GAP = 5_000_000


def burst(game: str, t: int, k: int) -> tuple[list[dict[str, Any]], int]:
    """Feed lines touching every channel of the game's profile once, from t; and the end."""
    prof = load_profile(game)
    lines: list[dict[str, Any]] = []
    for c in prof.channels:
        if c.mode == "pcnt":
            lines.append({"t_us": t, "ch": c.ch, "pulses": 1 + k % 3})
            t += 40_000
        elif c.colour:  # a ball under the colour sensor, through the beam, gone
            colour = 1 + (k + c.ch) % len(prof.colours)
            lines += [
                {"t_us": t - 1000, "ch": c.ch, "colour": colour},
                {"t_us": t, "ch": c.ch, "level": 1},
                {"t_us": t + 30_000, "ch": c.ch, "level": 0},
                {"t_us": t + 31_000, "ch": c.ch, "colour": 0},
            ]
            t += 60_000
        else:  # a pin falls and is set up
            lines += [{"t_us": t, "ch": c.ch, "level": 1}, {"t_us": t + 40_000, "ch": c.ch, "level": 0}]
            t += 80_000
    return lines, t


def edges_file(path: Path, game: str, gaps: list[int]) -> None:
    """Write bursts separated by ``gaps`` (us)."""
    lines: list[dict[str, Any]] = [{"scenario": f"{game} across quiet gaps", "game": game}]
    t = 1_000_000
    for k in range(len(gaps) + 1):
        part, t = burst(game, t, k)
        lines += part
        if k < len(gaps):
            t += gaps[k]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def play(cmd: list[str], path: Path) -> list[dict[str, Any]]:
    """The events ``tablesense sim --fast`` prints, less a last ``rest`` (``sim`` stops at
    the quiet time after the last edge, with or without it)."""
    r = subprocess.run([*cmd, "sim", str(path), "--fast", "--json"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    events = [json.loads(x) for x in r.stdout.splitlines()]
    return events[:-1] if events and events[-1]["type"] == "rest" else events


def unshifted(events: list[dict[str, Any]], gaps: list[int]) -> list[dict[str, Any]]:
    """The events with each gap's excess over the anchor's taken off their times: a burst's
    events are those up to its ``rest``."""
    excess = [0, *itertools.accumulate(g - ANCHOR_GAP for g in gaps)]
    out, k = [], 0
    for e in events:
        out.append({**e, "t": round(e["t"] - excess[min(k, len(gaps))] / 1e6, 6)})
        k += e["type"] == "rest"
    return out


@pytest.mark.parametrize("game", ["kegle", "golf", "carom"])
def test_quiet_gaps_across_one_and_several_wraps_lose_no_edge(
    game: str, tmp_path: Path, tablesense_cmd: list[str]
) -> None:
    gappy, anchor = tmp_path / "gaps.jsonl", tmp_path / "anchor.jsonl"
    edges_file(gappy, game, GAPS)
    edges_file(anchor, game, [ANCHOR_GAP] * len(GAPS))
    want = play(tablesense_cmd, anchor)
    got = play(tablesense_cmd, gappy)
    assert len([e for e in want if e["type"] == "rest"]) >= len(GAPS), want  # a rest before each gap
    assert unshifted(got, GAPS) == want, (len(got), len(want))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(share(3, 1)))  # make test: one seed
def test_random_quiet_gaps_up_to_six_wraps_lose_no_edge(
    seed: int, tmp_path: Path, tablesense_cmd: list[str]
) -> None:
    rnd = random.Random(seed)
    near_half = [rnd.randrange(HALF - 5_000_000, HALF + 5_000_000) for _ in range(5)]
    gaps = [rnd.choice([h, rnd.randrange(3_000_000, 6 * WRAP)]) for h in near_half]
    gappy, anchor = tmp_path / "gaps.jsonl", tmp_path / "anchor.jsonl"
    edges_file(gappy, "kegle", gaps)
    edges_file(anchor, "kegle", [ANCHOR_GAP] * len(gaps))
    assert unshifted(play(tablesense_cmd, gappy), gaps) == play(tablesense_cmd, anchor), gaps
