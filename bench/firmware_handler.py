"""Firmware costs on MicroPython's unix port, each beside its anchor measured in the same
run: the soft-IRQ handler per edge (`Edge.irq`), and a whole event through the main loop
(the handler's ring write, then drain, stamp, keep, encode, write; the RTC record, firmware
0.5, written once a drain: its cost alone is a row of its own), against a bare ring
write: the least an edge can cost (a bytecode method that stores a record in two
preallocated arrays and moves the head: firmware 0.3's Ring.put, copied here so that it
stays the same whatever the firmware becomes).

Printed for the firmware as it is and, beside it, as it was before the handler was made
fast (commit BEFORE, extracted from git), each with the anchor of its own process.

Timing: the unix port has only the wall clock, and on a loaded machine a long timed loop
is cut by other processes; so each figure is the least of many short runs (200 edges, or
one pass of 64 events), interleaved, minus the same loop doing nothing.

Run: .venv/bin/python bench/firmware_handler.py  (needs .venv/bin/micropython; git for BEFORE)
The unix port on a PC is 20-100x faster than an ESP32 at 240 MHz; docs/timing.md
scales these figures for the board.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from tablesense.sim.fitl import find_micropython  # noqa: E402

BEFORE = "a8b53da"  # firmware 0.3.0 before issue 27: a bytecode handler, a frame a write

SCRIPT = r"""
import sys, time
sys.path.insert(0, FW)
from array import array
import hal_virtual, link, wire
from board import Board
from capture import irq_handler
from ring import Ring

EDGES = 200  # edges per timed run (the ring holds 255)
BATCH = 64  # events per timed main-loop pass


def least(fn, n, runs=200):
    best = 1 << 30
    for _ in range(runs):
        t0 = time.ticks_us()
        fn(n)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if dt < best else best
    return best * 1000 / n  # ns


class P:  # a pin whose level the loop sets (a Python method, as the unix port's pins)
    level = 0

    def value(self):
        return self.level


class BareRing:  # the anchor: a bare ring write, firmware 0.3's Ring.put as it was
    def __init__(self, size):
        self.size = size
        self.ticks = array("i", [0] * size)
        self.meta = array("i", [0] * size)
        self.head = 0
        self.tail = 0
        self.overflows = 0

    def put(self, ch, flags, tick):
        h = self.head
        n = h + 1
        if n == self.size:
            n = 0
        if n == self.tail:
            self.overflows += 1
            return False
        self.ticks[h] = tick
        self.meta[h] = ch | (flags << 8)
        self.head = n
        return True


def empty_ring(r):
    if hasattr(r, "st"):
        r.st[0] = r.st[1] = 0
    else:
        r.head = r.tail = 0


pin = P()
bare = BareRing(256)
ring = Ring(256)
handler = irq_handler(ring, 3, pin, 0, bytearray(32), bytearray(32), time.ticks_us)


def nothing(n):
    for i in range(n):
        pin.level = i & 1


def bare_write(n):
    empty_ring(bare)
    for i in range(n):
        pin.level = i & 1
        bare.put(3, 1, i)


def edge_irq(n):
    empty_ring(ring)
    for i in range(n):
        pin.level = i & 1
        handler(pin)


class Sink:
    def write(self, b, off=0, n=-1):
        return n if n >= 0 else len(b)


hal = hal_virtual.Hal()
hal.realtime = False
fw = link.Firmware(hal, out=Sink(), inp=None)
fw.tx_room = lambda: 4096  # the CPU cost alone: a line that takes everything
fw.use_board(Board({"profile": "b", "channels": [{"ch": 0, "name": "g", "kind": "goal", "gpio": 1,
    "active": 0, "mode": "irq"}]}))
fwring = fw.ring


def main_loop(n):  # n events: each written to the ring, then drained, stamped, kept, encoded, written
    for i in range(n):
        fwring.put(0, i & 1, i)
    fw.drain()
    fw.flush()


