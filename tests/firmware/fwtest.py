# Tiny test harness for the firmware tests under MicroPython's unix port.
# Run: micropython tests/firmware/test_X.py (from the repo root or anywhere).
import gc
import os
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = HERE + "/../.."
sys.path.insert(0, ROOT + "/firmware")

import hal_virtual  # noqa: E402
import link  # noqa: E402
from board import Board  # noqa: E402

MASK30 = (1 << 30) - 1


def run(tests):
    failed = 0
    for name, fn in tests:
        try:
            r = fn()
        except Exception as e:  # report every failure, then exit 1
            failed += 1
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
            sys.print_exception(e)
            continue
        if r == "skip":
            print("SKIP %s" % name)
        else:
            print("ok %s" % name)
    for path in _made:
        try:
            os.remove(path)
        except OSError:
            pass
    if failed:
        print("%d failed" % failed)
        sys.exit(1)


def locked(fn):
    """fn() under micropython.heap_lock(): any allocation raises MemoryError."""
    import micropython

    micropython.heap_lock()
    try:
        return fn()
    finally:
        micropython.heap_unlock()


def tests_of(module_globals):
    return sorted((k, v) for k, v in module_globals.items() if k.startswith("test_"))


def eq(a, b, what=""):
    if a != b:
        raise AssertionError("%s: %r != %r" % (what, a, b))


def unhex(s):
    return bytes(int(s[i : i + 2], 16) for i in range(0, len(s), 2))


def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_decode(data):
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data) + 0:
            raise ValueError("bad cobs")
        out += data[i + 1 : i + code]
        i += code
        if code < 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def decode(stream):
    """Frames of a byte stream as dicts (type, seq, ...); raises on a bad frame."""
    frames = []
    for chunk in bytes(stream).split(b"\x00")[:-1]:
        p = cobs_decode(chunk)
        eq(crc16(p[:-2]), p[-2] | p[-1] << 8, "crc")
        if len(p) < 6:
            raise ValueError("short frame")
        typ = p[0] & 15
        if p[0] >> 4 != 1 or not 1 <= typ <= 8:
            raise ValueError("bad version or type %02x" % p[0])
        f = {"type": typ, "seq": p[1] | p[2] << 8 | p[3] << 16}
        b = p[4:-2]
        if typ in (1, 2, 3):
            eq(len(b), 8, "body length")
            f["ch"] = b[0]
            f["b"] = b[1]
            f["t"] = int.from_bytes(b[2:8], "little")
        elif typ == 4:
            f["uptime"] = int.from_bytes(b[0:6], "little")
            f["n"] = b[6]
            f["levels"] = int.from_bytes(b[7:11], "little")
            f["overflows"] = int.from_bytes(b[11:15], "little")
            f["drops"] = int.from_bytes(b[15:19], "little")
            f["late"] = int.from_bytes(b[19:23], "little")
            texts = []
            o = 23
            for _ in range(4):
                n = b[o]
                texts.append(b[o + 1 : o + 1 + n].decode())
                o += 1 + n
            f["fw"], f["profile"], f["mp"], f["chip"] = texts
            f["reset"] = b[o] if o < len(b) else None
            f["crash"] = b[o + 2 : o + 2 + b[o + 1]].decode() if o < len(b) else ""
            o = o + 2 + b[o + 1] if o < len(b) else o
            f["tag"] = bytes(b[o : o + 4]) if o + 4 <= len(b) else None
            # firmware 0.5: the boot before's tag and last seq assigned (RTC memory)
            f["prev_tag"] = bytes(b[o + 4 : o + 8]) if o + 11 == len(b) else None
            f["prev_seq"] = int.from_bytes(b[o + 8 : o + 11], "little") if o + 11 == len(b) else None
            if len(b) not in (o, o + 4, o + 11):
                raise ValueError("hello of %d bytes after the crash text" % (len(b) - o))
        elif typ == 5:
            f["uptime"] = int.from_bytes(b[0:6], "little")
            f["overflows"] = b[6] | b[7] << 8
            f["drops"] = b[8] | b[9] << 8
            f["late"] = b[10] | b[11] << 8
            if len(b) >= 18:
                f["settled"] = int.from_bytes(b[12:18], "little")
            f["tag"] = bytes(b[18:22]) if len(b) == 22 else None
        elif typ == 6:
            f["token"] = b[0] | b[1] << 8
        elif typ == 7:
            f["code"] = b[0]
            f["text"] = b[1:].decode()
        elif typ == 8:
            f["ch"], f["status"], f["cls"] = b[0], b[1], b[2]
            f["rgbc"] = [b[3 + 2 * k] | b[4 + 2 * k] << 8 for k in range(4)]
        frames.append(f)
    return frames


