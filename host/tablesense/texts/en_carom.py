"""English templates: carom (keys: rule id, or "rule id:what"; see ``tablesense.texts``)."""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, Any] = {
}
