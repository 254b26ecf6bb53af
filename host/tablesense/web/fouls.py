"""The referee panel's foul buttons: every fault a game's package offers a button for.

A game lists its faults once (``rules/<game>/fouls.py``: ``FAULTS``, rows of
``tablesense.rules.fault.Fault``); a row's ``button`` says how the panel offers it: the
name the panel sends in the ``foul`` call (a name the game's engine accepts,
docs/events.md), whether it is one of the common ones (shown at once; the rare ones are
one tap away), and the rule variants that know it (carom: some fouls are the liemers
rules' only; golf: the duo's, and the touches before or in zone play). Its words are the
web string ``foul.<game>.<call>`` in every language (texts/<lang>/screen.json); a test
checks that every foul id of the catalogue has a button, each button is accepted by its
engine and has its words in every language.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from .. import games


class Offered(NamedTuple):
    """A button as the panel offers it: its fault row's button with the id it cites."""

    call: str  # the ``foul`` name the panel sends
    rule: str  # the catalogue id (seeds/<game>.md)
    common: bool = False
    profiles: tuple[str, ...] = ()  # empty: every variant (carom's rules; golf: "duo", the format)
    zone: bool | None = None  # golf: True only in zone play, False only before it
    place: int = 99  # lower first within its group (common, rare); ties: the fault table's order


@cache
def offered(game: str) -> tuple[Offered, ...]:
    """The buttons of ``game``, by their place, then in its fault table's order (none for
    a game unknown or without a fault table)."""
    table = games.part(game, "fouls")
    if table is None:
        return ()
    rows = [Offered(f.button.call, f.id, f.button.common, f.button.profiles, f.button.zone, f.button.place)
            for f in table.FAULTS if f.button is not None]
    return tuple(sorted(rows, key=lambda b: b.place))


def every() -> dict[str, tuple[Offered, ...]]:
    """Every game's buttons, by game, in the games' order."""
    return {name: offered(name) for name in games.names()}


def key(game: str, call: str) -> str:
    """The web string that names a foul in the player's words."""
    return f"foul.{game}.{call}"


@cache
def by_rule(game: str) -> dict[str, Offered]:
    """The buttons of ``game`` by catalogue id (the first one that cites it)."""
    out: dict[str, Offered] = {}
    for b in offered(game):
        out.setdefault(b.rule, b)
    return out


def buttons(game: str, strings: dict[str, str], profile: str | None = None,
            zone_play: bool | None = None) -> list[dict[str, Any]]:
    """The foul buttons of a match as the panel draws them, common ones first.

    ``profile`` (carom's rules, golf's format: "single" or "duo") leaves out the fouls
    it does not know; ``zone_play`` (golf, None: unknown) leaves out the touches that do
    not apply now."""
    out = []
    for b in offered(game):
        if b.profiles and profile and profile not in b.profiles:
            continue
        if b.zone is not None and zone_play is not None and b.zone != zone_play:
            continue
        out.append({"call": b.call, "rule": b.rule, "common": b.common,
                    "label": strings.get(key(game, b.call), b.call)})
    out.sort(key=lambda x: not x["common"])
    return out
