# The firmware's main loop: drain the rings, stamp, keep every replayable frame, send
# them in order as the link has room, heartbeat, answer the host's ASCII commands.
# See docs/firmware.md and docs/timing.md.
#
# On the ESP32 a write to stdout spins until every byte is in the UART's 128-byte TX
# FIFO (ports/esp32/uart.c), waiting a FreeRTOS tick (10 ms) whenever the FIFO is full,
# with no IRQ callback run meanwhile. So the loop never writes more than the FIFO can
# take now (hal.tx_room()): replayable frames wait in `kept` and a send cursor walks
# them out, a few per pass; a replay is the cursor moved back. Control frames (HELLO,
# HEARTBEAT, PONG, ERROR) go first. The steady state allocates nothing (heap_lock tests).
import sys

import micropython
import select
from micropython import const

import board as boardcfg
import colour
import wire
from array import array
from capture import LevelScan, Poller, capture_handler, irq_handler
from clock import Clock
from ring import Ring
from rtc_record import Keeper, previous

FW_VERSION = "0.5.0"
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
KEEP = const(2048)  # replayable frames kept (a power of two: seq & (KEEP - 1) is the slot)
_RING = const(256)
_TX_MAX = const(1024)  # control frames waiting for the link
_WIRE_RECORD = const(16)  # an EVENT/COUNT/READING on the wire, always
_SEND_MAX = const(32)  # kept frames encoded for one write (the ESP32's FIFO takes 8)
_SEQ_MASK = const(0xFFFFFF)
_RECORD = const(12)  # wire.RECORD: a kept frame's bytes
_EVENT = const(1)  # wire.EVENT
_F_ACTIVE = const(1)
_F_LATE = const(2)
_STALE = const(1 << 27)  # the newest stamp kept is moved up to this far behind now (_drain)
_BACKLOG_BUSY = const(256)  # frames waiting to be sent: the virtual table holds back
_LINE_MAX = const(80)
_COLOUR_DELAY_US = const(2000)  # colour sensor integration time after a beam edge (default)
_NO_MARK = const(-1)
_FEED_US = const(100000)  # the watchdog is fed this often (recover.WDT_MS: 5 s)
_QUIET_US = const(200000)  # no edge for this long: a quiet point, where garbage is collected

E_UNKNOWN = const(1)
E_ARGUMENT = const(2)
E_REPLAY_GONE = const(3)
E_PROFILE = const(4)
E_INTERNAL = const(5)
E_SENSOR = const(6)  # a sensor's bus stopped answering (or answers again)


def tdiff(a, b):
    """Signed difference of two 30-bit tick values. Does not allocate."""
    return ((a - b + _HALF) & _MASK) - _HALF


def elapsed(a, b):
    """Unsigned ticks from b to a (any forward step shorter than 2**30 us)."""
    return (a - b) & _MASK


def _unlimited():
    return _TX_MAX


