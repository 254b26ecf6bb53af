"""Danish (dansk): the rulings', questions' and announcements' sentences
(``tablesense.texts``).

The templates are per game (``da_golf``, ``da_kegle``, ``da_carom``) and for what every
game says (``da_common``), one for every English key with the same placeholders; ``say``
fills them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import da_carom, da_common, da_golf, da_kegle, da_summary, fill

TEMPLATES: dict[str, Any] = {**da_common.TEMPLATES, **da_golf.TEMPLATES, **da_kegle.TEMPLATES,
                             **da_carom.TEMPLATES, **da_summary.TEMPLATES}
BALLS = {"white": "den hvide", "yellow": "den gule", "red": "den røde",
         "p1": "spiller 1s kugle", "p2": "spiller 2s kugle"}


def say(key: str, params: Mapping[str, Any]) -> str | None:
    template = TEMPLATES.get(key)
    return None if template is None else fill(template, params)
