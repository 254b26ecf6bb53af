"""A message's parameters (``tablesense.texts``): a missing one is said as ``?``."""

from __future__ import annotations

from typing import Any


class Params(dict[str, Any]):
    """A message's parameters: a missing one is said as ``?`` rather than failing."""

    def __missing__(self, key: str) -> str:
        return "?"
