"""Ball-ball contacts read off two tracks: they come within a ball's diameter (between frames
the tracks are straight lines) and the balls exchange momentum along the line of their centres
(the impulse ``J``; for a ball lying still: it moves off). A double kiss (two balls part and
meet again within one encounter) is two contacts.

``NEAR`` is generous (20 mm) because nearness alone decides nothing: the momentum exchange
(or a still ball moving off) does. The simulator's physics resolves a fast ball's contact
up to a step's travel (12 mm) before the balls touch, and a real camera's centroids of
blurred balls scatter by a few millimetres."""

from __future__ import annotations

import math
from itertools import combinations, pairwise

import numpy as np

from .motion import velocity

NEAR = 0.02  # m beyond touching: two balls this far apart may have touched (see below)
OVERLAP = 0.004  # m of overlap of the straight tracks: they did touch
J_SURE = 0.04  # m/s of momentum exchange: a contact
J_NONE = 0.015  # m/s: no contact
NUDGE_SURE = 0.0025  # m a still ball moved off after the other passed: a contact
NUDGE_NONE = 0.0008  # m: not moved
CUSHION_FRAMES = 3  # frames each side of a touch, between a ball's cushion hits, to measure its exchange
AFTER = 3  # frames after the other has gone in which a touched still ball is seen rolling away
MOVED_OFF = 0.0012  # m: where a still ball has started to move (a blurred ball passing by shifts it less)
KISS_OPEN = 0.006  # m: two balls that part this far and close again within an encounter touched twice
FAST_PASS = 0.5  # m/s: a ball passing a still one this fast moves it off if it touches at all
CREEP = 0.003  # m: balls this close that exchange no visible momentum may have touched at a crawl


