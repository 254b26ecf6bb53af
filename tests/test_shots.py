"""The shot stage (tablesense.shots): the stream cut into shots and between-shot incidents,
the same cut in batch and one event at a time, and the consumers that read it (the pub's
log, the score sheet)."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense import games
from tablesense.events import parse_event, parse_line
from tablesense.pub import Pub
from tablesense.shots import SHOT_ROLES, Cutter, Role, cut, settle_window
from tablesense.store import Store
from tablesense.web.pages import rulings_html

ROOT = Path(__file__).resolve().parent.parent
MATCHES = sorted((ROOT / "tests" / "matches").glob("*/*.jsonl"))
PLAYERS = {"p1": "Ann", "p2": "Bob"}
KEGLE = {"t": 0, "type": "setup", "game": "kegle", "players": PLAYERS}
GOLF = {"t": 0, "type": "setup", "game": "golf", "players": PLAYERS}


def _roles(objs: list[dict[str, Any]], **kw: Any) -> list[str]:
    return [str(r) for r in cut([parse_event(o) for o in objs], **kw).roles]


def _old_regrouping(objs: list[dict[str, Any]]) -> list[tuple[str, tuple[int, ...]]]:
    """How pub.log_items grouped a log before the shot stage: by ``rest``, calls alone."""
    items: list[tuple[str, tuple[int, ...]]] = []
    group: list[int] = []
    for n, o in enumerate(objs, start=1):
        if o.get("type") in ("call", "setup"):
            if group:
                items.append(("shot", tuple(group)))
                group = []
            items.append(("call", (n,)))
            continue
        group.append(n)
        if o.get("type") == "rest":
            items.append(("shot", tuple(group)))
            group = []
    if group:
        items.append(("shot", tuple(group)))
    return items


def _log_objects(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            obj = None
        out.append(obj if isinstance(obj, dict) else {"type": "unreadable"})
    return out


def test_recorded_matches_cut_as_the_old_regrouping_where_nothing_settles_late() -> None:
    """No recorded match has a late settle; the one difference is that pins set up between
    shots are an incident of their own, where the old regrouping put them into the next
    shot (or, ending in a rest, made a shot of them)."""
    assert MATCHES
    incidents = 0
    for path in MATCHES:
        objs = _log_objects(path)
        result = cut(objs)
        assert Role.SETTLE not in result.roles, path.name
        merged: list[tuple[str, tuple[int, ...]]] = []
        pending: tuple[int, ...] = ()
        for p in result.pieces:
            kind = "call" if p.kind in ("call", "setup", "void") else "shot"
            if pending and kind == "call":
                merged.append(("shot", pending))  # the old regrouping made a shot of it
                pending = ()
            seqs = pending + p.seqs
            pending = ()
            if p.kind == "incident":
                incidents += 1
                if p.events[-1].get("type") != "rest":
                    pending = seqs  # the old regrouping ran it into the next shot
                    continue
            merged.append((kind, seqs))
        if pending:
            merged.append(("shot", pending))
        assert merged == _old_regrouping(objs), path.name
    assert incidents > 10  # the kegle logs set pins up


def test_recorded_matches_parse_and_cut_alike_as_events_and_as_json() -> None:
    for path in MATCHES:
        objs, events = [], []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(parse_line(line))
            except Exception:
                continue
            objs.append(json.loads(line))
        assert cut(objs).roles == cut(events).roles, path.name


def test_a_pin_that_falls_just_after_the_rest_belongs_to_that_shot() -> None:
    """Keglebillard 7.8: a shot is complete once all balls and pins are still. The table
    reports a rest again after the pin has fallen; that rest ends the settle."""
    objs = [KEGLE,
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 3.0, "type": "rest"},
            {"t": 3.6, "type": "pin", "pin": 3, "state": "down"},
            {"t": 5.6, "type": "rest"},
            {"t": 9.0, "type": "cushion", "cushion": 1, "ball": "red"},
            {"t": 11.0, "type": "rest"}]
    result = cut([parse_event(o) for o in objs])
    assert [str(r) for r in result.roles] == ["setup", "open", "rest", "settle", "settle", "open", "rest"]
    first, second = result.shots
    assert (first.number, first.first, first.last) == (1, 2, 5)
    assert [e.type for e in first.play] == ["cushion", "rest"]
    assert [(e.type, e.t) for e in first.settled] == [("pin", 3.6), ("rest", 5.6)]
    assert first.complete and second.seqs == (6, 7)
    assert result.incidents == ()


def test_a_golf_ball_dropping_off_the_goal_edge_after_the_rest_is_part_of_its_shot() -> None:
    objs = [GOLF,
            {"t": 1.0, "type": "cushion", "cushion": 1, "ball": None},
            {"t": 4.0, "type": "rest"},
            {"t": 4.5, "type": "goal", "goal": "B", "ball": "p1"},
            {"t": 6.0, "type": "rest"}]
    assert _roles(objs) == ["setup", "open", "rest", "settle", "settle"]


def test_a_drop_after_the_settle_window_is_a_new_shot_on_a_table_without_strike_sensor() -> None:
    """The sensors alone cannot tell a late drop from the next shot's first event: after the
    window the cut takes it for a new shot (the referee's call says otherwise)."""
    window = settle_window("kegle")
    objs = [KEGLE,
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 3.0, "type": "rest"},
            {"t": 3.0 + window, "type": "pin", "pin": 3, "state": "down"},
            {"t": 6.0, "type": "rest"}]
    assert _roles(objs) == ["setup", "open", "rest", "open", "rest"]
    # a ball moving (a cushion) is never a settle, however soon
    objs[3] = {"t": 3.1, "type": "cushion", "cushion": 2, "ball": "red"}
    assert _roles(objs) == ["setup", "open", "rest", "open", "rest"]


