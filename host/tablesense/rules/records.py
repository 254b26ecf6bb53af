"""The engines' decisions as data: rulings, questions, how a match ended.

- ``Ruling``: one decision: when, the catalogue id of the rule it applied
  (``seeds/<game>.md``), the player, the rule's parameters; its sentence is rendered
  from those per language (``tablesense.texts``).
- ``Question``: something the sensors cannot see, asked of the referee; numbered
  ``q1``, ``q2``, ... in the order asked. ``as_option`` reads a referee's answer as one of
  its options.
- ``Ended``: how a match finished (the rule that ended it, the winner, its parameters): the
  one record of it; a state's ``finished`` and ``winner`` are read from it.

The floor of the engines' package: the ruling log (``ruling_log``), the shot stage
(``shot_engine``) and the registry (``base``) build on these, and nothing here imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from ..texts import render, yes_no


class Ruling(msgspec.Struct, frozen=True, gc=False):
    """One decision of the engine, as data: when, which rule, for or against whom, and the
    rule's parameters (``data``). Its sentence is rendered from those (``tablesense.texts``)
    in the language asked."""

    t: float
    rule: str
    player: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def say(self, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
        return render(self.rule, dict(self.data), lang, self.player, names)

    def to_dict(self, names: Mapping[str, str] | None = None, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "rule": self.rule}
        if self.player is not None:
            out["player"] = self.player
        text = render(self.rule, dict(self.data), lang, self.player, names)
        if text:
            out["text"] = text
        for k, v in self.data:
            if k != "what":  # ``what`` picks the sentence only
                out[k] = v
        return out


class Question(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Something the sensors cannot see: the engine asks the referee and waits."""

    id: str
    t: float
    rule: str
    options: tuple[Any, ...] = (True, False)
    player: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def say(self, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
        return render(self.rule, dict(self.data), lang, self.player, names)

    def to_dict(self, names: Mapping[str, str] | None = None, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "t": self.t, "rule": self.rule, "text": self.say(lang, names),
            "options": list(self.options),
        }
        if self.player is not None:
            out["player"] = self.player
        out.update(kv for kv in self.data if kv[0] != "what")  # ``what`` picks the sentence only
        return out

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.data).get(key, default)


class Ended(msgspec.Struct, frozen=True, gc=False):
    """How a match ended, as data: the rule that ended it, the winner (``"draw"``: nobody;
    None: nobody named), the rule's parameters."""

    rule: str
    winner: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "winner": self.winner}
        out.update(self.data)
        return out


def as_option(answer: Any, options: tuple[Any, ...]) -> Any:
    """An answer written loosely, as one of the question's options: "P2" for "p2",
    "yes"/"no" for true/false. Anything else is returned as it came."""
    if not isinstance(answer, str):
        return answer
    text = answer.strip().lower()
    for option in options:
        if isinstance(option, str) and option.lower() == text:
            return option
    said = yes_no()  # every language's words for yes and no (texts/<lang>/language.ftl)
    if text in said and said[text] in options and all(isinstance(o, bool) for o in options):
        return said[text]
    return answer
