"""Caroms, series, innings, targets, the equalising inning and match points (seeds/carom.md)."""

from __future__ import annotations

import pytest
from test_carom_helpers import Table, rules, setup

from tablesense.rules.carom.targets import match_points, target_from_moyenne


def test_carom_carom_counts_one_and_the_player_stays() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).carom("p1").state()
    assert s["caroms"] == {"p1": 1, "p2": 0}
    assert s["at_table"] == "p1"
    assert s["innings"] == {"p1": 0, "p2": 0}
    assert "carom.carom" in rules(s)


def test_carom_series_sets_the_high_run() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).carom("p1").carom("p1").carom("p1").miss("p1").state()
    assert s["high_run"] == {"p1": 3, "p2": 0}
    assert s["innings"] == {"p1": 1, "p2": 0}
    assert s["average"] == {"p1": 3.0, "p2": 0}
    series = [r for r in s["rulings"] if r["rule"] == "carom.series"]
    assert series and series[0]["run"] == 3


def test_carom_inning_end_passes_the_turn() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).carom("p1").miss("p1").state()
    assert s["at_table"] == "p2"
    assert rules(s)[-1] == "carom.inning.end"
    assert s["current_run"] == 0


def test_carom_poedel_announced_when_the_first_shot_fails() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).miss("p1").state()
    assert rules(s) == ["carom.poedel"]
    assert s["announcement"] == "POEDEL"
    assert s["innings"] == {"p1": 1, "p2": 0}
    assert s["at_table"] == "p2"


def test_carom_libre_needs_no_cushion() -> None:
    s = Table(setup("libre", targets={"p1": 30, "p2": 30})).carom("p1", cushions=0).state()
    assert s["caroms"]["p1"] == 1


@pytest.mark.parametrize(("discipline", "cushions", "counts"), [
    ("bandstoten", 0, False), ("bandstoten", 1, True),
    ("driebanden", 2, False), ("driebanden", 3, True), ("driebanden", 5, True),
])
def test_carom_bandstoten_and_carom_driebanden_cushions_before_the_third_ball(
        discipline: str, cushions: int, counts: bool) -> None:
    s = Table(setup(discipline, targets={"p1": 15, "p2": 15})).carom("p1", cushions=cushions).state()
    assert s["caroms"]["p1"] == (1 if counts else 0)
    assert s["at_table"] == ("p1" if counts else "p2")
    if not counts:
        assert ("carom.bandstoten" if discipline == "bandstoten" else "carom.driebanden") in rules(s)
    assert s["evidence"]["decided_by"] == "contacts"


def test_driebanden_cushions_after_the_third_ball_do_not_count() -> None:
    t = Table(setup("driebanden", targets={"p1": 15, "p2": 15}))
    t.raw("strike", ball="yellow").raw("contact", balls=["yellow", "red"])
    t.raw("cushion", cushion=1, ball="yellow").raw("contact", balls=["yellow", "white"])
    t.raw("cushion", cushion=2, ball="yellow").raw("cushion", cushion=3, ball="yellow").rest()
    s = t.state()
    assert s["caroms"]["p1"] == 0
    assert s["evidence"]["cushions"] == 3
    assert s["evidence"]["cushions_before_last_contact"] == 1


def test_piezo_only_shot_is_no_carom_without_a_call() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).piezo(cushions=3).state()
    assert s["caroms"]["p1"] == 0
    assert s["evidence"] == {"cushions": 3, "cushions_before_last_contact": 3, "contacts": 0,
                             "decided_by": "none"}


def test_carom_referee_amend_a_late_call_counts_the_last_shot() -> None:
    t = Table(setup(targets={"p1": 30, "p2": 30})).piezo(cushions=3)
    assert t.state()["at_table"] == "p2"
    s = t.call("carom").state()
    assert s["caroms"] == {"p1": 1, "p2": 0}
    assert s["innings"] == {"p1": 0, "p2": 0}
    assert s["at_table"] == "p1"
    assert s["evidence"]["decided_by"] == "referee"
    assert "carom.referee.amend" in rules(s)
    assert "carom.poedel" not in rules(s)


def test_a_second_carom_call_counts_a_shot_of_its_own() -> None:
    # a shot scores one carom: a second call has nothing to amend, it is the referee's next count
    s = Table(setup(targets={"p1": 30, "p2": 30})).piezo(called=True).call("carom").state()
    assert s["caroms"]["p1"] == 2 and s["at_table"] == "p1"
    assert "errors" not in s


