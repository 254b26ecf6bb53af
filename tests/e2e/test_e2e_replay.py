"""End to end, the real firmware under MicroPython on a pty: a cable cut during which the
board makes more frames than it keeps (2048). The frames it still holds are replayed, the
rest are reported lost once with their exact range, and what is delivered is in strict seq
order with nothing doubled (issue 12, finding 2)."""

from __future__ import annotations

import asyncio

import pytest

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame, HeartbeatFrame
from tablesense.sim import fitl
from tablesense.sim.fitl import beam_board, round_robin_edges

pytestmark = pytest.mark.micropython

BEFORE, DURING = 200, 3000  # edges before the cut, and while the cable is out


async def test_a_cut_longer_than_the_board_keeps_replays_what_it_holds_loses_the_rest(tmp_path) -> None:
    # realtime: the virtual table plays its edges at their times and does not wait for the
    # line, as a real table does not: the board makes more frames than it keeps
    fw = fitl.start_firmware(beam_board(tmp_path / "bench16.json"), realtime=True)
    link = Link(fw.port, from_seq=0, backoff=(0.05, 0.2))
    frames: list[EventFrame] = []
    statuses: list[LinkStatus] = []
    device_seq = -1  # the last seq the board says it has sent (heartbeats)
    done_at: list[float] = []

    def feed(n: int, step_us: int) -> None:
        t0 = (link.clock.device_now_us() or 0) + 100_000
        fw.send_edges([{**e, "t_us": t0 + e["t_us"]} for e in round_robin_edges(n, 0, step_us)])

    async def run() -> None:
        nonlocal device_seq
        loop = asyncio.get_running_loop()
        async for item in link.items():
            if isinstance(item, LinkStatus):
                statuses.append(item)
                if item.kind == "hello" and not frames:
                    feed(BEFORE, 1000)
                elif item.kind == "reconnected":
                    done_at.append(loop.time() + 8.0)
            elif isinstance(item, HeartbeatFrame):
                device_seq = item.seq
            elif isinstance(item, EventFrame):
                frames.append(item)
                if len(frames) == BEFORE:
                    link.interrupt("test pulls the cable", hold=3.0)
                    feed(DURING, 400)  # 1.2 s of edges, all while the cable is out
            if done_at and loop.time() > done_at[0] and not link.seq.waiting and frames and (
                frames[-1].seq == device_seq
            ):
                return

    try:
        await asyncio.wait_for(run(), 40)
    except TimeoutError:
        pass
    finally:
        link.close()
        fw.stop()
    report = "\n".join(map(str, statuses)) + f"\n{link.seq.gaps} {link.seq_stats} device at {device_seq}"
    seqs = [f.seq for f in frames]
    total = device_seq + 1
    assert seqs and seqs[-1] == device_seq and total > BEFORE + 2048, report
    assert seqs == sorted(set(seqs)), "delivered out of order or twice"
    lost = [s for s in statuses if s.kind == "lost"]
    assert lost, report
    missing = sorted(set(range(total)) - set(seqs))
    reported = sorted(q for s in lost for q in range(s.data["from"], s.data["to"] + 1))
    assert reported == missing, report  # each lost frame reported once, with its exact range
    assert link.seq_stats.lost == len(missing)
    assert seqs[-2048:] == list(range(total - 2048, total)), report  # all the board held came
    assert any("oldest kept is" in s.text for s in statuses), report
