"""Cushion contacts read off a ball's track: its distance to a cushion's nose falls to zero and
turns back; the time is where the incoming line reaches the nose. A hit the track does not
make clear is said as unclear (``clear`` False), for the shot's reader to weigh."""

from __future__ import annotations

import numpy as np

from .motion import velocity

CUSHION_NEAR = 0.012  # m: the turning point is at the cushion (blurred centroids scatter)


def cushion_numbers(lines: dict[int, tuple[tuple[float, float], tuple[float, float]]]) -> dict[str, int]:
    """Side (``x0``, ``xL``, ``y0``, ``yW``) -> cushion number, from a table's cushion nose lines
    (``TableSpec.cushions``: number -> two end points)."""
    out: dict[str, int] = {}
    xs = [v for (a, b) in lines.values() for v in (a[0], b[0])]
    for number, ((ax, ay), (bx, by)) in lines.items():
        if ax == bx:
            out["x0" if ax == min(xs) else "xL"] = number
        elif ay == by:
            out["y0" if ay == 0 else "yW"] = number
    return out



class CushionReader:
    """Finds the cushion hits of a ball on a bed ``length`` x ``width`` with balls of radius ``r``;
    ``numbers``: side (``x0``, ``xL``, ``y0``, ``yW``) -> cushion number."""

    def __init__(self, length: float, width: float, r: float, numbers: dict[str, int]) -> None:
        self.length, self.width, self.r, self.numbers = length, width, r, numbers

    def _walls(self, p: np.ndarray) -> dict[int, np.ndarray]:
        """Cushion number -> the gap (m) between the ball and that cushion's nose, per frame."""
        r, L, W, n = self.r, self.length, self.width, self.numbers
        sides = {"x0": p[:, 0] - r, "xL": L - r - p[:, 0], "y0": p[:, 1] - r, "yW": W - r - p[:, 1]}
        return {n[side]: gap for side, gap in sides.items() if side in n}

    def hits(self, times: np.ndarray, p: np.ndarray, start: int = 0) -> list[tuple[float, int, bool]]:
        out: list[tuple[float, int, bool]] = []
        for number, gap in self._walls(p).items():
            g = np.nan_to_num(gap, nan=1.0)
            for k in range(1, len(g) - 1):
                if not (g[k] <= g[k - 1] and g[k] < g[k + 1] and g[k] < 0.12):
                    continue
                if k <= start:
                    continue
                v_in = velocity(times, gap[:, None], max(k - 3, start), k)
                v_out = velocity(times, gap[:, None], k + 1, k + 4)
                if v_in is None or v_out is None:
                    out.append((float(times[k]), number, False))
                    continue
                vi, vo = float(v_in[0]), float(v_out[0])
                if vi > -0.02 or vo < 0.005:
                    if g[k] < 0.004 and vi < -0.006:  # crept up to the cushion: touched or not, unclear
                        out.append((float(times[k]), number, False))
                    continue
                # where the incoming and the outgoing line reach the nose
                t_in = float(times[k] - g[k] / vi) if g[k] > 0 else float(times[k])
                k_out = min(k + 1, len(g) - 1)
                t_out = float(times[k_out] - g[k_out] / vo)
                dt = float(times[1] - times[0]) if len(times) > 1 else 0.02
                reach = max(CUSHION_NEAR, 1.1 * abs(vi) * dt)  # a fast ball's nearest frame is further off
                if g[k] < reach and abs(t_in - t_out) < 2.5 * dt:
                    t_hit = min(max(t_in, float(times[k - 1])), float(times[k_out]))
                    out.append((self._hit_time(times, gap, k, start, t_hit), number, True))
                elif g[k] < reach + 0.02:
                    out.append((float(times[k]), number, False))
        return out

    @staticmethod
    def _hit_time(times: np.ndarray, gap: np.ndarray, k: int, start: int, fallback: float) -> float:
        """When a ball nearest the nose in frame ``k`` hit it: the nearest frame may be after the hit
        already (on its way out) or before it; the incoming and the outgoing line, each through the
        frames on its side, reach the nose on either side of the hit (their mean)."""
        if k + 1 >= len(times):
            return fallback
        v1 = velocity(times, gap[:, None], max(k - 3, start), k - 1)
        if v1 is None or float(v1[0]) >= 0 or np.isnan(gap[k - 1]):
            return fallback
        t1 = float(times[k - 1] + gap[k - 1] / -float(v1[0]))
        first_out = k if t1 <= times[k] else k + 1
        if first_out == k + 1:
            v_in = velocity(times, gap[:, None], max(k - 3, start), k)
            if v_in is None or float(v_in[0]) >= 0:
                return fallback
            t1 = float(times[k] + max(float(gap[k]), 0.0) / -float(v_in[0]))
        v2 = velocity(times, gap[:, None], first_out, first_out + 3)
        if v2 is None or float(v2[0]) <= 0 or np.isnan(gap[first_out]):
            return fallback
        t2 = float(times[first_out] - max(float(gap[first_out]), 0.0) / float(v2[0]))
        lo, hi = float(times[first_out - 1]), float(times[first_out])
        return min(max((t1 + t2) / 2, lo), hi)

    def struck_off(self, times: np.ndarray, p: np.ndarray, k: int) -> list[tuple[float, int, bool]]:
        """A ball lying by a cushion that leaves it: struck away, or into the cushion first? Between
        two frames both fit when the outgoing line reaches the nose after the last still frame."""
        out: list[tuple[float, int, bool]] = []
        if k + 2 >= len(times):
            return out
        for number, gap in self._walls(p).items():
            g0, gb = gap[k], gap[k + 1]
            vo = velocity(times, gap[:, None], k + 1, k + 4)
            if vo is None or np.isnan(g0) or np.isnan(gb) or g0 > 0.03 or float(vo[0]) < 0.02:
                continue
            if times[k + 1] - gb / float(vo[0]) > times[k] - 0.002:
                out.append((float(times[k]), number, False))
        return out
