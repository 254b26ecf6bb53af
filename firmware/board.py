# Board configuration: the JSON generated from a table profile (docs/firmware.md).
import json

MODES = ("irq", "capture", "poll", "pcnt")
KINDS = ("goal", "pocket", "pin", "cushion", "motion")
MAX_CHANNELS = 32
PCNT_FILTER_US = 10  # a counted channel's glitch filter when the board names none (hardware/sensors.md)
PCNT_FILTER_MAX_US = 12  # the PCNT's filter counts at most 1023 APB cycles: 12.8 us


class BoardError(ValueError):
    pass


class Channel:
    def __init__(self, d, i):
        def need(key, types):
            if key not in d:
                raise BoardError("channels[%d]: missing %r" % (i, key))
            v = d[key]
            if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
                raise BoardError("channels[%d].%s: bad value %r" % (i, key, v))
            return v

        self.ch = need("ch", (int,))
        if not 0 <= self.ch < MAX_CHANNELS:
            raise BoardError("channels[%d].ch: %d is not in 0..%d" % (i, self.ch, MAX_CHANNELS - 1))
        self.name = need("name", (str,))
        self.kind = need("kind", (str,))
        if self.kind not in KINDS:
            raise BoardError("channels[%d].kind: unknown kind %r" % (i, self.kind))
        self.mode = need("mode", (str,))
        if self.mode not in MODES:
            raise BoardError(
                "channels[%d].mode: unknown mode %r (one of %s)" % (i, self.mode, ", ".join(MODES))
            )
        self.gpio = need("gpio", (int,))
        self.active = need("active", (int,))
        if self.active not in (0, 1):
            raise BoardError("channels[%d].active: must be 0 or 1" % i)
        self.pull = d.get("pull")
        if self.pull not in (None, "up", "down"):
            raise BoardError("channels[%d].pull: must be up, down or null" % i)
        self.debounce_us = d.get("debounce_us", PCNT_FILTER_US if self.mode == "pcnt" else 0)
        if not isinstance(self.debounce_us, int) or self.debounce_us < 0:
            raise BoardError("channels[%d].debounce_us: must be an integer >= 0" % i)
        if self.mode == "pcnt" and not 1 <= self.debounce_us <= PCNT_FILTER_MAX_US:
            raise BoardError("channels[%d].debounce_us: a pulse counter's glitch filter is 1..%d us, not %d"
                             % (i, PCNT_FILTER_MAX_US, self.debounce_us))
        self.colour = d.get("colour", False) is True
        self.index = d.get("index")
        self.mux = d.get("mux")  # TCA9548A port of this channel's colour sensor
        if self.mux is not None and (not isinstance(self.mux, int) or isinstance(self.mux, bool)
                                     or not 0 <= self.mux <= 7):
            raise BoardError("channels[%d].mux: the multiplexer port must be 0..7" % i)


class Board:
    def __init__(self, d):
        if not isinstance(d, dict):
            raise BoardError("board config must be a JSON object")
        self.profile = d.get("profile")
        if not isinstance(self.profile, str) or not self.profile:
            raise BoardError("missing 'profile' (the profile id)")
        self.scan_ms = d.get("scan_ms", 20)
        if not isinstance(self.scan_ms, int) or not 1 <= self.scan_ms <= 1000:
            raise BoardError("scan_ms: must be an integer in 1..1000")
        hb = d.get("heartbeat_ms", 1000)
        if not isinstance(hb, int) or hb < 10:
            raise BoardError("heartbeat_ms: must be an integer >= 10")
        self.heartbeat_ms = min(hb, 1000)  # the protocol wants one at least every second
        self.fw_min = d.get("fw_min", "0")
        if not isinstance(self.fw_min, str) or _version(self.fw_min) is None:
            raise BoardError("fw_min: not a version like 0.1.0: %r" % (self.fw_min,))
        self.colours = d.get("colours", [])
        chans = d.get("channels")
        if not isinstance(chans, list):
            raise BoardError("'channels' must be a list")
        self.channels = []
        seen = set()
        for i, c in enumerate(chans):
            if not isinstance(c, dict):
                raise BoardError("channels[%d]: must be an object" % i)
            ch = Channel(c, i)
            if ch.ch in seen:
                raise BoardError("channels[%d].ch: channel %d given twice" % (i, ch.ch))
            seen.add(ch.ch)
            self.channels.append(ch)
        _i2c(self, d.get("i2c"))
        _colour(self, d.get("colour"))

    def n_channels(self):
        return max([c.ch + 1 for c in self.channels] or [0])


