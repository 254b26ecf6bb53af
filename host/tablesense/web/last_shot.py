"""The last shot told in one line, for the TV read from 3 m: "Ann scores, plays on".

``shot_start(lines)`` finds where the last completed shot began in a match's log (the
``rest`` before its ``rest``); the rulings made after it are the shot's, with the
referee's calls that amend it. ``tell(...)`` makes the line from their rule ids,
players and parameters (never the engine's sentence, except as the last resort), in
the table's language (the ``ls.*`` and ``foul.*`` web strings) and with the players'
names. Pure: no I/O.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import fouls

#: rulings a sensor makes that are fouls all the same: the words that name them
SENSED_FOULS = {
    "golf.off-table.own": "foul.golf.off-table",
    "golf.off-table.opponent": "foul.golf.off-table",
    "golf.off-table.one-one": "foul.golf.off-table",
    "carom.jump.driebanden": "foul.carom.jump",
    "carom.foul.carom-void": None,  # says what a fault costs, not which fault
}
MATCH_OVER = ("golf.match.won", "kegle.same-series", "kegle.draw", "kegle.disqualified", "carom.match.won",
              "carom.draw")
OPENINGS = ("golf.frame.opening", "carom.outlay", "kegle.lag")
#: rulings that only say how another was reached: never the line's subject
NOISE = ("carom.referee.amend", "carom.foul.carom-void", "carom.match-points.de-bruijn", "carom.last-carom",
         "carom.countdown", "kegle.red-in-hand", "kegle.outlay", "kegle.shot", "kegle.distance")


def shot_start(lines: Iterable[str]) -> float:
    """The table time after which the last completed shot's rulings were made.

    ``lines``: the match's log lines, newest first. That is the ``t`` of the ``rest``
    before the last ``rest``; -inf when there is none (the rulings of the set-up and
    the first shot all count)."""
    rests = 0
    for line in lines:
        if '"rest"' not in line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if obj.get("type") == "rest":
            rests += 1
            if rests == 2:
                return float(obj.get("t", -math.inf))
    return -math.inf


def name(players: Mapping[str, Any], player: str | None) -> str:
    v = players.get(player or "", player or "")
    return " & ".join(map(str, v)) if isinstance(v, list) else str(v)


def _other(player: str | None) -> str:
    return "p2" if player == "p1" else "p1"


def _fmt(strings: Mapping[str, str], key: str, **values: Any) -> str:
    """The string of ``key`` with ``values`` filled in; a pair's name ("Ann & Cor") takes the
    string's plural form where it has one (``key.duo``: "Ann & Cor score", not "scores")."""
    text = strings.get(key, key)
    if " & " in str(values.get("name", "")):
        text = strings.get(key + ".duo", text)
    for k, v in values.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def _foul_words(game: str, rule: str, strings: Mapping[str, str]) -> str | None:
    if rule in SENSED_FOULS:
        key = SENSED_FOULS[rule]
        return strings.get(key, rule) if key else None
    button = fouls.by_rule(game).get(rule)
    return strings.get(fouls.key(game, button.call), rule) if button else None


def tell(game: str, rulings: Sequence[Mapping[str, Any]], state: Mapping[str, Any],
         players: Mapping[str, Any], strings: Mapping[str, str]) -> str:
    """One line for the last shot's ``rulings`` (the state is the one after them)."""
    if not rulings:
        return ""
    rules = {r.get("rule"): r for r in rulings}
    s = strings

    def who(r: Mapping[str, Any] | None) -> str:
        return name(players, r.get("player") if r else None)

    def next_up(offender: str | None) -> str:
        at = state.get("at_table")
        return name(players, at if at and at != offender else _other(offender))

    if state.get("questions") and not state.get("finished"):
        # the referee has yet to decide what the shot made: no "X to play" beside the question
        shooter = next((r.get("player") for r in rulings if r.get("player")), None)
        return _fmt(s, "ls.asking", name=name(players, shooter)) if shooter else ""
    extra: list[str] = []
    if "golf.zone.play" in rules:
        extra.append(s.get("ls.zone_play", "zone play"))
    if "kegle.break" in rules:
        extra.append(s.get("ls.break", "break"))
    if (r := rules.get("kegle.announce.remaining")) is not None:
        extra.append(_fmt(s, "ls.remaining", n=r.get("remaining", "")))
    line = _main(game, rulings, rules, state, players, s, who, next_up)
    return " · ".join([line, *extra]) if line else " · ".join(extra)


