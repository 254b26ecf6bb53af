"""A shot's tracks read as table events: strike, ball-ball contacts, cushion contacts, rest.

Pure functions on a ``ShotTrack`` (``tablesense.vision.track``), no image in sight:

- strike: the first ball to move (when it is clearly first);
- cushion contact: a ball's distance to a cushion's nose falls to zero and turns back;
  the time is where the incoming line reaches the nose;
- ball-ball contact: two tracks come within a ball's diameter (between frames the tracks
  are straight lines) and the balls exchange momentum along the line of their centres
  (the impulse ``J``; for a ball lying still: it moves off);
- rest: the still positions.

Where the evidence is not clear either way (a thin touch too slight to move the ball, a
ball hidden by the arm where another passed, a cushion of the cue ball within a frame of its
contact with a ball) the reader says nothing: no contacts at all for the shot (a shot with
contacts is taken as the whole truth by the carom engine) and, for an unclear cushion, a
cushion without its ball. The engines then ask the referee, as without a camera. For carom
(``game="carom"``) only a doubt that could change the carom does that (``vision.doubts``):
an unclear touch that decides nothing is left out and the clear contacts are said; an
unclear cushion that cannot change the cue ball's count before its third ball is not said.
A double kiss (two balls part and meet again within one encounter) is two contacts.

``NEAR`` is generous (20 mm) because nearness alone decides nothing: the momentum exchange
(or a still ball moving off) does. The simulator's physics resolves a fast ball's contact
up to a step's travel (12 mm) before the balls touch, and a real camera's centroids of
blurred balls scatter by a few millimetres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

import numpy as np

from ..events import Contact, Cushion, Event, Rest, Strike
from .doubts import cushion_matters, judge
from .track import ShotTrack

MAX_GAP = 4  # frames a ball may go unseen and be interpolated
NEAR = 0.02  # m beyond touching: two balls this far apart may have touched (see below)
OVERLAP = 0.004  # m of overlap of the straight tracks: they did touch
J_SURE = 0.04  # m/s of momentum exchange: a contact
J_NONE = 0.015  # m/s: no contact
NUDGE_SURE = 0.0025  # m a still ball moved off after the other passed: a contact
NUDGE_NONE = 0.0008  # m: not moved
CUSHION_FRAMES = 3  # frames each side of a touch, between a ball's cushion hits, to measure its exchange
AFTER = 3  # frames after the other has gone in which a touched still ball is seen rolling away
MOVED_OFF = 0.0012  # m: where a still ball has started to move (a blurred ball passing by shifts it less)
CUSHION_NEAR = 0.012  # m: the turning point is at the cushion (blurred centroids scatter)
KISS_OPEN = 0.006  # m: two balls that part this far and close again within an encounter touched twice
FAST_PASS = 0.5  # m/s: a ball passing a still one this fast moves it off if it touches at all
CREEP = 0.003  # m: balls this close that exchange no visible momentum may have touched at a crawl
ORDER = 0.012  # s: a cue ball cushion this close to its contact leaves the order unclear
POCKET_REACH = 0.09  # m: a ball last seen this near a pocket's centre, and never again, went in


@dataclass
class CameraShot:
    """What the camera says of one shot, and what it did not dare to say."""

    events: list[Event]
    #: why the shot's contacts were not said (empty: they were)
    doubts: list[str] = field(default_factory=list)
    #: what was unclear but could not change the carom (the clear contacts were said)
    notes: list[str] = field(default_factory=list)
    #: the unclear touches (t, ball, ball) left unsaid beside the clear contacts
    unsaid: list[tuple[float, str, str]] = field(default_factory=list)
    #: every cushion hit the camera was unsure of (t, the ball by that cushion then, cushion): said
    #: without its ball or not at all; a cushion sensor's hit there names its ball (``merge_shot``)
    maybe_cushions: list[tuple[float, str, int]] = field(default_factory=list)

    @property
    def sure(self) -> bool:
        return not self.doubts


def _owner(ball: str) -> str:
    """The event name of a tracked ball: alike balls ``white.2``, ``p1.3`` are ``white``, ``p1``."""
    return ball.split(".", 1)[0]


def _positions(rest: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """``rest.positions`` as docs/events.md has them: alike balls as a list of [x, y]."""
    out: dict[str, Any] = {}
    for ball, (x, y) in sorted(rest.items()):
        xy = [round(x, 4), round(y, 4)]
        if _owner(ball) != ball:
            out.setdefault(_owner(ball), []).append(xy)
        else:
            out[ball] = xy
    return out


def _fill_gaps(times: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
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


def _velocity(times: np.ndarray, p: np.ndarray, i0: int, i1: int) -> np.ndarray | None:
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


class ShotReader:
    """Reads shots on a bed ``length`` x ``width`` with balls of radius ``r``."""

    def __init__(
        self,
        length: float,
        width: float,
        r: float,
        cushion_numbers: dict[str, int] | None = None,
        game: str | None = None,
    ):
        self.length, self.width, self.r = length, width, r
        #: ``carom``: a doubt cancels the contacts only where it could change the carom
        #: (``vision.doubts``); any other game: every doubt cancels them
        self.game = game
        # carom numbering (rules.carom.geometry): 1 head x=0, 2 y=width, 3 foot x=length, 4 y=0
        self.numbers = {"x0": 1, "yW": 2, "xL": 3, "y0": 4} if cushion_numbers is None else cushion_numbers
        #: a kegle table's six pockets (corners, middles of the long sides): a ball gone into one
        #: is not hidden (the pocket sensor says it), and raises no doubt
        self.pockets = (
            [(x, y) for y in (0.0, width) for x in (0.0, length / 2, length)] if game == "kegle" else []
        )

    def read(self, shot: ShotTrack) -> CameraShot:
        times = shot.times
        doubts: list[str] = []
        tracks: dict[str, np.ndarray] = {}
        gaps: dict[str, list[tuple[int, int]]] = {}
        for b, p in shot.tracks.items():
            if np.isnan(p[:, 0]).all():
                continue
            tracks[b], gaps[b] = _fill_gaps(times, p)
        struck, moves = self._strike(times, tracks)
        cushions: list[tuple[float, str, int]] = []
        unclear_cushion: list[tuple[float, str, int]] = []
        for b, p in tracks.items():
            if moves.get(b) is None:
                continue
            start = int(np.searchsorted(times, moves[b]))  # type: ignore[arg-type]
            found = self._cushions(times, p, start) + self._struck_off(times, p, start)
            clear_hits = [(t, number) for t, number, clear in found if clear]
            for t, number, clear in found:
                if clear:
                    cushions.append((t, b, number))
                elif not any(n == number and abs(tc - t) < 0.04 for tc, n in clear_hits):
                    unclear_cushion.append((t, b, number))
        cushions.sort()
        # a ball's velocity is not measured across any cushion hit of it, clear or not
        contacts, unclear = self._contacts(times, tracks, moves, sorted(cushions + unclear_cushion))
        for b, spans in gaps.items():
            for a, e in spans:
                if self._hidden_matters(times, tracks, b, a, e):
                    doubts.append(
                        f"{b} hidden {times[a]:.3f}..{times[e - 1]:.3f} while another ball was near"
                    )
        cues = [struck] if struck is not None else list(tracks)
        weigh = self._weigh_carom if self.game == "carom" else self._weigh_any
        notes, unsaid, maybe = weigh(contacts, unclear, cushions, unclear_cushion, cues, doubts)
        events: list[Event] = []
        if struck is not None:
            events.append(Strike(t=round(float(moves[struck] or times[0]), 6), ball=_owner(struck)))
        if not doubts:
            events += [Contact(t=round(t, 6), balls=(_owner(a), _owner(b))) for t, a, b in contacts]
        events += [Cushion(t=round(t, 6), cushion=n, ball=_owner(b)) for t, b, n in cushions]
        # an unclear cushion is said without its ball (the engine then leaves cushion counts to the
        # referee)
        events += [Cushion(t=round(t, 6), cushion=n, ball=None) for t, _b, n in unclear_cushion]
        events.sort(key=lambda e: e.t)
        events.append(Rest(t=round(float(shot.rest_t), 6), positions=_positions(shot.rest) or None))
        return CameraShot(events, doubts, notes, unsaid, [(t, _owner(b), n) for t, b, n in maybe])

    # --- doubts --------------------------------------------------------------------------
    @staticmethod
    def _weigh_carom(
        contacts: list[tuple[float, str, str]],
        unclear: list[tuple[float, str, str, str]],
        cushions: list[tuple[float, str, int]],
        unclear_cushion: list[tuple[float, str, int]],
        cues: list[str],
        doubts: list[str],
    ) -> tuple[list[str], list[tuple[float, str, str]], list[tuple[float, str, int]]]:
        """A doubt cancels the contacts only where it could change the carom (vision/doubts.py).
        Moves order-unsure cushions to ``unclear_cushion`` and keeps there only those that matter;
        adds to ``doubts``; returns (notes, unclear touches left unsaid, every unsure cushion)."""
        notes: list[str] = []
        unsaid: list[tuple[float, str, str]] = []
        matters, unsure = judge(
            contacts, [(t, a, b) for t, a, b, _ in unclear], cues, [(t, b) for t, b, _n in cushions]
        )
        for t, a, b, why in unclear:
            if matters:
                doubts.append(why)
            else:
                notes.append(f"{why}; not said: it decides nothing")
                unsaid.append((t, _owner(a), _owner(b)))
        for i in sorted(unsure, reverse=True):
            t, b, n = cushions.pop(i)
            unclear_cushion.append((t, b, n))
            notes.append(f"{b}'s cushion at {t:.3f}: before or after its touch unclear")
        maybe = sorted(unclear_cushion)
        if not doubts:
            keep = [(t, b, n) for t, b, n in unclear_cushion if cushion_matters(t, b, cues, contacts)]
            notes += [
                f"{b}'s unclear cushion at {t:.3f} decides nothing"
                for t, b, n in unclear_cushion
                if (t, b, n) not in keep
            ]
            unclear_cushion[:] = keep
        return notes, unsaid, maybe

    @staticmethod
    def _weigh_any(
        contacts: list[tuple[float, str, str]],
        unclear: list[tuple[float, str, str, str]],
        cushions: list[tuple[float, str, int]],
        unclear_cushion: list[tuple[float, str, int]],
        cues: list[str],
        doubts: list[str],
    ) -> tuple[list[str], list[tuple[float, str, str]], list[tuple[float, str, int]]]:
        """Any game but carom: every doubt cancels the contacts, and so does a cushion of the
        struck ball within ``ORDER`` of its contact."""
        maybe = sorted(unclear_cushion)
        doubts += [why for _t, _a, _b, why in unclear]
        if len(cues) == 1:
            struck = cues[0]
            for t, a, b in contacts:
                if struck not in (a, b):
                    continue
                for tc, bc, _n in cushions:
                    if bc == struck and abs(tc - t) < ORDER:
                        doubts.append(f"order of {struck}'s cushion at {tc:.3f} and contact at {t:.3f}")
        if not doubts:  # after the last contact an unclear cushion can decide nothing
            last = max((t for t, _a, _b in contacts), default=math.inf)
            unclear_cushion[:] = [c for c in unclear_cushion if c[0] < last]
        return [], [], maybe

    # --- strike --------------------------------------------------------------------------
    @staticmethod
    def _strike(
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

    # --- cushions ------------------------------------------------------------------------
    def _walls(self, p: np.ndarray) -> dict[int, np.ndarray]:
        """Cushion number -> the gap (m) between the ball and that cushion's nose, per frame."""
        r, L, W, n = self.r, self.length, self.width, self.numbers
        sides = {"x0": p[:, 0] - r, "xL": L - r - p[:, 0], "y0": p[:, 1] - r, "yW": W - r - p[:, 1]}
        return {n[side]: gap for side, gap in sides.items() if side in n}

    def _cushions(self, times: np.ndarray, p: np.ndarray, start: int = 0) -> list[tuple[float, int, bool]]:
        out: list[tuple[float, int, bool]] = []
        for number, gap in self._walls(p).items():
            g = np.nan_to_num(gap, nan=1.0)
            for k in range(1, len(g) - 1):
                if not (g[k] <= g[k - 1] and g[k] < g[k + 1] and g[k] < 0.12):
                    continue
                if k <= start:
                    continue
                v_in = _velocity(times, gap[:, None], max(k - 3, start), k)
                v_out = _velocity(times, gap[:, None], k + 1, k + 4)
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
        v1 = _velocity(times, gap[:, None], max(k - 3, start), k - 1)
        if v1 is None or float(v1[0]) >= 0 or np.isnan(gap[k - 1]):
            return fallback
        t1 = float(times[k - 1] + gap[k - 1] / -float(v1[0]))
        first_out = k if t1 <= times[k] else k + 1
        if first_out == k + 1:
            v_in = _velocity(times, gap[:, None], max(k - 3, start), k)
            if v_in is None or float(v_in[0]) >= 0:
                return fallback
            t1 = float(times[k] + max(float(gap[k]), 0.0) / -float(v_in[0]))
        v2 = _velocity(times, gap[:, None], first_out, first_out + 3)
        if v2 is None or float(v2[0]) <= 0 or np.isnan(gap[first_out]):
            return fallback
        t2 = float(times[first_out] - max(float(gap[first_out]), 0.0) / float(v2[0]))
        lo, hi = float(times[first_out - 1]), float(times[first_out])
        return min(max((t1 + t2) / 2, lo), hi)

    def _struck_off(self, times: np.ndarray, p: np.ndarray, k: int) -> list[tuple[float, int, bool]]:
        """A ball lying by a cushion that leaves it: struck away, or into the cushion first? Between
        two frames both fit when the outgoing line reaches the nose after the last still frame."""
        out: list[tuple[float, int, bool]] = []
        if k + 2 >= len(times):
            return out
        for number, gap in self._walls(p).items():
            g0, gb = gap[k], gap[k + 1]
            vo = _velocity(times, gap[:, None], k + 1, k + 4)
            if vo is None or np.isnan(g0) or np.isnan(gb) or g0 > 0.03 or float(vo[0]) < 0.02:
                continue
            if times[k + 1] - gb / float(vo[0]) > times[k] - 0.002:
                out.append((float(times[k]), number, False))
        return out

    # --- ball-ball contacts --------------------------------------------------------------
    def _contacts(
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
        va, vb = _velocity(times, pa, k - 3, k), _velocity(times, pb, k - 3, k)
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
            before = _velocity(times, p, max(k - window, lo), k)
            after = _velocity(times, p, k + 1, min(k + 1 + window, hi))
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
                before = _velocity(times, p, b_lo, k) if ok else None
                after = _velocity(times, p, k + 1, b_hi) if ok else None
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

    def _by_pocket(self, xy: np.ndarray) -> bool:
        return any(math.dist((float(xy[0]), float(xy[1])), q) < POCKET_REACH for q in self.pockets)

    def _hidden_matters(
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
