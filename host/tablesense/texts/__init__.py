"""Rulings, questions and announcements as sentences, rendered from data, in any language.

An engine's ruling is data (``tablesense.rules.records.Ruling``): the catalogue id of the
rule it applied, the player it concerns and its parameters (which balls, which spot,
how many points). Which sentence says it is chosen by ``key``: the rule id, or
``"<rule id>:<what>"`` when one rule has several things to say (a ``what`` parameter).

Each language is a folder of Project Fluent files (``texts/<code>/*.ftl``; found on the disk,
``languages``); a key is a message there, its id the key with ``.`` written ``_`` and
``:`` written ``--`` (``golf.goal:turn-lost`` is ``golf_goal--turn-lost``). ``render`` puts
the players' names for ``p1``/``p2`` and the language's word for each ball and each word a
parameter names (``ball--white``, ``foul--push``, ``corner--head-left``), counts a list
(``pins`` gives ``pins_count``), and gives parameters a message may read: ``text_given``
(``yes`` when the referee gave their own words, ``text``), ``member_name`` (the one of a
duo who plays) and ``player_plural``, ``opponent_plural`` (``yes`` for a side of more than one
name, a duo, whose verb is then plural: ``{ $player_plural -> *[no] stays [yes] stay }``). The
screens' words are the language's ``screen.json`` (``screen``).

A key with no message in the language asked falls back to English, and a key with no
English message to the rule id itself: a ruling is never lost for want of words.

A ruling's sentence is said often (the replay's account writes every one; the screens say
each again in their language), so ``render`` works out once for each (rule, ``what``,
language) which message says it, in which language's words, and which parameters it reads
(``_plan``: the ``$parameter`` it names and those of the messages it refers to, read from its source);
a message that reads none of the derived parameters nor a list's count gets only those it
reads, each put in words from its own value, and the sentence is the same as if all were.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from .languages import ENGLISH, folders, langs, places
from .params import Params

#: how ``render`` says a key in a language (``_plan``)
_Plan = tuple[Any, str, "frozenset[str] | None", "tuple[str, ...] | None"]

LANGS: tuple[str, ...] = langs()
PLAYER_IDS = ("p1", "p2")
#: parameters that name balls (their values are put in the language's words: ``ball--<value>``)
BALL_KEYS = frozenset({"ball", "balls", "cue", "object", "jumped", "first", "moved"})
#: parameters whose values are put in the language's words (``<parameter>--<value>``)
WORD_KEYS = frozenset({"foul", "choice", "corner", "call", "scheme"})


def key_of(rule: str, data: Mapping[str, Any]) -> str:
    what = data.get("what")
    return f"{rule}:{what}" if what else rule


@cache
def message_id(key: str) -> str:
    """A key's Fluent message id: ``golf.goal:turn-lost`` -> ``golf_goal--turn-lost``."""
    return key.replace(".", "_").replace(":", "--")


def key_of_id(ident: str) -> str:
    """A Fluent message id's key (``message_id`` undone)."""
    return ident.replace("--", ":").replace("_", ".")


def render(rule: str, data: Mapping[str, Any], lang: str = "en", player: str | None = None,
           names: Mapping[str, str] | None = None) -> str:
    """The sentence for a ruling (or question) with ``rule`` and parameters ``data``."""
    what = data.get("what")
    if what is None or what.__class__ is str:  # the plan of (rule, what, lang): found once
        try:
            plan = _PLANS[rule, what, lang]
        except KeyError:
            plan = _PLANS[rule, what, lang] = _plan(key_of(rule, data), lang)
    else:  # a ``what`` of another type (``1``, ``True`` and ``1.0`` are equal keys): looked up anew
        plan = _plan(key_of(rule, data), lang)
    if plan is None:
        return rule
    say, words_lang, reads, plain = plan
    names = names or _NO_NAMES
    if plain is None:
        return say(_params(data, player, names, words_lang, reads))
    out = Params()  # a message that reads no derived parameter and no list's count: only what it reads
    for k in plain:
        v = data.get(k, _ABSENT)
        if v.__class__ is int:
            out[k] = v
        elif v is _ABSENT:
            continue
        elif isinstance(v, (list, tuple)):
            out[k] = ", ".join(str(_word(k, x, names, words_lang)) for x in v)
        else:
            out[k] = _word(k, v, names, words_lang)
    if player is not None:
        out["player"] = names.get(player, player)
        other = "p2" if player == "p1" else "p1"
        out["opponent"] = names.get(other, other)
    return say(out)


