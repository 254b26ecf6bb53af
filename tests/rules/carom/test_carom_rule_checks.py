"""Each carom rule check is a named pure function whose docstring cites the rule: "Seed <the
catalogue's seed paragraphs>, <catalogue id>: ..." (seeds/carom.md); the citations match the
catalogue, and the checks decide as the clubs' texts say."""

from __future__ import annotations

import importlib
import inspect
import re

import pytest
from test_carom_fault_table import SEED

from tablesense.rules.carom import resolve, targets, zones
from tablesense.rules.carom.geometry import MATCH
from tablesense.rules.carom.profiles import KAMPIOEN, LIEMERS
from tablesense.rules.carom.shot import ShotFacts

MODULES = ("resolve", "shot", "zones", "targets", "match", "profiles", "geometry", "fouls")
CITATION = re.compile(r"Seed (.+?), (carom\.[a-z0-9.-]*[a-z0-9])")


def rule_checks() -> list[tuple[str, str]]:
    """(module.function, docstring) of every function citing a seed."""
    out = []
    for name in MODULES:
        module = importlib.import_module(f"tablesense.rules.carom.{name}")
        for fname, fn in inspect.getmembers(module, inspect.isfunction):
            doc = inspect.getdoc(fn) or ""
            if fn.__module__ == module.__name__ and doc.startswith("Seed "):
                out.append((f"{name}.{fname}", doc))
    return out


CHECKS = rule_checks()


def test_the_rule_checks_of_a_shot_are_named_and_cite_their_seed() -> None:
    named = {n for n, _ in CHECKS}
    for wanted in ("resolve.counts_as_carom", "resolve.opening_shot_ok", "resolve.struck_wrong_ball",
                   "resolve.sensed_jump", "resolve.reste_dedans", "resolve.counted_carom_stands",
                   "resolve.equalising_inning_due", "resolve.zone_entered", "zones.object_balls_zone",
                   "targets.de_bruijn", "targets.target_from_moyenne"):
        assert wanted in named


@pytest.mark.parametrize(("where", "doc"), CHECKS, ids=[n for n, _ in CHECKS])
def test_a_rule_check_cites_the_seed_paragraphs_of_its_catalogue_row(where: str, doc: str) -> None:
    first = doc.split("\n\n")[0].replace("\n", " ")
    cited = CITATION.findall(first)
    assert cited, f"{where}: no 'Seed <paragraphs>, <id>' in {first!r}"
    for seed, rule in cited:
        assert rule in SEED, f"{where} cites {rule}, which seeds/carom.md does not list"
        assert seed == SEED[rule], f"{where}: {rule} is seed {SEED[rule]!r}, not {seed!r}"


def facts(**kw: object) -> ShotFacts:
    return ShotFacts(**kw)  # type: ignore[arg-type]


def test_a_carom_needs_both_balls_and_the_disciplines_cushions_before_the_third() -> None:
    both = facts(contacts=2, both_touched=True, cushions_before_third=2)
    assert resolve.counts_as_carom(both, 0) and resolve.counts_as_carom(both, 1)
    assert not resolve.counts_as_carom(both, 3), "driebanden: three cushions before the third ball"
    assert not resolve.counts_as_carom(facts(contacts=1, first_object="red"), 0)


def test_the_opening_shot_goes_onto_the_red_direct_in_kampioen_and_over_a_cushion_in_liemers() -> None:
    direct = facts(first_object="red", cushions_before_first=0, cushions_before_third=0)
    cushion = facts(first_object="red", cushions_before_first=0, cushions_before_third=1)
    white_first = facts(first_object="white")
    assert resolve.opening_shot_ok(direct, KAMPIOEN.opening_direct)
    assert not resolve.opening_shot_ok(direct, LIEMERS.opening_direct)
    assert resolve.opening_shot_ok(cushion, LIEMERS.opening_direct)
    assert not resolve.opening_shot_ok(white_first, KAMPIOEN.opening_direct)


def test_a_ball_off_the_table_is_a_jump_unless_a_called_fault_already_respots() -> None:
    assert resolve.sensed_jump(("red",), set(), LIEMERS)
    assert not resolve.sensed_jump((), set(), LIEMERS)
    assert not resolve.sensed_jump(("red",), {"woodwork"}, KAMPIOEN), "kampioen: woodwork is a jump"
    assert resolve.sensed_jump(("red",), {"woodwork"}, LIEMERS), "liemers: woodwork is no jump"


def test_de_bruijn_gives_the_winner_11_a_draw_10_and_the_loser_his_share() -> None:
    assert targets.de_bruijn("p1", (30, 25), (30, 30)) == (11, 8)
    assert targets.de_bruijn("draw", (30, 30), (30, 30)) == (10, 10)
    assert targets.match_points("de-bruijn", "p2", (29, 40), (30, 40)) == (9, 11)


def test_dedans_follows_entree_in_the_same_corner_only() -> None:
    assert resolve.zone_entered(None, None, "head-left") == "entree"
    assert resolve.zone_entered("entree", "head-left", "head-left") == "dedans"
    assert resolve.zone_entered("entree", "foot-left", "head-left") == "entree"
    corner = {"red": [0.05, 0.05], "white": [0.08, 0.04]}
    assert zones.object_balls_zone(corner, ("red", "white"), MATCH) == ("head-left", False)
    assert zones.object_balls_zone({"red": [0.05, 0.05]}, ("red", "white"), MATCH) == (None, False)
