"""Carom's faults (seeds/carom.md), one ``Fault`` row each: the one table the engine, the
referees' names and the referee panel read.

A row's ``id`` is the catalogue id its ruling cites, ``seed`` the catalogue's source
column for that id (the clubs' texts: *003 Art. N*, *004* with a paragraph's letter or
first words; a test keeps them equal), ``then`` what it costs in carom's terms
(``Cost``), ``aliases`` the names a referee may call it by and ``button`` the panel's.

The first alias is the fault's short name: the ``foul`` a call carries once read at the
input edge (``rules/carom/names.py`` reads every alias, with ``carom``, ``foul`` or
``carom foul`` in front too), the name its ruling's ``foul`` parameter and the panel's
``call`` use. Every fault voids the carom of its shot and ends the inning
(``carom.foul.carom-void``); what else follows differs per club and is the profile's
(``rules/carom/profiles.py``: the rule a fault is ruled under there, whether a woodwork
touch is a jump, where jumped balls go).
"""

from typing import NamedTuple

from ..fault import Button, Fault


class Cost(NamedTuple):
    """What a carom fault costs beyond what every fault costs (the shot's carom void, the
    inning over)."""

    #: a jump (003 Art. 4): the balls go back to their spots (how is the profile's)
    jump: bool = False
    #: the profiles whose text names the fault; empty: both
    profiles: tuple[str, ...] = ()


LIEMERS_ONLY = ("liemers",)

FAULTS: tuple[Fault[Cost], ...] = (
    Fault("carom.foul.touch", "003 Art. 5.3; 004 C, D, E", Cost(),
          ("touch", "touche", "touché", "hand", "chalk", "touched", "touching", "touch-ball", "touched-ball",
           "ball-touched", "clothing", "kledingstuk", "dropped-chalk", "chalk-dropped", "krijt",
           "aanraken", "aanraking"),
          Button("touch", True, place=1)),
    Fault("carom.foul.touch.remove-object", "003 Art. 5.4; 004 K", Cost(),
          ("touch-remove-object", "remove-object", "remove", "touch.remove-object"),
          Button("touch-remove-object")),
    Fault("carom.foul.touch.moved", "003 Art. 5.5", Cost(),
          ("touch-moved", "moved", "moved-balls", "move", "moved-ball", "verplaatsen", "touch.moved"),
          Button("touch-moved")),
    Fault("carom.foul.push", "003 Art. 5.6; 004 G", Cost(),
          ("push", "rijen", "biljarderen", "gebiljardeerd", "pushing", "push-shot", "pushed", "push-stroke",
           "double-hit", "double-contact", "double-touch"),
          Button("push", True, place=2)),
    Fault("carom.foul.foot", "003 Art. 5.8; 004 H", Cost(),
          ("foot", "no-foot-on-floor", "foot-off-floor", "no-foot", "feet", "feet-off-floor", "foot-fault",
           "no-feet-on-floor", "feet-off-ground", "foot-off-ground", "no-foot-on-ground", "voet",
           "geen-voet", "both-feet-off-floor", "feet-off-the-floor", "foot-off-the-floor",
           "foot-on-floor", "one-foot-on-floor"),
          Button("foot", True, place=3)),
    Fault("carom.foul.stool", "004 I", Cost(profiles=LIEMERS_ONLY),
          ("stool", "bench", "bankje"),
          Button("stool", profiles=LIEMERS_ONLY)),
    Fault("carom.foul.wrong-ball", "003 Art. 5.9; 004 J", Cost(),
          ("wrong-ball", "verkeerde-bal", "wrong", "wrong-cue-ball", "played-wrong-ball", "opponents-ball",
           "wrongball"),
          Button("wrong-ball", True, place=4)),
    Fault("carom.foul.moving-balls", "004 B", Cost(profiles=LIEMERS_ONLY),
          ("moving-balls", "moving", "not-at-rest", "balls-moving", "moving-ball", "before-rest",
           "played-before-rest"),
          Button("moving-balls", profiles=LIEMERS_ONLY)),
    Fault("carom.foul.smoking", "004 F", Cost(profiles=LIEMERS_ONLY),
          ("smoking", "smoke", "cigarette", "cigar", "pipe", "sigaret"),
          Button("smoking", profiles=LIEMERS_ONLY)),
    Fault("carom.jump", '003 Art. 4, Art. 5.2; 004 A, "Deze afstoot wordt herhaald"', Cost(jump=True),
          ("jump", "jumped", "uitspringen", "uitgesprongen", "off-table", "ball-off-table", "jumped-ball",
           "ball-jumped", "jump-ball", "off", "left-table", "jump-driebanden", "jump.driebanden",
           "off-the-table", "ball-off", "jump-off-table", "ball-left-table", "out-of-table", "ball-out",
           "jumped-off-table"),
          Button("jump", True, place=5)),
    # both texts name touching the woodwork; only kampioen's makes it a jump (its profile's
    # ``jumps``); the panel offers it under liemers, where it is a fault of its own
    Fault("carom.foul.woodwork",
          '004 A "het raken van het houtwerk langs de banden", E "In al deze gevallen blijven de ballen '
          'in de positie"', Cost(),
          ("woodwork", "frame", "omlijsting", "houtwerk", "wood", "hout", "rail", "wooden-rail",
           "touched-woodwork", "woodwork-touched", "houtwerk-geraakt"),
          Button("woodwork", profiles=LIEMERS_ONLY)),
    Fault("carom.dedans.reste", '003 Art. 5.7; 004 "Binnen deze zone mogen ten hoogste 2"', Cost(),
          ("reste-dedans", "dedans", "dedans-reste", "dedans.reste", "reste", "zone", "forbidden-zone",
           "verboden-zone", "zone-fault"),
          Button("reste-dedans")),
    Fault("carom.opening-shot.direct", "003 Art. 2", Cost(),
          ("opening-shot", "afstoot", "opening", "break", "opening-shot-direct", "opening-shot-cushion",
           "opening-shot.direct", "opening-shot.cushion", "acquit"),
          Button("opening-shot")),
    Fault("carom.foul.no-blame", '003 Art. 5.11; 004 "Fouten veroorzaakt zonder schuld"', Cost(),
          ("no-blame", "not-to-blame", "no-fault", "blameless", "interference", "outside-interference",
           "passer-by", "geen-schuld", "zonder-schuld"),
          Button("no-blame")),
    Fault("carom.poedel", "003 Art. 5.1, Art. 8", Cost(),
          ("poedel", "nul", "miss", "no-carom", "invalid-carom")),
)


def name(fault: Fault[Cost]) -> str:
    """The fault's short name: the ``foul`` of a call, a ruling's ``foul``, the panel's call."""
    return fault.aliases[0]


#: the faults by short name, in the table's order
BY_NAME: dict[str, Fault[Cost]] = {name(f): f for f in FAULTS}


__all__ = ["BY_NAME", "FAULTS", "LIEMERS_ONLY", "Cost", "name"]
