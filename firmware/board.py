# Board configuration: the JSON generated from a table profile (docs/firmware.md).
import json

MODES = ("irq", "capture", "poll", "pcnt")
KINDS = ("goal", "pocket", "pin", "cushion", "motion")
MAX_CHANNELS = 32


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
        self.debounce_us = d.get("debounce_us", 0)
        if not isinstance(self.debounce_us, int) or self.debounce_us < 0:
            raise BoardError("channels[%d].debounce_us: must be an integer >= 0" % i)
        self.colour = d.get("colour", False) is True
        self.index = d.get("index")


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

    def n_channels(self):
        return max([c.ch + 1 for c in self.channels] or [0])


def _version(s):
    try:
        return tuple(int(p) for p in s.split("-")[0].split("."))
    except ValueError:
        return None


def check_firmware(b, fw_version):
    """BoardError if board b asks for a newer firmware than fw_version."""
    if _version(fw_version) < _version(b.fw_min):
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
