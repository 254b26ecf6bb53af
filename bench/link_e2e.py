"""End-to-end rate: edges through the real firmware (MicroPython unix port) on a pty to the host link.

Starts the firmware with a 16-channel test board, plays N edges as fast as it takes them
(``realtime=False``) and measures EVENT frames per second arriving through
``tablesense.link.Link``, from the first frame to the last, plus what was lost or replayed.
The firmware on the unix port, not the host, is the limit here: the host decodes far
faster (bench/link_decode.py).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from tablesense.link import Link, LinkStatus
from tablesense.link.frame import EventFrame
from tablesense.sim.fitl import beam_board, round_robin_edges, start_firmware

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
# 25 us apart: the unix port plays 1 ms of the feed per main-loop pass, so edges further
# apart would measure the pass rate, not how fast the firmware and the link move events.
STEP_US = 25


def board(path: Path) -> Path:
    return beam_board(path)


async def measure(port: str, fw: object) -> None:
    edges = round_robin_edges(N, 500_000, STEP_US)
    link = Link(port, from_seq=0, reconnect=False)
    got = 0
    first = last = 0.0
    statuses: list[str] = []
    sent: list[bool] = []

    async def run() -> None:
        nonlocal got, first, last
        async for item in link.items():
            if isinstance(item, LinkStatus):
                if item.kind == "hello" and not sent:
                    sent.append(True)
                    fw.send_edges(edges)  # type: ignore[attr-defined]
                statuses.append(str(item))
            elif isinstance(item, EventFrame):
                got += 1
                last = time.perf_counter()
                if got == 1:
                    first = last
                if got == N:
                    return

    try:
        await asyncio.wait_for(run(), 120)
    except TimeoutError:
        pass
    finally:
        link.close()
    secs = last - first
    rate = (got - 1) / secs if secs > 0 else 0.0
    print(
        f"end to end: {rate:,.0f} events/s through the pty ({got} of {N} edges in {secs:.2f} s, "
        f"16 channels, firmware on MicroPython's unix port)"
    )
    print(
        f"link: {link.stats.bytes / max(got, 1):.1f} bytes per event on the wire (heartbeats included), "
        f"gaps {link.seq_stats.gaps}, replayed-on-request {link.seq_stats.replay_requests}, "
        f"lost {link.seq_stats.lost}, device counters: ring overflows {link.stats.ring_overflows}, "
        f"scheduler drops {link.stats.sched_drops}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # the modelled UART unlimited: this measures the host's link, not 115200 baud
        # (bench/firmware_pty.py prints the board's rate)
        fw = start_firmware(board(Path(tmp) / "bench16.json"), realtime=False, baud=100_000_000)
        try:
            asyncio.run(measure(fw.port, fw))
        finally:
            fw.stop()


if __name__ == "__main__":
    main()
