"""Firmware costs on MicroPython's unix port: the soft-IRQ handler per edge, the ring,
the main loop's stamp + encode per event, and bytes per event on the wire.

Run: .venv/bin/python bench/firmware_handler.py  (needs .venv/bin/micropython)
The unix port on a PC is 20-100x faster than an ESP32 at 240 MHz; docs/timing.md
scales these figures for the board.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from tablesense.sim.fitl import find_micropython  # noqa: E402

SCRIPT = r"""
import sys, time, micropython
sys.path.insert(0, ROOT + "/firmware")
import hal_virtual, link, wire
from board import Board
from capture import irq_handler
from ring import Ring

N = 5000
def per(fn, n=N):
    best = None
    for _ in range(7):  # best of 7: the figure without other processes' interference
        t0 = time.ticks_us()
        fn(n)
        dt = time.ticks_diff(time.ticks_us(), t0) * 1000 / n  # ns
        best = dt if best is None or dt < best else best
    return best

class P:
    level = 0
    def value(self):
        return self.level

pin = P()
ring = Ring(256)
levels = bytearray(32)
h = irq_handler(ring, 3, pin, 0, levels, bytearray(32), time.ticks_us)
def handler(n):
    for i in range(n):
        pin.level = i & 1
        h(pin)
        ring.take()
def empty(n):
    for i in range(n):
        pin.level = i & 1
        ring.take()
def put(n):
    for i in range(n):
        ring.put(3, 1, i)
        ring.take()
enc = wire.Encoder()
def encode(n):
    for i in range(n):
        enc.record(1, i & 0xFFFFFF, 3, 1, 7, i)

base = per(empty)
t_handler = per(handler) - base
t_put = per(put) - base
t_encode = per(encode)

class Sink:
    def write(self, b, off=0, n=-1):
        return n if n >= 0 else len(b)
hal = hal_virtual.Hal()
hal.realtime = False
fw = link.Firmware(hal, out=Sink(), inp=None)
fw.tx_room = lambda: 4096  # the CPU cost alone: a line that takes everything
fw.use_board(Board({"profile": "b", "channels": [{"ch": 0, "name": "g", "kind": "goal", "gpio": 1,
    "active": 0, "mode": "irq"}]}))
def pipeline(n):
    for i in range(n):
        fw.ring.put(0, i & 1, i)
        if i & 63 == 63:
            fw.drain()
            fw.flush()
t_pipe = per(pipeline)
print("handler_ns %d" % t_handler)
print("ring_put_take_ns %d" % t_put)
print("encode_event_ns %d" % t_encode)
print("drain_stamp_encode_write_ns %d" % t_pipe)
"""


def main() -> int:
    mpy = find_micropython()
    r = subprocess.run(
        [mpy, "-X", "heapsize=8M", "-c", f"ROOT = {str(ROOT)!r}\n" + SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        return 1
    figs = dict(line.split() for line in r.stdout.splitlines())
    print("firmware on MicroPython's unix port (per edge / event):")
    print(f"  soft-IRQ handler (Edge.irq: read clock, level, ring.put) {int(figs['handler_ns']):>7} ns")
    print(f"  ring put + take                                          {int(figs['ring_put_take_ns']):>7} ns")
    print(f"  encode one EVENT frame (CRC-16 + COBS)                   {int(figs['encode_event_ns']):>7} ns")
    main_ns = int(figs["drain_stamp_encode_write_ns"])
    print(f"  main loop per event (drain, stamp, encode, keep, write)  {main_ns:>7} ns")
    per_s = 1e9 / int(figs["drain_stamp_encode_write_ns"])
    print(f"  => main loop throughput on this host                     {per_s:>7.0f} events/s")
    print("bytes on the wire:")
    print("  EVENT frame (payload 14 -> COBS 15 + delimiter)               16 bytes")
    print("  goal or pocket drop: EVENT active + READING colour + EVENT idle 48 bytes")
    print("  pin tilt down and up: 2 EVENTs                                 32 bytes")
    print("  cushion contact: COUNT                                         16 bytes")
    print("  heartbeat (1/s): 26 bytes;  HELLO golf: 55 bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
