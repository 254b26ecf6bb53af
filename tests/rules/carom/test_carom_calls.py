"""Referee calls of the carom engine: start, frozen balls, procedural notes, bad input."""

from __future__ import annotations

import pytest
from test_carom_helpers import Table, errors, rules, setup

T = {"p1": 30, "p2": 30}


@pytest.mark.parametrize(("profile", "discipline", "rule", "choices"), [
    ("club", "libre", "carom.frozen", ("outlay", "play")),
    ("liemers", "libre", "carom.frozen.libre", ("outlay", "play")),
    ("liemers", "bandstoten", "carom.frozen.libre", ("outlay", "play")),
    ("liemers", "driebanden", "carom.frozen.driebanden", ("play", "masse", "spot")),
])
def test_frozen_ball_choices_per_profile(profile: str, discipline: str, rule: str,
                                         choices: tuple[str, ...]) -> None:
    for choice in choices:
        s = Table(setup(discipline, profile=profile, targets=T)).run(1).call("frozen", choice=choice).state()
        assert rules(s)[-1] == rule
        assert s["rulings"][-1]["choice"] == choice
        assert s["from_outlay"] == (choice == "outlay")
    s = Table(setup(discipline, profile=profile, targets=T)).call("frozen", choice="kick").state(errors=True)
    assert rule in errors(s)[0] and choices[0] in errors(s)[0]


def test_carom_frozen_outlay_makes_the_next_shot_an_opening_shot() -> None:
    t = Table(setup(profile="club", targets=T)).run(1).call("frozen", choice="outlay")
    s = t.carom("p1", first="white").state()
    assert "carom.opening-shot.direct" in rules(s)


def test_carom_frozen_libre_and_carom_frozen_driebanden_refuse_the_other_profiles_choices() -> None:
    t = Table(setup("driebanden", profile="liemers", targets=T))
    s = t.call("frozen", choice="outlay").state(errors=True)
    assert "carom.frozen.driebanden" in errors(s)[0]
    s = Table(setup(profile="liemers", targets=T)).call("frozen", choice="masse").state(errors=True)
    assert "carom.frozen.libre" in errors(s)[0]


def test_frozen_during_a_shot_is_refused() -> None:
    t = Table(setup(targets=T)).raw("cushion", cushion=1, ball=None).call("frozen", choice="play")
    assert "before the shot" in errors(t.state(errors=True))[0]


@pytest.mark.parametrize(("rule", "profile"), [
    ("carom.referee.warning", "club"), ("carom.referee.show-ball", "club"),
    ("carom.referee.duties", "liemers"), ("carom.referee.change", "liemers"), ("carom.protest", "liemers"),
    ("carom.interruption", "liemers"), ("carom.schedule", "club"), ("carom.board-decides", "liemers"),
])
def test_procedural_notes_are_recorded(rule: str, profile: str) -> None:
    s = Table(setup(profile=profile, targets=T)).piezo().call("note", rule=rule, text="noted").state()
    assert s["rulings"][-1]["rule"] == rule and s["rulings"][-1]["text"] == "noted"
    assert s["caroms"] == {"p1": 0, "p2": 0} and s["at_table"] == "p2"


def test_carom_referee_warning_is_forbidden_in_liemers() -> None:
    t = Table(setup(profile="liemers", targets=T))
    s = t.call("note", rule="carom.referee.warning").state(errors=True)
    assert "may not warn" in errors(s)[0]


def test_carom_referee_change_only_between_innings() -> None:
    s = Table(setup(profile="liemers", targets=T)).run(2).call("note", rule="carom.referee.change").state(
        errors=True)
    assert "after an inning" in errors(s)[0]


def test_carom_protest_refused_after_the_match() -> None:
    t = Table(setup(profile="liemers", targets={"p1": 2, "p2": 2})).piezo().run(2)
    s = t.call("note", rule="carom.protest").state(errors=True)
    assert s["finished"] and "after the match" in errors(s)[0]


def test_notes_of_the_other_profile_are_refused() -> None:
    s = Table(setup(profile="club", targets=T)).call("note", rule="carom.interruption").state(errors=True)
    assert "profile liemers" in errors(s)[0]
    s = Table(setup(profile="club", targets=T)).call("note", rule="carom.nonsense").state(errors=True)
    assert "carom.board-decides" in errors(s)[0]


def test_start_after_the_first_shot_is_refused() -> None:
    s = Table(setup(targets=T)).piezo().call("start", player="p2").state(errors=True)
    assert "before the first shot" in errors(s)[0]


def test_unknown_call_lists_the_calls() -> None:
    s = Table(setup(targets=T)).call("pause").state(errors=True)
    assert "unknown carom call" in errors(s)[0] and "frozen" in errors(s)[0]


@pytest.mark.parametrize(("profile", "expected"), [
    ("club", "kampioen"), ("Kampioen", "kampioen"), ("003", "kampioen"), ("liemers", "liemers"),
    ("OBB", "liemers"), (None, "kampioen"),
])
def test_profile_names_and_aliases(profile: str | None, expected: str) -> None:
    assert Table(setup(profile=profile, targets=T)).state()["profile"] == expected


def test_unknown_profile_and_scheme_are_named() -> None:
    s = Table(setup(profile="knbb", targets=T)).state(errors=True)
    assert "unknown carom profile" in errors(s)[0]
    s = Table(setup(targets=T, points="elo")).state(errors=True)
    assert "unknown match-point scheme" in errors(s)[0]
    s = Table(setup(targets=None, moyennes={"p1": 1.0, "p2": 1.0}, rounding="bankers")).state(errors=True)
    assert "unknown rounding" in errors(s)[0]


def test_events_after_the_match_are_refused_but_rest_is_ignored() -> None:
    t = Table(setup(targets={"p1": 2, "p2": 2})).piezo().run(2)
    s = t.rest().state()
    assert s["finished"]
    s = t.raw("cushion", cushion=1, ball=None).state(errors=True)
    assert "the match is over" in errors(s)[0]
