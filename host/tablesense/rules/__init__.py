"""Rule engines, one module per game family, found by name (``find_engine``)."""

from __future__ import annotations

import importlib

from .base import Engine, Question, Ruling, find_engine, other, register
from .shot_engine import MatchState, ShotEngine

ENGINE_MODULES = ("golf", "kegle", "carom")

__all__ = ["Engine", "MatchState", "Question", "Ruling", "ShotEngine", "find_engine", "load_all", "other",
           "register"]


def load_all() -> None:
    """Import every engine so that it registers itself: a game's package's ``engine``
    module, or the game's module while it is one file."""
    for name in ENGINE_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        if hasattr(module, "__path__"):
            importlib.import_module(f"{module.__name__}.engine")
