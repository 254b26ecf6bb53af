"""Dutch templates: common (keys: rule id, or "rule id:what"; see ``tablesense.texts``),
and the helpers the Dutch game modules share."""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, Any] = {
}


def plural(n: Any, one: str, many: str) -> str:
    """``one`` for 1, else ``many`` (a count that is no number, such as "?", is many)."""
    return one if n == 1 or n == "1" else many
