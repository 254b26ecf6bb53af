"""The names of carom as referees write them (``tablesense.vocabulary``): canonical id ->
the other spellings, in English, Dutch and Danish.

Fouls: the canonical ids are the short names of ``rules.carom.fouls.FAULTS`` (each row's
first alias) and their other spellings that row's aliases; each is also understood with a
``carom``, ``foul`` or ``carom foul`` in front (its rule id: ``carom.foul.touch``,
``carom.dedans.reste``). The fouls only one profile's text names (stool, moving balls,
smoking: seed 004's) are that profile's own words.

Besides the calls' names, the set-up's names: the club profiles, the match-point schemes
and the roundings of moyenne x 25 (``PROFILE_NAMES``, ``SCHEME_NAMES``,
``ROUNDING_NAMES``; ``setup_name`` reads one).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...vocabulary import Vocabulary, key
from .fouls import FAULTS, name

#: every fault both club texts name: short name -> other spellings (``fouls.FAULTS``' aliases)
_FOULS: dict[str, tuple[str, ...]] = {
    name(f): f.aliases[1:] for f in FAULTS if not f.then.profiles
}
# not a fault: the profile says why (carom.masse)
_FOULS["masse"] = ("massé", "pique", "piqué", "pikeren", "masseren")

#: the faults only some profiles' texts name (stool, moving balls, smoking: seed 004's own)
def _profile_fouls() -> dict[str, dict[str, tuple[str, ...]]]:
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for f in FAULTS:
        for profile in f.then.profiles:
            out.setdefault(profile, {})[name(f)] = f.aliases[1:]
    return out


_PROFILE_FOULS = _profile_fouls()

#: how a foul's name may be prefixed: its rule id ("carom.foul.touch") is a name for it too
_PREFIXES = ("", "foul ", "carom ", "carom foul ")


def _prefixed(table: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    return {canonical: tuple(p + n for n in (canonical, *others) for p in _PREFIXES
                             if p + n != canonical)
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
    profiles={p: Vocabulary(fouls=_prefixed(fouls)) for p, fouls in _PROFILE_FOULS.items()},
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
    "belgian": ("belgisch",),
}
ROUNDING_NAMES: dict[str, tuple[str, ...]] = {
    "half-up": ("halfup", "round", "nearest", "normal"),
    "down": ("floor",),
    "up": ("ceil", "ceiling"),
}


def setup_name(table: Mapping[str, tuple[str, ...]], name: object) -> str | None:
    """The canonical name ``name`` stands for in ``table`` (case, spaces, ``-``, ``_``, ``.``
    free), or None."""
    kept = _INDEXES.get(id(table))
    if kept is None or kept[0] is not table:
        kept = _index(table)
    found = kept[2].get(name) if type(name) is str else None  # a name as the table writes it
    return found if found is not None else kept[1].get(key(str(name)))


#: each table's names by their key, and by the names as written (``setup_name``; a set-up per
#: match reads three of them, most as the table writes them)
_INDEXES: dict[int, tuple[Mapping[str, tuple[str, ...]], dict[str, str], dict[str, str]]] = {}


def _index(table: Mapping[str, tuple[str, ...]]) -> tuple[Mapping[str, tuple[str, ...]], dict[str, str],
                                                          dict[str, str]]:
    """``table``'s names by their key, the first canonical name a key stands for winning (the
    order the table lists them in), and each name as written to what its key stands for (the
    same answer without making the key), kept for the next set-up."""
    index: dict[str, str] = {}
    for canonical, others in table.items():
        for n in (canonical, *others):
            index.setdefault(key(n), canonical)
    written = {n: index[key(n)] for canonical, others in table.items() for n in (canonical, *others)}
    kept = _INDEXES[id(table)] = (table, index, written)
    return kept


def profile_name(name: str) -> str | None:
    """The profile a set-up names: one of its names, or a longer name that holds exactly one
    profile's word; None when it names none (or two)."""
    found = setup_name(PROFILE_NAMES, name)
    if found is not None:
        return found
    compact = "".join(ch for ch in name.lower() if ch.isalnum())
    hits = {profile for word, profile in PROFILE_WORDS if word in compact}
    return hits.pop() if len(hits) == 1 else None
