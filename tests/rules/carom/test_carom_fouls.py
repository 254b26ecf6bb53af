"""Faults: every foul id, its consequence per profile, names a referee would type (seeds/carom.md)."""

from __future__ import annotations

import pytest
from test_carom_helpers import Table, errors, rules, setup

from tablesense.errors import IllegalCall
from tablesense.events import Setup, Strike
from tablesense.rules import find_engine

T = {"p1": 30, "p2": 30}

FOULS = [
    ("touch", "carom.foul.touch", "club"),
    ("touch-remove-object", "carom.foul.touch.remove-object", "club"),
    ("touch-moved", "carom.foul.touch.moved", "club"),
    ("push", "carom.foul.push", "club"),
    ("foot", "carom.foul.foot", "liemers"),
    ("stool", "carom.foul.stool", "liemers"),
    ("wrong-ball", "carom.foul.wrong-ball", "liemers"),
    ("moving-balls", "carom.foul.moving-balls", "liemers"),
    ("smoking", "carom.foul.smoking", "liemers"),
    ("jump", "carom.jump", "club"),
]


@pytest.mark.parametrize(("foul", "rule", "profile"), FOULS, ids=[r for _, r, _ in FOULS])
def test_foul_called_after_rest_voids_the_carom_and_ends_the_inning(foul: str, rule: str,
                                                                    profile: str) -> None:
    t = Table(setup(profile=profile, targets=T)).run(2).piezo(called=True)
    assert t.state()["caroms"]["p1"] == 3
    s = t.call("foul", foul=foul).state()
    assert s["caroms"] == {"p1": 2, "p2": 0}, "the earlier caroms of the inning stand"
    assert s["innings"] == {"p1": 1, "p2": 0}
    assert s["at_table"] == "p2"
    assert rule in rules(s)
    assert "carom.foul.carom-void" in rules(s)


def test_carom_foul_carom_void_only_for_the_faulty_shot() -> None:
    s = Table(setup(targets=T)).carom("p1").call("foul", foul="touch").state()
    assert s["caroms"]["p1"] == 0
    assert rules(s)[-3:] == ["carom.foul.carom-void", "carom.poedel", "carom.referee.amend"]
    assert s["announcement"] == "POEDEL"  # no valid carom in the inning's first shot


def test_foul_during_the_shot_counts_at_rest() -> None:
    t = Table(setup(targets=T))
    t.raw("cushion", cushion=1, ball=None).call("foul", foul="push").call("carom").rest()
    s = t.state()
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"
    assert "carom.foul.push" in rules(s)


@pytest.mark.parametrize(("typed", "rule"), [
    ("TOUCH", "carom.foul.touch"), ("carom.foul.touch", "carom.foul.touch"),
    ("touche", "carom.foul.touch"), ("rijen", "carom.foul.push"), ("biljarderen", "carom.foul.push"),
    ("no_foot_on_floor", "carom.foul.foot"), ("foot", "carom.foul.foot"),
    ("verkeerde-bal", "carom.foul.wrong-ball"), ("uitspringen", "carom.jump"),
    ("frame", "carom.foul.woodwork"),  # 004 A and E: the woodwork is no jump under liemers (issue 13)
    ("carom.dedans.reste", "carom.dedans.reste"), ("reste_dedans", "carom.dedans.reste"),
    ("remove-object", "carom.foul.touch.remove-object"), ("moved", "carom.foul.touch.moved"),
])
def test_foul_names_a_referee_would_type(typed: str, rule: str) -> None:
    s = Table(setup(profile="liemers", targets=T)).piezo(called=True).call("foul", foul=typed).state()
    assert rule in rules(s)


def test_unknown_foul_is_refused_listing_the_known_ones() -> None:
    s = Table(setup(targets=T)).piezo().call("foul", foul="sneeze").state(errors=True)
    assert "unknown foul" in errors(s)[0] and "touch" in errors(s)[0] and "push" in errors(s)[0]


@pytest.mark.parametrize("foul", ["smoking", "stool", "moving-balls"])
def test_liemers_only_fouls_are_refused_under_kampioen(foul: str) -> None:
    s = Table(setup(profile="club", targets=T)).piezo().call("foul", foul=foul).state(errors=True)
    assert "not a foul in profile kampioen" in errors(s)[0]


def test_carom_masse_is_no_fault_in_kampioen() -> None:
    t = Table(setup(profile="club", targets=T)).piezo(called=True)
    s = t.call("foul", foul="massé").state(errors=True)
    assert "own risk" in errors(s)[0] and "carom.masse" in errors(s)[0]
    assert s["caroms"]["p1"] == 1


def test_foul_before_any_shot_ends_the_breakers_inning() -> None:
    s = Table(setup(targets=T)).call("foul", foul="touch").state()
    assert s["at_table"] == "p2" and s["innings"] == {"p1": 1, "p2": 0}
    assert "carom.foul.touch" in rules(s)


# --- jumped balls ------------------------------------------------------------------------

