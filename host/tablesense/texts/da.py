"""Danish (dansk): the sentences of the rulings (``tablesense.texts``). To be filled:
until a key has a Danish template, the English one stands in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import fill

TEMPLATES: dict[str, Any] = {}
BALLS = {"white": "den hvide", "yellow": "den gule", "red": "den røde"}


def say(key: str, params: Mapping[str, Any]) -> str | None:
    template = TEMPLATES.get(key)
    return None if template is None else fill(template, params)
