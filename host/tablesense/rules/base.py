"""The engines' registry, and what a game's package imports from one place.

- ``register``: the class decorator that makes an engine (a ``ShotEngine``) findable by its
  ``game``; ``find_engine``: the engine of a game, its package imported on first use.
- ``replace``: a copy of a frozen state (a msgspec Struct or a dataclass) with changes.
- The records (``records``: ``Ruling``, ``Question``, ``as_option``) and the players' helpers
  (``players``: ``other``, ``player_names``), named here too for the games' packages.

The top of the engines' floors: it imports the shot stage (``shot_engine``), which imports the
records and the ruling log; nothing below imports this module.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import msgspec

from ..errors import IllegalCall
from .players import other, player_names
from .records import Question, Ruling, as_option
from .shot_engine import ShotEngine

__all__ = ["Question", "Ruling", "_as_option", "find_engine", "other", "player_names", "register", "replace"]

#: the name the games' packages import (``records.as_option``)
_as_option = as_option


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen state with ``changes``: a msgspec Struct or a dataclass."""
    if isinstance(obj, msgspec.Struct):
        return msgspec.structs.replace(obj, **changes)
    import dataclasses  # a dataclass's state, none on a replay's path: not imported at its start-up

    return dataclasses.replace(obj, **changes)


#: the engines loaded so far, by game name (``register``); ``find_engine`` loads the others
REGISTERED: dict[str, type[ShotEngine[Any]]] = {}


def register(cls: type[ShotEngine[Any]]) -> type[ShotEngine[Any]]:
    """Class decorator: make an engine findable by its ``game`` name."""
    REGISTERED[cls.game] = cls
    return cls


def find_engine(game: str) -> ShotEngine[Any]:
    """The engine for ``game`` (``golf``, ``kegle``, ``carom``); only its own package is
    imported (a replay of one game loads no other game's engine), every one to name them
    when ``game`` is none of them."""
    if game not in REGISTERED:
        from .. import games

        if game in games.names():
            import_module(f"{__package__}.{game}.engine")
        if game not in REGISTERED:
            from . import load_all

            load_all()
    try:
        return REGISTERED[game]()
    except KeyError:
        have = ", ".join(sorted(REGISTERED))
        raise IllegalCall(f"no rule engine for game {game!r} (have: {have})") from None
