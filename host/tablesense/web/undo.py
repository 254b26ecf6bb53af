"""What the referee panel's undo button takes back, in words: "shot 12", "foul: touch (Bob)".

The engines' ``undo`` (docs/events.md) goes back to the state before the last referee
call, or before the last shot if no call came after it; repeated, it walks further
back. ``last_unit`` follows the same walk over the match's effective log lines: each
call is a unit, each shot (its table events up to its ``rest``) is one, and an ``undo``
takes the last unit off. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from . import fouls
from .last_shot import name


class Walk:
    """The undo walk over a match's effective log lines, fed one line at a time."""

    __slots__ = ("open_shot", "shots", "stack")

    def __init__(self) -> None:
        self.stack: list[tuple[str, dict[str, Any]]] = []
        self.shots = 0
        self.open_shot = False

    def feed(self, line: str) -> None:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            return
        kind = obj.get("type")
        if kind == "call":
            if obj.get("call") == "undo":
                if self.stack and self.stack.pop()[0] == "shot":
                    self.shots -= 1
                self.open_shot = False
            elif obj.get("call") != "void":
                self.stack.append(("call", obj))
                self.open_shot = False
            return
        if kind == "setup":
            self.stack, self.shots, self.open_shot = [], 0, False
            return
        if not self.open_shot:
            self.shots += 1
            self.stack.append(("shot", {"n": self.shots}))
            self.open_shot = True
        if kind == "rest":
            self.open_shot = False

    def last(self) -> tuple[str, dict[str, Any]] | None:
        return self.stack[-1] if self.stack else None


def last_unit(lines: Iterable[str]) -> tuple[str, dict[str, Any]] | None:
    """The unit an ``undo`` now takes back: ("shot", {"n": number}) or ("call", the call);
    None when there is nothing (the set-up is never undone). ``lines``: after the set-up."""
    walk = Walk()
    for line in lines:
        walk.feed(line)
    return walk.last()


def describe(unit: tuple[str, dict[str, Any]] | None, game: str, players: Mapping[str, Any],
             strings: Mapping[str, str]) -> str:
    """The undo button's words for ``unit`` ("Undo shot 12"); "Nothing to undo" for None."""
    s = strings
    if unit is None:
        return s.get("undo.nothing", "")
    kind, data = unit
    if kind == "shot":
        what = s.get("undo.shot", "shot {n}").replace("{n}", str(data["n"]))
    else:
        what = call_words(data, game, players, s)
    return s.get("undo.what", "{what}").replace("{what}", what)


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
