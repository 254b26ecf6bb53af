"""The referee panel's sensor buttons and the words of the sensors' questions, made on the
host in the table's language (docs/referee.md, "When the sensors are out").

``buttons(game, players, strings)``: what each game's engine needs to go on while the board
is silent, in groups (golf: each goal with whose ball; keglebillard: the pins down and set up,
the red and the white in each pocket; carom: the cushions, optional) and the rest that ends
a shot. ``questions(sensors, players, strings)``: each question of the merge
(``tablesense.by_hand``) as a sentence with its answers. Pure: no I/O.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..by_hand import CUSHIONS, GOALS, PINS, POCKETS, hand_balls
from ..games import find as find_game
from .last_shot import name


def _t(s: Mapping[str, str], key: str, **data: Any) -> str:
    text = s.get(key, key)
    for k, v in data.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def ball_words(ball: Any, players: Mapping[str, Any], s: Mapping[str, str]) -> str:
    """A ball in the table's words: a golf player's ("Ann's ball"), a colour ("Red")."""
    if ball in ("p1", "p2"):
        return _t(s, "ball.of", name=name(players, ball))
    return s.get(f"ball.{ball}", str(ball))


def event_words(ev: Mapping[str, Any], players: Mapping[str, Any], s: Mapping[str, str]) -> str:
    """One sensor event in a few words: "Goal B · Ann's ball", "Pin 3 down", "Pocket 4 · Red"."""
    kind = ev.get("type")
    if kind == "pin":
        return _t(s, f"ev.pin.{ev.get('state')}", pin=ev.get("pin"))
    text = _t(s, f"ev.{kind}", goal=ev.get("goal"), pocket=ev.get("pocket"), cushion=ev.get("cushion"))
    if ev.get("ball") is not None and kind in ("goal", "pocket"):
        text += " · " + ball_words(ev["ball"], players, s)
    return text


def _button(ev: dict[str, Any], text: str, players: Mapping[str, Any],
            s: Mapping[str, str]) -> dict[str, Any]:
    return {"event": ev, "text": text, "label": event_words(ev, players, s)}


def buttons(game: str | None, players: Mapping[str, Any], s: Mapping[str, str]) -> dict[str, Any]:
    """The sensor events the panel offers for ``game`` (those its package declares,
    ``Game.by_hand``): ``groups`` (a title, its buttons, and ``optional`` for those an
    engine goes on without) and ``rest``."""
    declared = find_game(game)
    if declared is None or not declared.by_hand:
        return {"groups": [], "rest": None}
    groups: list[dict[str, Any]] = []
    for kind in declared.by_hand:
        groups += _GROUPS[kind](declared.name, players, s)
    rest = {"type": "rest"}
    return {"groups": groups, "rest": {"event": rest, "text": s.get("sensors.rest", "sensors.rest"),
                                       "label": s.get("sensors.rest", "sensors.rest")}}


def _goals(game: str, players: Mapping[str, Any], s: Mapping[str, str]) -> list[dict[str, Any]]:
    def button(goal: str, ball: str) -> dict[str, Any]:
        event = {"type": "goal", "goal": goal, "ball": ball}
        return {**_button(event, ball_words(ball, players, s), players, s), "ball": ball}

    return [{"title": _t(s, "ev.goal", goal=goal), "buttons": [button(goal, p) for p in hand_balls(game)]}
            for goal in GOALS]


def _pins(game: str, players: Mapping[str, Any], s: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"title": s.get(title, title), "small": True, "buttons": [
        _button({"type": "pin", "pin": n, "state": state}, str(n), players, s) for n in PINS]}
        for state, title in (("down", "sensors.pins_down"), ("up", "sensors.pins_up"))]


def _pockets(game: str, players: Mapping[str, Any], s: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"title": _t(s, "sensors.pocket", ball=ball_words(ball, players, s)), "small": True,
             "buttons": [_button({"type": "pocket", "pocket": n, "ball": ball}, str(n), players, s)
                         for n in POCKETS]} for ball in hand_balls(game)]


def _cushions(game: str, players: Mapping[str, Any], s: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"title": s.get("sensors.cushion", "sensors.cushion"), "small": True, "optional": True,
             "buttons": [_button({"type": "cushion", "cushion": n}, str(n), players, s) for n in CUSHIONS]}]


#: the panel's buttons for each kind of sensor event a game may take by hand
_GROUPS = {"goal": _goals, "pin": _pins, "pocket": _pockets, "cushion": _cushions}


def clock(at: float) -> str:
    """The host's local time of day of ``at`` (epoch), as the pub's clock shows it."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def questions(sensors: Mapping[str, Any] | None, players: Mapping[str, Any],
              s: Mapping[str, str]) -> list[dict[str, Any]]:
    """The open questions about the sensors as the panel and the TV show them: ``id``,
    ``text`` and ``options`` (each a ``value`` to send back and its ``label``)."""
    out = []
    for q in (sensors or {}).get("questions") or ():
        hand = event_words(q["hand"], players, s) if q.get("hand") else ""
        board = event_words(q["board"], players, s) if q.get("board") else ""
        at_hand, at_board = clock(float(q.get("hand_at") or 0.0)), clock(float(q.get("board_at") or 0.0))
        kind = q.get("kind")
        if kind == "board":
            text = _t(s, "sensors.q.board", time=at_board, event=board)
            options = [(True, s.get("sensors.a.add", "add")), (False, s.get("no", "no"))]
        elif kind == "hand" and q.get("board"):  # the like was reported just before the board went silent
            text = _t(s, "sensors.q.again", time=at_hand, event=hand, before=at_board)
            options = [(True, s.get("sensors.a.another", "another")),
                       (False, s.get("sensors.a.same", "same"))]
        elif kind == "hand":
            text = _t(s, "sensors.q.hand", time=at_hand, event=hand)
            options = [(True, s.get("sensors.a.keep", "keep")), (False, s.get("sensors.a.remove", "remove"))]
        else:
            text = _t(s, "sensors.q.other", time=at_hand, hand=hand, board=board)
            options = [("hand", _t(s, "sensors.a.hand", event=hand)),
                       ("board", _t(s, "sensors.a.board", event=board)),
                       ("both", s.get("sensors.a.both", "both"))]
        out.append({"id": q.get("id"), "kind": kind, "text": text,
                    "options": [{"value": v, "label": label} for v, label in options]})
    return out