def int_sentence(rule: str, keys: tuple[str, ...], lang: str = "en", player: str | None = None,
                 names: Mapping[str, str] | None = None) -> list[str | int] | None:
    """The sentence ``render`` gives a ruling of ``rule`` whose parameters are ``keys`` (distinct,
    no ``what``), each an ``int`` (not a ``bool``), as its parts: text, and the index in ``keys``
    of each parameter whose value (as ``str`` writes it) goes there; None when the message is not
    one such (a select, a derived parameter, a list's count, a format it does not know): the
    caller then renders. What it gives: ``render(rule, dict(zip(keys, values)), lang, player,
    names)`` is the parts joined, each index as ``str(values[index])``
    (tests/texts/test_texts_int_sentence.py holds them equal)."""
    if "what" in keys or len(set(keys)) != len(keys):
        return None
    try:
        plan = _PLANS[rule, None, lang]
    except KeyError:
        plan = _PLANS[rule, None, lang] = _plan(key_of(rule, {}), lang)
    if plan is None:
        return [rule]
    say, _words_lang, _reads, plain = plan
    fmt = getattr(say, "__self__", None)
    if plain is None or fmt.__class__ is not str or getattr(say, "__name__", None) != "format_map":
        return None
    from _string import formatter_parser  # what ``str.format_map`` reads: once a (rule, keys)

    names = names or _NO_NAMES
    given = {k: i for i, k in enumerate(keys) if k in plain}
    if player is not None:
        other = "p2" if player == "p1" else "p1"
        given.pop("player", None)
        given.pop("opponent", None)
        fixed = {"player": names.get(player, player), "opponent": names.get(other, other)}
    else:
        fixed = {}
    parts: list[str | int] = []
    for literal, field, spec, conversion in formatter_parser(fmt):
        if literal:
            parts.append(literal)
        if field is None:
            continue
        if spec or conversion or not field.isidentifier():
            return None
        said = given.get(field)
        if said is not None:
            parts.append(said)
        else:
            word = fixed.get(field, "?")  # (a parameter the message reads and the ruling lacks: ``Params``)
            if word.__class__ is not str:
                return None
            parts.append(word)
    return parts


#: (rule, what, language) -> its ``_plan``
_PLANS: dict[tuple[str, str | None, str], _Plan | None] = {}
_NO_NAMES: Mapping[str, str] = {}
_ABSENT = object()
#: parameters ``_RulingParams`` works out from others when a message reads them
_DERIVED = frozenset({"text_given", "member_name", "player_plural", "opponent_plural"})


def _plan(key: str, lang: str) -> _Plan | None:
    """How ``render`` says ``key`` in ``lang``: the compiled message (the language's, else
    English's), the language whose words its parameters are put in, the parameters it reads
    (None: all, when that is not known from its source) and, when it reads none that is
    derived (``_RulingParams``) nor a list's count (``pins_count``), those (the parameters
    are then only those it reads, each put in words from its own value); None when neither
    language has it."""
    lang = lang if lang in LANGS else ENGLISH
    ident = message_id(key)
    for code in dict.fromkeys((lang, ENGLISH)):
        messages = language(code)
        if messages.has(ident):
            reads = _reads(messages, ident)
            plain = (None if reads is None or reads & _DERIVED or any(k.endswith("_count") for k in reads)
                     else tuple(sorted(reads)))
            return messages.compile(ident), code, reads, plain
    return None


