"""The numbers options take, checked as argparse reads them: a mistake is the one line
``tablesense doctor: argument --stuck: 'nan' is not a number of seconds more than 0 (see
tablesense doctor --help)`` and exit 2, never a traceback deep in the command (``int(nan)``)
nor a silent nonsense (``monitor --duration -5`` stopping at once, ``doctor --noisy-edges
-1`` calling every channel noisy)."""

from __future__ import annotations

import argparse
import math


def seconds(text: str) -> float:
    """A time in seconds: a finite number more than 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds more than 0")
    return value


def count(text: str) -> int:
    """A whole number, 1 or more (balls, readings)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number 1 or more")
    return value


def limit(text: str) -> int:
    """A whole number, 0 or more (a threshold: more than it is too many)."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number 0 or more")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
