"""Events per second end to end through the pty: the real firmware under MicroPython
(fast mode: the feed is played as fast as the main loop drains it) -> pty -> pyserial ->
the host's frame decoder. Edges round-robin over 16 irq channels.

Run: .venv/bin/python bench/firmware_pty.py [N_EDGES]
"""

from __future__ import annotations

import select
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

import serial  # noqa: E402

from tablesense.link.frame import EventFrame, HelloFrame, StreamDecoder  # noqa: E402
from tablesense.sim.fitl import beam_board, round_robin_edges, start_firmware  # noqa: E402


def board(path: Path) -> Path:
    return beam_board(path)


UNLIMITED = 100_000_000  # a modelled line that is never the limit: the firmware and the host's side


def run(n: int, step_us: int, baud: int) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        return _run(Path(tmp), n, step_us, baud)


def _run(tmp: Path, n: int, step_us: int, baud: int) -> tuple[float, int, int]:
    with start_firmware(board(tmp / "b.json"), realtime=False, baud=baud) as fw:
        ser = serial.serial_for_url(fw.port, timeout=0)
        dec = StreamDecoder()
        ser.write(b"!hello\n")
        uptime = None
        while uptime is None:
            select.select([ser.fileno()], [], [], 0.1)
            for f in dec.feed(ser.read(4096)):
                if isinstance(f, HelloFrame):
                    uptime = f.uptime_us
        edges = round_robin_edges(n, uptime + 100_000, step_us)
        t0 = time.perf_counter()
        fw.send_edges(edges)
        got = 0
        nbytes = 0
        deadline = t0 + 60
        while got < n and time.perf_counter() < deadline:
            select.select([ser.fileno()], [], [], 0.1)
            data = ser.read(65536)
            nbytes += len(data)
            got += sum(isinstance(f, EventFrame) for f in dec.feed(data))
        dt = time.perf_counter() - t0
        ser.close()
    return dt, got, nbytes


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    runs = [(2_000, 100, 115200, "the board's link, 115200 baud (bound: 720/s)"),
            (n, 100, UNLIMITED, "the line unlimited: firmware + pty + decoder"),
            (n, 25, UNLIMITED, "the line unlimited: firmware + pty + decoder")]
    for count, step, baud, what in runs:
        dt, got, nbytes = run(count, step, baud)
        print(
            f"{count} edges {step} us apart over 16 channels, {what}: {got} events in {dt:.2f} s"
            f" = {got / dt:,.0f} events/s ({nbytes / max(got, 1):.1f} bytes per event incl. heartbeats)"
        )
        if got != count:
            print(f"  {count - got} missing (ring overflow or scheduler drops: see HELLO counters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