def test_the_settle_window_is_half_the_profiles_quiet_time() -> None:
    for game in games.every():
        toml = ROOT / "hardware" / "profiles" / f"{game.name}.toml"
        profile = tomllib.loads(toml.read_text(encoding="utf-8"))
        assert profile["rest_quiet_ms"] / 1000 == game.quiet_s, game.name
        assert settle_window(game.name) == game.quiet_s / 2
    assert Cutter(game="kegle").settle_s == 1.0 and Cutter(game="kegle", window=3.0).settle_s == 3.0


def test_pins_set_up_between_shots_are_an_incident() -> None:
    """Keglebillard 7.7/6.4: the pin referee setting pins up plays no ball; the rest the
    table reports after his hands closes the incident. The next ball event opens shot 2."""
    objs = [KEGLE,
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 2.0, "type": "pin", "pin": 1, "state": "down"},
            {"t": 4.0, "type": "rest"},
            {"t": 8.0, "type": "pin", "pin": 1, "state": "up"},
            {"t": 10.0, "type": "rest"},
            {"t": 15.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 17.0, "type": "rest"}]
    result = cut([parse_event(o) for o in objs])
    assert [str(r) for r in result.roles] == [
        "setup", "open", "play", "rest", "incident", "incident", "open", "rest"]
    (incident,) = result.incidents
    assert (incident.after, incident.seqs) == (1, (5, 6))
    assert [s.seqs for s in result.shots] == [(2, 3, 4), (7, 8)]


def test_a_pin_set_up_within_the_window_is_an_incident_and_ends_the_settle() -> None:
    objs = [KEGLE,
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 2.0, "type": "pin", "pin": 1, "state": "down"},
            {"t": 4.0, "type": "rest"},
            {"t": 4.2, "type": "pin", "pin": 1, "state": "up"},  # set up: it fell in the shot
            {"t": 4.4, "type": "pin", "pin": 2, "state": "down"}]  # after the referee's hands: a shot
    assert _roles(objs) == ["setup", "open", "play", "rest", "incident", "open"]


def test_a_pin_that_falls_late_and_rocks_back_up_is_all_in_the_settle() -> None:
    objs = [KEGLE,
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 4.0, "type": "rest"},
            {"t": 4.3, "type": "pin", "pin": 2, "state": "down"},
            {"t": 4.6, "type": "pin", "pin": 2, "state": "up"},
            {"t": 6.6, "type": "rest"}]
    assert _roles(objs) == ["setup", "open", "rest", "settle", "settle", "settle"]