def test_carom_calls_alone_count_one_carom_each() -> None:
    s = Table(setup(targets={"p1": 3, "p2": 3})).call("carom").call("carom").state()
    assert s["caroms"] == {"p1": 2, "p2": 0} and s["at_table"] == "p1"
    s = Table(setup(targets={"p1": 2, "p2": 3})).call("carom").call("carom").state()
    assert s["at_table"] == "p2" and s["nastoot"] and not s["finished"]


def test_a_carom_call_after_the_match_is_refused() -> None:
    t = Table(setup(targets={"p1": 1, "p2": 1})).call("carom").piezo()
    s = t.call("carom").call("carom").state(errors=True)
    assert s["finished"] and s["winner"] == "draw"
    assert "the match is over" in s["errors"][0]["error"]


def test_carom_call_during_the_shot_counts_at_rest() -> None:
    t = Table(setup(targets={"p1": 30, "p2": 30}))
    t.raw("cushion", cushion=1, ball=None).call("carom").raw("cushion", cushion=2, ball=None).rest()
    s = t.state()
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"


def test_undo_after_rest_takes_back_the_whole_shot() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 30})).carom("p1").carom("p1").call("undo").state()
    assert s["caroms"]["p1"] == 1


# --- targets ------------------------------------------------------------------------------

@pytest.mark.parametrize(("moyenne", "rounding", "target"), [
    (1.5, "half-up", 38), (1.5, "down", 37), (1.5, "up", 38), (2.0, "half-up", 50),
    (1.02, "half-up", 26), (1.01, "half-up", 25), (1.01, "up", 26), (0.42, "half-up", 20),
])
def test_carom_target_moyenne_rounding(moyenne: float, rounding: str, target: int) -> None:
    assert target_from_moyenne(moyenne, rounding) == target


def test_carom_target_minimum_is_20() -> None:
    s = Table(setup("driebanden", targets=None, moyennes={"p1": 0.42, "p2": 0.61})).state()
    assert s["targets"] == {"p1": 20, "p2": 20}
    s = Table(setup(targets=None)).state()
    assert s["targets"] == {"p1": 20, "p2": 20}


def test_carom_target_moyenne_from_setup_with_a_chosen_rounding() -> None:
    s = Table(setup(targets=None, moyennes={"p1": 1.5, "p2": 3.1}, rounding="down")).state()
    assert s["targets"] == {"p1": 37, "p2": 77}


def test_explicit_targets_win_over_moyennes() -> None:
    s = Table(setup(targets={"p1": 12}, moyennes={"p1": 3.0, "p2": 2.0})).state()
    assert s["targets"] == {"p1": 12, "p2": 50}


def test_carom_target_play_out_whatever_the_innings() -> None:
    t = Table(setup(targets={"p1": 3, "p2": 3}))
    for _ in range(40):
        t.piezo().piezo()
    s = t.run(3).state()
    assert not s["finished"]
    assert s["innings"] == {"p1": 41, "p2": 40}
    assert s["at_table"] == "p2" and s["nastoot"]
    s = t.run(2).piezo().state()
    assert s["finished"] and s["winner"] == "p1"
    assert s["innings"] == {"p1": 41, "p2": 41}
    assert s["caroms"] == {"p1": 3, "p2": 2}


# --- the end of the match -----------------------------------------------------------------

def test_carom_match_won_when_white_reaches_the_target_at_once() -> None:
    s = Table(setup(targets={"p1": 5, "p2": 3})).piezo().run(3).state()
    assert s["finished"] and s["winner"] == "p2"
    assert s["innings"] == {"p1": 1, "p2": 1}
    assert s["match_points"] == {"p1": 0, "p2": 11}
    assert "carom.match.won" in rules(s)


def test_carom_nastoot_white_gets_one_last_inning_from_the_outlay() -> None:
    s = Table(setup(targets={"p1": 3, "p2": 10})).run(3).state()
    assert not s["finished"]
    assert s["at_table"] == "p2" and s["nastoot"] and s["from_outlay"]
    assert "carom.nastoot" in rules(s)
    assert s["innings"] == {"p1": 1, "p2": 0}
    s = Table(setup(targets={"p1": 3, "p2": 10})).run(3).run(4).piezo().state()
    assert s["finished"] and s["winner"] == "p1"
    assert s["innings"] == {"p1": 1, "p2": 1}
    assert s["match_points"] == {"p1": 11, "p2": 4}


