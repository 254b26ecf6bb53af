"""A replay that re-sends frames the host has already (a retry whose first replay had begun,
two requests crossing) is read on: the frames of every kind are dropped as duplicates, and
the table's events go on.

Only an EVENT carries the REPLAY flag; a COUNT (a cushion's pulses) or a READING (a ball's
colour) has one byte for its count or value and no flags. A COUNT of a seq delivered
already once stopped a pub's table for good ("its events stopped: 'CountFrame' object has
no attribute 'flags'", the season soak, seed 11: zaal-2 and hoek-1, every carom table that
met a retried replay).

The real firmware runs under MicroPython's unix port in real time (a carom table: four
cushions and the bed's motion sensor on pulse counters), read through
``tablesense.sim.cable.Cable``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.waits import for_at_most
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import (
    F_ACTIVE,
    F_REPLAY,
    REPLAYABLE,
    CountFrame,
    EventFrame,
    HeartbeatFrame,
    ReadingFrame,
)
from tablesense.link.plausible import RebootClaim, renumbered
from tablesense.link.sequence import Sequencer
from tablesense.sim.cable import Cable
from tablesense.sim.fitl import start_firmware
from tablesense.table.profile import board_config_json, load_profile


def pulses(n: int, start_us: int, step_us: int) -> list[dict[str, int]]:
    """n bursts of pulses on the four cushions in turn (each one COUNT frame at the next scan)."""
    return [{"t_us": start_us + i * step_us, "ch": i % 4, "pulses": 1 + i % 3} for i in range(n)]


@pytest.mark.micropython
@pytest.mark.parametrize("replay_from", [0, 5, 17])
async def test_counts_sent_again_in_a_replay_are_duplicates_and_the_link_goes_on(
    tmp_path: Path, replay_from: int
) -> None:
    board = tmp_path / "carom.json"
    board.write_text(board_config_json(load_profile("carom")), encoding="utf-8")
    fw = start_firmware(board, realtime=True)
    cable = Cable(fw.port)
    link = Link(cable.url, from_seq=0, backoff=(0.05, 0.2))
    first, second = 20, 10
    frames: list[CountFrame] = []
    statuses: list[LinkStatus] = []

    async def read() -> None:
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and not frames:
                    t0 = int(item.data["uptime_us"]) + 200_000
                    fw.send_edges(pulses(first, t0, 60_000))
            elif isinstance(item, CountFrame):
                frames.append(item)
                if len(frames) == first:
                    # the host's request crossing one it made before: the board re-sends from
                    # replay_from, all of it delivered already
                    await link.send(f"!replay {replay_from}")
                    await asyncio.sleep(0.5)
                    t0 = (link.clock.device_now_us() or item.t_us) + 200_000
                    fw.send_edges(pulses(second, t0, 60_000))
                if len(frames) == first + second:
                    await asyncio.sleep(0.3)  # anything doubled would come now
                    return

    try:
        await for_at_most(30, read())
    finally:
        link.close()
        cable.close()
        fw.stop()
    said = "\n".join(map(str, statuses))
    assert [f.seq for f in frames] == list(range(first + second)), said
    assert [f.count for f in frames] == [1 + i % 3 for i in range(first)] + [1 + i % 3 for i in range(second)]
    assert link.seq_stats.duplicates == first - replay_from, said
    assert link.stats.implausible == 0 and link.seq_stats.lost == 0, said


# --- the judgement itself (link/plausible.py, pure) -----------------------------------------


def _delivered(n: int) -> Sequencer:
    seq = Sequencer(expected=0)
    for q in range(n):
        seq.accept(CountFrame(q, 0, 1, 1000 * q), now=1.0)
    return seq


kinds = st.sampled_from(["event", "event_replay", "count", "reading"])


def _frame(kind: str, seq: int) -> EventFrame | CountFrame | ReadingFrame:
    if kind == "event":
        return EventFrame(seq, 0, F_ACTIVE, 1000 * seq)
    if kind == "event_replay":
        return EventFrame(seq, 0, F_ACTIVE | F_REPLAY, 1000 * seq)
    if kind == "count":
        return CountFrame(seq, 0, 2, 1000 * seq)
    return ReadingFrame(seq, 0, 1, 1000 * seq)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.lists(st.tuples(kinds, st.integers(0, 60)), max_size=12))
def test_only_an_unflagged_event_of_a_delivered_seq_is_renumbered(
    n: int, held: list[tuple[str, int]]
) -> None:
    """A record of a seq delivered already is a renumbered one (a new boot's, a corruption)
    only if it is an EVENT without the REPLAY flag; a COUNT or READING there cannot tell and
    is a duplicate. A reboot claim decided by the numbering after it is decided by the first
    record that can tell."""
    seq = _delivered(n)
    frames = [_frame(k, q) for k, q in held]
    for f in frames:
        assert isinstance(f, REPLAYABLE)
        assert renumbered(f, seq) == (isinstance(f, EventFrame) and f.seq < n and not f.flags & F_REPLAY)
    claim = RebootClaim(HeartbeatFrame(0, 100_000, 0, 0, 0), at=0.0, held=list(frames))
    telling = [f for f in frames if isinstance(f, EventFrame) or f.seq >= n]
    want = "" if not telling else ("new" if renumbered(telling[0], seq) else "old")
    assert claim.numbering(seq) == want
