"""English templates: golf (keys: rule id, or "rule id:what"; see ``tablesense.texts``).

``{player}`` is the player the ruling concerns, ``{opponent}`` the other one (both as
the players' names); ``{ball}`` names a ball by its owner. A foul's sentence is built
from what the foul costs (``rules.golf.fouls``): its ``:zone`` variant is said in zone
play, where some fouls cost more. ``golf.own-goal`` is both a count (the goal sensor saw
it: ``:count``) and a foul the referee calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .golf_fouls import FoulPhrases, foul_templates

#: what each foul is, in the words of the rule text (seeds/golf.md)
FOUL_WORDS: dict[str, str] = {
    "golf.foul.foot": "played without a foot on the floor",
    "golf.foul.jump": "played directly over pegs or balls",
    "golf.foul.lift": "lifted the ball over the nearest cushion from the long-cushion zone",
    "golf.foul.hard-shot": "hard, fast shot at goal from below the shot line",
    "golf.foul.aim-behind": "took up position behind an opponent's ball",
    "golf.foul.opponent-ball": "played with an opponent's ball",
    "golf.foul.not-at-rest": "aimed or played before the balls had come to rest",
    "golf.foul.touch": "touched a ball",
    "golf.foul.touch.no-shot": "touched a ball without playing a shot",
    "golf.foul.touch.own-ball": "touched one of their own balls during zone play",
    "golf.foul.touch.opponent-ball": "touched an opponent's ball during zone play",
    "golf.foul.hold.own-ball": "held back, nudged or deflected one of their own balls",
    "golf.foul.hold.opponent-ball": "held back, nudged or deflected an opponent's ball",
    "golf.foul.push": "kept the cue tip against the ball (push shot)",
    "golf.foul.touching-ball": "moved a touching ball when not playing away from it",
    "golf.foul.push-through": "pushed through at a ball touching the front or outer side peg",
    "golf.foul.own-ball": "played their own ball directly onto another of their own balls",
    "golf.triangle.defensive": "left their ball in the large defensive triangle",
    "golf.triangle.defensive.several": "left none of several balls out of the large defensive triangle",
    "golf.triangle.attacking": "ended in the large attacking triangle while the defender's ball lies "
                               "in the small triangle",
    "golf.zone.leave": "no ball left its zone in zone play",
    "golf.duo.opening": "the wrong player of the duo took the opening shot",
    "golf.duo.order": "played out of the duo's order of play",
    "golf.duo.consult": "team-mate pointed, gestured or came within 1 metre",
    "golf.own-goal": "played their own ball into their own goal (called by the referee)",
    "golf.clock": "did not play within the time (50 s, TIME, 10 s)",
}


PHRASES: FoulPhrases = {
    "turn_lost": ': turn lost', "back": ', the moved balls are put back',
    "played_spot": ', the ball played goes on a replacement spot',
    "points_out": ', {opponent} points out a ball to be placed on a replacement spot',
    "touched_spot": ', the touched ball goes on a replacement spot',
    "touched_goal": ', the touched ball goes into the goal and counts for {opponent}',
    "triangle": ', the ball goes on a replacement spot',
    "several": ', all {balls} balls go on replacement spots',
}


def _opens(p: Mapping[str, Any]) -> str:
    """Who opens: in a duo the member who plays (``member``: 0 or 1 of the side's names)."""
    who = str(p["player"])
    member = p.get("member")
    if isinstance(member, int):
        names = who.split(" & ")
        who = names[member] if member < len(names) else who
    return f"{who} opens frame {p['frame']}"


def _double_finish(p: Mapping[str, Any]) -> str:
    return (f"both last balls dropped in one shot; {p['player']}'s dropped first, "
            f"{p.get('gap_us', '?')} µs earlier")


TEMPLATES: dict[str, Any] = {
    # questions
    "golf.goal:whose": "Whose ball dropped into goal {goal}?",
    "golf.off-table.own:whose": "Whose ball left the table?",
    # the count
    "golf.goal": "valid goal in goal {goal}: {player} stays at the table",
    "golf.goal:turn-lost": "valid goal in goal {goal}: it counts, but this shot costs {player} the turn",
    "golf.own-goal:count": "own ball in own goal {goal}: does not count, the ball goes on a replacement "
                           "spot, turn over",
    "golf.goal.opponent-ball": "{player}'s ball into goal {goal} counts for {player}; the turn passes",
    "golf.goal.edge": "the ball dropped after it had come to rest: it does not count and is put back "
                      "on the goal edge",
    "golf.goal.edge:late": "the ball dropped into goal {goal} after the balls had come to rest: it does "
                           "not count and is put back on the goal edge",
    "golf.turn": "no valid goal of their own: the turn passes to {opponent}",
    # off the table, wedged
    "golf.off-table.own": "own ball off the table: on a replacement spot",
    "golf.off-table.own:goal-lost": "own ball off the table: on a replacement spot; the valid goal of this "
                                    "shot costs the turn",
    "golf.off-table.opponent": "{opponent}'s ball off the table goes into the goal; the ball played goes "
                               "on a replacement spot",
    "golf.off-table.opponent:goal-lost": "{opponent}'s ball off the table goes into the goal; the ball "
                                         "played goes on a replacement spot; the valid goal of this shot "
                                         "costs the turn",
    "golf.off-table.one-one": "at 1/1 {player} sent {opponent}'s ball off the table and scored: {player} "
                              "loses the frame",
    "golf.off-table.on-cushion": "the ball stayed on the cushion, a goal peg or the goal cap: it counts as "
                                 "off the table",
    "golf.off-table.rail-return": "the ball came back onto the bed off the rail: no penalty",
    "golf.wedged.attacking-goal": "wedged between the pegs of the goal it attacks, clear of the bed: "
                                  "a valid goal",
    "golf.wedged.defending-goal": "wedged between the pegs of its own goal: on a replacement spot",
    "golf.wedged.cushion": "wedged between a peg and the short cushion: freed and laid loose",
    # replacement spots
    "golf.spot.choice": "{player} chooses replacement spot {spot} for {ball}'s ball",
    "golf.spot.fallback": "replacement spots 1-3 are taken: the ball goes on replacement spot {spot}",
    "golf.spot.fallback:chosen": "spots 1-3 unusable: {ball}'s ball on replacement spot {spot}",
    "golf.spot.fallback:named": "{player} chooses replacement spot {spot} for {ball}'s ball",
    "golf.spot.repeat": "fouled from replacement spot {from_spot}: the ball goes on replacement spot {spot}",
    # zone play, frames, the match
    "golf.zone.play": "a player has one ball left: zone play begins",
    "golf.frame.double-finish": _double_finish,
    "golf.frame.opening": _opens,
    "golf.duo.deciding": _opens,
    "golf.frame.opening:second": "frame {frame}: {player} opens; the other player opens the second frame",
    "golf.frame.opening:deciding": "frame {frame}: {player} opens; deciding frame: the opening is decided "
                                   "again (a 'start' call), by default as in frame 1",
}
# the score after the frame (best of three): ``what`` is the score, "1-0" .. "2-1"
for _a, _b in ((1, 0), (0, 1), (1, 1), (2, 0), (0, 2), (2, 1), (1, 2)):
    TEMPLATES[f"golf.frame.won:{_a}-{_b}"] = f"frame {{frame}} to {{player}} ({_a}-{_b})"
    if 2 in (_a, _b):
        TEMPLATES[f"golf.match.won:{_a}-{_b}"] = f"{{player}} wins the match {_a}-{_b}"
TEMPLATES.update(foul_templates(FOUL_WORDS, PHRASES))
