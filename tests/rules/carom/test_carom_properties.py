"""Properties of the carom engine over generated matches (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_helpers import Table, setup

from tablesense.replay import Replay
from tablesense.rules.carom.targets import match_points

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: one inning: how many caroms, and how it ends ("miss", "foul" after rest, "jump")
innings_st = st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["miss", "miss", "foul", "jump"])),
                      min_size=1, max_size=60)


def play(targets: tuple[int, int], innings: list[tuple[int, str]], profile: str, discipline: str) -> dict:
    t = Table(setup(discipline, profile=profile, targets={"p1": targets[0], "p2": targets[1]}))
    rep = Replay()
    for line in t.lines():
        rep.feed_line(line, 0)
    for run, end in innings:
        t.events = []
        t.run(run)
        if end == "miss":
            t.piezo(cushions=1)
        elif end == "foul":
            t.piezo(called=True).call("foul", foul="touch")
        else:
            t.raw("off_table", ball="red").rest()
        for line in t.lines():
            rep.feed_line(line, 0)
        if rep.state.finished:
            break
    return rep.to_json()


@SETTINGS
@given(targets=st.tuples(st.integers(1, 12), st.integers(1, 12)), innings=innings_st,
       profile=st.sampled_from(["club", "liemers"]), discipline=st.sampled_from(["libre", "bandstoten"]))
def test_innings_are_equal_at_the_end_with_the_equalising_inning(
        targets: tuple[int, int], innings: list[tuple[int, str]], profile: str, discipline: str) -> None:
    s = play(targets, innings, profile, discipline)
    caroms = (s["caroms"]["p1"], s["caroms"]["p2"])
    assert caroms[0] <= targets[0] and caroms[1] <= targets[1]
    if s["finished"]:
        assert s["innings"]["p1"] == s["innings"]["p2"]
        reached = (caroms[0] == targets[0], caroms[1] == targets[1])
        assert s["winner"] == {(True, True): "draw", (False, True): "p2", (True, False): "p1"}[reached]
    else:
        assert s["innings"]["p1"] - s["innings"]["p2"] in (0, 1)
        assert s["match_points"] is None


@SETTINGS
@given(targets=st.tuples(st.integers(1, 12), st.integers(1, 12)), innings=innings_st)
def test_match_points_stay_in_range(targets: tuple[int, int], innings: list[tuple[int, str]]) -> None:
    s = play(targets, innings, "club", "libre")
    if not s["finished"]:
        return
    pts = s["match_points"]
    if s["winner"] == "draw":
        assert pts == {"p1": 10, "p2": 10}
    else:
        loser = "p2" if s["winner"] == "p1" else "p1"
        assert pts[s["winner"]] == 11
        assert 0 <= pts[loser] <= 9
        assert pts[loser] == s["caroms"][loser] * 10 // s["targets"][loser]


@SETTINGS
@given(scheme=st.sampled_from(["de-bruijn", "win-draw-loss", "percentage"]),
       targets=st.tuples(st.integers(1, 400), st.integers(1, 400)), data=st.data())
def test_match_points_of_every_scheme_are_bounded(scheme: str, targets: tuple[int, int],
                                                  data: st.DataObject) -> None:
    winner = data.draw(st.sampled_from(["p1", "p2", "draw"]))
    made = tuple(t if winner in (p, "draw") else data.draw(st.integers(0, t - 1))
                 for p, t in zip(("p1", "p2"), targets))
    top = {"de-bruijn": 11, "win-draw-loss": 2, "percentage": 100}[scheme]
    pts = match_points(scheme, winner, made, targets)
    assert all(0 <= p <= top for p in pts)
    if winner != "draw":
        i = 0 if winner == "p1" else 1
        assert pts[i] >= pts[1 - i]


EVENT_ST = st.one_of(
    st.builds(lambda b: {"type": "strike", "ball": b}, st.sampled_from(["yellow", "white", "red"])),
    st.builds(lambda c, b: {"type": "cushion", "cushion": c, "ball": b}, st.integers(1, 4),
              st.sampled_from(["yellow", "white", None])),
    st.builds(lambda a, b: {"type": "contact", "balls": [a, b]}, st.sampled_from(["yellow", "white"]),
              st.sampled_from(["red", "white", "yellow"])),
    st.just({"type": "rest"}),
    st.just({"type": "call", "call": "carom"}),
    st.just({"type": "call", "call": "undo"}),
    st.builds(lambda f: {"type": "call", "call": "foul", "foul": f}, st.sampled_from(["touch", "jump", "x"])),
    st.builds(lambda c: {"type": "call", "call": "frozen", "choice": c}, st.sampled_from(["outlay", "spot"])),
    st.just({"type": "off_table", "ball": "red"}),
)


@SETTINGS
@given(events=st.lists(EVENT_ST, max_size=80), discipline=st.sampled_from(["libre", "driebanden"]))
def test_any_event_stream_replays_without_a_crash(events: list[dict], discipline: str) -> None:
    lines = [json.dumps(setup(discipline, targets={"p1": 5, "p2": 5}))]
    lines += [json.dumps({"t": float(n), **e}) for n, e in enumerate(events, 1)]
    s = Replay().feed_lines(lines).to_json()
    assert s["caroms"]["p1"] <= 5 and s["caroms"]["p2"] <= 5
    assert s["innings"]["p1"] - s["innings"]["p2"] in (-1, 0, 1)