def test_with_a_strike_sensor_a_drop_or_a_pin_without_a_strike_opens_no_shot() -> None:
    """A ball that lay still dropping (keglebillard 10.2) or a pin the pin referee knocks over
    (7.7) happens with no strike: an incident. A rest with nothing open closes it. A ball seen
    rolling (a cushion) is a shot whose strike the source missed."""
    objs = [KEGLE,
            {"t": 1.0, "type": "strike", "ball": "red"},
            {"t": 1.5, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 4.0, "type": "rest"},
            {"t": 4.2, "type": "pocket", "pocket": 3, "ball": "white"},  # settles: within the window
            {"t": 9.0, "type": "pocket", "pocket": 4, "ball": "red"},  # lay still, then dropped
            {"t": 11.0, "type": "rest"},
            {"t": 12.0, "type": "pin", "pin": 2, "state": "down"},  # the pin referee's hands
            {"t": 12.5, "type": "pin", "pin": 2, "state": "up"},
            {"t": 20.0, "type": "strike", "ball": "red"},
            {"t": 20.5, "type": "strike", "ball": "red"},  # a double hit: the same shot
            {"t": 23.0, "type": "rest"},
            {"t": 27.0, "type": "rest"},  # nothing open, no strike: no shot
            {"t": 30.0, "type": "cushion", "cushion": 1, "ball": "red"},  # the strike was missed
            {"t": 32.0, "type": "rest"}]
    expected = ["setup", "open", "play", "rest", "settle", "incident", "incident", "incident", "incident",
                "open", "play", "rest", "incident", "open", "rest"]
    assert _roles(objs, strike_sensor=True) == expected
    # a table that has reported a strike in this match has a strike sensor
    assert _roles(objs) == expected
    result = cut([parse_event(o) for o in objs])
    assert [i.seqs for i in result.incidents] == [(6, 7, 8, 9), (13,)]
    # without a strike the late drop and the pins open shots of their own
    no_strike = [o for o in objs if o["type"] != "strike"]
    assert _roles(no_strike) == ["setup", "open", "rest", "settle", "open", "rest", "open", "play", "rest",
                                 "empty", "open", "rest"]


