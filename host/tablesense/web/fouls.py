"""The referee panel's foul buttons: every foul of each game's catalogue (seeds/*.md).

One ``Button`` per foul a referee calls: the name the panel sends in the ``foul`` call
(a name the game's engine accepts, docs/events.md), the catalogue id it cites, whether
it is one of the common ones (shown at once; the rare ones are one tap away), and the
profiles that know it (carom: some fouls are the liemers rules' only). Its words are
the web strings ``foul.<game>.<call>`` in every language (texts/<lang>/screen.json); a
test checks that every foul id of the catalogue has a button, each button is accepted by
its engine and has its words in every language.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Button(NamedTuple):
    call: str  # the ``foul`` name the panel sends
    rule: str  # the catalogue id (seeds/<game>.md)
    common: bool = False
    profiles: tuple[str, ...] = ()  # empty: every profile (carom's rules; golf: "duo", the format)
    zone: bool | None = None  # golf: True only in zone play, False only before it


GOLF: tuple[Button, ...] = (
    Button("touch", "golf.foul.touch", True, zone=False),
    Button("touch-own", "golf.foul.touch.own-ball", True, zone=True),
    Button("touch-opponent", "golf.foul.touch.opponent-ball", True, zone=True),
    Button("touch-no-shot", "golf.foul.touch.no-shot", True),
    Button("push", "golf.foul.push", True),
    Button("jump", "golf.foul.jump", True),
    Button("foot", "golf.foul.foot", True),
    Button("own-goal", "golf.own-goal", True),
    Button("time", "golf.clock", True),
    Button("opponent-ball", "golf.foul.opponent-ball"),
    Button("not-at-rest", "golf.foul.not-at-rest"),
    Button("own-ball", "golf.foul.own-ball"),
    Button("hold-own", "golf.foul.hold.own-ball"),
    Button("hold-opponent", "golf.foul.hold.opponent-ball"),
    Button("touching-ball", "golf.foul.touching-ball"),
    Button("push-through", "golf.foul.push-through"),
    Button("hard-shot", "golf.foul.hard-shot"),
    Button("lift", "golf.foul.lift"),
    Button("aim-behind", "golf.foul.aim-behind"),
    Button("zone-leave", "golf.zone.leave", zone=True),
    Button("defensive-triangle", "golf.triangle.defensive"),
    Button("triangle-several", "golf.triangle.defensive.several"),
    Button("attacking-triangle", "golf.triangle.attacking"),
    Button("opening", "golf.duo.opening", profiles=("duo",)),
    Button("order", "golf.duo.order", profiles=("duo",)),
    Button("consult", "golf.duo.consult", profiles=("duo",)),
)

KEGLE: tuple[Button, ...] = (
    Button("touch", "kegle.fault.touch", True),
    Button("touche", "kegle.fault.touche", True),
    Button("push", "kegle.fault.push", True),
    Button("foot", "kegle.fault.foot", True),
    Button("pin-by-cue", "kegle.fault.pin-by-cue", True),
    Button("balls-moving", "kegle.fault.balls-moving", True),
    Button("red-topples-pin", "kegle.fault.red-topples-pin"),
    Button("jumped-ball", "kegle.fault.jumped-ball"),
    Button("red-in-hole", "kegle.fault.red-in-hole"),
    Button("pins-not-up", "kegle.fault.pins-not-up"),
    Button("frozen", "kegle.fault.frozen"),
    Button("touch-toppled-pin", "kegle.fault.touch-toppled-pin"),
    Button("no-cushion", "kegle.fault.no-cushion"),
    Button("three-reds", "kegle.fault.three-reds"),
    Button("marks", "kegle.fault.marks"),
)

CAROM: tuple[Button, ...] = (
    Button("touch", "carom.foul.touch", True),
    Button("push", "carom.foul.push", True),
    Button("foot", "carom.foul.foot", True),
    Button("wrong-ball", "carom.foul.wrong-ball", True),
    Button("jump", "carom.jump", True),
    Button("woodwork", "carom.foul.woodwork", profiles=("liemers",)),
    Button("touch-moved", "carom.foul.touch.moved"),
    Button("touch-remove-object", "carom.foul.touch.remove-object"),
    Button("reste-dedans", "carom.dedans.reste"),
    Button("opening-shot", "carom.opening-shot.direct"),
    Button("moving-balls", "carom.foul.moving-balls", profiles=("liemers",)),
    Button("stool", "carom.foul.stool", profiles=("liemers",)),
    Button("smoking", "carom.foul.smoking", profiles=("liemers",)),
    Button("no-blame", "carom.foul.no-blame"),
)

BUTTONS: dict[str, tuple[Button, ...]] = {"golf": GOLF, "kegle": KEGLE, "carom": CAROM}


def key(game: str, call: str) -> str:
    """The web string that names a foul in the player's words."""
    return f"foul.{game}.{call}"


def by_rule(game: str) -> dict[str, Button]:
    """The buttons of ``game`` by catalogue id (the first one that cites it)."""
    out: dict[str, Button] = {}
    for b in BUTTONS.get(game, ()):
        out.setdefault(b.rule, b)
    return out


def buttons(game: str, strings: dict[str, str], profile: str | None = None,
            zone_play: bool | None = None) -> list[dict[str, Any]]:
    """The foul buttons of a match as the panel draws them, common ones first.

    ``profile`` (carom's rules, golf's format: "single" or "duo") leaves out the fouls
    it does not know; ``zone_play`` (golf,
    None: unknown) leaves out the touches that do not apply now."""
    out = []
    for b in BUTTONS.get(game, ()):
        if b.profiles and profile and profile not in b.profiles:
            continue
        if b.zone is not None and zone_play is not None and b.zone != zone_play:
            continue
        out.append({"call": b.call, "rule": b.rule, "common": b.common,
                    "label": strings.get(key(game, b.call), b.call)})
    out.sort(key=lambda x: not x["common"])
    return out
