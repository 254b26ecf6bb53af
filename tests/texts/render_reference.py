"""``texts.render`` as it was before each (rule, what, language)'s message was looked up once and
only the parameters it reads were put in words (main 7ba8e0c): the reference the new path is
held equal to (tests/texts/test_texts_render_plan.py). Kept verbatim but for names; the derived
parameters (``_RulingParams``), which the change left as they were, are the module's own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablesense.texts import (
    ENGLISH,
    LANGS,
    Params,
    _other,
    _RulingParams,
    _word,
    key_of,
    language,
    message_id,
)


def render(rule: str, data: Mapping[str, Any], lang: str = "en", player: str | None = None,
           names: Mapping[str, str] | None = None) -> str:
    lang = lang if lang in LANGS else ENGLISH
    ident = message_id(key_of(rule, data))
    names = names or {}
    text = language(lang).say(ident, _params(data, player, names, lang))
    if text is None and lang != ENGLISH:
        text = language(ENGLISH).say(ident, _params(data, player, names, ENGLISH))
    return text if text is not None else rule


def _params(data: Mapping[str, Any], player: str | None, names: Mapping[str, str], lang: str) -> Params:
    side = None if player is None else names.get(player, player)
    out = _RulingParams()
    out._data, out._side = data, side
    for k, v in data.items():
        if v.__class__ is int:
            out[k] = v
        elif isinstance(v, (list, tuple)):
            out[k] = ", ".join(str(_word(k, x, names, lang)) for x in v)
            out[f"{k}_count"] = len(v)
        else:
            out[k] = _word(k, v, names, lang)
    if player is not None:
        other = _other(player)
        out["player"] = side
        out["opponent"] = names.get(other, other)
    return out
