"""Learning the balls' colours for ``tablesense doctor --learn-colours``: pure logic.

The firmware answers ``!colour <ch>`` with one COLOUR frame (type 0x8, docs/protocol.md;
``link.frame.ColourFrame``, decoded by the link's ``StreamDecoder`` like every frame):
the raw counts of that channel's TCS34725 (clear, red, green, blue), its status and the
class it would name. Samples of one ball held in front of one sensor are averaged into a
:class:`~tablesense.table.profile.ColourRef` (chromaticity per mille of the clear count,
a minimum clear count, a maximum distance from the spread of the samples); the references
of one sensor must be far enough apart, or nothing is written and one line says which two
balls the sensor cannot tell apart. ``write_refs`` puts the references into the profile's
TOML text between two marker lines, leaving the rest of the file as it was.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import TablesenseError
from ..link.frame import C_SATURATED, ColourFrame
from ..table.profile import ColourRef, ColourSettings

#: the smallest max_dist written: chromaticity noise of a good reading is a few per mille
MIN_DIST = 30
#: max_dist = this many times the samples' RMS distance from their mean
SPREAD_K = 5
#: a ball must give at least this many clear counts (else raise the gain or the cycles)
MIN_CLEAR = 200
BEGIN = "# --- learned colours: written by `tablesense doctor --learn-colours`"
END = "# --- end of learned colours ---"


class LearnError(TablesenseError):
    """The colours cannot be learned as they are; the text says why in one line."""


@dataclass(frozen=True)
class Learned:
    """The samples of one ball at one sensor, summarised."""

    ch: int
    ball: str
    n: int
    chroma: tuple[int, int, int]
    clear: int
    spread: float  # RMS distance of the samples from their mean (per mille)


def summarise(ch: int, ball: str, samples: Iterable[ColourFrame], settings: ColourSettings,
              where: str = "") -> Learned:
    """Average one ball's samples; LearnError when they cannot make a reference."""
    where = where or f"channel {ch}"
    got = list(samples)
    if not got or all(s.status == 0 for s in got):
        raise LearnError(f"{where}: no colour sensor answers (check its cable and mux port)")
    ok = [s for s in got if s.usable]
    if len(ok) < max(3, len(got) // 2):
        raise LearnError(f"{where}: only {len(ok)} of {len(got)} readings were complete integrations")
    if any(s.status & C_SATURATED or s.clear >= settings.full for s in ok):
        raise LearnError(f"{where}: the {ball} ball saturates the sensor (clear {settings.full}): "
                         f"lower [colour] gain ({settings.gain}) or cycles ({settings.cycles})")
    clear = sum(s.clear for s in ok) / len(ok)
    if clear < MIN_CLEAR:
        raise LearnError(f"{where}: the {ball} ball is too dark for the sensor (clear {clear:.0f}, want "
                         f"{MIN_CLEAR}+): is its LED on? hold it closer, or raise [colour] gain or cycles")
    chromas = [s.chroma() for s in ok]
    mean = tuple(sum(c[k] for c in chromas) / len(chromas) for k in range(3))
    spread = math.sqrt(sum(_d2(c, mean) for c in chromas) / len(chromas))
    return Learned(ch, ball, len(ok), (round(mean[0]), round(mean[1]), round(mean[2])), round(clear), spread)


def reference(ball: Learned, dark_clear: float = 0.0) -> ColourRef:
    """A reference from a ball's summary: max_dist from its spread, min_clear between the
    empty sensor's clear count and a third of the ball's."""
    max_dist = min(1000, max(MIN_DIST, math.ceil(SPREAD_K * ball.spread)))
    min_clear = max(round(ball.clear / 3), round((dark_clear + ball.clear) / 2) if dark_clear else 0)
    min_clear = min(min_clear, ball.clear)
    r, g, b = ball.chroma
    return ColourRef(ch=ball.ch, ball=ball.ball, r=r, g=g, b=b, clear=ball.clear, min_clear=min_clear,
                     max_dist=max_dist)


def check_dark(ball: Learned, dark_clear: float, where: str = "") -> None:
    """The empty sensor must be clearly darker than a ball, or 'no ball' looks like one."""
    if dark_clear >= 0.7 * ball.clear:
        where = where or f"channel {ball.ch}"
        raise LearnError(f"{where}: the empty sensor (clear {dark_clear:.0f}) is almost "
                         f"as bright as the {ball.ball} ball ({ball.clear}): shade it from the room light")


def check_separation(refs: Iterable[ColourRef], names: dict[int, str] | None = None) -> None:
    """LearnError (one line) when two balls' references on one sensor overlap."""
    rs = list(refs)
    for i, a in enumerate(rs):
        for z in rs[i + 1:]:
            if a.ch != z.ch or a.ball == z.ball:
                continue
            d = math.sqrt(_d2((a.r, a.g, a.b), (z.r, z.g, z.b)))
            need = a.max_dist + z.max_dist
            if d <= need:
                where = (names or {}).get(a.ch, f"channel {a.ch}")
                raise LearnError(f"{where}: the {a.ball} and {z.ball} balls look alike to its sensor "
                                 f"(distance {d:.0f}, need over {need}): it cannot tell them apart; "
                                 "nothing was written")


def _d2(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def refs_toml(refs: Iterable[ColourRef], note: str) -> str:
    lines = [f"{BEGIN}; {note} ---"]
    for f in refs:
        lines += ["[[colour.ref]]", f"ch = {f.ch}", f'ball = "{f.ball}"', f"r = {f.r}", f"g = {f.g}",
                  f"b = {f.b}", f"clear = {f.clear}", f"min_clear = {f.min_clear}",
                  f"max_dist = {f.max_dist}", ""]
    lines.append(END)
    return "\n".join(lines) + "\n"


_BLOCK = re.compile(r"\n*" + re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)


def write_refs(text: str, refs: Iterable[ColourRef], note: str) -> str:
    """The profile's TOML text with its learned block replaced by ``refs``. References
    written by hand outside the block would be kept and clash: LearnError names them."""
    body = _BLOCK.sub("\n", text)
    if re.search(r"^\s*\[\[colour\.ref\]\]", body, re.M):
        raise LearnError("the profile has [[colour.ref]] entries outside the learned-colours block: "
                         "remove them, then learn again")
    return body.rstrip("\n") + "\n\n" + refs_toml(refs, note)


def board_json_text(cfg: dict[str, object]) -> str:
    """A board config as the shipped firmware/boards/*.json: indented, one reference a line."""
    text = json.dumps(cfg, indent=1)
    return re.sub(r"\[\s*((?:-?\d+,\s*)*-?\d+)\s*\]",
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text) + "\n"
