"""What every rule engine shares: rulings and questions as data, answers, the registry.

The engines are ``tablesense.rules.shot_engine.ShotEngine``s (the shot stage: the base
cuts the stream into shots, the engine resolves a whole shot); this module holds what
that base and the engines build on:

- ``Ruling``: one decision, as data: when, the catalogue id of the rule it applied
  (``seeds/<game>.md``), the player, the rule's parameters; its sentence is rendered
  from those per language (``tablesense.texts``).
- ``Question``: something the sensors cannot see, asked of the referee; numbered
  ``q1``, ``q2``, ... in the order asked.
- ``Engine``: answers (``_answer`` finds the open question by id, an unknown id is an
  ``IllegalCall``, closes it and hands the answer to the engine's ``on_answer``), the
  replay state of docs/events.md (``to_json``), and the registry (``register``,
  ``find_engine``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec

from ..errors import IllegalCall
from ..events import Call, Setup
from ..texts import phrase, render, yes_no

if TYPE_CHECKING:
    from .shot_engine import MatchState


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen state with ``changes``: a msgspec Struct or a dataclass."""
    if isinstance(obj, msgspec.Struct):
        return msgspec.structs.replace(obj, **changes)
    return dataclasses.replace(obj, **changes)


class Ruling(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One decision of the engine, as data: when, which rule, for or against whom, and the
    rule's parameters (``data``). Its sentence is rendered from those (``tablesense.texts``)
    in the language asked; ``text`` is only for an engine that still writes its own."""

    t: float
    rule: str
    player: str | None = None
    text: str = ""
    data: tuple[tuple[str, Any], ...] = ()

    def say(self, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
        if self.text and lang == "en":
            return self.text
        return render(self.rule, dict(self.data), lang, self.player, names)

    def to_dict(self, names: Mapping[str, str] | None = None, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "rule": self.rule}
        if self.player is not None:
            out["player"] = self.player
        text = self.say(lang, names)
        if text:
            out["text"] = text
        out.update(kv for kv in self.data if kv[0] != "what")  # ``what`` picks the sentence only
        return out


class Question(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Something the sensors cannot see: the engine asks the referee and waits."""

    id: str
    t: float
    rule: str
    text: str = ""
    options: tuple[Any, ...] = (True, False)
    player: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def say(self, lang: str = "en", names: Mapping[str, str] | None = None) -> str:
        if self.text and lang == "en":
            return self.text
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


S = TypeVar("S", bound="MatchState")


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


class Engine(Generic[S]):
    """What every engine shares (the engines are ``ShotEngine``s)."""

    game: ClassVar[str] = ""
    # --- to implement -----------------------------------------------------------
    def new_state(self, setup: Setup) -> S:
        raise NotImplementedError

    def on_answer(self, state: S, question: Question, answer: Any, event: Call) -> S:
        raise IllegalCall(f"question {question.id} cannot be answered here")

    def game_json(self, state: S) -> dict[str, Any]:
        return {}

    def summary(self, state: S, lang: str = "en") -> str:
        """One line of score for the readable replay account and the pub's results, in ``lang``."""
        return ""

    # --- the shared interface ---------------------------------------------------
    def _answer(self, state: S, event: Call) -> S:
        for q in state.questions:
            if q.id == event.question:
                break
        else:
            open_ids = ", ".join(q.id for q in state.questions) or "none"
            raise IllegalCall(f"no open question {event.question!r} (open: {open_ids})")
        answer = _as_option(event.answer, q.options)
        if q.options and answer not in q.options:
            raise IllegalCall(
                f"answer to {q.id} must be one of {list(q.options)!r}, not {event.answer!r}"
            )
        rest = tuple(x for x in state.questions if x.id != q.id)
        closed = replace(state, questions=rest)
        new = self.on_answer(closed, q, answer, event)
        return replace(new, checkpoint=state)  # type: ignore[no-any-return]

    # --- helpers for engines ----------------------------------------------------
    @staticmethod
    def result_text(state: Any, lang: str = "en") -> str:
        """How the match ended (or that it is in play), in ``lang``; the players by their ids,
        as the log names them (``web.pages.named`` puts the names in for the pub's pages)."""
        if not state.finished:
            return phrase("result:in-play", {"side": state.at_table}, lang)
        if state.winner == "draw":
            return phrase("result:draw", {}, lang)
        if state.winner:
            return phrase("result:won", {"winner": state.winner}, lang)
        return phrase("result:finished", {}, lang)

    def to_json(self, state: S, lang: str = "en") -> dict[str, Any]:
        """The replay state of docs/events.md (sentences in ``lang``)."""
        names = player_names(state)
        out: dict[str, Any] = {
            "game": state.game,
            "finished": state.finished,
            "winner": state.winner,
            "at_table": state.at_table,
            "rulings": [r.to_dict(names, lang) for r in state.rulings],
            "questions": [q.to_dict(names, lang) for q in state.questions],
        }
        out.update(self.game_json(state))
        return out


def player_names(state: Any) -> dict[str, str]:
    """``p1``/``p2`` to the names of the set-up (a team's names joined with "&")."""
    names: dict[str, str] = {}
    for pid, name in state.players:
        if isinstance(name, (list, tuple)):
            name = " & ".join(str(n) for n in name)
        names[pid] = str(name) if name else pid
    return names


def _as_option(answer: Any, options: tuple[Any, ...]) -> Any:
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


_REGISTRY: dict[str, type[Engine[Any]]] = {}


def register(cls: type[Engine[Any]]) -> type[Engine[Any]]:
    """Class decorator: make an engine findable by its ``game`` name."""
    _REGISTRY[cls.game] = cls
    return cls


def find_engine(game: str) -> Engine[Any]:
    """The engine for ``game`` (``golf``, ``kegle``, ``carom``); only its own package is
    imported (a replay of one game loads no other game's engine), every one to name them
    when ``game`` is none of them."""
    if game not in _REGISTRY:
        from .. import games

        if game in games.names():
            import_module(f"{__package__}.{game}.engine")
        if game not in _REGISTRY:
            from . import load_all

            load_all()
    try:
        return _REGISTRY[game]()
    except KeyError:
        have = ", ".join(sorted(_REGISTRY))
        raise IllegalCall(f"no rule engine for game {game!r} (have: {have})") from None