class ContactReader:
    """Finds the touches of balls of radius ``r``."""

    def __init__(self, r: float) -> None:
        self.r = r

    def contacts(
        self,
        times: np.ndarray,
        tracks: dict[str, np.ndarray],
        moves: dict[str, float | None],
        cushions: list[tuple[float, str, int]],
    ) -> tuple[list[tuple[float, str, str]], list[tuple[float, str, str, str]]]:
        """The clear touches (t, ball, ball), and the unclear ones (t, ball, ball, why)."""
        out: list[tuple[float, str, str]] = []
        unclear: list[tuple[float, str, str, str]] = []
        touch = 2 * self.r
        dt = float(np.median(np.diff(times))) if len(times) > 1 else 1 / 60
        pairs = [(a, b) for a, b in combinations(sorted(tracks), 2) if moves.get(a) or moves.get(b)]
        runs_of = {
            (a, b): [
                part
                for run in self._encounters(tracks[b] - tracks[a], touch + NEAR, dt)
                for part in self._split(tracks[b] - tracks[a], *run)
            ]
            for a, b in pairs
        }
        for a, b in pairs:
            pa, pb = tracks[a], tracks[b]
            rel = pb - pa
            # each encounter's frames end where another encounter of either ball begins (its
            # velocities, and a still ball's moving off, belong to that one)
            elsewhere = [
                (q0, q1, self._closest(tracks[pair[1]] - tracks[pair[0]], q0, q1)[0])
                for pair, runs in runs_of.items()
                for q0, q1, _lo, _hi in runs
                if pair != (a, b) and (a in pair or b in pair)
            ]
            for k0, k1, lo, hi in runs_of[(a, b)]:
                own = [  # the pair's other encounters (the parts of a split one keep their own bounds)
                    (q0, q1, q0) for q0, q1, _lo, _hi in runs_of[(a, b)] if q0 > k1 + 1 or q1 < k0 - 1
                ]
                k_here = self._closest(rel, k0, k1)[0]
                for q0, q1, kq in elsewhere + own:
                    if q0 > k1 or (q1 >= k0 and kq > k_here):  # after this one (or, overlapping, its
                        hi = min(hi, q0 if q0 > k1 else kq)  # closest point after this one's)
                    elif q1 < k0 or kq < k_here:
                        lo = max(lo, q1 + 1 if q1 < k0 else kq + 1)
                k, s, dmin = self._closest(rel, k0, k1)
                if k == k0 and s == 0.0 and k0 > 0 and not np.isnan(rel[k0 - 1, 0]):
                    if math.hypot(*rel[k0 - 1]) < dmin:  # parting already before it: a tail, not a touch
                        continue
                moved_at = self._moved_off(pa, k0, min(k1, hi - 2)) or self._moved_off(
                    pb, k0, min(k1, hi - 2)
                )
                if moved_at is not None:  # a still ball moved off: the touch is in the interval before
                    k, s, dmin = self._closest(rel, k0, moved_at - 1)
                # the straight line between frames cuts the corner of a touch: the gate allows for it,
                # the verdict goes by the measured distance (exact for balls that went straight on)
                gate = max(dmin - 0.25 * float(np.hypot(*(rel[k + 1] - rel[k]))), min(dmin, touch))
                if gate > touch + NEAR:
                    continue
                others = tuple(q for o, q in tracks.items() if o not in (a, b))
                verdict, t_hit = self._verdict(
                    times, pa, pb, a, b, k, s, dmin, cushions, k0, k1, lo, hi, others
                )
                if verdict is None:
                    unclear.append(
                        (
                            t_hit,
                            a,
                            b,
                            f"{a}-{b} at {times[k]:.3f}: {dmin * 1000 - touch * 1000:+.1f} mm apart, unclear",
                        )
                    )
                elif verdict:
                    out.append((t_hit, a, b))
        out.sort()
        return out, unclear

    @staticmethod
    def _moved_off(p: np.ndarray, k0: int, k1: int) -> int | None:
        """The first frame (k0+1 .. k1+2) in which a ball still before the encounter has moved."""
        pre = p[max(k0 - 5, 0) : k0 + 1]
        pre = pre[~np.isnan(pre[:, 0])]
        if len(pre) < 2 or float(np.ptp(pre, axis=0).max()) > 0.0015:
            return None
        ref = np.median(pre, axis=0)
        for m in range(k0 + 1, min(k1 + 3, len(p))):
            if not np.isnan(p[m, 0]) and math.hypot(*(p[m] - ref)) > MOVED_OFF:
                return m
        return None

    @staticmethod
    def _encounters(rel: np.ndarray, within: float, dt: float) -> list[tuple[int, int]]:
        """Runs of frame intervals (k0..k1) whose straight-line closest distance is under ``within``
        (plus a quarter of the interval's relative travel: a straight line between the frames
        before and after a contact cuts the corner of the true paths)."""
        n = len(rel)
        close = np.zeros(max(n - 1, 0), bool)
        for k in range(n - 1):
            p, q = rel[k], rel[k + 1]
            if np.isnan(p[0]) or np.isnan(q[0]):
                continue
            d = q - p
            dd = float(d @ d)
            s = 0.0 if dd == 0 else min(max(-float(p @ d) / dd, 0.0), 1.0)
            close[k] = math.hypot(*(p + s * d)) < within + 0.25 * math.sqrt(dd)
        runs: list[tuple[int, int]] = []
        k = 0
        while k < len(close):
            if close[k]:
                j = k
                while j + 1 < len(close) and close[j + 1]:
                    j += 1
                runs.append((k, j))
                k = j + 1
            else:
                k += 1
        return runs

    @staticmethod
    def _split(rel: np.ndarray, k0: int, k1: int) -> list[tuple[int, int, int, int]]:
        """An encounter (intervals k0..k1) cut where the balls part by ``KISS_OPEN`` and close again
        (a double kiss: two touches); each part with the frames its velocities may use (lo, hi)."""
        d = np.hypot(rel[k0 : k1 + 2, 0], rel[k0 : k1 + 2, 1])  # frames k0..k1+1
        cuts: list[int] = []
        i_min, i_max = 0, -1
        for i in range(1, len(d)):
            if i_max < 0:
                if d[i] < d[i_min]:
                    i_min = i
                elif d[i] - d[i_min] >= KISS_OPEN:
                    i_max = i
            elif d[i] > d[i_max]:
                i_max = i
            elif d[i_max] - d[i] >= KISS_OPEN:
                cuts.append(k0 + i_max)
                i_min, i_max = i, -1
        if not cuts:
            return [(k0, k1, 0, 1 << 30)]
        edges = [k0, *cuts, k1 + 1]
        return [
            (a, b - 1, 0 if j == 0 else a, 1 << 30 if j == len(edges) - 2 else b)
            for j, (a, b) in enumerate(pairwise(edges))
        ]

    @staticmethod
    def _closest(rel: np.ndarray, k0: int, k1: int) -> tuple[int, float, float]:
        best = (k0, 0.0, math.inf)
        for k in range(k0, k1 + 1):
            p, q = rel[k], rel[k + 1]
            d = q - p
            dd = float(d @ d)
            s = 0.0 if dd == 0 else min(max(-float(p @ d) / dd, 0.0), 1.0)
            dist = math.hypot(*(p + s * d))
            if dist < best[2]:
                best = (k, s, dist)
        return best

    def _verdict(
        self,
        times: np.ndarray,
        pa: np.ndarray,
        pb: np.ndarray,
        a: str,
        b: str,
        k: int,
        s: float,
        dmin: float,
        cushions: list[tuple[float, str, int]],
        k0: int,
        k1: int,
        lo: int = 0,
        hi: int = 1 << 30,
        others: tuple[np.ndarray, ...] = (),
    ) -> tuple[bool | None, float]:
        """(True: touched, False: did not, None: unclear; the time of the touch). Velocities are
        taken within frames lo..hi (a double kiss: between the touches, not across them)."""
        touch = 2 * self.r
        rel0, rel1 = pb[k] - pa[k], pb[k + 1] - pa[k + 1]
        t_hit = self._touch_time(times, rel0, rel1, k, s, touch)
        va, vb = velocity(times, pa, k - 3, k), velocity(times, pb, k - 3, k)
        if va is not None and vb is not None:  # where the incoming lines reach touching
            t_in = self._touch_time(
                times, rel0, rel0 + (vb - va) * float(times[k + 1] - times[k]), k, -1.0, touch
            )
            if t_in >= times[k]:
                t_hit = t_in
        n = rel0 + s * (rel1 - rel0)
        norm = float(np.hypot(*n)) or 1.0
        n = n / norm
        window = 5
        dt = float(times[1] - times[0]) if len(times) > 1 else 1 / 60
        near_cushion = {ball for tc, ball, _ in cushions if abs(tc - t_hit) < window * dt}
        dv: dict[str, float | None] = {}
        still: dict[str, bool] = {}
        for ball, p, sign in ((a, pa, -1.0), (b, pb, 1.0)):
            before = velocity(times, p, max(k - window, lo), k)
            after = velocity(times, p, k + 1, min(k + 1 + window, hi))
            if ball in near_cushion:  # velocities only between its cushion hits, if frames enough
                b_lo, b_hi = max(k - window, lo), min(k + 1 + window, hi)
                for tc, bc, _n in cushions:
                    if bc != ball:
                        continue
                    if tc <= times[k]:
                        b_lo = max(b_lo, int(np.searchsorted(times, tc)) + 1)
                    elif tc >= times[k + 1]:
                        b_hi = min(b_hi, int(np.searchsorted(times, tc)) - 2)
                    else:
                        b_lo = 1 << 30  # a cushion inside the touch's interval: no velocities
                ok = k - b_lo + 1 >= CUSHION_FRAMES and b_hi - k >= CUSHION_FRAMES
                before = velocity(times, p, b_lo, k) if ok else None
                after = velocity(times, p, k + 1, b_hi) if ok else None
            if before is None or after is None:
                dv[ball] = None
            else:
                dv[ball] = sign * float((after - before) @ n)
            pre = p[max(k0 - window, 0) : k0 + 1]  # before the balls came near
            pre = pre[~np.isnan(pre[:, 0])]
            still[ball] = len(pre) >= 2 and float(np.ptp(pre, axis=0).max()) < 0.0015
        if still[a] and still[b]:  # both lay still: the first to move was struck, not touched
            starts = [(m, ball) for ball, p in ((a, pa), (b, pb)) if (m := self._moved_off(p, k0, len(p)))]
            if starts:
                still[min(starts)[1]] = False
        # a ball that lay still: did it move off? (catches the thinnest touches)
        for ball, p in ((a, pa), (b, pb)):
            if not still[ball]:
                continue
            ref = np.nanmedian(p[max(k0 - window, 0) : k0 + 1], axis=0)
            # a touched ball moves off at once: while the other is near, or 50 ms after
            other = pb if p is pa else pa
            span = np.arange(k0 + 1, min(k1 + 5, hi + 1, len(p)))
            near = np.hypot(*(p[span] - other[span]).T) <= touch + NEAR + 0.03
            post = p[span[near]] if near.any() else p[span[:0]]
            post = post[~np.isnan(post[:, 0])]
            if len(post) == 0:
                return None, t_hit
            moved = float(np.hypot(post[:, 0] - ref[0], post[:, 1] - ref[1]).max())
            if moved >= NUDGE_SURE:
                return True, t_hit
            if near.any():  # the other gone, and no third ball near: rolling away from it is a touch
                last = int(span[near][-1])
                later = [
                    m
                    for m in range(last + 1, min(last + 1 + AFTER, hi + 1, len(p)))
                    if not np.isnan(p[m, 0])
                    and all(
                        np.isnan(q[m, 0]) or math.hypot(*(p[m] - q[m])) > touch + NEAR + 0.03 for q in others
                    )
                ]
                if later and len(later) == min(AFTER, len(p) - last - 1):
                    away = (p[later[-1]] - ref) @ (n if p is pb else -n)
                    if away >= NUDGE_SURE and away >= 0.8 * math.hypot(*(p[later[-1]] - ref)):
                        return True, t_hit
            if moved <= NUDGE_NONE and dmin > touch + CREEP:
                return False, t_hit
            # a fast ball passing within CREEP: a touch, however thin, would move the still ball
            # off at once; it has not moved in the frames after (though the other is gone)
            v_rel = float(np.hypot(*(rel1 - rel0))) / float(times[k + 1] - times[k])
            after = p[k0 + 1 : min(k + 6, hi + 1, len(p))]
            after = after[~np.isnan(after[:, 0])]
            if dmin >= touch and v_rel >= FAST_PASS and len(after) >= 3:
                if float(np.hypot(after[:, 0] - ref[0], after[:, 1] - ref[1]).max()) <= NUDGE_NONE:
                    return False, t_hit
            return None, t_hit
        known = [v for v in dv.values() if v is not None]
        if not known:
            return (True, t_hit) if dmin < touch - OVERLAP else (None, t_hit)
        j = sum(known) / len(known)
        if j >= J_SURE or dmin < touch - OVERLAP:
            return True, t_hit
        if j <= J_NONE and dmin > touch + CREEP:
            return False, t_hit
        return None, t_hit

    @staticmethod
    def _touch_time(
        times: np.ndarray, rel0: np.ndarray, rel1: np.ndarray, k: int, s_min: float, touch: float
    ) -> float:
        """When the straight relative track first reaches ``touch`` in frame interval k (else its closest)."""
        d = rel1 - rel0
        a, b, c = float(d @ d), 2 * float(rel0 @ d), float(rel0 @ rel0) - touch**2
        s = s_min
        if a > 0:
            disc = b * b - 4 * a * c
            if disc >= 0:
                root = (-b - math.sqrt(disc)) / (2 * a)
                if 0.0 <= root <= 1.0:
                    s = root
        return float(times[k] + s * (times[k + 1] - times[k]))