def test_the_first_strike_teaches_the_cut_wherever_it_comes_in_its_shot() -> None:
    cutter = Cutter(game="kegle")
    for obj in ({"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
                {"t": 0.9, "type": "strike", "ball": "red"},  # listed after the cushion it caused
                {"t": 3.0, "type": "rest"}):
        _, cutter = cutter.feed(parse_event(obj))
    assert cutter.has_strike_sensor
    role, cutter = cutter.feed(parse_event({"t": 9.0, "type": "pocket", "pocket": 1, "ball": "red"}))
    assert role is Role.INCIDENT
    _, cutter = cutter.feed(parse_event({**KEGLE, "t": 20.0}))  # a new match: learnt again
    assert not cutter.has_strike_sensor


def test_a_rest_with_nothing_open_is_a_shot_without_sensor_events() -> None:
    objs = [KEGLE, {"t": 1.0, "type": "rest"}, {"t": 9.0, "type": "rest"}]
    result = cut(objs)
    assert [str(r) for r in result.roles] == ["setup", "empty", "empty"]
    assert [s.number for s in result.shots] == [1, 2] and all(s.complete for s in result.shots)


def test_calls_are_placed_after_their_shot_and_do_not_end_its_settle() -> None:
    objs = [KEGLE,
            {"t": 0.5, "type": "call", "call": "start", "player": "p2"},
            {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 2.0, "type": "call", "call": "foul", "foul": "touch"},  # during the shot
            {"t": 3.0, "type": "rest"},
            {"t": 3.2, "type": "call", "call": "carom"},  # after the rest: about shot 1
            {"t": 3.5, "type": "pin", "pin": 4, "state": "down"}]
    result = cut([parse_event(o) for o in objs])
    assert [str(r) for r in result.roles] == ["setup", "call", "open", "call", "rest", "call", "settle"]
    assert list(result.numbers) == [0, 0, 1, 1, 1, 1, 1]
    assert [(p.kind, p.shot, p.seqs) for p in result.pieces] == [
        ("setup", 0, (1,)), ("call", 0, (2,)), ("shot", 1, (3,)), ("call", 1, (4,)), ("shot", 1, (5,)),
        ("call", 1, (6,)), ("shot", 1, (7,))]
    (shot,) = result.shots
    assert shot.seqs == (3, 5, 7) and [e.type for e in shot.settled] == ["pin"]


def test_void_records_are_marked_and_a_new_setup_numbers_from_one() -> None:
    objs = [GOLF,
            {"t": 1.0, "type": "goal", "goal": "B", "ball": "p1"},
            {"t": 2.0, "type": "rest"},
            {"t": 9.0, "type": "call", "call": "void", "from": 2, "to": 3},
            {"t": 10.0, "type": "setup", "game": "kegle", "players": PLAYERS},
            {"t": 11.0, "type": "cushion", "cushion": 1, "ball": "red"}]
    result = cut(objs, seqs=[1, 2, 3, 4, 1, 2])
    assert [str(r) for r in result.roles] == ["setup", "open", "rest", "void", "setup", "open"]
    assert [(s.number, s.seqs) for s in result.shots] == [(1, (2, 3)), (1, (2,))]


def test_feeding_one_event_at_a_time_costs_nothing_inside_a_shot() -> None:
    cutter = Cutter(game="carom")
    role, cutter = cutter.feed(parse_event({"t": 1.0, "type": "strike", "ball": "white"}))
    assert role is Role.OPEN and cutter.in_shot and cutter.shot == 1
    for event in (parse_event({"t": 1.1, "type": "cushion", "cushion": 1, "ball": "white"}),
                  parse_event({"t": 1.2, "type": "call", "call": "carom"})):
        role, again = cutter.feed(event)
        assert again is cutter and role in (Role.PLAY, Role.CALL)
    role, cutter = cutter.feed(parse_event({"t": 3.0, "type": "rest"}))
    assert role is Role.REST and not cutter.in_shot


_T = st.sampled_from([0.0, 0.1, 0.4, 0.9, 1.6, 5.0])
_EVENT = st.one_of(
    st.builds(lambda: {"type": "rest"}),
    st.builds(lambda: {"type": "strike", "ball": "red"}),
    st.builds(lambda c: {"type": "cushion", "cushion": c, "ball": None}, st.integers(1, 4)),
    st.builds(lambda p: {"type": "pocket", "pocket": p, "ball": "white"}, st.integers(1, 6)),
    st.builds(lambda g: {"type": "goal", "goal": g, "ball": None}, st.sampled_from("AB")),
    st.builds(lambda p, s: {"type": "pin", "pin": p, "state": s}, st.integers(1, 5),
              st.sampled_from(["up", "down"])),
    st.builds(lambda c: {"type": "call", "call": c}, st.sampled_from(["carom", "undo", "void"])),
    st.builds(lambda g: {"type": "setup", "game": g, "players": PLAYERS}, st.sampled_from(["golf", "kegle"])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_T, _EVENT), max_size=40), st.booleans())
def test_the_cut_partitions_the_stream_in_order(steps: list[tuple[float, dict[str, Any]]],
                                                strike: bool) -> None:
    t, objs = 0.0, []
    for dt, obj in steps:
        t += dt
        objs.append({"t": round(t, 6), **obj})
    result = cut(objs, strike_sensor=strike)
    n = len(objs)
    # the pieces are the stream, in order, each event once
    assert [s for p in result.pieces for s in p.seqs] == list(range(1, n + 1))
    # every table event is in exactly one shot or incident; calls and set-ups in none
    owned = [s for shot in result.shots for s in shot.seqs] + [s for i in result.incidents for s in i.seqs]
    table = [i + 1 for i, o in enumerate(objs) if o["type"] not in ("call", "setup")]
    assert sorted(owned) == table and len(owned) == len(set(owned))
    for shot in result.shots:
        assert list(shot.seqs) == sorted(shot.seqs)
        assert shot.roles[0] in (Role.OPEN, Role.EMPTY) and set(shot.roles) <= SHOT_ROLES
    # one event at a time gives the same roles
    cutter, roles = Cutter(strike_sensor=strike), []
    for obj in objs:
        role, cutter = cutter.feed(obj)
        roles.append(role)
    assert tuple(roles) == result.roles


