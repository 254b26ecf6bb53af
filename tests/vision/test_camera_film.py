"""``tablesense camera film``: a simulated rally to try the camera with, end to end by the CLI.

The video it writes, calibrated from its own still picture and watched by ``camera watch``,
gives the contacts its truth file says the physics made, each shot's rest with positions
within a few millimetres, and the same shots on the same seed.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest


def tablesense(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "tablesense", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.slow
def test_a_filmed_rally_calibrates_and_watches_as_the_physics_played_it(tmp_path: Path) -> None:
    out = tmp_path / "rally"
    film = tablesense("camera", "film", "--out", str(out), "--shots", "2", "--seed", "3")
    assert film.returncode == 0, film.stderr
    assert "camera calibrate --camera" in film.stdout  # says what to try next
    cal = out / "camera.json"
    done = tablesense("camera", "calibrate", "--camera", str(out / "table.png"), "--profile", "carom",
                      "--height", "2.5", "--calibration", str(cal))
    assert done.returncode == 0, done.stderr
    watched = tablesense("camera", "watch", "--camera", str(out / "shots.avi"), "--profile", "carom",
                         "--calibration", str(cal))
    assert watched.returncode == 0, watched.stderr
    truth, seen = lines((out / "truth.jsonl").read_text()), lines(watched.stdout)
    pairs = lambda events: [sorted(e["balls"]) for e in events if e["type"] == "contact"]  # noqa: E731
    assert pairs(seen) == pairs(truth) and pairs(truth)
    rests = [e for e in seen if e["type"] == "rest"]
    true_rests = [e for e in truth if e["type"] == "rest"]
    assert len(rests) == len(true_rests) == 2
    for got, want in zip(rests, true_rests):
        assert abs(got["t"] - want["t"]) < 1.0
        for ball, xy in want["positions"].items():
            assert math.dist(got["positions"][ball], xy) < 0.005, ball


def test_film_refuses_a_rally_of_no_shots_in_one_line(tmp_path: Path) -> None:
    done = tablesense("camera", "film", "--out", str(tmp_path / "x"), "--shots", "0")
    assert done.returncode == 2
    assert done.stderr.strip() == "tablesense camera film: --shots 0: say 1 to 200"
