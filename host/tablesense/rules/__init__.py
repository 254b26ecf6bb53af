"""Rule engines, one package per game (``rules/<game>/``, declared in ``tablesense.games``),
found by name (``find_engine``)."""

from __future__ import annotations

import importlib

from .base import Engine, Question, Ruling, find_engine, other, register
from .shot_engine import MatchState, ShotEngine

__all__ = ["Engine", "MatchState", "Question", "Ruling", "ShotEngine", "find_engine", "load_all", "other",
           "register"]


def load_all() -> None:
    """Import every game's engine (``rules/<game>/engine.py``) so that it registers itself."""
    from .. import games

    for name in games.names():
        importlib.import_module(f"{__name__}.{name}.engine")
