"""What the referee panel's undo button takes back, in words: "shot 12", "foul: touch (Bob)".

The walk itself (what the engines' ``undo`` takes back, step by step) is
``tablesense.undo_walk``, which the pub keeps for each table; this module says its last
unit in the referee's words. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..undo_walk import Unit, Walk
from . import fouls
from .last_shot import name


def last_unit(lines: Iterable[str]) -> Unit | None:
    """The unit an ``undo`` now takes back (``tablesense.undo_walk.Unit``); None when there
    is nothing (the set-up is never undone). ``lines``: the match's lines after the set-up."""
    walk = Walk()
    for line in lines:
        walk.feed(line)
    return walk.last()


def describe(unit: Unit | None, game: str, players: Mapping[str, Any], strings: Mapping[str, str]) -> str:
    """The undo button's words for ``unit`` ("Undo shot 12"); "Nothing to undo" for None."""
    s = strings
    if unit is None:
        return s.get("undo.nothing", "")
    data = unit.data
    if unit.kind == "shot":
        what = s.get("undo.shot", "shot {n}").replace("{n}", str(data["n"]))
    elif unit.kind == "settle":
        what = s.get("undo.settle", "{what}").replace("{n}", str(data["n"])).replace(
            "{what}", event_words(data["event"], players, s))
    elif unit.kind == "incident":
        what = event_words(data["event"], players, s)
    else:
        what = call_words(data, game, players, s)
    return s.get("undo.what", "{what}").replace("{what}", what)


def event_words(event: Mapping[str, Any], players: Mapping[str, Any], s: Mapping[str, str]) -> str:
    """A table event in the screens' words ("Pin 2 up", "Goal B"), as the TV's ticker says it."""
    kind = str(event.get("type"))
    pin = f"ev.pin.{event.get('state')}"
    key = pin if kind == "pin" and pin in s else f"ev.{kind}"
    text = s.get(key, kind)
    for k, v in event.items():
        if isinstance(v, (str, int, float)) and not isinstance(v, bool):
            text = text.replace("{" + k + "}", str(v))
    return text


def call_words(call: Mapping[str, Any], game: str, players: Mapping[str, Any], s: Mapping[str, str]) -> str:
    """A referee call in the referee's words (the panel's undo, the TV's ticker)."""
    kind = str(call.get("call"))
    player = call.get("player")
    who = f" ({name(players, player)})" if player else ""
    if kind == "foul":
        foul = str(call.get("foul"))
        words = s.get(fouls.key(game, foul), foul)
        return s.get("call.foul", "{foul}").replace("{foul}", words) + who
    if kind == "start":
        return s.get("call.start", "{name}").replace("{name}", name(players, player))
    if kind == "spot":
        ball = call.get("ball")
        return (s.get("call.spot", "{spot}").replace("{spot}", str(call.get("spot")))
                .replace("{name}", name(players, ball if isinstance(ball, str) else None)))
    if kind == "carom":
        return s.get(f"call.carom.{game}", s.get("call.carom", "carom"))
    if kind == "answer":
        return s.get("call.answer", "answer")
    return s.get(f"call.{kind}", kind) + who
