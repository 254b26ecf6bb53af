"""The carom engine read by an outsider: someone who saw only EVENTS.md and the two seed texts.

Foul names as such a scenario writer would guess them from the seed words, profile names
copied from the seeds, calls with nothing to amend, and random well-formed event streams
that must never raise anything but a ``TablesenseError`` nor leave an inconsistent state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_helpers import Table, errors, rules, setup

from tablesense.errors import TablesenseError
from tablesense.events import parse_event
from tablesense.replay import Replay

T = {"p1": 10, "p2": 10}

#: (what the referee types, the catalogue id the engine rules under)
SPELLINGS = [
    ("touch", "carom.foul.touch"), ("touche", "carom.foul.touch"), ("TOUCHE", "carom.foul.touch"),
    ("touched_ball", "carom.foul.touch"), ("chalk", "carom.foul.touch"), ("hand", "carom.foul.touch"),
    ("carom.foul.touch", "carom.foul.touch"), ("moved_balls", "carom.foul.touch.moved"),
    ("push", "carom.foul.push"), ("rijen", "carom.foul.push"), ("biljarderen", "carom.foul.push"),
    ("push_shot", "carom.foul.push"), ("double_hit", "carom.foul.push"),
    ("foot", "carom.foul.foot"), ("no_foot_on_floor", "carom.foul.foot"),
    ("feet_off_floor", "carom.foul.foot"), ("foot off floor", "carom.foul.foot"),
    ("wrong_ball", "carom.foul.wrong-ball"), ("wrong-ball", "carom.foul.wrong-ball"),
    ("verkeerde_bal", "carom.foul.wrong-ball"), ("wrongball", "carom.foul.wrong-ball"),
    ("off_table", "carom.jump"), ("offtable", "carom.jump"), ("jump", "carom.jump"), ("jumped", "carom.jump"),
    ("uitgesprongen", "carom.jump"), ("ball_off_table", "carom.jump"), ("woodwork", "carom.jump"),
    ("frame", "carom.jump"),
    ("poedel", "carom.poedel"), ("NUL", "carom.poedel"),
]


@pytest.mark.parametrize(("spelling", "rule"), SPELLINGS)
def test_carom_foul_spellings_an_outsider_guesses_void_the_carom_and_end_the_inning(
        spelling: str, rule: str) -> None:
    t = Table(setup(targets=T)).run(1)
    t.raw("cushion", cushion=1, ball=None).call("foul", foul=spelling).rest().call("carom")
    s = t.state()
    assert s["caroms"] == {"p1": 1, "p2": 0}
    assert s["at_table"] == "p2" and s["innings"] == {"p1": 1, "p2": 0}
    assert rule in rules(s) and "carom.foul.carom-void" in rules(s)


@pytest.mark.parametrize("spelling", ["moving_balls", "balls-moving", "smoking", "cigarette", "stool",
                                      "bankje"])
def test_liemers_fouls_by_their_outsider_names(spelling: str) -> None:
    s = Table(setup(profile="liemers", targets=T)).run(1).piezo().call("foul", foul=spelling).state()
    assert s["at_table"] == "p2" and s["caroms"]["p1"] == 1


def test_an_unknown_foul_is_refused_with_the_list_of_fouls() -> None:
    s = Table(setup(targets=T)).piezo(called=True).call("foul", foul="sneezing").state(errors=True)
    assert "unknown foul: 'sneezing'" in errors(s)[0] and "touch" in errors(s)[0]
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"


@pytest.mark.parametrize(("name", "profile"), [
    ("club", "kampioen"), ("003", "kampioen"), ("003_e5598ae3d8d4e474", "kampioen"),
    ("Clubkampioenschap", "kampioen"),
    ("liemers", "liemers"), ("O.B.B. Liemers", "liemers"), ("obb-liemers", "liemers"), ("004", "liemers"),
])
def test_profile_names_copied_from_the_seeds(name: str, profile: str) -> None:
    assert Table(setup(profile=name, targets=T)).state()["profile"] == profile


def test_a_profile_name_naming_both_clubs_is_refused() -> None:
    rep = Replay().feed_lines([json.dumps(setup(profile="liemers club", targets=T))])
    assert rep.state is None and "unknown carom profile" in rep.errors[0].error


def test_carom_foul_wrong_ball_called_before_the_count_is_a_fault() -> None:
    # 003 Art. 5.12 keeps a carom the referee has *counted*; a wrong ball called first is a fault
    t = Table(setup(profile="club", targets=T))
    s = t.raw("cushion", cushion=1, ball=None).call("foul", foul="wrong_ball").rest().call("carom").state()
    assert s["caroms"]["p1"] == 0 and s["at_table"] == "p2"
    assert "carom.foul.wrong-ball" in rules(s) and "carom.wrong-ball.counted" not in rules(s)


def test_carom_wrong_ball_counted_before_the_foul_call_stands() -> None:
    t = Table(setup(profile="club", targets=T)).piezo(called=True)
    s = t.call("foul", foul="wrong_ball").state()
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"
    assert "carom.wrong-ball.counted" in rules(s)


def test_carom_driebanden_contacts_and_cushions_ordered_by_t_not_by_file_order() -> None:
    t = Table(setup("driebanden", targets=T))
    for ev in ({"t": 1.0, "type": "contact", "balls": ["yellow", "red"]},
               {"t": 1.9, "type": "contact", "balls": ["yellow", "white"]},
               {"t": 1.3, "type": "cushion", "cushion": 2, "ball": "yellow"},
               {"t": 1.5, "type": "cushion", "cushion": 3, "ball": "yellow"},
               {"t": 1.7, "type": "cushion", "cushion": 4, "ball": "yellow"},
               {"t": 2.0, "type": "rest"}):
        t.events.append(ev)
    s = t.state()
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"


# --- random well-formed streams ----------------------------------------------------------------

BALL = st.sampled_from(["yellow", "white", "red", None, "p1", "p2"])
XY = st.lists(st.floats(0.0, 2.84, allow_nan=False), min_size=2, max_size=2)
CORNER_XY = st.sampled_from([[0.05, 0.06], [0.1, 0.08], [2.79, 1.37], [2.7, 1.38], [0.21, 0.0], [1.4, 0.7]])
POSITIONS = st.fixed_dictionaries({}, optional={"yellow": st.one_of(XY, CORNER_XY),
                                                "white": st.one_of(XY, CORNER_XY),
                                                "red": st.one_of(XY, CORNER_XY)})
FOULS = st.sampled_from(["touch", "push", "foot", "off_table", "wrong_ball", "reste_dedans", "poedel",
                         "no_blame", "opening-shot", "smoking", "masse", "carom.jump", "nonsense"])

EVENTS = st.one_of(
    st.builds(lambda b: {"type": "strike", "ball": b}, BALL),
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4), BALL),
    st.builds(lambda a, b: {"type": "contact", "balls": [a, b]}, st.sampled_from(["yellow", "white", "red"]),
              st.sampled_from(["yellow", "white", "red"])),
    st.builds(lambda b: {"type": "off_table", "ball": b}, BALL),
    st.just({"type": "rest"}),
    st.builds(lambda p: {"type": "rest", "positions": p}, POSITIONS),
    st.just({"type": "call", "call": "carom"}),
    st.just({"type": "call", "call": "undo"}),
    st.builds(lambda f: {"type": "call", "call": "foul", "foul": f}, FOULS),
    st.builds(lambda p: {"type": "call", "call": "start", "player": p}, st.sampled_from(["p1", "p2"])),
    st.builds(lambda c: {"type": "call", "call": "frozen", "choice": c},
              st.sampled_from(["outlay", "play", "spot", "masse", "x"])),
    st.builds(lambda r: {"type": "call", "call": "note", "rule": r},
              st.sampled_from(["carom.protest", "carom.referee.change", "carom.referee.warning", "nope"])),
    st.just({"type": "call", "call": "answer", "question": "q1", "answer": True}),
    st.just({"type": "call", "call": "spot", "ball": "red", "spot": 1}),
    st.just({"type": "pin", "pin": 1, "state": "down"}),
)
SETUPS = st.fixed_dictionaries(
    {"discipline": st.sampled_from(["libre", "bandstoten", "driebanden"]),
     "profile": st.sampled_from(["club", "liemers", "004", "kampioen"])},
    optional={"targets": st.fixed_dictionaries({"p1": st.integers(1, 4), "p2": st.integers(1, 4)}),
              "moyennes": st.fixed_dictionaries({"p1": st.floats(0, 3), "p2": st.floats(0, 3)})},
)


def check_consistent(s: dict[str, Any]) -> None:
    json.dumps(s)
    assert s["game"] == "carom"
    assert s["winner"] in (None, "p1", "p2", "draw")
    assert s["finished"] == (s["winner"] is not None)
    assert s["at_table"] in ("p1", "p2")
    assert (s["match_points"] is None) == (not s["finished"])
    for p in ("p1", "p2"):
        c, n, hr, tgt = s["caroms"][p], s["innings"][p], s["high_run"][p], s["targets"][p]
        assert 0 <= c <= tgt and n >= 0 and 0 <= hr <= c
        assert s["average"][p] == (round(c / n, 3) if n else 0)
        if s["finished"]:
            assert 0 <= s["match_points"][p] <= 11
    assert abs(s["innings"]["p1"] - s["innings"]["p2"]) <= 1
    if s["finished"] and s["winner"] != "draw":
        w = s["winner"]
        assert s["caroms"][w] == s["targets"][w] or s["innings"]["p1"] == s["innings"]["p2"]
    assert all(isinstance(r["t"], float) and r["rule"].startswith("carom.") for r in s["rulings"])
    assert s["questions"] == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=SETUPS, events=st.lists(st.tuples(EVENTS, st.floats(0, 0.5)), max_size=60))
def test_random_event_streams_raise_only_tablesense_errors_and_stay_consistent(
        first: dict[str, Any], events: list[tuple[dict[str, Any], float]]) -> None:
    rep = Replay()
    players = {"p1": "A", "p2": "B"}
    rep.apply(parse_event({"t": 0, "type": "setup", "game": "carom", "players": players, **first}))
    t = 0.0
    for ev, dt in events:
        t += dt
        try:
            rep.apply(parse_event({"t": t, **ev}))
        except TablesenseError:
            pass  # refused: a clear error, the state is as it was
        check_consistent(rep.to_json())


@pytest.mark.parametrize(("pattern", "caroms", "at_table"), [
    ("carom rest carom rest", 2, "p1"),  # the call first, then the balls stop
    ("rest carom rest carom", 2, "p1"),  # EVENTS.md: the call after the rest
    ("carom carom carom", 3, "p1"),      # calls alone
    ("carom rest rest", 1, "p2"),        # the second rest is a shot without a carom
    ("foul rest", 0, "p2"),              # a fault the referee saw, then the balls stop
])
def test_carom_referee_amend_calls_with_or_without_their_rest(pattern: str, caroms: int,
                                                              at_table: str) -> None:
    t = Table(setup(targets=T))
    for word in pattern.split():
        if word == "rest":
            t.rest()
        else:
            t.call(word, **({"foul": "touch"} if word == "foul" else {}))
    s = t.state()
    assert s["caroms"]["p1"] == caroms and s["at_table"] == at_table


def test_the_rest_after_a_called_carom_brings_its_positions_to_the_zones() -> None:
    t = Table(setup(targets=T)).call("carom")
    s = t.rest({"yellow": [1.4, 0.7], "red": [0.05, 0.06], "white": [0.1, 0.05]}).state()
    assert s["caroms"]["p1"] == 1 and s["entree"] and s["zone"] == "head-left"


@pytest.mark.parametrize(("extra", "key", "value"), [
    ({"scheme": "de Bruijn"}, "scheme", "de-bruijn"),
    ({"points": "win_draw_loss"}, "scheme", "win-draw-loss"),
    ({"table": "pub table 1"}, "profile", "kampioen"), ({"table": 2.3}, "profile", "kampioen"),
])
def test_setup_options_written_loosely_still_set_up_the_match(extra: dict[str, Any], key: str,
                                                                value: str) -> None:
    assert Table(setup(targets=T, **extra)).state()[key] == value


def test_carom_target_moyenne_rounding_names() -> None:
    s = Table(setup(moyennes={"p1": 1.5, "p2": 1.5}, rounding="floor")).state()
    assert s["targets"] == {"p1": 37, "p2": 37}
    s = Table(setup(moyennes={"p1": 1.5, "p2": 1.5}, rounding="half_up")).state()
    assert s["targets"] == {"p1": 38, "p2": 38}


def test_a_bed_size_that_does_not_exist_is_refused() -> None:
    rep = Replay().feed_lines([json.dumps(setup(targets=T, table="2.5"))])
    assert rep.state is None and "unknown carom table '2.5'" in rep.errors[0].error


def test_carom_equipment_player_names_stand_for_their_balls() -> None:
    # EVENTS.md's sensor examples name a ball by its owner ("ball": "p2"): p1 yellow, p2 white
    t = Table(setup(targets=T)).raw("contact", balls=["p1", "red"]).raw("contact", balls=["p1", "white"])
    s = t.rest().state()
    assert s["caroms"]["p1"] == 1
    s = t.raw("off_table", ball="p2").rest().state()
    assert s["at_table"] == "p2" and "carom.jump" in rules(s)
    s = Table(setup(targets=T)).raw("pocket", pocket=1, ball="red").state(errors=True)
    assert "no pocket sensors" in errors(s)[0]


def test_a_call_naming_the_player_now_at_the_table_is_about_his_shot() -> None:
    t = Table(setup(targets=T)).piezo()  # p1 misses: p2 at the table
    s = t.call("foul", foul="touch", player="p2").state()
    assert s["at_table"] == "p1" and s["innings"] == {"p1": 1, "p2": 1}
    assert s["rulings"][-2]["player"] == "p2"
    s = Table(setup(targets=T)).piezo().call("carom", player="p2").state()
    assert s["caroms"] == {"p1": 0, "p2": 1} and s["at_table"] == "p2"
    s = Table(setup(targets=T)).piezo().call("carom", player="p1").state()  # p1's late call
    assert s["caroms"] == {"p1": 1, "p2": 0} and s["at_table"] == "p1"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shots=st.lists(st.tuples(st.booleans(), st.sampled_from(["during", "after"]),
                                st.sampled_from([None, "touch", "push"])), max_size=40),
       profile=st.sampled_from(["club", "liemers"]))
def test_carom_referee_amend_where_the_call_is_written_does_not_change_the_score(
        shots: list[tuple[bool, str, str | None]], profile: str) -> None:
    """A carom or foul called during the shot or right after its rest: the same match."""
    def play(where: str | None) -> dict[str, Any]:
        t = Table(setup(profile=profile, targets={"p1": 6, "p2": 5}))
        for carom, style, foul in shots:
            style = where or style
            calls = ([("carom", {})] if carom else []) + ([("foul", {"foul": foul})] if foul else [])
            t.raw("cushion", cushion=1, ball=None)
            if style == "during":
                for name, fields in calls:
                    t.call(name, **fields)
            t.rest()
            if style != "during":
                for name, fields in calls:
                    t.call(name, **fields)
        s = t.state(errors=True)
        # events after the end are refused (errors), and a late foul can reopen the match
        return {k: s[k] for k in ("caroms", "innings", "high_run", "at_table", "finished", "winner")
                if "errors" not in s}

    assert play(None) == play("during") == play("after")


def test_carom_countdown_is_announced_as_a_ruling_too() -> None:
    s = Table(setup(profile="liemers", targets={"p1": 7, "p2": 3})).run(2).state()
    assert [r["left"] for r in s["rulings"] if r["rule"] == "carom.countdown"] == [5]
    s = Table(setup(profile="liemers", targets={"p1": 9, "p2": 3})).piezo().state()  # p2 comes: 3 to go
    assert s["rulings"][-1]["rule"] == "carom.countdown" and s["rulings"][-1]["player"] == "p2"
    s = Table(setup(profile="club", targets={"p1": 3, "p2": 3})).run(2).state()
    assert "carom.countdown" not in rules(s)


def test_carom_zone_entree_from_positions_given_before_the_first_shot() -> None:
    t = Table(setup(targets=T)).rest({"yellow": [1.4, 0.7], "red": [0.05, 0.06], "white": [0.1, 0.05]})
    s = t.state()
    assert s["at_table"] == "p1" and s["innings"] == {"p1": 0, "p2": 0} and s["entree"]
    assert "carom.poedel" not in rules(s)
    s = t.call("carom").state()  # the referee counts the first shot's carom
    assert s["caroms"]["p1"] == 1
    s = Table(setup(targets=T)).rest().state()  # a bare rest is a shot: p1 missed
    assert s["at_table"] == "p2" and s["announcement"] == "POEDEL"


def test_carom_outlay_positions_before_the_first_shot_keep_or_end_the_opening_shot() -> None:
    # the outlay (yellow on the left spot, the breaker's choice): the first shot is the opening shot
    outlay = {"red": [2.13, 0.71], "white": [0.71, 0.71], "yellow": [0.71, 0.528]}
    s = Table(setup(profile="liemers", targets=T)).rest(outlay).state()
    assert s["from_outlay"] and s["at_table"] == "p1"
    s = Table(setup(profile="liemers", targets=T)).rest(outlay).carom("p1").state()  # red, white: no cushion
    assert "carom.opening-shot.cushion" in rules(s) and s["caroms"]["p1"] == 0
    elsewhere = {"red": [1.0, 0.3], "white": [2.0, 1.0], "yellow": [0.5, 0.5]}
    s = Table(setup(profile="liemers", targets=T)).rest(elsewhere).carom("p1").state()
    assert s["caroms"]["p1"] == 1 and s["at_table"] == "p1"