def test_carom_draw_when_white_equalises() -> None:
    s = Table(setup(targets={"p1": 3, "p2": 4})).run(3).run(4).state()
    assert s["finished"] and s["winner"] == "draw"
    assert s["match_points"] == {"p1": 10, "p2": 10}
    assert "carom.draw" in rules(s)


def test_carom_last_carom_ends_the_series_at_the_target() -> None:
    s = Table(setup(targets={"p1": 30, "p2": 2})).piezo().run(2).state()
    assert s["caroms"]["p2"] == 2
    assert "carom.last-carom" in rules(s)
    s2 = Table(setup(targets={"p1": 30, "p2": 2})).piezo().run(2).piezo(called=True).state(errors=True)
    assert s2["caroms"]["p2"] == 2


def test_start_call_makes_p2_break_and_p1_gets_the_equalising_inning() -> None:
    t = Table(setup(targets={"p1": 5, "p2": 2})).call("start", player="p2")
    s = t.run(2).state()
    assert s["at_table"] == "p1" and s["nastoot"] and not s["finished"]
    assert rules(s)[0] == "carom.outlay"


def test_carom_outlay_positions_at_the_start() -> None:
    from tablesense.events import parse_event
    from tablesense.rules import find_engine
    engine = find_engine("carom")
    state = engine.new_state(parse_event(setup(targets={"p1": 5, "p2": 5})))
    pos = state.m.positions
    assert pos["red"] == [2.13, 0.71] and pos["white"] == [0.71, 0.71]
    assert pos["yellow"][0] == 0.71 and pos["yellow"][1] != 0.71
    assert state.m.from_outlay


@pytest.mark.parametrize(("scheme", "winner", "made", "targets", "points"), [
    ("de-bruijn", "p1", (30, 20), (30, 45), (11, 4)),
    ("de-bruijn", "p2", (29, 45), (30, 45), (9, 11)),
    ("de-bruijn", "draw", (30, 45), (30, 45), (10, 10)),
    ("de-bruijn", "p1", (20, 0), (20, 20), (11, 0)),
    ("win-draw-loss", "p2", (3, 20), (30, 20), (0, 2)),
    ("win-draw-loss", "draw", (30, 20), (30, 20), (1, 1)),
    ("percentage", "p1", (30, 15), (30, 20), (100, 75)),
])
def test_carom_match_points_de_bruijn_and_other_schemes(
        scheme: str, winner: str, made: tuple[int, int], targets: tuple[int, int],
        points: tuple[int, int]) -> None:
    assert match_points(scheme, winner, made, targets) == points


def test_match_points_scheme_from_setup() -> None:
    s = Table(setup(targets={"p1": 5, "p2": 2}, points="win-draw-loss")).piezo().run(2).state()
    assert s["match_points"] == {"p1": 0, "p2": 2}
    assert s["scheme"] == "win-draw-loss"


def test_match_points_are_null_until_the_end() -> None:
    assert Table(setup(targets={"p1": 5, "p2": 5})).run(2).state()["match_points"] is None


@pytest.mark.parametrize(("discipline", "left_at"), [("libre", 5), ("bandstoten", 5), ("driebanden", 3)])
def test_carom_countdown_liemers(discipline: str, left_at: int) -> None:
    t = Table(setup(discipline, profile="liemers", targets={"p1": 8, "p2": 8}))
    t.run(8 - left_at - 1)
    assert t.state()["countdown"] is None
    t.run(1)
    assert t.state()["countdown"] == left_at
    t.run(left_at - 1)
    assert t.state()["countdown"] == 1
    t.piezo()
    assert t.state()["countdown"] is None, "white has 8 to go"


def test_no_countdown_in_profile_kampioen() -> None:
    assert Table(setup(targets={"p1": 3, "p2": 3})).run(2).state()["countdown"] is None


def test_summary_line_names_players_and_score() -> None:
    from tablesense.rules import find_engine
    rep = Table(setup(targets={"p1": 30, "p2": 45})).run(2).piezo().replay()
    line = find_engine("carom").summary(rep.state)
    assert line == "Ann 2/30 in 1 - Bob 0/45 in 0"
