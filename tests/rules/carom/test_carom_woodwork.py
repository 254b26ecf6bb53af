"""Woodwork, jumped and frozen balls, kept apart per club text (seeds/carom.md).

- liemers (seed 004), ``carom.foul.woodwork``: "Als fouten worden aangemerkt: A. Het doen
  uitspringen van 1 (één) of meer ballen, alsmede het raken van het houtwerk langs de
  banden. [...] E. In al deze gevallen blijven de ballen in de positie, die voor het maken
  van de fout is ontstaan." Only "het buiten het biljart stoten van één of meerdere bal(len)
  of vastliggen" repeats the break ("Deze afstoot wordt herhaald", ``carom.jump``,
  ``carom.frozen.libre``); in driebanden only the jumped balls are spotted
  (``carom.jump.driebanden``).
- kampioen (seed 003 Art. 4), ``carom.jump``: "De bal wordt geacht te zijn uitgesprongen,
  als hij buiten het biljart terecht is gekomen of de omlijsting heeft geraakt [...] dan
  worden de drie ballen in de beginpositie geplaatst": there touching the frame *is* a jump.
"""

from __future__ import annotations

import pytest
from test_carom_helpers import Table, rules, setup

T = {"p1": 30, "p2": 30}
#: where the balls lie after p1's shot: nowhere near the outlay spots
LIE = {"yellow": [1.0, 0.3], "white": [2.0, 1.0], "red": [0.5, 0.5]}


def _woodwork_shot(profile: str, discipline: str = "libre", foul: str = "woodwork") -> Table:
    """p1 makes a carom, then a shot seen by the piezos that touches the woodwork."""
    t = Table(setup(discipline, profile=profile, targets=T)).carom("p1", cushions=3, positions=LIE)
    t.raw("strike", ball="yellow").raw("cushion", cushion=1, ball="yellow")
    return t.rest(positions=LIE).call("foul", foul=foul)


@pytest.mark.parametrize("discipline", ["libre", "bandstoten", "driebanden"])
def test_carom_foul_woodwork_liemers_leaves_the_balls_where_they_lie(discipline: str) -> None:
    t = _woodwork_shot("liemers", discipline)
    s = t.state()
    assert "carom.foul.woodwork" in rules(s)
    assert not {"carom.jump", "carom.jump.driebanden", "carom.outlay"} & set(rules(s))
    assert s["at_table"] == "p2" and not s["from_outlay"]
    assert s["caroms"]["p1"] == 1 and "carom.foul.carom-void" not in rules(s)  # no carom in that shot
    assert t.replay().state.m.positions == LIE  # type: ignore[union-attr]
    ruling = next(r for r in s["rulings"] if r["rule"] == "carom.foul.woodwork")
    assert ruling["player"] == "p1" and "stay where they lie" in ruling["text"]


@pytest.mark.parametrize("spelling", ["woodwork", "houtwerk", "hout", "omlijsting", "frame", "rail",
                                      "carom.foul.woodwork", "Wooden rail"])
def test_carom_foul_woodwork_liemers_by_the_referees_words(spelling: str) -> None:
    s = _woodwork_shot("liemers", foul=spelling).state()
    assert "carom.foul.woodwork" in rules(s) and not s["from_outlay"]


def test_carom_foul_woodwork_liemers_with_a_ball_off_the_table_is_also_a_jump() -> None:
    # the woodwork touched and a ball off the table in one shot: the off-table ball repeats the break
    t = Table(setup(profile="liemers", targets=T)).carom("p1", cushions=3, positions=LIE)
    t.raw("strike", ball="yellow").raw("off_table", ball="red").rest()
    s = t.call("foul", foul="woodwork").state()
    assert {"carom.foul.woodwork", "carom.jump", "carom.outlay"} <= set(rules(s))
    assert s["at_table"] == "p2" and s["from_outlay"]


def test_carom_jump_liemers_off_the_table_still_repeats_the_break() -> None:
    s = _woodwork_shot("liemers", foul="jump").state()
    assert "carom.jump" in rules(s) and "carom.outlay" in rules(s) and s["from_outlay"]
    assert "carom.foul.woodwork" not in rules(s)


def test_carom_frozen_liemers_outlay_puts_the_balls_back() -> None:
    # "vastliggen" repeats the break too (004): the frozen call with choice outlay
    t = Table(setup(profile="liemers", targets=T)).carom("p1", cushions=3, positions=LIE)
    t.call("frozen", choice="outlay")
    s = t.state()
    assert "carom.frozen.libre" in rules(s) and s["from_outlay"]


def test_carom_jump_kampioen_woodwork_is_a_jump_and_restarts_from_the_outlay() -> None:
    # 003 Art. 4: a ball that touched the frame (omlijsting) has jumped: all three to the outlay
    t = _woodwork_shot("club")
    s = t.state()
    assert "carom.jump" in rules(s) and "carom.outlay" in rules(s)
    assert "carom.foul.woodwork" not in rules(s)
    assert s["at_table"] == "p2" and s["from_outlay"]
    assert t.replay().state.m.positions != LIE  # type: ignore[union-attr]
