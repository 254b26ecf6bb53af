"""The parts of a carom table a camera sees around the bed, in metres.

The cushion noses (the bed's edge seen from above: a ball touches the cushion there) stand
``NOSE_HEIGHT`` above the cloth; the cushion's cloth-covered top runs ``CUSHION_WIDTH``
out to the wooden rail (``RAIL_WIDTH`` wide, ``RAIL_HEIGHT`` high) whose diamonds divide a
long side into eight and a short side into four. Calibration fits the bed's outline at the
nose height; the simulator dresses its tables with the same numbers.
"""

from __future__ import annotations

NOSE_HEIGHT = 0.037
CUSHION_WIDTH = 0.05
RAIL_WIDTH = 0.12
RAIL_HEIGHT = 0.045


def diamonds(length: float, width: float) -> list[tuple[float, float]]:
    """Centres of the diamonds on the rail top (the rail's middle line)."""
    off = CUSHION_WIDTH + RAIL_WIDTH / 2
    out = [(length * i / 8, -off) for i in range(1, 8)] + [(length * i / 8, width + off) for i in range(1, 8)]
    out += [(-off, width * j / 4) for j in range(1, 4)] + [(length + off, width * j / 4) for j in range(1, 4)]
    return out
