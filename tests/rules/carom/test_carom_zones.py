"""Forbidden corner zones of libre: entree, dedans, reste dedans, the line (seeds/carom.md)."""

from __future__ import annotations

import pytest
from test_carom_helpers import Table, rules, setup

from tablesense.rules.carom.geometry import (
    BALL_DIAMETER,
    MATCH,
    ON_LINE,
    TABLES,
    ZONE_LEG,
    opening_positions,
    table,
)

T = {"p1": 30, "p2": 30}
YELLOW = [1.4, 0.7]
IN = {"yellow": YELLOW, "red": [0.08, 0.06], "white": [0.05, 0.12]}
IN2 = {"yellow": YELLOW, "red": [0.06, 0.08], "white": [0.1, 0.05]}
IN3 = {"yellow": YELLOW, "red": [0.07, 0.07], "white": [0.12, 0.04]}
OUT = {"yellow": YELLOW, "red": [0.07, 0.07], "white": [0.5, 0.6]}


def test_carom_zone_entree_when_both_object_balls_lie_in_one_corner() -> None:
    s = Table(setup(profile="club", targets=T)).carom("p1", positions=IN).state()
    assert s["zone"] == "head-left" and s["entree"] and not s["dedans"]
    assert rules(s)[-1] == "carom.zone.entree"


def test_carom_zone_dedans_after_a_carom_from_entree_that_leaves_both_in() -> None:
    s = Table(setup(profile="club", targets=T)).carom("p1", positions=IN).carom("p1", positions=IN2).state()
    assert s["zone"] == "head-left" and s["dedans"] and not s["entree"]
    assert s["caroms"]["p1"] == 2
    assert "carom.zone.dedans" in rules(s)


@pytest.mark.parametrize("profile", ["club", "liemers"])
def test_carom_dedans_reste_third_carom_with_both_balls_still_in_is_a_fault(profile: str) -> None:
    t = Table(setup(profile=profile, targets=T))
    cushions = 1 if profile == "liemers" else 0  # liemers: the break goes over a cushion
    t.carom("p1", cushions=cushions, positions=IN).carom("p1", positions=IN2).carom("p1", positions=IN3)
    s = t.state()
    assert s["caroms"]["p1"] == 2
    assert s["at_table"] == "p2" and s["innings"]["p1"] == 1
    assert "carom.dedans.reste" in rules(s)
    assert "carom.foul.carom-void" in rules(s)
    assert s["zone"] is None, "white's object balls are red and yellow: no entree for p2"


def test_carom_zone_a_ball_driven_out_of_dedans_makes_the_carom_valid() -> None:
    t = Table(setup(profile="club", targets=T))
    s = t.carom("p1", positions=IN).carom("p1", positions=IN2).carom("p1", positions=OUT).state()
    assert s["caroms"]["p1"] == 3 and s["zone"] is None
    assert rules(s)[-1] == "carom.zone"


def test_a_ball_back_in_the_zone_starts_the_sequence_again() -> None:
    t = Table(setup(profile="club", targets=T))
    t.carom("p1", positions=IN).carom("p1", positions=IN2).carom("p1", positions=OUT)
    s = t.carom("p1", positions=IN).state()
    assert s["entree"]


def test_carom_zone_line_a_ball_on_the_diagonal_counts_against_the_player() -> None:
    on_line = {"yellow": YELLOW, "red": [0.08, 0.06], "white": [0.11, 0.1 + ON_LINE]}
    assert MATCH.zone_of(0.11, 0.1 + ON_LINE, on_line=0.0) is None
    s = Table(setup(profile="liemers", targets=T)).carom("p1", cushions=1, positions=on_line).state()
    assert s["entree"]
    assert "carom.zone.line" in rules(s)


def test_no_zone_outside_libre() -> None:
    s = Table(setup("bandstoten", targets=T)).carom("p1", cushions=1, positions=IN).state()
    assert s["zone"] is None


def test_the_opponent_gets_entree_when_his_object_balls_lie_in_a_zone() -> None:
    pos = {"white": [1.4, 0.7], "red": [2.78, 1.36], "yellow": [2.7, 1.38]}
    s = Table(setup(profile="club", targets=T)).miss("p1", positions=pos).state()
    assert s["at_table"] == "p2" and s["zone"] == "foot-right" and s["entree"]


def test_reste_dedans_called_by_the_referee_without_positions() -> None:
    s = Table(setup(targets=T)).run(3).call("foul", foul="reste-dedans").state()
    assert s["caroms"]["p1"] == 2 and "carom.dedans.reste" in rules(s)


# --- geometry -----------------------------------------------------------------------------

def test_table_sizes_ball_and_zone_leg() -> None:
    assert (MATCH.length, MATCH.width) == (2.84, 1.42)
    assert {(t.length, t.width) for t in TABLES.values()} == {(2.84, 1.42), (2.30, 1.15), (2.10, 1.05),
                                                             (1.90, 0.95)}
    assert BALL_DIAMETER == 0.0615 and ZONE_LEG == 0.21


@pytest.mark.parametrize("name", ["match", "2.30", "2.10", "1.90"])
def test_acquit_spots_and_zones_on_every_table(name: str) -> None:
    tab = table(name)
    boven, beneden, midden = tab.spot("boven"), tab.spot("beneden"), tab.spot("midden")
    assert beneden[0] < midden[0] < boven[0]
    assert boven[1] == beneden[1] == midden[1] == tab.width / 2
    links, rechts = tab.spot("links"), tab.spot("rechts")
    assert links[0] == rechts[0] == beneden[0] and links[1] < beneden[1] < rechts[1]
    corners = {tab.zone_of(0.05, 0.05), tab.zone_of(0.05, tab.width - 0.05),
               tab.zone_of(tab.length - 0.05, 0.05), tab.zone_of(tab.length - 0.05, tab.width - 0.05)}
    assert corners == {"head-left", "head-right", "foot-left", "foot-right"}
    assert tab.zone_of(*midden) is None
    assert all(tab.on_bed(*p) for p in opening_positions(tab).values())


def test_unknown_table_and_spot_are_named() -> None:
    with pytest.raises(ValueError, match="unknown carom table"):
        table("3.10")
    with pytest.raises(ValueError, match="unknown acquit spot"):
        MATCH.spot("hoek")
    s = Table(setup(targets=T, table="3.10")).state(errors=True)
    assert "unknown carom table" in s["errors"][0]["error"]


def test_smaller_table_from_setup() -> None:
    from tablesense.events import parse_event
    from tablesense.rules import find_engine
    state = find_engine("carom").new_state(parse_event(setup(targets=T, table="2.10")))
    assert state.m.table == "2.10"
    assert state.m.positions["red"] == [1.575, 0.525]
