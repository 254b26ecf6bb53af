"""Rule engines, one package per game (``rules/<game>/``, declared in ``tablesense.games``),
found by name (``find_engine``).

The names below load on first use (PEP 562): a game's declaration (``rules/<game>/game.py``)
is read without the engines' base, which reads the events, which ask the declarations
(``tablesense.games``) — no import circle, and asking a game never loads an engine."""

from __future__ import annotations

import importlib
from typing import Any

#: what the package offers, and the module each name lives in
_WHERE = {
    "Ended": "records", "Question": "records", "Ruling": "records", "find_engine": "base",
    "other": "players", "register": "base", "MatchState": "shot_engine", "ShotEngine": "shot_engine",
}

__all__ = [*sorted(_WHERE), "load_all"]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value  # once: later look-ups do not come here
    return value


def load_all() -> None:
    """Import every game's engine (``rules/<game>/engine.py``) so that it registers itself."""
    from .. import games

    for name in games.names():
        importlib.import_module(f"{__name__}.{name}.engine")