def test_carom_jump_kampioen_off_table_sensor_restarts_from_the_outlay() -> None:
    t = Table(setup(profile="club", targets=T)).run(1)
    t.raw("strike", ball="yellow").raw("contact", balls=["yellow", "red"])
    t.raw("contact", balls=["yellow", "white"])
    s = t.raw("off_table", ball="red").rest().state()
    assert s["caroms"]["p1"] == 1
    assert s["at_table"] == "p2" and s["from_outlay"]
    assert rules(s)[-3:] == ["carom.jump", "carom.foul.carom-void", "carom.outlay"]


def test_carom_jump_driebanden_liemers_spots_only_the_jumped_ball() -> None:
    t = Table(setup("driebanden", profile="liemers", targets={"p1": 15, "p2": 15}))
    pos = {"yellow": [1.0, 0.3], "white": [2.0, 1.0], "red": [0.5, 0.5]}
    t.carom("p1", cushions=3, positions=pos)
    t.raw("strike", ball="yellow").raw("cushion", cushion=1, ball="yellow").raw("off_table", ball="red")
    s = t.rest(positions={"yellow": [1.2, 0.4], "white": [2.0, 1.0]}).state()
    assert "carom.jump.driebanden" in rules(s)
    assert not s["from_outlay"] and s["at_table"] == "p2"
    rep = t.replay()
    assert rep.state.m.positions["red"] == [2.13, 0.71]
    assert rep.state.m.positions["white"] == [2.0, 1.0]


def test_woodwork_is_no_jump_in_liemers_libre_and_repeats_no_break() -> None:
    # issue 13: 004 A and E leave the balls where they lie after touching the woodwork; this test
    # once said the opposite (a jump, the break repeated). More in test_carom_woodwork.py.
    s = Table(setup(profile="liemers", targets=T)).piezo(called=True).call("foul", foul="woodwork").state()
    assert "carom.foul.woodwork" in rules(s) and "carom.jump" not in rules(s) and not s["from_outlay"]


# --- wrong ball ----------------------------------------------------------------------------

def test_carom_foul_wrong_ball_from_the_strike_sensor() -> None:
    t = Table(setup(targets=T))
    t.raw("strike", ball="white").raw("contact", balls=["white", "red"])
    t.raw("contact", balls=["white", "yellow"])
    s = t.rest().state()
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"
    assert "carom.foul.wrong-ball" in rules(s)


def test_carom_wrong_ball_counted_stands_in_kampioen() -> None:
    t = Table(setup(profile="club", targets=T)).raw("strike", ball="white")
    t.raw("cushion", cushion=1, ball=None)
    s = t.rest().call("carom").state()
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"
    assert "carom.wrong-ball.counted" in rules(s)
    s = Table(setup(profile="club", targets=T)).piezo(called=True).call("foul", foul="wrong-ball").state()
    assert s["caroms"]["p1"] == 1 and "carom.wrong-ball.counted" in rules(s)


def test_wrong_ball_counted_by_the_referee_is_still_a_fault_in_liemers() -> None:
    s = Table(setup(profile="liemers", targets=T)).piezo(called=True).call("foul", foul="wrong-ball").state()
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"


# --- opening shot --------------------------------------------------------------------------

def test_carom_opening_shot_direct_kampioen_needs_the_red_first_without_cushion() -> None:
    s = Table(setup(profile="club", targets=T)).carom("p1", first="white").state()
    assert "carom.opening-shot.direct" in rules(s) and s["caroms"]["p1"] == 0
    s = Table(setup(profile="club", targets=T)).carom("p1", cushions=1, cushions_before_first=1).state()
    assert "carom.opening-shot.direct" in rules(s)
    s = Table(setup(profile="club", targets=T)).carom("p1", cushions=2).state()
    assert s["caroms"]["p1"] == 1


def test_carom_opening_shot_cushion_liemers_red_then_a_cushion() -> None:
    s = Table(setup(profile="liemers", targets=T)).carom("p1", cushions=0).state()
    assert "carom.opening-shot.cushion" in rules(s) and s["caroms"]["p1"] == 0
    s = Table(setup(profile="liemers", targets=T)).carom("p1", cushions=1).state()
    assert s["caroms"]["p1"] == 1


def test_opening_shot_rule_applies_only_from_the_outlay() -> None:
    s = Table(setup(profile="club", targets=T)).carom("p1").carom("p1", first="white").state()
    assert s["caroms"]["p1"] == 2


def test_carom_foul_no_blame_leaves_score_and_turn_as_before() -> None:
    t = Table(setup(targets=T)).run(2).piezo(called=True).call("foul", foul="no-blame")
    s = t.state()
    assert s["caroms"]["p1"] == 2 and s["at_table"] == "p1" and s["innings"]["p1"] == 0
    assert "carom.foul.no-blame" in rules(s)


def test_carom_equipment_refuses_balls_of_other_games() -> None:
    engine = find_engine("carom")
    state = engine.new_state(Setup(t=0, game="carom", players={"p1": "Ann", "p2": "Bob"}))
    with pytest.raises(IllegalCall, match=r"carom\.equipment"):
        engine.apply(state, Strike(t=1, ball="pink"))
    s = Table(setup(targets=T)).raw("strike", ball="p1").state()  # p1's ball: the yellow
    assert s["at_table"] == "p1" and "errors" not in s
    s = Table(setup(targets=T)).raw("pocket", pocket=2, ball="red").state(errors=True)
    assert "no pocket sensors" in errors(s)[0]