GAINS = (1, 4, 16, 60)
_REF = ("ch", "class", "r", "g", "b", "clear", "min_clear", "max_dist")
_REF_TOP = (MAX_CHANNELS - 1, 254, 2000, 2000, 2000, 65535, 65535, 1000)


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _i2c(b, d):
    """The colour sensors' bus: i2c {sda, scl, freq, mux}."""
    b.i2c_sda = b.i2c_scl = b.i2c_mux = None
    b.i2c_freq = 100000
    if d is None:
        return
    if not isinstance(d, dict):
        raise BoardError("i2c: must be an object {sda, scl, freq, mux}")
    for key in ("sda", "scl"):
        v = d.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 39:
            raise BoardError("i2c.%s: must be a GPIO number, got %r" % (key, v))
    b.i2c_sda = d["sda"]
    b.i2c_scl = d["scl"]
    f = d.get("freq", 100000)
    if not _int(f) or not 10000 <= f <= 400000:
        raise BoardError("i2c.freq: must be 10000..400000 Hz (the TCS34725 allows 400 kHz), got %r" % (f,))
    b.i2c_freq = f
    m = d.get("mux")
    if m is not None and (not _int(m) or not 0x70 <= m <= 0x77):
        raise BoardError("i2c.mux: a TCA9548A address is 0x70..0x77 (112..119), got %r" % (m,))
    b.i2c_mux = m


def _colour(b, d):
    """Colour sensor settings: colour {cycles, gain, delay_us, refs}. A board without
    them (hand-written test boards) has colour_model False: the virtual HAL then reads
    the feed's class as is, the ESP32 reads nothing (0)."""
    b.colour_model = d is not None
    b.colour_cycles = 4
    b.colour_gain = 16
    b.colour_delay_us = 2000
    b.colour_refs = []
    if d is None:
        return
    if not isinstance(d, dict):
        raise BoardError("colour: must be an object {cycles, gain, delay_us, refs}")
    cyc = d.get("cycles", 4)
    if not _int(cyc) or not 1 <= cyc <= 256:
        raise BoardError("colour.cycles: integration cycles of 2.4 ms must be 1..256, got %r" % (cyc,))
    gain = d.get("gain", 16)
    if gain not in GAINS or not _int(gain):
        raise BoardError("colour.gain: must be 1, 4, 16 or 60, got %r" % (gain,))
    delay = d.get("delay_us", 2 * cyc * 2400 + 4800)
    if not _int(delay) or not 0 <= delay <= 1000000:
        raise BoardError("colour.delay_us: must be 0..1000000 us after the beam edge, got %r" % (delay,))
    b.colour_cycles = cyc
    b.colour_gain = gain
    b.colour_delay_us = delay
    col = {}
    for c in b.channels:
        if c.colour:
            col[c.ch] = c
    if len(col) > 1:
        if b.i2c_mux is None:
            raise BoardError(
                "colour: %d colour sensors but no i2c.mux: every TCS34725 answers at 0x29, so "
                "several need a TCA9548A multiplexer and a mux port per channel" % len(col)
            )
        ports = {}
        for ch, c in col.items():
            if c.mux is None:
                raise BoardError(
                    "channels: channel %d (%s) has a colour sensor but no mux port" % (ch, c.name)
                )
            if c.mux in ports:
                raise BoardError(
                    "channels: channels %d and %d both use mux port %d" % (ports[c.mux], ch, c.mux)
                )
            ports[c.mux] = ch
    refs = d.get("refs", [])
    if not isinstance(refs, list):
        raise BoardError("colour.refs: must be a list of [ch, class, r, g, b, clear, min_clear, max_dist]")
    for i, r in enumerate(refs):
        if not isinstance(r, list) or len(r) != len(_REF):
            raise BoardError("colour.refs[%d]: must be [%s]" % (i, ", ".join(_REF)))
        for k in range(len(_REF)):
            if not _int(r[k]) or not 0 <= r[k] <= _REF_TOP[k]:
                raise BoardError("colour.refs[%d].%s: must be an integer 0..%d, got %r"
                                 % (i, _REF[k], _REF_TOP[k], r[k]))
        if r[0] not in col:
            raise BoardError("colour.refs[%d]: channel %d has no colour sensor" % (i, r[0]))
        if not 1 <= r[1] <= len(b.colours):
            raise BoardError(
                "colour.refs[%d]: class %d is not in colours (1..%d)" % (i, r[1], len(b.colours))
            )
        if r[7] == 0:
            raise BoardError("colour.refs[%d].max_dist: must be at least 1" % i)
        b.colour_refs.append(tuple(r))


def _version(s):
    try:
        return tuple(int(p) for p in s.split("-")[0].split("."))
    except ValueError:
        return None


def check_firmware(b, fw_version):
    """BoardError if board b asks for a newer firmware than fw_version."""
    have = _version(fw_version)
    need = _version(b.fw_min)
    if have is None or need is None or have < need:
        raise BoardError(
            "profile %s needs firmware %s or newer, this is %s" % (b.profile, b.fw_min, fw_version)
        )


def load(path):
    """Board from a JSON file; BoardError with a readable reason on any problem."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise BoardError("cannot read board config %s" % path)
    try:
        d = json.loads(text)
    except ValueError:
        raise BoardError("board config %s is not valid JSON" % path)
    try:
        return Board(d)
    except BoardError as e:
        raise BoardError("%s: %s" % (path, e.args[0]))


def valid_id(s):
    """A profile id is short and made of [a-z0-9_-] (it becomes a file name)."""
    if not 0 < len(s) <= 32:
        return False
    for c in s:
        if not ("a" <= c <= "z" or "0" <= c <= "9" or c in "_-"):
            return False
    return True
