"""The one rule-engine interface every game family implements.

``state = engine.apply(state, event)`` is pure: no I/O, no mutation, the old state
stays valid. Each ruling in the state carries the catalogue id of the rule it
applied (``seeds/<game>.md``).

What the base does for every engine:

- ``undo``: the state keeps a link to the snapshot taken before the last shot or
  referee call (``checkpoint``); an ``undo`` call returns that snapshot. Undo is
  popping a snapshot, never hand-reversing effects. Repeated undos walk further back.
- ``answer``: finds the open question by id (an unknown id is an ``IllegalCall``),
  closes it and hands the answer to the engine's ``on_answer``.
- questions are numbered ``q1``, ``q2``, ... in the order the engine asks them.
- sensor events after the match has finished are refused (``IllegalCall``); a
  ``rest`` is ignored. Referee calls still reach the engine: a foul called right
  after the deciding shot amends it, and the engine may refuse what makes no sense.

An engine subclasses ``Engine`` and its state subclasses ``BaseState``; it
implements ``new_state``, ``step`` (one event, not undo/answer), ``on_answer`` and
``game_json`` (its own keys of the replay state).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from ..errors import IllegalCall
from ..events import Call, Event, Rest, Setup
from ..shots import completes, is_table_event
from ..texts import render
from .ruling_log import RulingLog


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen state with ``changes``: a msgspec Struct or a dataclass."""
    if isinstance(obj, msgspec.Struct):
        return msgspec.structs.replace(obj, **changes)
    return dataclasses.replace(obj, **changes)


@dataclass(frozen=True, slots=True)
class Ruling:
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


@dataclass(frozen=True, slots=True)
class Question:
    """Something the sensors cannot see: the engine asks the referee and waits."""

    id: str
    t: float
    rule: str
    text: str
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


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseState:
    """What every game's state has."""

    game: str
    players: tuple[tuple[str, Any], ...] = ()
    finished: bool = False
    winner: str | None = None
    at_table: str | None = "p1"
    #: shared append-only log: a new state's rulings cost no copy of the old ones
    rulings: tuple[Ruling, ...] = field(default_factory=RulingLog)  # type: ignore[assignment]
    questions: tuple[Question, ...] = ()
    asked: int = 0
    in_shot: bool = False
    checkpoint: BaseState | None = field(default=None, repr=False, compare=False)


S = TypeVar("S", bound=BaseState)


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


class Engine(Generic[S]):
    """Base of the golf, keglebillard and carom engines."""

    game: ClassVar[str] = ""
    # --- to implement -----------------------------------------------------------
    def new_state(self, setup: Setup) -> S:
        raise NotImplementedError

    def step(self, state: S, event: Event) -> S:
        raise NotImplementedError

    def on_answer(self, state: S, question: Question, answer: Any, event: Call) -> S:
        raise IllegalCall(f"question {question.id} cannot be answered here")

    def game_json(self, state: S) -> dict[str, Any]:
        return {}

    def summary(self, state: S) -> str:
        """One line of score for the readable replay account."""
        return ""

    # --- the shared interface ---------------------------------------------------
    def apply(self, state: S, event: Event) -> S:
        """Pure: the state after ``event``. Raises ``IllegalCall`` if impossible."""
        if isinstance(event, Setup):
            raise IllegalCall("a match is already set up; a new 'setup' starts a new match")
        if isinstance(event, Call):
            if event.call == "undo":
                if state.checkpoint is None:
                    raise IllegalCall("nothing to undo")
                return state.checkpoint  # type: ignore[return-value]
            if event.call == "answer":
                return self._answer(state, event)
        if state.finished and not isinstance(event, Call):
            if isinstance(event, Rest):
                return state
            raise IllegalCall(f"the match is over ({self.result_text(state)}); no more {event.type} events")
        # the undo unit: a referee call, or table events up to the rest that completes them
        # (tablesense.shots' event classes; the late settles and incidents of its cut are
        # still units of their own here, as the engines score them today)
        table_event = is_table_event(event)
        starts_unit = not table_event or not state.in_shot
        new = self.step(state, event)
        if starts_unit:
            if new is state:
                return state
            # snapshot: before a referee call, or before the first event of a shot
            in_shot = table_event and not completes(event)
            return replace(new, checkpoint=state, in_shot=in_shot)  # type: ignore[return-value]
        if completes(event):
            new = replace(new, in_shot=False)
        return new

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
        return replace(new, checkpoint=state, in_shot=False)  # type: ignore[return-value]

    # --- helpers for engines ----------------------------------------------------
    @staticmethod
    def rule(state: S, t: float, rule: str, player: str | None = None, text: str = "",
             **data: Any) -> S:
        ruling = Ruling(t=t, rule=rule, player=player, text=text, data=tuple(data.items()))
        return replace(state, rulings=state.rulings + (ruling,))  # type: ignore[return-value]

    @staticmethod
    def ask(state: S, t: float, rule: str, text: str, options: tuple[Any, ...] = (True, False),
            player: str | None = None, **data: Any) -> S:
        n = state.asked + 1
        q = Question(id=f"q{n}", t=t, rule=rule, text=text, options=options, player=player,
                     data=tuple(data.items()))
        return replace(state, questions=state.questions + (q,), asked=n)  # type: ignore[return-value]

    @staticmethod
    def result_text(state: BaseState) -> str:
        if state.winner == "draw":
            return "a draw"
        if state.winner:
            return f"won by {state.winner}"
        return "finished"

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


_YES_NO = {"yes": True, "y": True, "ja": True, "true": True, "no": False, "n": False, "nee": False,
           "nej": False, "false": False}


def _as_option(answer: Any, options: tuple[Any, ...]) -> Any:
    """An answer written loosely, as one of the question's options: "P2" for "p2",
    "yes"/"no" for true/false. Anything else is returned as it came."""
    if not isinstance(answer, str):
        return answer
    text = answer.strip().lower()
    for option in options:
        if isinstance(option, str) and option.lower() == text:
            return option
    if text in _YES_NO and _YES_NO[text] in options and all(isinstance(o, bool) for o in options):
        return _YES_NO[text]
    return answer


_REGISTRY: dict[str, type[Engine[Any]]] = {}


def register(cls: type[Engine[Any]]) -> type[Engine[Any]]:
    """Class decorator: make an engine findable by its ``game`` name."""
    _REGISTRY[cls.game] = cls
    return cls


def find_engine(game: str) -> Engine[Any]:
    """The engine for ``game`` (``golf``, ``kegle``, ``carom``)."""
    from . import load_all

    load_all()
    try:
        return _REGISTRY[game]()
    except KeyError:
        have = ", ".join(sorted(_REGISTRY))
        raise IllegalCall(f"no rule engine for game {game!r} (have: {have})") from None