def _reads(messages: Any, ident: str, seen: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """The parameters message ``ident`` reads: each ``$name`` in its source and what the
    messages it refers to (``{ golf_frame_opening }``) read (a term reads only its own
    arguments; ``GENITIVE($name)`` its parameter); None when not sure (a placeable that starts
    with a name and is neither, ``{ m.attr }``, or a message the language lacks). Read by hand,
    not by ``re``: compiling a pattern costs more than a replay's first ruling."""
    source = messages._source.get(ident)
    if source is None:
        return None
    out: set[str] = set()
    at = source.find("$")
    while at >= 0:
        end = _name_end(source, at + 1)
        if end > at + 1:
            out.add(source[at + 1:end])
        at = source.find("$", at + 1)
    at = source.find("{")
    while at >= 0:
        start = _space_end(source, at + 1)
        end = _name_end(source, start)
        if end > start:  # a name first in a placeable
            name, after = source[start:end], _space_end(source, end)
            if name == "GENITIVE" and source.startswith("(", after):
                arg = _space_end(source, after + 1)
                arg_end = _name_end(source, arg + 1) if source.startswith("$", arg) else arg
                if arg_end == arg or not source.startswith(")", _space_end(source, arg_end)):
                    return None
            elif not source.startswith("}", after) or name in seen or not messages.has(name):
                return None
            else:
                more = _reads(messages, name, seen | {ident})
                if more is None:
                    return None
                out |= more
        at = source.find("{", at + 1)
    return frozenset(out)  # ``player`` and ``opponent``, which the derived read, are always put in


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME_CHARS = _LETTERS | frozenset("0123456789_-")


def _name_end(text: str, at: int) -> int:
    """Where a Fluent identifier (a letter, then letters, digits, ``_`` and ``-``) starting at
    ``at`` ends; ``at`` when none starts there."""
    if at >= len(text) or text[at] not in _LETTERS:
        return at
    at += 1
    while at < len(text) and text[at] in _NAME_CHARS:
        at += 1
    return at


def _space_end(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def phrase(key: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """A line that is not a ruling (a score line, a result, a word of the sheet) in ``lang``:
    the parameters as given (names already put in), English where the language lacks the key."""
    lang = lang if lang in LANGS else ENGLISH
    ident = message_id(key)
    p = Params({k: (str(v) if isinstance(v, bool) else v) for k, v in params.items()})
    text = language(lang).say(ident, p)
    if text is None and lang != ENGLISH:
        text = language(ENGLISH).say(ident, p)
    return text if text is not None else key


def has_text(key: str, lang: str) -> bool:
    return lang in LANGS and language(lang).has(message_id(key))


def keys(lang: str) -> set[str]:
    """Every key the language has a message for."""
    return {key_of_id(ident) for ident in language(lang).messages}


def words(kind: str, lang: str) -> dict[str, str]:
    """A word table of the language: ``{value: word}`` of its messages ``<kind>--<value>``."""
    head = message_id(kind) + "--"
    lang_ = language(lang if lang in LANGS else ENGLISH)
    return {ident[len(head):]: lang_.say(ident, Params()) or "" for ident in lang_.messages
            if ident.startswith(head)}


def name(lang: str) -> str:
    """The language's name in itself (its message ``language``): "Nederlands"."""
    return language(lang).say("language", Params()) or lang


@cache
def yes_no() -> dict[str, bool]:
    """The words a referee may type for yes and no, in every language: ``{"ja": True, ...}``."""
    out: dict[str, bool] = {}
    for lang in LANGS:
        for answer, value in (("yes", True), ("no", False)):
            said = language(lang).say(f"answer--{answer}", Params()) or ""
            out.update({w.strip().lower(): value for w in said.split(",") if w.strip()})
    return out


def decimal_mark(lang: str) -> str:
    """The language's decimal mark (CLDR, through Babel): "." in English, "," in Dutch."""
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(lang.replace("-", "_") if lang in LANGS else ENGLISH))


def screen(lang: str) -> dict[str, str]:
    """The screens' words of ``lang`` (its ``screen.json``), as the browser gets them; English
    for a word the language lacks."""
    out: dict[str, str] = {}
    for code in dict.fromkeys((ENGLISH, lang if lang in LANGS else ENGLISH)):
        for folder in folders(code):
            path = folder / "screen.json"
            if path.exists():
                out.update(json.loads(path.read_text(encoding="utf-8")))
    out.update({f"lang.{code}": name(code) for code in LANGS})  # the language menu: each in itself
    return out


class _RulingParams(Params):
    """A ruling's parameters in words; those derived from them are worked out only when a
    message reads them: ``text_given`` (``yes`` when the referee gave their own words,
    ``text``), ``member_name`` (the one of a duo who plays: ``member``, 0 or 1) and
    ``player_plural``, ``opponent_plural`` (``yes`` when the side, or the other side, is more
    than one name: a duo)."""

    __slots__ = ("_data", "_side")
    _data: Mapping[str, Any]
    _side: str | None

    def __missing__(self, key: str) -> Any:
        if key == "text_given":
            return "yes" if "text" in self._data else "no"
        if key == "member_name" and self._side is not None:
            member, members = self._data.get("member"), self._side.split(" & ")
            return members[member] if isinstance(member, int) and 0 <= member < len(members) else self._side
        if key in ("player_plural", "opponent_plural") and self._side is not None:
            return "yes" if " & " in str(self[key[:-len("_plural")]]) else "no"
        return super().__missing__(key)


def _params(data: Mapping[str, Any], player: str | None, names: Mapping[str, str], lang: str,
            reads: frozenset[str] | None = None) -> Params:
    """The parameters in words for the message; of ``data`` only those it ``reads`` (a list's
    with its count) when known: the others would not be said."""
    side = None if player is None else names.get(player, player)
    out = _RulingParams()
    out._data, out._side = data, side
    for k, v in data.items():
        if v.__class__ is int:  # the most common: said as Python writes it
            if reads is None or k in reads:
                out[k] = v
        elif isinstance(v, (list, tuple)):
            if reads is None or k in reads or f"{k}_count" in reads:
                out[k] = ", ".join(str(_word(k, x, names, lang)) for x in v)
                out[f"{k}_count"] = len(v)
        elif reads is None or k in reads:
            out[k] = _word(k, v, names, lang)
    if player is not None:
        other = _other(player)
        out["player"] = side
        out["opponent"] = names.get(other, other)
    return out


@cache
def _words_of(key: str) -> str | None:
    """Whose words a parameter's value is put in: ``ball``, the parameter's own, or none."""
    if key in BALL_KEYS or key.endswith("_ball"):
        return "ball"
    return key if key in WORD_KEYS else None


def _word(key: str, value: Any, names: Mapping[str, str], lang: str) -> Any:
    if isinstance(value, str):
        if value in PLAYER_IDS:
            return names.get(value, value)
        kind = _words_of(key)
        return value if kind is None else _lookup(kind, value, lang)
    if value is None and (key in BALL_KEYS or key in WORD_KEYS):
        return _lookup("ball" if key in BALL_KEYS else key, "none", lang, "None")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return value


@cache
def _lookup(kind: str, value: str, lang: str, default: str | None = None) -> str:
    """The language's word for a parameter's value (``<kind>--<value>``), or the value itself."""
    said = language(lang).say(f"{kind}--{message_id(value)}", _EMPTY)
    return said if said is not None else (value if default is None else default)


def _other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


@cache
def language(lang: str) -> Any:
    """The messages of ``lang`` (``messages.Language``), read on first use."""
    from .messages import Language

    return Language(lang, places(lang))


_EMPTY = Params()