def _main(game: str, rulings: Sequence[Mapping[str, Any]], rules: Mapping[Any, Mapping[str, Any]],
          state: Mapping[str, Any], players: Mapping[str, Any], s: Mapping[str, str],
          who: Any, next_up: Any) -> str:
    if state.get("finished") and any(r in rules for r in MATCH_OVER):
        winner = state.get("winner")
        if winner == "draw":
            return s.get("ls.draw", "draw")
        return _fmt(s, "ls.match_won", name=name(players, winner))
    for r in rulings:
        words = _foul_words(game, str(r.get("rule")), s)
        if words is None:
            continue
        offender = r.get("player")
        if r.get("rule") == "carom.foul.no-blame":
            return _fmt(s, "ls.no_blame", name=who(r))
        waiting = state.get("spots_waiting") or []
        then = s.get("ls.then_spot", "") if waiting else _fmt(s, "ls.then_turn", other=next_up(offender))
        return _fmt(s, "ls.foul", name=who(r), foul=words, then=then)
    if (r := rules.get("golf.frame.won")) is not None:
        return _fmt(s, "ls.frame_won", name=who(r), frame=r.get("frame", ""))
    if (r := rules.get("golf.goal")) is not None:
        if "golf.turn" in rules or "golf.goal.opponent-ball" in rules:
            return _fmt(s, "ls.goal_then", name=who(r), other=next_up(r.get("player")))
        return _fmt(s, "ls.goal", name=who(r))
    if (r := rules.get("golf.goal.opponent-ball")) is not None:
        owner = r.get("player")
        return _fmt(s, "ls.goal_other", name=who(r), other=name(players, _other(owner)))
    if (r := rules.get("golf.turn")) is not None:
        return _fmt(s, "ls.no_goal", name=who(r), other=next_up(r.get("player")))
    if (r := rules.get("carom.poedel")) is not None:
        return _fmt(s, "ls.poedel", name=who(r), other=next_up(r.get("player")))
    if (r := rules.get("carom.carom")) is not None:
        caroms = state.get("caroms")
        n = caroms.get(r.get("player")) if isinstance(caroms, dict) else None
        if "carom.inning.end" in rules:
            return _fmt(s, "ls.carom_then", name=who(r), other=next_up(r.get("player")))
        return _fmt(s, "ls.carom", name=who(r), n=n if n is not None else "")
    if (r := rules.get("carom.inning.end")) is not None:
        return _fmt(s, "ls.no_carom", name=who(r), other=next_up(r.get("player")))
    scored = [r for r in rulings if r.get("rule") in ("kegle.pin", "kegle.carambole")]
    if scored:
        points = sum(int(r.get("points") or 0) for r in scored)
        if "kegle.series" in rules:
            return _fmt(s, "ls.kegle_then", name=who(scored[0]), points=points,
                        other=next_up(scored[0].get("player")))
        return _fmt(s, "ls.kegle_points", name=who(scored[0]), points=points)
    if (r := rules.get("kegle.series")) is not None:
        return _fmt(s, "ls.kegle_none", name=who(r), other=next_up(r.get("player")))
    for rule in OPENINGS:
        if (r := rules.get(rule)) is not None:
            return _fmt(s, "ls.opens", name=who(r))
    told = [r for r in rulings if r.get("rule") not in NOISE and r.get("text")]
    if not told:
        return ""
    r = told[-1]
    return f"{who(r)}: {r['text']}" if r.get("player") else str(r["text"])
