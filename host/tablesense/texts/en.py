"""English: the rulings', questions' and announcements' sentences (``tablesense.texts``).

The templates are per game (``en_golf``, ``en_kegle``, ``en_carom``) and for what every
game says (``en_common``); ``say`` fills them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import en_carom, en_common, en_golf, en_kegle, en_summary, fill

TEMPLATES = {**en_common.TEMPLATES, **en_golf.TEMPLATES, **en_kegle.TEMPLATES, **en_carom.TEMPLATES,
             **en_summary.TEMPLATES}
BALLS = {"white": "the white", "yellow": "the yellow", "red": "the red",
         "p1": "player 1's ball", "p2": "player 2's ball"}


def say(key: str, params: Mapping[str, Any]) -> str | None:
    template = TEMPLATES.get(key)
    if template is None:
        return None
    return fill(template, params)


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
