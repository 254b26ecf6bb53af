"""What a table profile is: its channels, colour sensors and I2C bus, as frozen records,
and the words and limits they are made of.

The bottom floor of ``tablesense.table``: ``validate`` checks these records, ``profile``
reads them from TOML/JSON (and re-exports them: ``from tablesense.table.profile import
TableProfile`` goes on working), the link translates with them. It imports nothing of
tablesense, so nothing above can close a circle through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS: tuple[str, ...] = ("goal", "pocket", "pin", "cushion", "motion")
MODES: tuple[str, ...] = ("irq", "capture", "poll", "pcnt")
PULLS: tuple[str, ...] = ("up", "down", "none")
#: TCS34725 gains (CONTROL AGAIN 0..3) and one integration cycle
GAINS: tuple[int, ...] = (1, 4, 16, 60)
CYCLE_US = 2400

#: How long the host waits after a goal's or pocket's beam edge for the colour sensor's
#: READING that names the ball (``link.translate.Translator.colour_wait_us``); a profile's
#: ``colour.delay_us`` must leave the firmware time to read within it (``validate``).
COLOUR_WAIT_US = 50_000


@dataclass(frozen=True)
class Channel:
    """One sensor input of the board."""

    ch: int
    name: str
    kind: str
    index: int | str
    gpio: int
    pull: str | None  # "up", "down" or None (external pull / driven)
    active: int  # the level while the sensor is active (beam broken, pin down, pulse)
    mode: str
    debounce_us: int
    colour: bool = False  # a colour sensor is read after each active edge (goal, pocket)
    mux: int | None = None  # TCA9548A port of its colour sensor
    sensor: str = field(default="", compare=False)  # what is wired to it, for the wiring diagram

    @property
    def label(self) -> str:
        return f"channel {self.ch} ({self.name})"


@dataclass(frozen=True)
class I2CBus:
    sda: int
    scl: int
    mux: int | None = None  # TCA9548A address when several colour sensors share the bus
    freq: int = 100_000  # bus clock (Hz): 100 kHz for up to 2 m of cable per sensor


@dataclass(frozen=True)
class ColourRef:
    """A ball's colour as one sensor saw it while learning (``tablesense doctor --learn-colours``):
    chromaticity r, g, b = 1000 x red/clear ...; the mean clear count; a reading is that ball
    when its clear count is at least ``min_clear`` and it lies within ``max_dist`` of r, g, b."""

    ch: int
    ball: str
    r: int
    g: int
    b: int
    clear: int
    min_clear: int
    max_dist: int


@dataclass(frozen=True)
class ColourSettings:
    """The TCS34725s of the table: integration time (cycles x 2.4 ms), gain, when to read
    after the beam edge, and the learned references."""

    cycles: int = 4
    gain: int = 16
    delay_us: int = 24_000
    refs: tuple[ColourRef, ...] = ()

    @property
    def integration_us(self) -> int:
        return self.cycles * CYCLE_US

    @property
    def full(self) -> int:
        """The clear count's ceiling: a reading at it is saturated."""
        return min(1024 * self.cycles, 65535)


@dataclass(frozen=True)
class TableProfile:
    id: str
    name: str
    game: str
    version: int
    fw_min: str
    module: str
    rest_quiet_ms: int
    scan_ms: int
    heartbeat_ms: int
    colours: tuple[str, ...]
    channels: tuple[Channel, ...]
    i2c: I2CBus | None = None
    colour: ColourSettings | None = None  # set when a channel has a colour sensor
    source: str = field(default="", compare=False)

    def channel(self, ch: int) -> Channel:
        for c in self.channels:
            if c.ch == ch:
                return c
        raise KeyError(f"profile {self.id} has no channel {ch}")

    def by_kind(self, kind: str) -> tuple[Channel, ...]:
        return tuple(c for c in self.channels if c.kind == kind)

    def colour_channels(self) -> tuple[Channel, ...]:
        return tuple(c for c in sorted(self.channels, key=lambda c: c.ch) if c.colour)

    def colour_of(self, value: int) -> str | None:
        """READING value -> ball colour (0 = unknown)."""
        return self.colours[value - 1] if 1 <= value <= len(self.colours) else None
