"""Names written loosely, understood in one place: the input edge of the rule engines.

A referee types "Jump", "sprong" or "ball-off-table"; the engines see canonical ids
only. Each game (and each carom club profile) carries its aliases as data, in the
manner of python-chess's variant aliases: each game's ``names`` module
(``rules/golf/names.py``, ``rules/kegle/names.py``, ``rules/carom/names.py``) holds a
``Vocabulary``. ``canonical_call`` rewrites a referee call's ``foul``,
``ball`` and ``call`` names to canonical ids before an engine sees it; a name it does
not know is passed on as written, and the engine refuses it with the list of what it
knows.

How a name is compared: ``key(name)``: case, spaces, hyphens, underscores and dots
do not count ("Ball off table" = "ball-off-table" = "BALL_OFF_TABLE").
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

import msgspec
from msgspec import field

from ..events import Call

_DROP = str.maketrans("", "", " -_.'")


def key(name: str) -> str:
    """The comparison key of a loosely written name."""
    return name.strip().lower().translate(_DROP)


class Vocabulary(msgspec.Struct, frozen=True):
    """One game's (or profile's) names: canonical id -> the other ways it is written (a frozen
    msgspec Struct: a dataclass compiles its methods at every start-up)."""

    fouls: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    balls: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    calls: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: what a profile adds to (or changes in) its game's names
    profiles: Mapping[str, Vocabulary] = field(default_factory=dict)

    def lookup(self, kind: str, name: str) -> str | None:
        """The canonical id of ``name`` among ``kind`` (fouls, balls, calls), or None."""
        return _index(self, kind).get(key(name))

    def for_profile(self, profile: str | None) -> Vocabulary:
        if profile is None or profile not in self.profiles:
            return self
        extra = self.profiles[profile]
        return Vocabulary(
            fouls={**self.fouls, **extra.fouls}, balls={**self.balls, **extra.balls},
            calls={**self.calls, **extra.calls},
        )


_INDEXES: dict[tuple[int, str], dict[str, str]] = {}


def _index(vocab: Vocabulary, kind: str) -> dict[str, str]:
    found = _INDEXES.get((id(vocab), kind))
    if found is None:
        table: Mapping[str, tuple[str, ...]] = getattr(vocab, kind)
        found = {}
        for canonical, others in table.items():
            for name in (canonical, *others):
                found.setdefault(key(name), canonical)
        _INDEXES[(id(vocab), kind)] = found
    return found


_BY_GAME: dict[tuple[str, str | None], Vocabulary] = {}


def for_game(game: str, profile: str | None = None) -> Vocabulary:
    """The vocabulary of ``game`` (and its ``profile``); an empty one for a game without."""
    found = _BY_GAME.get((game, profile))
    if found is None:
        found = _BY_GAME[(game, profile)] = _load(game).for_profile(profile)
    return found


def _load(game: str) -> Vocabulary:
    if not game.isidentifier():
        return EMPTY
    where = f"tablesense.rules.{game}.names"  # a game's names live in its package
    try:
        module = import_module(where)
    except ModuleNotFoundError as exc:
        if exc.name not in (where, f"tablesense.rules.{game}"):
            raise
        return EMPTY
    vocab: Vocabulary = module.VOCABULARY
    return vocab


EMPTY = Vocabulary()


def canonical_call(vocab: Vocabulary, call: Call) -> Call:
    """``call`` with its names in canonical ids, where ``vocab`` knows them."""
    changes: dict[str, str] = {}
    for attr, kind in (("call", "calls"), ("foul", "fouls"), ("ball", "balls")):
        value = getattr(call, attr)
        if isinstance(value, str):
            found = vocab.lookup(kind, value)
            if found is not None and found != value:
                changes[attr] = found
    if not changes:
        return call
    return msgspec.structs.replace(call, **changes)
