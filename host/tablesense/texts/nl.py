"""Dutch (Nederlands): the rulings', questions' and announcements' sentences
(``tablesense.texts``).

The templates are per game (``nl_golf``, ``nl_kegle``, ``nl_carom``) and for what every
game says (``nl_common``), one for every English key with the same placeholders; ``say``
fills them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import fill, nl_carom, nl_common, nl_golf, nl_kegle, nl_summary

TEMPLATES: dict[str, Any] = {**nl_common.TEMPLATES, **nl_golf.TEMPLATES, **nl_kegle.TEMPLATES,
                             **nl_carom.TEMPLATES, **nl_summary.TEMPLATES}
BALLS = {"white": "de witte", "yellow": "de gele", "red": "de rode",
         "p1": "de bal van speler 1", "p2": "de bal van speler 2"}


def say(key: str, params: Mapping[str, Any]) -> str | None:
    template = TEMPLATES.get(key)
    return None if template is None else fill(template, params)
