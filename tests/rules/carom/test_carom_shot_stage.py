"""Carom on the shot stage (issue 13): a shot resolved whole from the state before it,
calls during it part of it, calls after its rest amending it, undo by shot and by call,
loose names read at the input edge."""

from __future__ import annotations

from test_carom_helpers import Table, errors, rules, setup

T = {"p1": 10, "p2": 10}


def test_a_note_made_during_a_shot_is_kept_when_the_shot_comes_to_rest() -> None:
    # issue 13: the engine's own shot bookkeeping resolved the shot from the state before it
    # and lost the referee's note made while the balls rolled
    t = Table(setup(targets=T)).raw("cushion", cushion=1, ball=None)
    t.call("note", rule="carom.board-decides", text="light fell out")
    s = t.rest().state()
    assert rules(s)[-2:] == ["carom.poedel", "carom.board-decides"]
    assert s["rulings"][-1]["text"] == "light fell out"


def test_a_shot_in_progress_shows_the_score_before_it() -> None:
    t = Table(setup(targets=T)).carom("p1")
    t.raw("strike", ball="yellow").raw("contact", balls=["yellow", "red"])
    s = t.state()
    assert s["caroms"]["p1"] == 1 and s["current_run"] == 1 and s["at_table"] == "p1"
    s = t.raw("contact", balls=["yellow", "white"]).rest().state()
    assert s["caroms"]["p1"] == 2


def test_a_frozen_choice_after_a_shot_stays_when_a_later_call_amends_the_shot() -> None:
    # issue 13: re-resolving the amended shot from the state before it dropped the outlay
    t = Table(setup(targets=T)).piezo()
    t.call("frozen", choice="outlay")
    s = t.call("carom").state()
    assert s["caroms"]["p1"] == 1 and s["from_outlay"]
    assert rules(s)[-2:] == ["carom.frozen", "carom.referee.amend"]


def test_undo_takes_back_an_amending_call_then_the_shot() -> None:
    t = Table(setup(targets=T)).piezo().call("carom")
    assert t.state()["caroms"]["p1"] == 1
    t.call("undo")
    s = t.state()
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2" and "carom.referee.amend" not in rules(s)
    s = t.call("undo").state()
    assert s["innings"] == {"p1": 0, "p2": 0} and s["at_table"] == "p1" and rules(s) == []


def test_call_names_written_loosely_are_understood() -> None:
    s = Table(setup(targets=T)).piezo().call("Carambole").state()
    assert s["caroms"]["p1"] == 1
    s = Table(setup(profile="liemers", targets=T)).piezo().call("fout", foul="Bankje").state()
    assert "carom.foul.stool" in rules(s)


def test_a_profiles_own_foul_word_is_refused_by_the_other_club() -> None:
    s = Table(setup(profile="club", targets=T)).piezo().call("foul", foul="bankje").state(errors=True)
    assert "not a foul in profile kampioen: 'bankje'" in errors(s)[0]
    assert "touch" in errors(s)[0] and "stool" not in errors(s)[0]


def test_an_unknown_call_is_refused_with_the_calls_the_engine_knows() -> None:
    s = Table(setup(targets=T)).call("sneeze").state(errors=True)
    assert "unknown carom call 'sneeze'" in errors(s)[0] and "carom, foul" in errors(s)[0]