enc = wire.Encoder()
try:  # firmware 0.5: RTC memory keeps the last seq assigned, written once a drain
    import rtc_record
    keeper = rtc_record.Keeper(hal, bytearray(4))
except ImportError:
    keeper = None


def rtc(n):
    for i in range(n):
        keeper.write(i)


def encode(n):
    for i in range(n):
        enc.record(1, i & 0xFFFFFF, 3, 1, 7, i)


fig = {}
for rnd in range(5):  # interleaved rounds: a burst of load elsewhere hits every figure
    base = least(nothing, EDGES)
    for name, fn, n in (("anchor", bare_write, EDGES), ("irq", edge_irq, EDGES),
                        ("event", main_loop, BATCH), ("encode", encode, EDGES)):
        v = least(fn, n) - (base if n == EDGES else 0)
        fig[name] = v if rnd == 0 or v < fig[name] else fig[name]
    if keeper is not None:
        v = least(rtc, EDGES) - base
        fig["rtc"] = v if rnd == 0 or v < fig["rtc"] else fig["rtc"]
for k in ("anchor", "irq", "event", "encode", "rtc"):
    if k in fig:
        print("%s %d" % (k, fig[k]))
"""


def run(fw_dir: Path) -> dict[str, float]:
    r = subprocess.run(
        [find_micropython(), "-X", "heapsize=8M", "-c", f"FW = {str(fw_dir)!r}\n" + SCRIPT],
        capture_output=True, text=True, timeout=600,
    )
    if r.returncode != 0:
        raise SystemExit(f"the benchmark failed under MicroPython ({fw_dir}):\n{r.stdout}{r.stderr}")
    return {k: float(v) for k, v in (line.split() for line in r.stdout.splitlines())}


def before_dir(tmp: Path) -> Path | None:
    """The firmware at BEFORE, extracted from git (None without the history)."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{BEFORE}:firmware"],
                           capture_output=True, text=True, timeout=30)
    if names.returncode != 0:
        return None
    out = tmp / "before"
    out.mkdir()
    for name in names.stdout.split():
        if name.endswith(".py"):
            blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:firmware/{name}"],
                                  capture_output=True, timeout=30)
            (out / name).write_bytes(blob.stdout)
    return out


def main() -> int:
    now = run(ROOT / "firmware")
    with tempfile.TemporaryDirectory() as tmp:
        old_dir = before_dir(Path(tmp))
        old = run(old_dir) if old_dir else None
    print("firmware on MicroPython's unix port (least of many short runs, interleaved):")
    print(f"  {'':58}{'now':>16}  {'before (' + BEFORE + ')':>18}")

    def row(what: str, key: str, ratio: bool) -> None:
        def cell(f: dict[str, float] | None) -> str:
            if f is None or key not in f:
                return "n/a"
            return f"{f[key]:,.0f} ns" + (f" ({f[key] / f['anchor']:.1f}x)" if ratio else "")
        print(f"  {what:<58}{cell(now):>16}  {cell(old):>18}")

    row("anchor: a bare ring write (0.3's Ring.put, bytecode)", "anchor", False)
    row("soft-IRQ handler per edge (Edge.irq: clock, level, ring)", "irq", True)
    row("a whole event: ring write, drain, stamp, keep, encode, write", "event", True)
    row("encode one EVENT frame (Encoder.record: CRC-16 + COBS)", "encode", False)
    row("RTC record, once a drain (Keeper.write: seq, CRC-16, store)", "rtc", True)
    if old is None:
        print(f"  (no git history here: the firmware of {BEFORE} could not be extracted)")
    print(f"  => main loop throughput on this host: {1e9 / now['event']:,.0f} events/s")
    print("bytes on the wire:")
    print("  EVENT frame (payload 14 -> COBS 15 + delimiter)               16 bytes")
    print("  goal or pocket drop: EVENT active + READING colour + EVENT idle 48 bytes")
    print("  pin tilt down and up: 2 EVENTs                                 32 bytes")
    print("  cushion contact: COUNT                                         16 bytes")
    print("  heartbeat (1/s): 26 bytes;  HELLO golf: 55 bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
