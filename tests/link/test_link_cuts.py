"""Cable cuts of every length at rates up to the link's limit lose nothing the board still holds.

The real firmware runs under MicroPython's unix port on a pty, its edges played in real time
(``realtime=True``: the board does not wait for the host). The host's ``Link`` reads it over
``socket://`` through ``tablesense.sim.cable.Cable``, a stand-in for the cable (no software can
pull a real one), which either *cuts* the line (every byte lost both ways, the port stays open:
a loose connector) or *unplugs* the USB cable (the port closes and cannot be opened until it is
back). Each case cuts at random moments (seeded) with lengths over 0.15-0.8 s.

What must hold, whatever the cuts: every edge arrives once and in order, or is said ``lost``
with its range; and a range is said lost only when the board itself says it no longer holds it
(its ERROR 3 "oldest kept is M", or more frames came after it than the board keeps). Where the
cuts cannot have pushed a frame out of the board's 2048-frame store, nothing is lost at all.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from effort import share

from tablesense.link.frame import F_ACTIVE
from tablesense.sim.cable import Cable, CutRun, play_with_cuts
from tablesense.sim.fitl import round_robin_edges, start_firmware

pytestmark = pytest.mark.micropython

KEEP = 2048  # frames the firmware keeps for replay (firmware/link.py)
LINE = 720  # EVENT frames a second at 115200 baud: the link's limit
SPAN_S = share(4.0, 3.0)  # seconds of edges per case (make test: 3, the faults as long and as many)
# a cut costs the frames of its length, plus the time to notice and ask (a reconnect's
# back-off, the HELLO, the request's way): a generous figure for the bound below
NOTICE_S = 0.5


def faults_for(rate: int, kind: str, seed: str) -> list[tuple[float, str, float]]:
    """Cuts of ``kind`` at random moments of the feed: 0.15 s and 0.8 s always, and random
    lengths between, as many as the board's store takes at ``rate`` without a loss."""
    rnd = random.Random(seed)
    lengths = [0.15, 0.8]
    budget = (KEEP - 300) / rate - sum(x + NOTICE_S for x in lengths)
    while True:
        x = round(rnd.uniform(0.15, 0.8), 3)
        if x + NOTICE_S > budget:
            break
        lengths.append(x)
        budget -= x + NOTICE_S
    rnd.shuffle(lengths)
    moments = sorted(rnd.uniform(0.1, SPAN_S) for _ in lengths)
    return [(at, kind, x) for at, x in zip(moments, lengths)]


def board_could_lose(rate: int, faults: list[tuple[float, str, float]]) -> bool:
    """Frames pile up behind the board's send cursor only while the line is out or the host has
    not yet asked (at most ``rate`` a second); a replay moving at the line's 720 a second takes
    them off. So at most ``rate`` x (the time the faults and their noticing take, counted once
    where they overlap) wait at once: a frame can fall out of the board's store only if that
    reaches it."""
    if not faults:
        return False
    each = sum(x + NOTICE_S for _, _, x in faults)
    window = max(at + x for at, _, x in faults) - min(at for at, _, _ in faults) + NOTICE_S
    return rate * min(each, window) >= KEEP - 200


def check(run: CutRun, edges: list[dict[str, int]], may_lose: bool) -> None:
    said = f"faults {run.faults}\n" + "\n".join(run.statuses[-60:])
    assert run.finished, f"{run.arrived} arrived, {run.said_lost} said lost of {run.sent}:\n{said}"
    seqs = [f.seq for f in run.frames]
    assert seqs == sorted(set(seqs)), f"doubled or out of order:\n{said}"
    lost = [s for a, b, _ in run.lost for s in range(a, b + 1)]
    assert len(lost) == len(set(lost)) and not set(lost) & set(seqs), f"a range said lost twice:\n{said}"
    assert set(lost) | set(seqs) == set(range(len(edges))), said
    for f in run.frames:  # each frame is its edge: channel and level
        e = edges[f.seq]
        assert (f.channel, bool(f.flags & F_ACTIVE)) == (e["ch"], bool(e["level"])), (f, e)
    for a, b, why in run.lost:  # only what the board said it no longer holds
        assert "no longer holds" in why or "more than the device keeps" in why, (a, b, why, said)
        assert b + KEEP < len(edges), f"{a}..{b} said lost, but the board never had {KEEP} frames after it"
    if not may_lose:
        assert not run.lost, f"lost frames the board still held:\n{said}"



