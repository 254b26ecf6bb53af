"""Whole simulated matches through the real rule engines."""

from __future__ import annotations

import functools
import json
import time

import pytest

from tablesense.cli import main
from tablesense.events import Call, Contact, Cushion, Rest, Setup, dump_event
from tablesense.replay import Replay
from tablesense.sim.match import MatchSim, SimError, play_match, simulated_match

QUICK = {"golf": {}, "kegle": {"distance": 20}, "carom": {"targets": 2}}


@functools.cache
def quick_match(game: str, seed: int) -> tuple:
    return tuple(play_match(game, seed=seed, **QUICK[game]))


def replayed(events):
    return Replay().feed_lines(dump_event(e) for e in events)


@pytest.mark.parametrize("game", ["golf", "kegle", "carom"])
def test_a_simulated_match_finishes_with_a_valid_result(game, tmp_path, capsys):
    events = quick_match(game, 1)
    assert isinstance(events[0], Setup) and events[0].game == game
    log = tmp_path / f"{game}.jsonl"
    log.write_text("".join(dump_event(e) + "\n" for e in events), encoding="utf-8")
    # the log replays through the real command line to the same finished match
    assert main(["replay", str(log), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == game
    assert state["finished"] is True
    assert state["winner"] in ("p1", "p2", "draw")
    assert "errors" not in state
    assert state["questions"] == []
    assert state["rulings"], "a finished match has rulings"
    times = [e.t for e in events]
    assert times == sorted(times)
    if game == "golf":  # a match is two winning frames
        assert state["frames_won"][state["winner"]] == 2


def test_the_same_seed_plays_the_same_match_and_another_seed_another():
    a = [dump_event(e) for e in quick_match("kegle", 1)]
    b = [dump_event(e) for e in play_match("kegle", seed=1, **QUICK["kegle"])]
    c = [dump_event(e) for e in play_match("kegle", seed=6, distance=4)]
    assert a == b
    assert a != c


def test_sensor_only_carom_match_gets_its_caroms_from_the_referee():
    events = play_match("carom", seed=2, full_info=False, targets=2)
    assert not any(isinstance(e, Contact) for e in events)
    assert all(e.ball is None for e in events if isinstance(e, Cushion))
    assert all(e.positions is None for e in events if isinstance(e, Rest))
    calls = [e for e in events if isinstance(e, Call) and e.call == "carom"]
    state = replayed(events).to_json()
    assert state["finished"]
    assert len(calls) == sum(state["caroms"].values())


def test_full_information_rest_carries_every_ball_position():
    events = play_match("carom", seed=3, targets=1)
    rest = next(e for e in events if isinstance(e, Rest))
    assert set(rest.positions) == {"white", "yellow", "red"}


def test_hal_edges_of_a_match_use_the_profile_channels():
    sim = MatchSim("kegle", seed=4, opts={"distance": 10}, want_edges=True)
    list(sim.events())
    channels = set(sim.sensors.active)
    assert sim.edges
    assert {line["ch"] for line in sim.edges} <= channels
    kinds = {k for line in sim.edges for k in line if k in ("level", "pulses", "colour")}
    assert kinds >= {"level", "pulses"}


async def test_simulated_match_streams_the_same_events_paced_by_speed():
    fast = [e async for e in simulated_match("kegle", seed=1, speed=0, **QUICK["kegle"])]
    assert [dump_event(e) for e in fast] == [dump_event(e) for e in quick_match("kegle", 1)]
    speed = 500.0
    start = time.monotonic()
    paced = [e async for e in simulated_match("carom", seed=3, speed=speed, targets=1)]
    elapsed = time.monotonic() - start
    assert elapsed >= paced[-1].t / speed * 0.9


def test_unknown_game_or_negative_speed_is_refused():
    with pytest.raises(SimError, match="games: golf, kegle, carom"):
        play_match("snooker")


async def test_negative_speed_is_refused():
    with pytest.raises(SimError, match="speed"):
        async for _ in simulated_match("golf", speed=-1):
            pass


def _sim_after(game: str, before: dict, happenings: list) -> MatchSim:
    sim = MatchSim(game, seed=0)
    sim.last_shot = (before, happenings)
    return sim


def test_referee_bot_answers_from_what_it_saw():
    from tablesense.sim.physics import Happening

    golf = _sim_after("golf", {"p1.1": (1.3, 0.45)}, [
        Happening(5.0, "goal", "p2.3", where="A"), Happening(5.5, "off_table", "p1.2"),
        Happening(7.0, "rest", positions={"p1.1": (1.3, 0.45)})])
    goal_q = {"id": "q1", "t": 5.0, "rule": "golf.goal", "goal": "A", "options": ["p1", "p2"]}
    assert golf.answer(goal_q) == "p2"
    assert golf.answer({"id": "q2", "t": 5.5, "rule": "golf.off-table.own", "options": ["p1", "p2"],
                        "text": "Whose ball left the table?"}) == "p1"
    # zone play: the only ball did not move, so no ball left its zone
    zone_q = {"id": "q3", "t": 7.0, "rule": "golf.zone.leave", "options": [True, False], "player": "p1"}
    assert golf.answer(zone_q) is False
    moved = _sim_after("golf", {"p1.1": (1.3, 0.45)},
                       [Happening(7.0, "rest", positions={"p1.1": (0.3, 0.1)})])
    assert moved.answer(zone_q) is True
    kegle = _sim_after("kegle", {}, [Happening(3.0, "pocket", "white.2", where=4)])
    assert kegle.answer({"id": "q1", "t": 3.0, "rule": "kegle.fault.red-in-hole", "pocket": 4,
                         "options": ["red", "white"]}) == "white"
    # what it cannot know: "no" when that is an option, else the first choice
    assert kegle.answer({"id": "q2", "t": 3.0, "rule": "x.y", "options": [True, False]}) is False
    assert golf.answer({"id": "q4", "t": 7.0, "rule": "golf.spot.choice", "options": [1, 2, 3]}) == 1
