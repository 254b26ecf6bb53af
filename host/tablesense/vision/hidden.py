"""A ball the camera lost for a while: could it have been touched, or touched another, unseen?
A ball last seen by a pocket, and never again, went in (the pocket's sensor says it)."""

from __future__ import annotations

import math

import numpy as np

from .. import games

POCKET_REACH = 0.09  # m: a ball last seen this near a pocket's centre, and never again, went in


def pockets(game: str | None, length: float, width: float) -> list[tuple[float, float]]:
    """The pockets of ``game``'s table (its package's ``geometry.POCKETS``) on a bed ``length`` x
    ``width``; none for a game without pockets or no game."""
    geometry = games.part(game, "geometry")
    where = getattr(geometry, "POCKETS", None)
    if not where:
        return []
    size_x, size_y = geometry.LENGTH, geometry.WIDTH  # type: ignore[union-attr]
    return [(x / size_x * length, y / size_y * width) for x, y in where.values()]


class HiddenBalls:
    """Judges the gaps in the tracks of balls of radius ``r`` on a table with ``pockets``."""

    def __init__(self, r: float, pockets: list[tuple[float, float]]) -> None:
        self.r, self.pockets = r, pockets

    def _by_pocket(self, xy: np.ndarray) -> bool:
        return any(math.dist((float(xy[0]), float(xy[1])), q) < POCKET_REACH for q in self.pockets)

    def matters(
        self, times: np.ndarray, tracks: dict[str, np.ndarray], ball: str, a: int, e: int
    ) -> bool:
        """Could ``ball``, hidden in frames a..e-1, have been touched (or touched another)?"""
        p = tracks[ball]
        before = p[a - 1] if a > 0 else None
        after = p[e] if e < len(p) else None
        if after is None and before is not None and self._by_pocket(before):
            return False  # unseen to the end, last seen by a pocket: it went in
        if before is None or after is None or np.isnan(before[0]) or np.isnan(after[0]):
            # hidden at the start (under the arm at the strike) or the end: it lay still where it
            # was seen next (or last), and no moving ball came near that spot while it was unseen
            seen = p[e : e + 6] if before is None or np.isnan(before[0]) else p[max(a - 6, 0) : a]
            seen = seen[~np.isnan(seen[:, 0])]
            if len(seen) < 3 or float(np.ptp(seen, axis=0).max()) > 0.0015:
                return True
            spot = np.median(seen, axis=0)
            for other, q in tracks.items():
                seg = q[a:e]
                seg = seg[~np.isnan(seg[:, 0])]
                if other == ball or len(seg) == 0:
                    continue
                moved = float(np.ptp(seg, axis=0).max()) > 0.002
                if moved and float(np.hypot(*(seg - spot).T).min()) < 2 * self.r + 0.03:
                    return True
            return False
        if math.hypot(*(after - before)) > 0.002:
            return True
        for other, q in tracks.items():
            if other == ball:
                continue
            seg = q[a:e]
            seg = seg[~np.isnan(seg[:, 0])]
            if (
                len(seg)
                and float(np.hypot(seg[:, 0] - before[0], seg[:, 1] - before[1]).min()) < 2 * self.r + 0.03
            ):
                return True
        return False
