"""A ball's track between frames: short gaps filled in, velocities measured (``vision.track``'s
positions, NaN where the ball was unseen)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

MAX_GAP = 4  # frames a ball may go unseen and be interpolated


def fill_gaps(times: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Short gaps interpolated; the long ones (start, end index, exclusive) returned."""
    p = p.copy()
    ok = ~np.isnan(p[:, 0])
    long_gaps: list[tuple[int, int]] = []
    if ok.sum() < 2:
        return p, long_gaps
    idx = np.flatnonzero(ok)
    if idx[0] > MAX_GAP:  # unseen from the track's start (under the arm at the strike)
        long_gaps.append((0, int(idx[0])))
    for a, b in pairwise(idx):
        if b - a > 1:
            if b - a - 1 <= MAX_GAP:
                for k in range(a + 1, b):
                    s = (times[k] - times[a]) / (times[b] - times[a])
                    p[k] = p[a] + s * (p[b] - p[a])
            else:
                long_gaps.append((a + 1, b))
    if len(p) - 1 - idx[-1] > MAX_GAP:  # unseen to its end
        long_gaps.append((int(idx[-1]) + 1, len(p)))
    return p, long_gaps


def velocity(times: np.ndarray, p: np.ndarray, i0: int, i1: int) -> np.ndarray | None:
    """Least-squares velocity over frames i0..i1 (inclusive), or None with under 2 frames."""
    i0, i1 = max(i0, 0), min(i1, len(times) - 1)
    sel = slice(i0, i1 + 1)
    t, q = times[sel], p[sel]
    ok = ~np.isnan(q[:, 0])
    if ok.sum() < 2:
        return None
    t, q = t[ok], q[ok]
    tc = t - t.mean()
    den = float((tc**2).sum())
    if den == 0:
        return None
    return (tc[:, None] * (q - q.mean(axis=0))).sum(axis=0) / den  # type: ignore[no-any-return]

