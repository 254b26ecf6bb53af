"""The firmware's main loop on the real port's terms (issue 11): what it allocates per
pass and per event (each allocation brings the next garbage collection closer, and a
collection delays every IRQ stamp), and the longest stall of the loop while a whole
replay (2,048 frames, 32 KB) goes out at 115200 baud.

Each figure is printed beside its anchor, measured in the same run: the firmware as it
was before the send cursor (commit ANCHOR, extracted from git), and a replay written in
one go as that firmware wrote it, through the same model of the ESP32's UART (a write
spins until every byte is in the 128-byte FIFO).

Run: .venv/bin/python bench/firmware_loop.py  (needs .venv/bin/micropython; git for the anchor)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from tablesense.sim.fitl import find_micropython  # noqa: E402

ANCHOR = "18070ea"  # the last commit of firmware 0.1.0 (asyncio loop, a replay in one write)
FILES = ("board.py", "capture.py", "clock.py", "hal_virtual.py", "link.py", "ring.py", "wire.py")

SCRIPT = r"""
import gc, sys, time
sys.path.insert(0, FW)
import hal_virtual, link
from board import Board

chans = [{"ch": c, "name": "b%d" % c, "kind": "pocket", "gpio": 4 + c, "active": 1,
          "mode": "irq" if c < 12 else "poll", "debounce_us": 0 if c < 12 else 3000}
         for c in range(16)]

class Sink:  # the far end of the line, for both the 0.1.0 and the new write() signatures
    def __init__(self):
        self.n = 0
    def write(self, b, off=0, n=-1):
        n = len(b) - off if n < 0 else n
        self.n += n
        return n

hal = hal_virtual.Hal()
hal.realtime = False
hal.feed_path = None
if hasattr(hal, "follow_wall"):
    hal.follow_wall = False
    hal.heap = hal_virtual.NO_GC
sink = Sink()
if hasattr(hal, "out"):
    hal.out.dev = sink
    fw = link.Firmware(hal, inp=None)
else:
    fw = link.Firmware(hal, out=sink, inp=None)
fw.use_board(Board({"profile": "bench", "channels": chans}))

def one_pass(edge):
    if edge:
        p = hal.pins[edge - 1]
        p.level ^= 1
        p.captured = hal.now & 0x3FFFFFFF
        hal.sched.enqueue(p, hal.now)
    hal.now += 1000
    fw.step()
    fw.flush()

def alloc(n, edges):
    for i in range(50):  # warm up: first calls make their one-off objects
        one_pass(0)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for i in range(n):
        one_pass((i % 12) + 1 if edges else 0)
    b = gc.mem_alloc()
    gc.enable()
    return (b - a) / n

print("idle_bytes_per_pass %.1f" % alloc(2000, False))
print("bytes_per_event %.1f" % alloc(2000, True))

# the longest stall while a full replay goes out: wall time of the longest pass on this
# host, and virtual time spent blocked in a UART write (the ESP32's stall)
if hasattr(hal, "out"):
    while fw.backlog():
        one_pass(0)
    for i in range(KEEP_FILL):
        one_pass((i % 12) + 1)
    while fw.backlog():
        one_pass(0)
    fw.replay((fw.next_seq - 2048) & 0xFFFFFF)
    longest = 0
    t_start = hal.now
    while fw.backlog():
        t0 = time.ticks_us()
        one_pass(0)
        d = time.ticks_diff(time.ticks_us(), t0)
        longest = d if d > longest else longest
    print("replay_virtual_us %d" % (hal.now - t_start))
    print("replay_blocked_us %d" % hal.out.blocked_us)
    print("replay_longest_pass_wall_us %d" % longest)
    t0 = hal.now
    hal.out.write(bytearray(2048 * 16), 0, 2048 * 16)  # 0.1.0: the whole replay in one write
    print("oneshot_blocked_us %d" % (hal.now - t0))
"""


def run(fw_dir: Path) -> dict[str, float]:
    r = subprocess.run(
        [find_micropython(), "-X", "heapsize=8M", "-c",
         f"FW = {str(fw_dir)!r}\nKEEP_FILL = 2100\n" + SCRIPT],
        capture_output=True, text=True, timeout=600,
    )
    if r.returncode != 0:
        raise SystemExit(f"the benchmark failed under MicroPython:\n{r.stdout}{r.stderr}")
    return {k: float(v) for k, v in (line.split() for line in r.stdout.splitlines())}


def anchor_dir(tmp: Path) -> Path | None:
    out = tmp / "fw-0.1.0"
    out.mkdir()
    for name in FILES:
        r = subprocess.run(["git", "-C", str(ROOT), "show", f"{ANCHOR}:firmware/{name}"],
                           capture_output=True, timeout=30)
        if r.returncode != 0:
            return None
        (out / name).write_bytes(r.stdout)
    return out


def main() -> int:
    now = run(ROOT / "firmware")
    with tempfile.TemporaryDirectory() as tmp:
        old_dir = anchor_dir(Path(tmp))
        old = run(old_dir) if old_dir else None
    a = (lambda k: f"{old[k]:8.1f}") if old else (lambda k: "     n/a")
    print("firmware main loop, 16 channels (12 irq, 4 poll), on MicroPython's unix port")
    print(f"{'':44}{'now':>8}  {'0.1.0 (' + ANCHOR + ')':>18}")
    for key, what in (("idle_bytes_per_pass", "bytes allocated per idle pass"),
                      ("bytes_per_event", "bytes allocated per pass with an edge")):
        print(f"  {what:<40}{now[key]:8.1f}  {a(key):>18}")
    print("a whole replay (2,048 frames, 32 KB) at 115200 baud, through the ESP32 UART model:")
    print(f"  time for it to go out                   {now['replay_virtual_us'] / 1e6:8.2f} s")
    print(f"  longest stall of the loop (blocked in a write): sliced {now['replay_blocked_us'] / 1e3:8.1f} ms"
          f"   written at once (0.1.0) {now['oneshot_blocked_us'] / 1e3:8.1f} ms")
    print(f"  longest pass on this host meanwhile     {now['replay_longest_pass_wall_us'] / 1e3:8.2f} ms")
    if not old_dir:
        print(f"  (no git history here: the 0.1.0 anchor {ANCHOR} could not be extracted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
