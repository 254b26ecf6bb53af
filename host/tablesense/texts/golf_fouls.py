"""A golf foul's sentence in any language: what the foul was, then what it costs (in zone
play or not), built from the foul's costs (``rules.golf.fouls``) once for every language;
each language gives its words (``FOUL_WORDS``) and its phrases (``FoulPhrases``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from ..rules.golf.fouls import ALWAYS, FOULS, ZONE, Foul


class FoulPhrases(TypedDict):
    turn_lost: str  # after the foul's words: ": turn lost"
    back: str  # the moved balls are put back
    played_spot: str  # the ball played goes on a replacement spot
    points_out: str  # {opponent} points out a ball for a replacement spot
    touched_spot: str
    touched_goal: str
    triangle: str  # a triangle foul's ball goes on a replacement spot
    several: str  # several balls of a defensive triangle: {balls}


def foul_templates(words: Mapping[str, str], phrases: FoulPhrases) -> dict[str, Any]:
    """Every foul's template and its ``:zone`` variant."""
    out: dict[str, Any] = {}
    for foul in FOULS:
        out[foul.id] = _sentence(foul, False, words, phrases)
        out[f"{foul.id}:zone"] = _sentence(foul, True, words, phrases)
    return out


def _sentence(foul: Foul, zone: bool, words: Mapping[str, str], ph: FoulPhrases) -> Any:
    text = words[foul.id] + ph["turn_lost"]
    if foul.back:
        text += ph["back"]
    if foul.spot_played == ALWAYS or (foul.spot_played == ZONE and zone):
        text += ph["played_spot"]
    if foul.points_out and zone:
        text += ph["points_out"]
    if foul.touched == "spot":
        text += ph["touched_spot"]
    elif foul.touched == "goal":
        text += ph["touched_goal"]
    if foul.id in ("golf.triangle.defensive", "golf.triangle.attacking"):
        text += ph["triangle"]
    elif foul.id == "golf.triangle.defensive.several":
        head, tail = text, ph["several"]

        def several(p: Mapping[str, Any]) -> str:
            return head.format_map(p) + tail.format(balls=p.get("balls", 2))

        return several
    return text
