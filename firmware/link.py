# The firmware's main loop: drain the rings, stamp, encode, write, keep frames for
# replay, heartbeat, answer the host's ASCII commands. See docs/firmware.md.
import sys

import asyncio
import select
from micropython import const

import board as boardcfg
import wire
from capture import LevelScan, Poller, capture_handler, irq_handler
from clock import Clock
from ring import Ring

FW_VERSION = "0.1.0"
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
KEEP = const(2048)  # replayable frames kept (a power of two: seq & (KEEP - 1) is the slot)
_RING = const(256)
_TX_MAX = const(4096)
_LINE_MAX = const(80)
_COLOUR_DELAY_US = const(2000)  # colour sensor integration time after a beam edge

E_UNKNOWN = const(1)
E_ARGUMENT = const(2)
E_REPLAY_GONE = const(3)
E_PROFILE = const(4)
E_INTERNAL = const(5)


def tdiff(a, b):
    """Signed difference of two 30-bit tick values. Does not allocate."""
    return ((a - b + _HALF) & _MASK) - _HALF


def elapsed(a, b):
    """Unsigned ticks from b to a (any forward step shorter than 2**30 us)."""
    return (a - b) & _MASK


class Firmware:
    def __init__(self, hal, out=None, inp=None):
        self.hal = hal
        self.out = out if out is not None else sys.stdout.buffer
        self.inp = inp if inp is not None else sys.stdin.buffer
        self.enc = wire.Encoder()
        self.ring = Ring(_RING)  # written by the soft-IRQ handlers only
        self.mring = Ring(_RING // 4)  # written by the main loop (poll, level scan)
        self.levels = bytearray(boardcfg.MAX_CHANNELS)
        self.calls = bytearray(boardcfg.MAX_CHANNELS)
        self.clock = Clock(hal.ticks_us())
        self.next_seq = 0
        self.last_seq = wire.SEQ_MASK  # nothing sent yet
        self.kept = bytearray(KEEP * wire.RECORD)
        self.kept_n = 0
        self.sched_drops = 0
        self.late = 0
        self.tx_drops = 0
        self.txbuf = bytearray(_TX_MAX)
        self.txlen = 0
        self.line = bytearray(_LINE_MAX)
        self.line_n = 0
        self.line_over = False
        self.onebyte = bytearray(1)
        self.board = None
        self.pins = {}
        self.pcnt = []
        self.colour_chs = ()
        self.colour_due = {}
        self.poller = Poller([], [], self.levels)
        self.scanner = LevelScan([], [], self.levels, self.calls)
        t = hal.ticks_us()
        self.last_hb = t
        self.last_scan = t

    # -- configuration ----------------------------------------------------------------
    def use_board(self, b):
        """Set up every channel of board b (drops the previous board's handlers)."""
        boardcfg.check_firmware(b, FW_VERSION)
        self.drain()
        self.hal.reset()
        self.board = b
        self.pins = {}
        self.pcnt = []
        polls, scanned, ppins, spins, col = [], [], [], [], []
        for c in b.channels:
            pin = self.hal.pin(c)
            self.pins[c.ch] = (pin, c)
            self.levels[c.ch] = 1 if pin.value() == c.active else 0
            if c.mode == "irq":
                h = irq_handler(self.ring, c.ch, pin, c.active, self.levels, self.calls, self.hal.ticks_us)
                self.hal.irq(pin, c, h)
            elif c.mode == "capture":
                h = capture_handler(
                    self.ring, c.ch, pin, c.active, self.levels, self.calls, self.hal.capture(pin, c)
                )
                self.hal.irq(pin, c, h)
            elif c.mode == "poll":
                polls.append(c)
                ppins.append(pin)
            else:
                self.pcnt.append((c.ch, self.hal.counter(pin, c)))
            if c.mode in ("irq", "capture"):
                scanned.append(c)
                spins.append(pin)
            if c.colour:
                col.append(c.ch)
        self.poller = Poller(polls, ppins, self.levels)
        self.scanner = LevelScan(scanned, spins, self.levels, self.calls)
        self.colour_chs = tuple(col)
        self.colour_due = {}

    def boot(self):
        try:
            self.use_board(boardcfg.load(self.hal.board_path))
        except boardcfg.BoardError as e:
            self.error(E_PROFILE, e.args[0])

    # -- output ---------------------------------------------------------------------
    def write(self, n):
        """Queue the frame in enc.out[0:n]; a full queue drops it (the host replays)."""
        if self.txlen + n > _TX_MAX:
            self.flush()
            if self.txlen + n > _TX_MAX:
                self.tx_drops += 1
                return
        wire.copy(self.txbuf, self.txlen, self.enc.out, n)
        self.txlen += n

    def flush(self):
        if not self.txlen:
            return
        try:
            r = self.out.write(memoryview(self.txbuf)[: self.txlen])
        except OSError:
            r = None
        if r:
            if r < self.txlen:
                self.txbuf[: self.txlen - r] = memoryview(self.txbuf)[r : self.txlen]
            self.txlen -= r

    def record(self, typ, ch, b):
        """Send a replayable frame stamped with clock.hi/lo; keep it for replay."""
        seq = self.next_seq
        n = self.enc.record(typ, seq, ch, b, self.clock.hi, self.clock.lo)
        wire.copy(self.kept, (seq & (KEEP - 1)) * wire.RECORD, self.enc.p, wire.RECORD)
        if self.kept_n < KEEP:
            self.kept_n += 1
        self.last_seq = seq
        self.next_seq = (seq + 1) & wire.SEQ_MASK
        self.write(n)

    def error(self, code, text):
        self.write(self.enc.error(self.last_seq, code, text))

    def overflows(self):
        return self.ring.overflows + self.mring.overflows

    def now(self):
        self.clock.update(self.hal.ticks_us())

    def hello(self):
        self.now()
        lv = 0
        for ch, (pin, c) in self.pins.items():
            if c.mode == "pcnt":
                on = pin.value() == c.active
            else:
                on = self.levels[ch]
            if on:
                lv |= 1 << ch
        b = self.board
        self.write(
            self.enc.hello(
                self.last_seq, self.clock.hi, self.clock.lo,
                b.n_channels() if b else 0, lv, self.overflows(), self.sched_drops, self.late,
                FW_VERSION, b.profile if b else "",
            )
        )

    def heartbeat(self):
        self.now()
        self.write(
            self.enc.heartbeat(
                self.last_seq, self.clock.hi, self.clock.lo, self.overflows(), self.sched_drops, self.late
            )
        )

    # -- the rings --------------------------------------------------------------------
    def drain(self):
        self.now()
        clock = self.clock
        for ring in (self.ring, self.mring):
            while True:
                m = ring.take()
                if m < 0:
                    break
                ch = m & 0xFF
                flags = m >> 8
                clock.at(ring.tick)
                self.record(wire.EVENT, ch, flags)
                if flags & wire.F_LATE:
                    self.late += 1
                if flags & wire.F_ACTIVE and ch in self.colour_chs:
                    self.colour_due[ch] = (ring.tick + _COLOUR_DELAY_US) & _MASK
        if self.colour_due:
            t = self.hal.ticks_us()
            for ch in list(self.colour_due):
                if tdiff(t, self.colour_due[ch]) >= 0:
                    del self.colour_due[ch]
                    self.clock.update(t)
                    self.record(wire.READING, ch, self.hal.colour(ch) & 0xFF)

    def counts(self):
        if not self.pcnt:
            return
        self.now()
        for ch, counter in self.pcnt:
            n = counter.take()
            if n > 0:
                self.record(wire.COUNT, ch, min(n, 255))

    # -- commands ---------------------------------------------------------------------
    def replay(self, seq):
        oldest = (self.last_seq - self.kept_n + 1) & wire.SEQ_MASK
        span = (self.last_seq - seq) & wire.SEQ_MASK  # frames after seq
        if seq == self.next_seq:
            return  # nothing missed
        if self.kept_n == 0 or span >= self.kept_n:
            if self.kept_n:
                self.error(E_REPLAY_GONE, "replay %d: oldest kept is %d" % (seq, oldest))
            else:
                self.error(E_REPLAY_GONE, "replay %d: nothing sent yet" % seq)
            return
        for k in range(span + 1):
            s = (seq + k) & wire.SEQ_MASK
            self.flush()
            self.write(self.enc.stored(self.kept, (s & (KEEP - 1)) * wire.RECORD, True))

    def command(self, line):
        parts = line.split()
        if not parts:
            return
        cmd = parts[0]
        args = parts[1:]
        if cmd == "!hello" and not args:
            self.hello()
        elif cmd == "!ping":
            tok = _int_arg(args, 0xFFFF)
            if tok is None:
                self.error(E_ARGUMENT, "usage: !ping <token 0..65535>")
            else:
                self.write(self.enc.pong(self.last_seq, tok))
        elif cmd == "!replay":
            seq = _int_arg(args, wire.SEQ_MASK)
            if seq is None:
                self.error(E_ARGUMENT, "usage: !replay <seq 0..16777215>")
            else:
                self.replay(seq)
        elif cmd == "!profile":
            if len(args) != 1 or not boardcfg.valid_id(args[0]):
                self.error(E_ARGUMENT, "usage: !profile <id of [a-z0-9_-]>")
                return
            try:
                b = boardcfg.load(self.hal.profile_path(args[0]))
            except boardcfg.BoardError as e:
                self.error(E_PROFILE, "profile %s: %s" % (args[0], e.args[0]))
                return
            try:
                boardcfg.check_firmware(b, FW_VERSION)
            except boardcfg.BoardError as e:
                self.error(E_PROFILE, "profile %s: %s" % (args[0], e.args[0]))
                return  # the current profile stays
            try:
                self.use_board(b)
            except boardcfg.BoardError as e:
                self.board = None
                self.error(E_PROFILE, "profile %s: %s" % (args[0], e.args[0]))
                return
            self.hello()
        else:
            self.error(E_UNKNOWN, "unknown command: %s" % line[:60])

    def feed_byte(self, c):
        if c == 10:
            if self.line_over:
                self.error(E_ARGUMENT, "command line longer than %d bytes" % _LINE_MAX)
            else:
                try:
                    text = bytes(self.line[: self.line_n]).decode()
                except UnicodeError:
                    text = None
                if text is None or not _ascii(text):
                    self.error(E_ARGUMENT, "commands are ASCII lines")
                else:
                    try:
                        self.command(text)
                    except Exception as e:  # never crash on a command
                        self.error(E_INTERNAL, "%s: %s" % (type(e).__name__, e))
            self.line_n = 0
            self.line_over = False
        elif c == 13:
            pass
        elif self.line_n < _LINE_MAX:
            self.line[self.line_n] = c
            self.line_n += 1
        else:
            self.line_over = True

    def commands(self, poller):
        for _ in range(256):
            if not poller.poll(0):
                return
            try:
                n = self.inp.readinto(self.onebyte)
            except OSError:
                return
            if not n:
                return
            self.feed_byte(self.onebyte[0])

    # -- the loop -----------------------------------------------------------------------
    def step(self):
        """One pass of the main loop (about every millisecond). True if the HAL has
        more input ready (then the next pass comes without sleeping)."""
        hal = self.hal
        more = hal.service(self.txlen > _TX_MAX // 2)
        t = hal.ticks_us()
        self.poller.sample(t, self.mring, tdiff)
        b = self.board
        if b is not None and elapsed(t, self.last_scan) >= b.scan_ms * 1000:
            self.last_scan = t
            self.scanner.scan(t, self.mring)
            self.sched_drops += self.scanner.drops
            self.scanner.drops = 0
            self.counts()
        self.drain()
        hb = b.heartbeat_ms if b is not None else 1000
        if elapsed(hal.ticks_us(), self.last_hb) >= hb * 1000:
            self.last_hb = hal.ticks_us()
            self.heartbeat()
        return more

    async def run(self):
        poller = select.poll()
        poller.register(self.inp, select.POLLIN)
        self.boot()
        self.hello()
        while True:
            more = self.step()
            self.commands(poller)
            self.flush()
            await asyncio.sleep_ms(0 if more and self.txlen <= _TX_MAX // 2 else 1)


def _int_arg(args, top):
    if len(args) != 1:
        return None
    try:
        v = int(args[0])
    except ValueError:
        return None
    return v if 0 <= v <= top else None


def _ascii(s):
    for c in s:
        if not 32 <= ord(c) < 127:
            return False
    return True


def main(hal):
    asyncio.run(Firmware(hal).run())