# --- the consumers ------------------------------------------------------------------------

def _kegle_pub(tmp_path: Path) -> Pub:
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    pub.start_match("1", {"game": "kegle", "players": PLAYERS, "t": 0.0})
    return pub


def _submit(pub: Pub, *objs: dict[str, Any]) -> None:
    for o in objs:
        pub.submit("1", parse_event(o))


def test_pub_log_puts_a_late_pin_into_its_shot_and_pins_set_up_as_an_incident(tmp_path: Path) -> None:
    pub = _kegle_pub(tmp_path)
    _submit(pub, {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 3.0, "type": "rest"},
            {"t": 3.4, "type": "pin", "pin": 3, "state": "down"},  # wobbled, fell: shot 1 (seed 7.8)
            {"t": 5.4, "type": "rest"},
            {"t": 8.0, "type": "pin", "pin": 3, "state": "up"})  # the pin referee
    pub.call("1", {"call": "carom"})
    _submit(pub, {"t": 12.0, "type": "cushion", "cushion": 1, "ball": "red"}, {"t": 14.0, "type": "rest"})
    items = pub.log_items("1")
    assert [(i["kind"], i["shot"], i["first"], i["last"]) for i in items] == [
        ("shot", 1, 2, 5), ("incident", 1, 6, 6), ("call", 1, 7, 7), ("shot", 2, 8, 9)]
    assert [e["type"] for e in items[0]["events"]] == ["cushion", "rest", "pin", "rest"]


def test_score_sheet_counts_a_call_after_pins_set_up_to_the_shot_before(tmp_path: Path) -> None:
    """The old sheet began shot 2 at the pin referee's hands, so the late carambole went to it."""
    pub = _kegle_pub(tmp_path)
    _submit(pub, {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
            {"t": 3.0, "type": "rest"},
            {"t": 4.0, "type": "pin", "pin": 1, "state": "up"})
    pub.call("1", {"call": "carom"})
    match = pub.table("1").match
    assert match is not None
    html = rulings_html(match, pub.export_lines(match.id), "en")
    assert "<code>kegle.carambole</code>" in html
    row = next(r for r in html.split("<tr>") if "kegle.carambole" in r)
    assert row.startswith("<td class=num>1</td>")


def test_replay_account_keeps_a_late_settle_in_its_shot_and_names_an_incident(
        tablesense_cmd: list[str], tmp_path: Path) -> None:
    """Before the shot stage the account printed "shot 2" at the rest after the late pin
    and "shot 3" at the rest after the pin referee's hands; the next shot was "shot 4"."""
    log = tmp_path / "kegle.jsonl"
    log.write_text("\n".join(json.dumps(o) for o in [
        {**KEGLE, "distance": 50},
        {"t": 1.0, "type": "cushion", "cushion": 2, "ball": "red"},
        {"t": 3.0, "type": "rest"},
        {"t": 3.4, "type": "pin", "pin": 3, "state": "down"},
        {"t": 5.4, "type": "rest"},
        {"t": 8.0, "type": "pin", "pin": 3, "state": "up"},
        {"t": 10.0, "type": "rest"},
        {"t": 15.0, "type": "cushion", "cushion": 2, "ball": "red"},
        {"t": 17.0, "type": "rest"},
    ]) + "\n")
    proc = subprocess.run([*tablesense_cmd, "replay", str(log)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    heads = [line.split(":")[0] for line in proc.stdout.splitlines()
             if not line.startswith(("  ", "match", "result"))]
    assert heads == ["shot 1", "shot 1 settled", "between shots", "shot 2"]