CASES = [
    pytest.param(500, "cut", id="500/s-line-cut"),
    pytest.param(500, "unplug", id="500/s-unplugged"),
    pytest.param(150, "cut", id="150/s-line-cut", marks=pytest.mark.slow),
    pytest.param(150, "unplug", id="150/s-unplugged", marks=pytest.mark.slow),
    pytest.param(700, "cut", id="700/s-line-cut", marks=pytest.mark.slow),
    pytest.param(700, "unplug", id="700/s-unplugged", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("rate", "kind"), CASES)
async def test_cuts_of_every_length_lose_no_frame_the_board_still_holds(
    board: Path, rate: int, kind: str
) -> None:
    edges = round_robin_edges(int(rate * SPAN_S), 0, 1_000_000 // rate)
    faults = faults_for(rate, kind, f"{rate}-{kind}")
    assert len(faults) >= 2 and min(x for *_, x in faults) == 0.15 and max(x for *_, x in faults) == 0.8
    fw = start_firmware(board, realtime=True)
    try:
        with Cable(fw.port) as cable:
            run = await play_with_cuts(fw, cable, edges, faults, timeout=SPAN_S + 40)
    finally:
        fw.stop()
    check(run, edges, board_could_lose(rate, faults))
    assert len(run.faults) == len(faults)


def stutter(kind: str, every: float, short: float) -> list[tuple[float, str, float]]:
    """A 0.8 s fault, then short ones closer together than a replay of it takes: each replay
    is cut off part way, again and again (a connector working loose)."""
    return [(0.5, kind, 0.8)] + [(1.3 + every * k, kind, short) for k in range(1, 7)]


STUTTERS = [
    pytest.param(500, "unplug", 0.35, 0.1, id="500/s-unplugged-every-0.35s"),
    pytest.param(500, "cut", 0.3, 0.15, id="500/s-line-cut-every-0.3s"),
    pytest.param(700, "unplug", 0.35, 0.1, id="700/s-unplugged-every-0.35s", marks=pytest.mark.slow),
    pytest.param(300, "cut", 0.25, 0.15, id="300/s-line-cut-every-0.25s", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("rate", "kind", "every", "short"), STUTTERS)
async def test_replays_cut_off_again_and_again_still_lose_nothing_the_board_holds(
    board: Path, rate: int, kind: str, every: float, short: float
) -> None:
    """Each request's replay begins and is cut off: the board has shown it holds the frames,
    so however many requests it takes, none is given up (the host used to give up after
    three: "no replay after 3 requests")."""
    edges = round_robin_edges(int(rate * SPAN_S), 0, 1_000_000 // rate)
    faults = stutter(kind, every, short)
    fw = start_firmware(board, realtime=True)
    try:
        with Cable(fw.port) as cable:
            run = await play_with_cuts(fw, cable, edges, faults, timeout=SPAN_S + 40)
    finally:
        fw.stop()
    check(run, edges, board_could_lose(rate, faults))


def dense(kind: str, seed: int) -> list[tuple[float, str, float]]:
    """Faults of 0.15-0.8 s starting 0.1-1.2 s after the one before: they overlap, requests
    are sent into cuts, replays are cut off, retries fall into the next cut."""
    rnd = random.Random(seed)
    t, out = rnd.uniform(0.1, 0.5), []
    while t < SPAN_S + 2:
        out.append((round(t, 3), kind, round(rnd.uniform(0.15, 0.8), 3)))
        t += rnd.uniform(0.1, 1.2)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(share(4, 1)))  # make test: one seed a kind
@pytest.mark.parametrize("kind", ["cut", "unplug"])
async def test_overlapping_cuts_at_random_are_lost_only_where_the_board_says_so(
    board: Path, kind: str, seed: int
) -> None:
    rate = 500
    edges = round_robin_edges(int(rate * (SPAN_S + 2)), 0, 1_000_000 // rate)
    faults = dense(kind, seed)
    fw = start_firmware(board, realtime=True)
    try:
        with Cable(fw.port) as cable:
            run = await play_with_cuts(fw, cable, edges, faults, timeout=SPAN_S + 50)
    finally:
        fw.stop()
    check(run, edges, board_could_lose(rate, faults))


@pytest.mark.slow
async def test_a_cut_longer_than_the_board_keeps_is_lost_with_its_range_and_the_rest_arrives(
    board: Path,
) -> None:
    """A 4.5 s cut at 700 edges/s (3.5 s under make test): 3,150 frames (2,450), more than
    the board's 2048. What it no longer holds is said lost, once, with its range; everything
    it still held arrives."""
    rate = 700
    edges = round_robin_edges(int(rate * SPAN_S) + 1500, 0, 1_000_000 // rate)
    cut = SPAN_S + 0.5
    assert rate * cut > KEEP + 300
    fw = start_firmware(board, realtime=True)
    try:
        with Cable(fw.port) as cable:
            run = await play_with_cuts(fw, cable, edges, [(0.5, "cut", cut)], timeout=60)
    finally:
        fw.stop()
    check(run, edges, may_lose=True)
    assert run.lost, "\n".join(run.statuses)
    assert all("oldest kept" in why for *_, why in run.lost), run.lost
