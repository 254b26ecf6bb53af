"""The strike: the ball that moved first, when it is clearly first."""

from __future__ import annotations

import numpy as np


def strike(
    times: np.ndarray, tracks: dict[str, np.ndarray]
) -> tuple[str | None, dict[str, float | None]]:
    """The ball that moved first, and when each ball first moved (None: never)."""
    first: dict[str, float | None] = {}
    index: dict[str, int] = {}
    for b, p in tracks.items():
        ok = ~np.isnan(p[:, 0])
        if ok.sum() < 3:
            first[b] = None
            continue
        start = np.median(p[ok][:6], axis=0)  # where it lay when first seen (the arm may hide it)
        d = np.hypot(p[:, 0] - start[0], p[:, 1] - start[1])
        over = np.flatnonzero(np.nan_to_num(d, nan=0.0) > 0.002)
        if len(over) == 0:
            first[b] = None
            continue
        k = int(over[0])
        index[b] = max(k - 1, 0)
        first[b] = float(times[max(k - 1, 0)])
    if not index:
        return None, first
    order = sorted(index, key=lambda b: index[b])
    if len(order) > 1 and index[order[1]] - index[order[0]] < 2:
        return None, first
    return order[0], first
