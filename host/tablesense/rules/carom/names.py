"""The names of carom as referees write them (``tablesense.vocabulary``): canonical id ->
the other spellings, in English, Dutch and Danish.

Fouls: the canonical ids are the short names of ``rules.carom.profiles.FOULS``; each is
also understood with a ``carom``, ``foul`` or ``carom foul`` in front (its rule id:
``carom.foul.touch``, ``carom.dedans.reste``). The three fouls only seed 004 names
(stool, moving balls, smoking) are the ``liemers`` profile's own words.

Besides the calls' names, the set-up's names: the club profiles, the match-point schemes
and the roundings of moyenne x 25 (``PROFILE_NAMES``, ``SCHEME_NAMES``,
``ROUNDING_NAMES``; ``setup_name`` reads one).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...vocabulary import Vocabulary, key

#: every foul both club texts name; canonical id -> other spellings
_FOULS: dict[str, tuple[str, ...]] = {
    "touch": ("touche", "touché", "hand", "chalk", "touched", "touching", "touch-ball", "touched-ball",
              "ball-touched", "clothing", "kledingstuk", "dropped-chalk", "chalk-dropped", "krijt",
              "aanraken", "aanraking"),
    "touch-remove-object": ("remove-object", "remove", "touch.remove-object"),
    "touch-moved": ("moved", "moved-balls", "move", "moved-ball", "verplaatsen", "touch.moved"),
    "push": ("rijen", "biljarderen", "gebiljardeerd", "pushing", "push-shot", "pushed", "push-stroke",
             "double-hit", "double-contact", "double-touch"),
    "foot": ("no-foot-on-floor", "foot-off-floor", "no-foot", "feet", "feet-off-floor", "foot-fault",
             "no-feet-on-floor", "feet-off-ground", "foot-off-ground", "no-foot-on-ground", "voet",
             "geen-voet", "both-feet-off-floor", "feet-off-the-floor", "foot-off-the-floor",
             "foot-on-floor", "one-foot-on-floor"),
    "wrong-ball": ("verkeerde-bal", "wrong", "wrong-cue-ball", "played-wrong-ball", "opponents-ball",
                   "wrongball"),
    "jump": ("jumped", "uitspringen", "uitgesprongen", "off-table", "ball-off-table", "jumped-ball",
             "ball-jumped", "jump-ball", "off", "left-table", "jump-driebanden", "jump.driebanden",
             "off-the-table", "ball-off", "jump-off-table", "ball-left-table", "out-of-table", "ball-out",
             "jumped-off-table"),
    "woodwork": ("frame", "omlijsting", "houtwerk", "wood", "hout", "rail", "wooden-rail",
                 "touched-woodwork", "woodwork-touched", "houtwerk-geraakt"),
    "reste-dedans": ("dedans", "dedans-reste", "dedans.reste", "reste", "zone", "forbidden-zone",
                     "verboden-zone", "zone-fault"),
    "opening-shot": ("afstoot", "opening", "break", "opening-shot-direct", "opening-shot-cushion",
                     "opening-shot.direct", "opening-shot.cushion", "acquit"),
    "no-blame": ("not-to-blame", "no-fault", "blameless", "interference", "outside-interference",
                 "passer-by", "geen-schuld", "zonder-schuld"),
    "poedel": ("nul", "miss", "no-carom", "invalid-carom"),
    # not a fault: the profile says why (carom.masse)
    "masse": ("massé", "pique", "piqué", "pikeren", "masseren"),
}

#: the fouls only seed 004 (O.B.B. Liemers) names
_LIEMERS_FOULS: dict[str, tuple[str, ...]] = {
    "stool": ("bench", "bankje"),
    "moving-balls": ("moving", "not-at-rest", "balls-moving", "moving-ball", "before-rest",
                     "played-before-rest"),
    "smoking": ("smoke", "cigarette", "cigar", "pipe", "sigaret"),
}

#: how a foul's name may be prefixed: its rule id ("carom.foul.touch") is a name for it too
_PREFIXES = ("", "foul ", "carom ", "carom foul ")


def _prefixed(table: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    return {canonical: tuple(p + name for name in (canonical, *others) for p in _PREFIXES
                             if p + name != canonical)
            for canonical, others in table.items()}


VOCABULARY = Vocabulary(
    fouls=_prefixed(_FOULS),
    balls={
        # docs/events.md: p1 plays the yellow (marked) ball, p2 the white
        "yellow": ("p1", "geel", "gele", "marked", "gul"),
        "white": ("p2", "wit", "witte", "hvid"),
        "red": ("rood", "rode", "rød"),
    },
    calls={
        "carom": ("carambole", "caramboles"),
        "foul": ("fout", "fault"),
        "frozen": ("vast", "vastliggend"),
        "start": ("afstoot-speler", "breaker"),
    },
    profiles={"liemers": Vocabulary(fouls=_prefixed(_LIEMERS_FOULS))},
)

# --- the set-up's names --------------------------------------------------------------

#: the club profiles (seeds/carom.md): canonical name -> other names
PROFILE_NAMES: dict[str, tuple[str, ...]] = {
    "kampioen": ("club", "003", "clubkampioenschap"),
    "liemers": ("obb", "004"),
}
#: words that name a profile inside a longer name ("O.B.B. Liemers", "seed-004", "club championship")
PROFILE_WORDS = (("liemers", "liemers"), ("obb", "liemers"), ("004", "liemers"), ("zevenaar", "liemers"),
                 ("kampioen", "kampioen"), ("003", "kampioen"), ("club", "kampioen"))
SCHEME_NAMES: dict[str, tuple[str, ...]] = {
    "de-bruijn": ("debruijn", "bruijn"),
    "win-draw-loss": ("windrawloss", "wdl", "210"),
    "percentage": ("percent", "pct"),
}
ROUNDING_NAMES: dict[str, tuple[str, ...]] = {
    "half-up": ("halfup", "round", "nearest", "normal"),
    "down": ("floor",),
    "up": ("ceil", "ceiling"),
}


def setup_name(table: Mapping[str, tuple[str, ...]], name: object) -> str | None:
    """The canonical name ``name`` stands for in ``table`` (case, spaces, ``-``, ``_``, ``.``
    free), or None."""
    wanted = key(str(name))
    for canonical, others in table.items():
        if any(key(n) == wanted for n in (canonical, *others)):
            return canonical
    return None


def profile_name(name: str) -> str | None:
    """The profile a set-up names: one of its names, or a longer name that holds exactly one
    profile's word; None when it names none (or two)."""
    found = setup_name(PROFILE_NAMES, name)
    if found is not None:
        return found
    compact = "".join(ch for ch in name.lower() if ch.isalnum())
    hits = {profile for word, profile in PROFILE_WORDS if word in compact}
    return hits.pop() if len(hits) == 1 else None