class Firmware:
    def __init__(self, hal, out=None, inp=None, boot=None):
        self.hal = hal
        quiet = getattr(hal, "quiet", None)
        if quiet is not None:
            quiet()  # ESP-IDF's log lines off: nothing but frames on the link
        # what started this boot and what ended the one before (recover.Boot), for HELLO
        self.reset_cause = boot.cause if boot is not None else _call(hal, "reset_cause", 0)
        self.crash = boot.text if boot is not None else ""
        self.tag = boot_tag(hal.ticks_us(), _urandom())  # in every HELLO and HEARTBEAT (firmware 0.4)
        # the boot before's tag and last seq assigned, from RTC memory (firmware 0.5; None: a
        # power-on, nothing kept), in every HELLO; then this boot's record, kept there from now on
        self.prev = previous(_call(hal, "rtc_read", None))
        self.rtc = Keeper(hal, self.tag)
        self.rtc.write(_SEQ_MASK)  # nothing assigned yet
        if out is None:
            out = getattr(hal, "out", None)
        self.out = out if out is not None else sys.stdout.buffer
        self.inp = inp if inp is not None else sys.stdin.buffer
        self.tx_room = getattr(hal, "tx_room", _unlimited)
        self.enc = wire.Encoder()
        self.ring = Ring(_RING)  # written by the soft-IRQ handlers only
        self.mring = Ring(_RING // 4)  # written by the main loop (poll, level scan)
        self.levels = bytearray(boardcfg.MAX_CHANNELS)
        self.calls = bytearray(boardcfg.MAX_CHANNELS)
        self.clock = Clock(hal.ticks_us())
        self.next_seq = 0  # the seq the next replayable frame gets
        self.rtc_seq = 0  # next_seq when the RTC record was last written (drain)
        self.send_seq = 0  # the next kept frame to write to the link
        self.sent_seq = _SEQ_MASK  # the last frame written in order (HELLO/HEARTBEAT/PONG say it)
        self.replay_mark = _NO_MARK  # frames before this seq are re-sent: flagged REPLAY
        self.kept = bytearray(KEEP * _RECORD)
        self.kept_n = 0
        self.sched_drops = 0
        self.late = 0
        self.tx_drops = 0  # control frames dropped (no room); kept frames never are
        self.skipped = 0  # kept frames overwritten before the link could send them
        self.txbuf = bytearray(_TX_MAX)
        self.sendbuf = bytearray(_SEND_MAX * _WIRE_RECORD)  # kept frames, encoded for one write
        self.txoff = 0
        self.txlen = 0
        self.line = bytearray(_LINE_MAX)
        self.line_n = 0
        self.line_over = False
        self.onebyte = bytearray(1)
        self.board = None
        self.pins = {}
        self.pcnt = []
        self.colour_chs = ()
        self.colour_wait = bytearray(boardcfg.MAX_CHANNELS)  # 1: read the colour at colour_at[ch]
        self.colour_at = [0] * boardcfg.MAX_CHANNELS
        self.colour_delay = _COLOUR_DELAY_US
        self.rgbc = array("H", [0] * 4)  # a raw colour reading (the !colour command)
        self.poller = Poller([], [], self.levels)
        self.scanner = LevelScan([], [], self.levels, self.calls)
        t = hal.ticks_us()
        self.last_hb = t
        self.last_scan = t
        self.last_feed = t
        self.last_edge = t
        self.gc_due = False  # a command left garbage: collect it at the next quiet point
        # the newest stamp kept (30-bit ticks) and the host's reorder window (one scan):
        # a record the main loop makes late is never stamped further behind (_drain)
        self.newest = t
        self.window = 20000
        self.feed = getattr(hal, "feed", _nothing)
        self.collect = getattr(hal, "collect", _nothing)

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
                # the counter's driver turns the internal pull-up on: the profile's pull again
                self.hal.pull(pin, c)
            if c.mode in ("irq", "capture"):
                scanned.append(c)
                spins.append(pin)
            if c.colour:
                col.append(c.ch)
        self.poller = Poller(polls, ppins, self.levels)
        self.scanner = LevelScan(scanned, spins, self.levels, self.calls)
        self.colour_chs = tuple(col)
        for ch in range(boardcfg.MAX_CHANNELS):
            self.colour_wait[ch] = 0
        self.colour_delay = getattr(b, "colour_delay_us", _COLOUR_DELAY_US)
        self.window = b.scan_ms * 1000
        for text in self.hal.use_colours(b):  # a sensor that did not answer: its ball is unknown
            self.error(E_PROFILE, text)
        self.collect()  # set-up's garbage, now, before the first edge
    def boot(self):
        why = getattr(self.hal, "mp_version_error", None)
        if why:  # a MicroPython too old for this firmware: say so, in every HELLO's wake
            self.error(E_PROFILE, why)
        try:
            self.use_board(boardcfg.load(self.hal.board_path))
        except boardcfg.BoardError as e:
            self.error(E_PROFILE, e.args[0])

    # -- output ---------------------------------------------------------------------
    def write(self, n):
        """Queue the control frame in enc.out[0:n]; dropped (counted) when no room."""
        if self.txlen + n > _TX_MAX:
            if self.txoff:
                self._compact()
            if self.txlen + n > _TX_MAX:
                self.tx_drops += 1
                return
        wire.copy(self.txbuf, self.txlen, self.enc.out, n)
        self.txlen += n

    def _compact(self):
        n = self.txlen - self.txoff
        for i in range(n):
            self.txbuf[i] = self.txbuf[self.txoff + i]
        self.txoff = 0
        self.txlen = n

    def _put(self, buf, off, n):
        """Write buf[off:off+n] to the link; bytes taken (0 if it would block)."""
        try:
            # stream.write(buf, off, len): MicroPython's form (py/stream.c), no slice made
            r = self.out.write(buf, off, n)  # pyright: ignore[reportCallIssue, reportArgumentType]
        except OSError:
            return 0
        return r if r else 0

    def flush(self):
        """Write what the link can take now without blocking: control frames first,
        then kept frames from the send cursor (live ones, or a replay)."""
        room = self.tx_room()
        if self.txlen:
            n = self.txlen - self.txoff
            if n > room:
                n = room
            if n > 0:
                r = self._put(self.txbuf, self.txoff, n)
                room -= r
                self.txoff += r
            if self.txoff < self.txlen:
                return  # the rest next pass: frames stay in order behind the control frames
            self.txoff = 0
            self.txlen = 0
        behind = (self.next_seq - self.send_seq) & _SEQ_MASK
        if behind > self.kept_n:  # the link fell behind by more than KEEP: skip what is gone
            self.skipped += behind - self.kept_n
            self.send_seq = (self.next_seq - self.kept_n) & _SEQ_MASK
            behind = self.kept_n
        n = room >> 4  # frames the link takes now: 16 bytes each
        if n > behind:
            n = behind
        if n > _SEND_MAX:
            n = _SEND_MAX
        if n <= 0:
            return
        s = self.send_seq
        mark = self.replay_mark
        again = 0  # how many of them are sent again (a replay): flagged REPLAY
        if mark != _NO_MARK:
            again = (mark - s) & _SEQ_MASK
            if again > KEEP:
                again = 0
        buf = self.sendbuf
        kept = self.kept
        frame = wire.frame
        o = 0
        for i in range(n):  # encoded one by one, callbacks served in between
            o += frame(kept, ((s + i) & (KEEP - 1)) * _RECORD, 1 if i < again else 0, buf, o)
        r = self._put(buf, 0, o)
        if not r:
            return  # the port would block: these frames go next pass
        sent = (r + _WIRE_RECORD - 1) >> 4
        if r & (_WIRE_RECORD - 1):
            self.tx_drops += 1  # torn (unix port only): the host skips it and asks again
        self.sent_seq = (s + sent - 1) & _SEQ_MASK
        self.send_seq = (s + sent) & _SEQ_MASK
        if 0 < again <= sent:
            self.replay_mark = _NO_MARK

    def backlog(self):
        """Frames kept but not yet written to the link."""
        return (self.next_seq - self.send_seq) & _SEQ_MASK

    def record(self, typ, ch, b):
        """Keep a replayable frame stamped with clock.hi/lo; flush() sends it."""
        seq = self.next_seq
        clock = self.clock
        wire.keep(self.kept, (seq & (KEEP - 1)) * _RECORD, typ, seq, ch, b, clock.hi, clock.lo)
        if tdiff(clock.lo, self.newest) > 0:  # lo is the 30-bit tick of the stamp
            self.newest = clock.lo
        if self.kept_n < KEEP:
            self.kept_n += 1
        self.next_seq = (seq + 1) & _SEQ_MASK

    def error(self, code, text):
        self.write(self.enc.error(self.sent_seq, code, text))

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
        hal = self.hal
        self.write(
            self.enc.hello(
                self.sent_seq, self.clock.hi, self.clock.lo,
                b.n_channels() if b else 0, lv, self.overflows(), self.sched_drops, self.late,
                FW_VERSION, b.profile if b else "",
                getattr(hal, "mp_version", ""), getattr(hal, "chip", ""),
                self.reset_cause, self.crash, self.tag, self.prev,
            )
        )

    def heartbeat(self):
        """HEARTBEAT: uptime now, and settled_us: the stamp of the oldest frame still
        waiting behind the send cursor (now if none), so that the host never takes the
        device's time as past frames it has not received yet."""
        self.now()
        clock = self.clock
        shi = clock.hi
        slo = clock.lo
        if self.send_seq != self.next_seq:
            k = self.kept
            o = (self.send_seq & (KEEP - 1)) * _RECORD + 6
            slo = k[o] | k[o + 1] << 8 | k[o + 2] << 16 | (k[o + 3] & 0x3F) << 24
            shi = k[o + 3] >> 6 | k[o + 4] << 2 | k[o + 5] << 10
        self.write(
            self.enc.heartbeat(
                self.sent_seq, clock.hi, clock.lo, self.overflows(), self.sched_drops, self.late, shi, slo,
                self.tag,
            )
        )

    # -- the rings --------------------------------------------------------------------
    def drain(self):
        self.now()
        if elapsed(self.clock.lo, self.newest) > _STALE:  # kept near now: ticks compare within a half-wrap
            self.newest = (self.clock.lo - _STALE) & _MASK
        seq = self.next_seq
        self._drain(self.ring)
        self._drain(self.mring)
        if self.next_seq != seq:
            self.last_edge = self.hal.ticks_us()  # not a quiet point yet
        chs = self.colour_chs
        if chs:
            t = self.hal.ticks_us()
            for ch in chs:
                if self.colour_wait[ch] and tdiff(t, self.colour_at[ch]) >= 0:
                    self.colour_wait[ch] = 0
                    v = self.hal.colour(ch) & 0xFF
                    self.now()
                    self.record(wire.READING, ch, v)
                    t = self.hal.ticks_us()
                    self._colour_news()
        if self.next_seq != self.rtc_seq:  # seqs assigned (here, or by counts()): RTC memory says so
            self.rtc_seq = self.next_seq  # before any of them is sent (flush comes after)
            self.rtc.write((self.next_seq - 1) & _SEQ_MASK)

    def _colour_news(self):
        """The colour bus stopped answering, or answers again: one ERROR frame each."""
        cs = getattr(self.hal, "colour_sensors", None)
        if cs is not None and cs.news is not None:
            self.error(E_SENSOR, cs.news)
            cs.news = None

    def _drain(self, ring):
        """Every record in the ring, stamped and kept (record(), inline: this runs once
        an event). Callbacks that add records meanwhile are drained too.

        Frames are kept in the order they are drained, and the host puts them in time
        order within one scan (its reorder window). A record the main loop makes late (a
        polled edge after its debounce, an edge the level scan found) whose stamp is more
        than a scan behind the newest frame kept (the loop was held up between the two
        samples: a long write, a collection) is stamped one scan behind it and flagged
        LATE: its time was only known to within the hold-up. Written with its first
        sample's time, it came seconds behind later frames, and the host logged it out of
        order or refused it as implausible (the season soak, seed 3)."""
        st = ring.st  # head, tail, overflows, size (ring.py)
        t = st[1]
        if t == st[0]:
            return
        meta = ring.meta
        ticks = ring.ticks
        size = ring.size
        clock = self.clock
        kept = self.kept
        keep = wire.keep
        colour = self.colour_chs
        seq = self.next_seq
        newest = self.newest
        window = self.window
        n = 0
        while t != st[0]:
            m = meta[t]
            tick = ticks[t]
            t += 1
            if t == size:
                t = 0
            st[1] = t  # the slot is free for the handlers again
            ch = m & 0xFF
            flags = m >> 8
            d = ((tick - newest + _HALF) & _MASK) - _HALF  # tdiff, inline
            if d > 0:
                newest = tick
            elif d < -window:  # kept late: one scan behind the newest, flagged LATE
                tick = (newest - window) & _MASK
                flags |= _F_LATE
            clock.at(tick)
            keep(kept, (seq & (KEEP - 1)) * _RECORD, _EVENT, seq, ch, flags, clock.hi, clock.lo)
            seq = (seq + 1) & _SEQ_MASK
            n += 1
            if flags & _F_LATE:
                self.late += 1
            if flags & _F_ACTIVE and colour:
                for c in colour:
                    if c == ch:
                        self.colour_wait[ch] = 1
                        self.colour_at[ch] = (tick + self.colour_delay) & _MASK
        self.next_seq = seq
        self.newest = newest
        n += self.kept_n
        self.kept_n = n if n < KEEP else KEEP

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
        """Move the send cursor back to seq: the frames from seq on are sent again,
        flagged REPLAY, a few per pass. What is no longer kept: ERROR 3, and the
        cursor goes to the oldest frame kept (a partial replay)."""
        nxt = self.next_seq
        if seq == nxt:
            return  # nothing missed
        back = (nxt - seq) & _SEQ_MASK  # frames from seq to the newest
        if back > _SEQ_MASK // 2:
            self.error(E_ARGUMENT, "replay %d: not sent yet (next is %d)" % (seq, nxt))
            return
        if self.kept_n == 0:
            self.error(E_REPLAY_GONE, "replay %d: nothing sent yet" % seq)
            return
        if back > self.kept_n:
            oldest = (nxt - self.kept_n) & _SEQ_MASK
            self.error(E_REPLAY_GONE, "replay %d: oldest kept is %d; replaying from it" % (seq, oldest))
            seq = oldest
            back = self.kept_n
        if back <= self.backlog():
            return  # not sent yet: it comes anyway
        self.send_seq = seq
        self.replay_mark = nxt

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
                self.write(self.enc.pong(self.sent_seq, tok))
        elif cmd == "!replay":
            seq = _int_arg(args, _SEQ_MASK)
            if seq is None:
                self.error(E_ARGUMENT, "usage: !replay <seq 0..16777215>")
            else:
                self.replay(seq)
        elif cmd == "!colour":
            ch = _int_arg(args, boardcfg.MAX_CHANNELS - 1)
            if ch is None:
                self.error(E_ARGUMENT, "usage: !colour <channel 0..31>")
            else:
                st = colour.sample(getattr(self.hal, "colour_sensors", None), ch, self.rgbc)
                self.write(self.enc.colour(self.sent_seq, ch, st, self.rgbc))
                self._colour_news()
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
        if c == 3:
            # Ctrl-C, read as data (the port's own Ctrl-C is off, see run()): raised here
            # in the main loop, never inside an IRQ callback where the port would print
            # and swallow it, so mpremote can always stop the firmware
            raise KeyboardInterrupt
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
                self.gc_due = True  # its garbage goes at the next quiet point
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
            ready = False
            for _ev in poller.ipoll(0):  # ipoll reuses its tuple: no allocation
                ready = True
            if not ready:
                return
            try:
                n = self.inp.readinto(self.onebyte)  # pyright: ignore[reportAttributeAccessIssue]
            except OSError:
                return
            if not n:
                return
            self.feed_byte(self.onebyte[0])

    # -- the loop -----------------------------------------------------------------------
    def step(self):
        """One pass of the main loop (about every millisecond). True if the HAL has
        more input ready (then the next pass comes without pausing)."""
        hal = self.hal
        more = hal.service(self.backlog() > _BACKLOG_BUSY)
        t = hal.ticks_us()
        if elapsed(t, self.last_feed) >= _FEED_US:
            self.last_feed = t
            self.feed()  # the watchdog: this loop still runs
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
        t = hal.ticks_us()
        if elapsed(t, self.last_hb) >= hb * 1000:
            self.last_hb = t
            self.heartbeat()
        if self.gc_due and elapsed(t, self.last_edge) >= _QUIET_US:
            self.gc_due = False
            self.collect()  # a quiet point: no edge drained for a while
        return more

    def run(self):
        """The main loop, forever. No asyncio: its sleep_ms(1) ends in a FreeRTOS wait of
        one tick (10 ms) on the ESP32; hal.pause() is a short wait that serves IRQ
        callbacks as they come (docs/timing.md)."""
        poller = select.poll()
        poller.register(self.inp, select.POLLIN)
        self.boot()
        self.hello()
        hal = self.hal
        while True:
            more = self.step()
            self.commands(poller)
            self.flush()
            if not more:
                hal.pause()


def boot_tag(ticks, urandom):
    """This boot's tag (firmware 0.4): wire.TAG bytes drawn once at boot, said in every HELLO
    and HEARTBEAT, so that the host knows a new boot by it at once, whatever its seq and
    uptime (docs/protocol.md). urandom (os.urandom; None where the port has none): the
    ESP32's hardware RNG, whose state the bootloader seeds with noise at every boot (ESP-IDF,
    "Random Number Generation"), or the unix port's system source; the tick count at boot is
    mixed in, and is all there is without it. A bytearray: copied into frames without an
    allocation (an int of 32 bits is a big one on the ESP32)."""
    tag = bytearray(wire.TAG)
    if urandom is not None:
        r = urandom(wire.TAG)
        for i in range(wire.TAG):
            tag[i] = r[i]
    for i in range(wire.TAG):
        tag[i] ^= (ticks >> (8 * i)) & 0xFF
    return tag


def _urandom():
    try:
        import os

        return os.urandom
    except (ImportError, AttributeError):
        return None


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


def _nothing():
    pass


def _call(obj, name, default):
    f = getattr(obj, name, None)
    return f() if f is not None else default


_running: list = [None]  # the Firmware running now, for last_words() after a crash


def last_words():
    """(uptime in s, what ran: firmware, profile, MicroPython, chip) of the firmware that
    just ended, which is then let go of (its buffers become garbage for the collector)."""
    fw = _running[0]
    _running[0] = None
    if fw is None:
        return 0.0, ""
    fw.now()
    hi = fw.clock.hi
    lo = fw.clock.lo
    b = fw.board
    hal = fw.hal
    about = "firmware %s, profile %s, MicroPython %s on %s" % (
        FW_VERSION, b.profile if b is not None else "-", getattr(hal, "mp_version", "?"),
        getattr(hal, "chip", "?"))
    fw = None
    return hi * 1073.741824 + lo / 1000000, about


def main(hal, boot=None):
    """Run the firmware on hal until Ctrl-C or an exception (recover.run handles both).
    boot: what recover.at_boot found (the reset cause, the last crash), for HELLO."""
    board = hal.name != "virtual"  # the unix port takes Ctrl-C as SIGINT: leave it be
    if board:
        micropython.kbd_intr(-1)  # Ctrl-C reaches stdin: feed_byte raises it in the main loop
    try:
        fw = Firmware(hal, boot=boot)
        _running[0] = fw
        fw.run()
    finally:
        if board:
            micropython.kbd_intr(3)
