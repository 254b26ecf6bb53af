"""Rulings, questions and announcements as sentences, rendered from data.

An engine's ruling is data (``tablesense.rules.base.Ruling``): the catalogue id of the
rule it applied, the player it concerns and its parameters (which balls, which spot,
how many points). Which sentence says it is chosen by ``key``: the rule id, or
``"<rule id>:<what>"`` when one rule has several things to say (a ``what`` parameter).
Each language is a module of its own (``en``; Dutch and Danish beside it) with a
``say(key, params)`` function over its templates; ``render`` picks the language,
puts the players' names for ``p1``/``p2`` and the language's word for each ball.

A key with no template in the language asked falls back to English, and a key with
no English template to the rule id itself: a ruling is never lost for want of words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

LANGS = ("en", "nl", "da")
PLAYER_IDS = ("p1", "p2")
#: parameters that name balls (their values are put in the language's words)
BALL_KEYS = frozenset({"ball", "balls", "cue", "object", "jumped", "first", "moved"})

Template = str | Callable[[Mapping[str, Any]], str]


def key_of(rule: str, data: Mapping[str, Any]) -> str:
    what = data.get("what")
    return f"{rule}:{what}" if what else rule


def render(rule: str, data: Mapping[str, Any], lang: str = "en", player: str | None = None,
           names: Mapping[str, str] | None = None) -> str:
    """The sentence for a ruling (or question) with ``rule`` and parameters ``data``."""
    module = _language(lang)
    key = key_of(rule, data)
    params = _params(data, player, names or {}, module.BALLS)
    text = module.say(key, params)
    if text is None and lang != "en":
        text = _language("en").say(key, params)
    return text if text is not None else rule


def phrase(key: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """A line that is not a ruling (a score line, a result) in ``lang``: the parameters as
    given (names already put in), English where the language lacks the key."""
    text = _language(lang).say(key, params)
    if text is None and lang != "en":
        text = _language("en").say(key, params)
    return text if text is not None else key


def has_text(key: str, lang: str) -> bool:
    return key in _language(lang).TEMPLATES


def _params(data: Mapping[str, Any], player: str | None, names: Mapping[str, str],
            balls: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in data.items():
        out[k] = _word(k, v, names, balls)
    if player is not None:
        out["player"] = names.get(player, player)
        out["opponent"] = names.get(_other(player), _other(player))
    return out


def _word(key: str, value: Any, names: Mapping[str, str], balls: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        if value in PLAYER_IDS:
            return names.get(value, value)
        if key in BALL_KEYS or key.endswith("_ball"):
            return balls.get(value, value)
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_word(key, v, names, balls)) for v in value)
    return value


def _other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


_LOADED: dict[str, Any] = {}


def _language(lang: str) -> Any:
    if lang not in LANGS:
        lang = "en"
    module = _LOADED.get(lang)
    if module is None:
        module = _LOADED[lang] = import_module(f"{__name__}.{lang}")
    return module


class Params(dict[str, Any]):
    """Template parameters: a missing one renders as ``?`` rather than failing."""

    def __missing__(self, key: str) -> str:
        return "?"


def fill(template: Template, params: Mapping[str, Any]) -> str:
    if callable(template):
        return template(Params(params))
    return template.format_map(Params(params))
