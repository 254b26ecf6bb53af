"""What a colour read costs the other channels' stamps (issue 24): an I2C transaction is C
code on the ESP32 (i2c_master_cmd_begin), and no pin callback runs until it returns, so an
edge on another `irq` channel during a colour read is stamped when the read is over.

Measured in the model (firmware/hal_virtual.py, firmware/colour_virtual.py): the real
firmware and its TCS34725/TCA9548A drivers on the virtual bus, whose transactions take
their bits at the profile's i2c.freq plus OVERHEAD_US (an estimate of the driver's own
work) with the callbacks held. A ball drops into a pocket; 24 ms later its sensor is read;
a beam on another channel breaks at every offset from 0.5 ms before to 2 ms after the
read's start (25 us steps). Printed: the longest and the mean delay of that beam's stamp
(stamp minus the edge's true time) over the edges that fell within a read, beside the
anchor measured in the same run: the same edges with no colour read (the scheduler's own
delay). A `capture` channel is not delayed at all (the MCPWM latches the edge).

Run: .venv/bin/python bench/firmware_colour.py  (needs .venv/bin/micropython)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from tablesense.sim.fitl import find_micropython  # noqa: E402

SCRIPT = r"""
import sys
sys.path.insert(0, ROOT + "/tests/firmware")
import fwtest
import hal_virtual
from board import Board

REF = [1, 560, 230, 210, 2560, 640, 80]

def board(freq, colour=True):
    chans = []
    for ch in range(6):
        c = fwtest.channel(ch, colour=colour)
        c["mux"] = ch
        chans.append(c)
    chans.append(fwtest.channel(6))  # the other beam, irq, no sensor
    chans.append(fwtest.channel(7, "capture"))  # and one on the capture unit
    d = {"profile": "bench", "colours": ["red", "white"], "channels": chans,
         "i2c": {"sda": 21, "scl": 22, "freq": freq, "mux": 0x70},
         "colour": {"cycles": 4, "gain": 16, "delay_us": 24000, "refs": [[ch] + REF for ch in range(6)]}}
    if not colour:
        del d["colour"], d["i2c"]
    return Board(d)

def run(freq, same_port, colour=True):
    fw = fwtest.firmware(board(freq, colour))
    hal = fw.hal
    busy0 = hal.colour_bus.busy_us  # the set-up's transactions
    writes0 = hal.colour_sensors.mux.writes if colour else 0
    lines = []
    edges = {}
    k = 0
    t = 100000
    for off in range(-500, 2001, 25):
        pocket = 0 if same_port else k % 6
        lines.append({"t_us": t, "ch": pocket, "colour": 1})
        lines.append({"t_us": t, "ch": pocket, "level": 1})
        lines.append({"t_us": t + 40000, "ch": pocket, "level": 0})
        # the read starts at the first 1 ms pass at or after t + 24 ms
        read = t + 24000
        e = read + off
        lines.append({"t_us": e, "ch": 6, "level": 1})
        lines.append({"t_us": e, "ch": 7, "level": 1})
        lines.append({"t_us": e + 3000, "ch": 6, "level": 0})
        lines.append({"t_us": e + 3000, "ch": 7, "level": 0})
        edges[k] = e
        k += 1
        t += 100000
    lines.sort(key=lambda x: x["t_us"])
    fwtest.feed(fw, lines)
    frames = fwtest.settle(fw, 200)
    irq = [f["t"] for f in frames if f["type"] == 1 and f["ch"] == 6 and f["b"] & 1]
    cap = [f["t"] for f in frames if f["type"] == 1 and f["ch"] == 7 and f["b"] & 1]
    delays = [s - edges[i] for i, s in enumerate(irq)]
    cap_delays = [s - edges[i] for i, s in enumerate(cap)]
    busy = hal.colour_bus.busy_us - busy0
    reads = len([f for f in frames if f["type"] == 3])
    writes = hal.colour_sensors.mux.writes - writes0 if colour else 0
    return delays, cap_delays, busy // max(reads, 1), writes, reads

base, _, _, _, _ = run(100000, False, colour=False)
floor = max(base)
print("anchor_max %d" % floor)
print("anchor_mean %.1f" % (sum(base) / len(base)))
for name, freq, same in (("100k_switch", 100000, False), ("100k_same", 100000, True),
                         ("400k_switch", 400000, False), ("400k_same", 400000, True)):
    d, cap, per_read, writes, reads = run(freq, same)
    hit = [x for x in d if x > floor]
    print("%s_max %d" % (name, max(d)))
    print("%s_mean %.1f" % (name, sum(hit) / len(hit) if hit else 0.0))
    print("%s_hit %d" % (name, len(hit)))
    print("%s_edges %d" % (name, len(d)))
    print("%s_read_us %d" % (name, per_read))
    print("%s_mux_writes %d" % (name, writes))
    print("%s_reads %d" % (name, reads))
    print("%s_capture_max %d" % (name, max(cap)))
"""


def main() -> int:
    r = subprocess.run([find_micropython(), "-X", "heapsize=16M", "-c", f"ROOT = {str(ROOT)!r}\n" + SCRIPT],
                       capture_output=True, text=True, timeout=900, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(f"the benchmark failed under MicroPython:\n{r.stdout}{r.stderr}")
    got = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            got[parts[0]] = float(parts[1])
    print("a colour read's cost on another channel's stamps (model: the bus at i2c.freq, callbacks held)")
    print(f"  anchor, no colour read: an irq stamp {got['anchor_mean']:.0f} us after its edge "
          f"(longest {got['anchor_max']:.0f} us: the scheduler's callback)")
    print(f"  {'':34}{'read takes':>11}{'longest delay':>15}{'mean, within a read':>21}{'capture':>9}")
    rows = (("100k_switch", "100 kHz, the next pocket's sensor"),
            ("100k_same", "100 kHz, the same sensor again"),
            ("400k_switch", "400 kHz, the next pocket's sensor"),
            ("400k_same", "400 kHz, the same sensor again"))
    for key, what in rows:
        print(f"  {what:<34}{got[key + '_read_us']:>8.0f} us{got[key + '_max']:>12.0f} us"
              f"{got[key + '_mean']:>18.0f} us{got[key + '_capture_max']:>6.0f} us"
              f"   ({got[key + '_hit']:.0f} of {got[key + '_edges']:.0f} edges within a read, "
              f"{got[key + '_mux_writes']:.0f} mux writes for {got[key + '_reads']:.0f} reads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