class Sink:
    """The serial port as the firmware sees it: collects what it writes."""

    def __init__(self):
        self.data = bytearray()

    def write(self, b, off=0, n=-1):
        if n < 0:
            n = len(b) - off
        self.data += b[off : off + n]
        return n

    def take(self):
        d = decode(self.data)
        self.data = bytearray()
        return d


def channel(ch, mode="irq", kind="goal", active=0, debounce_us=None, colour=False):
    if debounce_us is None:
        debounce_us = 10 if mode == "pcnt" else 0  # counted channels always filter glitches
    return {
        "ch": ch,
        "name": "c%d" % ch,
        "kind": kind,
        "index": ch,
        "gpio": 10 + ch,
        "pull": "up",
        "active": active,
        "mode": mode,
        "debounce_us": debounce_us,
        "colour": colour,
    }


def board(channels, profile="test", scan_ms=20):
    return Board(
        {
            "profile": profile,
            "scan_ms": scan_ms,
            "heartbeat_ms": 1000,
            "colours": ["p1", "p2"],
            "channels": channels,
        }
    )


_n = [0]
_made = []


def firmware(b, feed_lines=None, sched_us=20, baud=115200):
    """A Firmware on the virtual HAL (not realtime): it writes to the HAL's UART model
    (fw.out, at baud), whose line ends in fw.sink (a Sink)."""
    gc.collect()
    hal = hal_virtual.Hal()
    hal.realtime = False
    hal.sched.sched_us = sched_us
    _n[0] += 1
    tag = "".join("%02x" % b for b in os.urandom(4))
    path = "%s/tablesense-fwtest-%s-%d.jsonl" % (os.getenv("TMPDIR") or "/tmp", tag, _n[0])
    with open(path, "w") as f:
        f.write("")
    hal.feed_path = path
    _made.append(path)
    hal.follow_wall = False  # virtual time only: what a test checks does not hang on the machine's speed
    hal.heap = hal_virtual.NO_GC  # no collections: the harness allocates, the firmware's tests do not
    hal.out.dev = Sink()
    hal.out.baud = baud
    fw = link.Firmware(hal, inp=None)
    fw.sink = hal.out.dev
    fw.use_board(b)
    fw.feed_path = path
    if feed_lines:
        feed(fw, feed_lines)
    return fw


def feed(fw, lines):
    import json

    with open(fw.feed_path, "a") as f:
        for d in lines:
            f.write(json.dumps(d) + "\n")


def settle(fw, passes=50):
    """Run main-loop passes until the feed is used up and everything kept is sent,
    then a few more (each pass a millisecond later, as on the board)."""
    for _ in range(200000):
        more = fw.step()
        fw.flush()
        if not more and not fw.backlog() and not fw.txlen:
            break
        if not more and fw.hal._peek() is None:  # the feed is used up: a millisecond on
            fw.hal.set_clock(fw.hal.now + 1000)
    for _ in range(passes):
        fw.hal.set_clock(fw.hal.now + 1000)
        fw.step()
        fw.flush()
    for _ in range(100000):  # what those passes made, sent
        if not fw.backlog() and not fw.txlen:
            break
        fw.hal.set_clock(fw.hal.now + 1000)
        fw.flush()
    return fw.sink.take()


def sent(fw):
    """What the firmware has queued, once the line has taken it all (time moves on)."""
    for _ in range(100000):
        fw.flush()
        if not fw.backlog() and not fw.txlen:
            break
        fw.hal.set_clock(fw.hal.now + 1000)
    return fw.sink.take()


def events(frames, typ=1):
    return [f for f in frames if f["type"] == typ]
