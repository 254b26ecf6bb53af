"""The firmware's main loop on the real port's terms (issue 11): what it allocates per
pass and per event (each allocation brings the next garbage collection closer, and a
collection delays every IRQ stamp), and the longest stall of the loop while a whole
replay (2,048 frames, 32 KB) goes out at 115200 baud.

And the longest pause in play (issue 24): five times two minutes of play (a shot every 4 s, 30 beam
edges over 1.5 s each) with the host's commands coming at random moments, shots included,
on a model of the garbage collector: the commands' garbage measured (the steady state
allocates none, above), a collection when it fills the heap model (15 KB here, so that two
minutes fill it a few times; the board's ~100 KB would take about three) or when the firmware
asks, 5 ms each with the callbacks held. Printed: the longest delay of an irq stamp (the
scheduler model's: callback time minus the edge's time) and the collections that fell in
a shot, for the firmware as it is (a command's garbage collected at the next quiet point,
firmware 0.3) beside its anchor in the same run: the same firmware with the collections
left to the allocator (firmware 0.2).

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


PAUSE_SCRIPT = r"""
import gc, random, sys
sys.path.insert(0, ROOT + "/tests/firmware")
import fwtest
import hal_virtual

HEAP = 15000  # the garbage that fills the heap model (the board's ~100 KB, scaled to two minutes)
GC_US = 5000  # one collection, every callback held


class Counting:  # the far end of the line, allocation-free
    def __init__(self):
        self.bytes = 0

    def write(self, b, off, n):
        self.bytes += n
        return n


class Collector:
    # The collector model: garbage from the commands (the steady state allocates nothing,
    # measured above); a collection when it fills HEAP (the allocator's) or when the firmware
    # asks (hal.collect at a quiet point); each holds the callbacks GC_US.
    def __init__(self, hal, shots):
        self.hal = hal
        self.shots = shots
        self.garbage = 0
        self.n = 0
        self.in_shot = 0

    def pause(self):
        hal = self.hal
        t0 = hal.now
        for a, b in self.shots:
            if a <= t0 <= b:
                self.in_shot += 1
                break
        self.n += 1
        self.garbage = 0
        end = hal.now + GC_US
        hal._block(end)
        hal.sched.release(end)

    def asked(self):
        gc.collect()
        self.pause()


def play(quiet_points, seed):
    random.seed(seed)
    chans = [fwtest.channel(c, active=1) for c in range(12)]
    fw = fwtest.firmware(fwtest.board(chans))  # (its own heap model off: NO_GC)
    hal = fw.hal
    hal.out.dev = Counting()
    edges = []
    shots = []
    t = 1000000
    while t < 120000000:
        shot = sorted(t + k * 50000 + random.randrange(0, 20000) for k in range(30))
        edges += [(te, random.randrange(12)) for te in shot]
        shots.append((shot[0], shot[-1]))  # from its first edge to its last
        t += 4000000
    edges.sort()
    lines = []
    level = [0] * 12
    for te, ch in edges:
        level[ch] ^= 1
        lines.append({"t_us": te, "ch": ch, "level": level[ch]})
    fwtest.feed(fw, lines)
    col = Collector(hal, shots)
    fw.collect = col.asked if quiet_points else (lambda: None)
    commands = sorted(random.randrange(1000000, 120000000) for _ in range(80))
    ci = 0
    while hal.now < 122000000:
        while ci < len(commands) and commands[ci] <= hal.now:
            gc.collect()
            before = gc.mem_alloc()
            for c in b"!hello\n":
                fw.feed_byte(c)
            col.garbage += gc.mem_alloc() - before
            if col.garbage >= HEAP:
                col.pause()  # the allocator's collection, wherever the loop is
            ci += 1
        t0 = hal.now
        fw.step()
        fw.flush()
        if hal.now == t0:  # the feed is used up: time goes on a millisecond a pass
            hal.set_clock(hal.now + 1000)
    return hal.sched.worst_us, col.n, col.in_shot


for name, quiet in (("now", True), ("anchor", False)):
    worst = n = in_shot = 0
    for seed in range(1, 6):  # ten minutes of play in all
        w, k, s = play(quiet, seed)
        worst = max(worst, w)
        n += k
        in_shot += s
    print("%s_stamp_delay_us %d" % (name, worst))
    print("%s_collections %d" % (name, n))
    print("%s_shot_collections %d" % (name, in_shot))
    print("%s_shot_pause_us %d" % (name, GC_US if in_shot else 0))
"""


def pauses() -> dict[str, float]:
    r = subprocess.run([find_micropython(), "-X", "heapsize=16M", "-c",
                        f"ROOT = {str(ROOT)!r}\n" + PAUSE_SCRIPT],
                       capture_output=True, text=True, timeout=900, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(f"the pause benchmark failed under MicroPython:\n{r.stdout}{r.stderr}")
    return {k: float(v) for k, v in (line.split() for line in r.stdout.splitlines())}


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
    p = pauses()
    print("ten minutes of play (a shot every 4 s), the host's !hello at 80 random moments in each two,")
    print("a collector model (one when the commands' garbage fills 15 KB or when the firmware asks; 5 ms):")
    print(f"  {'':40}{'now':>10}  {'anchor: left to the allocator (0.2)':>36}")
    for key, what, unit in (("shot_pause_us", "longest pause of the loop in a shot", "ms"),
                            ("stamp_delay_us", "longest delay of an irq stamp", "ms"),
                            ("shot_collections", "collections in a shot", ""),
                            ("collections", "collections, in all", "")):
        a, b = p["now_" + key], p["anchor_" + key]
        if unit:
            print(f"  {what:<40}{a / 1e3:7.2f} ms  {b / 1e3:33.2f} ms")
        else:
            print(f"  {what:<40}{a:10.0f}  {b:36.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
