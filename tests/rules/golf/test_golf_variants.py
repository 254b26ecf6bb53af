"""Golf billiards rules hold however the situation is logged. Each test names its rule id and
generates the ways a log may give the same situation: a strike sensor or none, rest positions
or none, contacts or none, a goal within the settle window or later, the lines of a shot in any
order (``t`` orders a shot's events), the referee's call before or after the table's rest. The
rule's outcome must not change."""

from __future__ import annotations

from typing import Any

from helpers.replaying import ev, replay_log, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense import games
from tablesense.rules.golf.geometry import REPLACEMENT_SPOTS, start_positions

SETUP = {"t": 0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}
GOLF = games.get("golf")
SETTLE_S, QUIET_S = GOLF.settle_s, GOLF.quiet_s  # the settle window and quiet time golf declares


def replay(lines: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    return replay_log(SETUP, lines)


def layout(n1: int = 5, n2: int = 5, moved: dict[str, Any] | None = None) -> dict[str, Any]:
    """Rest positions: ``n1`` and ``n2`` balls of each side in a row clear of triangles and spots;
    ``moved`` puts one ball of a side (side -> point) elsewhere."""
    out: dict[str, Any] = {"p1": [list(xy) for xy in start_positions("p1")[:n1]],
                           "p2": [list(xy) for xy in start_positions("p2")[:n2]]}
    for side, xy in (moved or {}).items():
        out[side][0] = list(xy)
    return out


# --- golf.goal.edge: a ball that drops after resting does not count ------------------------

@settings(max_examples=200, deadline=None)
@given(st.data(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([("p1", "B"), ("p2", "A"), (None, "B")]), st.booleans(), st.booleans())
def test_golf_goal_edge_a_drop_after_the_rest_leaves_the_shot_as_it_was_however_logged(
        data: Any, strike: bool, positions: bool, contact: bool, scored: bool,
        drop: tuple[str | None, str], soon: bool, call_before_rest: bool) -> None:
    """"Ball on the edge of the goal: if it drops before it comes to rest, the goal counts [...]
    In all other cases it does not count": a goal beam after the shot's rest (within the settle
    window, or later: then the referee's ``edge`` call says so on a table without a strike
    sensor), a second rest; the shot stands as it was, the drop does not count."""
    shot = [ev(1.0, "strike", ball="p1")] if strike else []
    if contact:
        shot.append(ev(1.3, "contact", balls=["p1", "p2"]))
    if scored:
        shot.append(ev(1.6, "goal", goal="B", ball="p1"))
    shot.append(ev(1.8, "cushion", cushion=1, ball=None))
    lines = list(data.draw(st.permutations(shot), label="the shot's lines"))
    where = layout(4 if scored else 5)
    lines.append(ev(4.0, "rest", **({"positions": where} if positions else {})))
    gap = data.draw(st.floats(0.05, SETTLE_S - 0.05) if soon else st.floats(SETTLE_S + 0.05, QUIET_S - 0.05),
                    label="the drop after the rest")
    ball, goal = drop
    lines.append(ev(4.0 + gap, "goal", goal=goal, ball=ball))
    call = ev(4.0 + gap + 0.5, "call", call="edge", ball=ball or "p1")
    if call_before_rest:
        lines.append(call)
    lines.append(ev(4.0 + gap + 2.0, "rest", **({"positions": where} if positions else {})))
    if not call_before_rest:
        lines.append(dict(call, t=round(4.0 + gap + 2.5, 6)))
    state, errors = replay(lines)
    assert errors == []
    assert state["balls_left"] == {"p1": 4 if scored else 5, "p2": 5}
    assert state["at_table"] == ("p1" if scored else "p2")
    assert state["questions"] == []
    assert rules(state).count("golf.goal.edge") == 1
    assert not any(r.startswith("golf.foul") or r == "golf.goal.opponent-ball" for r in rules(state))


def test_golf_goal_edge_a_goal_of_its_own_shot_is_annulled_by_the_call() -> None:
    """A shot whose ball rests on the goal edge and drops before the table's rest: the ``edge``
    call annuls that goal in the shot itself (no shot before it to give the drop to)."""
    state, errors = replay([ev(1.0, "goal", goal="B", ball="p1"), ev(2.0, "rest"),
                            ev(3.0, "call", call="edge", ball="p1")])
    assert errors == [] and state["balls_left"]["p1"] == 5 and state["at_table"] == "p2"
    # and long after the last rest a goal is the next shot's own, the call annuls it there
    state, errors = replay([ev(1.0, "cushion", cushion=1, ball=None), ev(2.0, "rest"),
                            ev(20.0, "goal", goal="A", ball="p2"), ev(22.0, "rest"),
                            ev(23.0, "call", call="edge", ball="p2")])
    assert errors == [] and state["balls_left"]["p2"] == 5 and state["at_table"] == "p1"


# --- golf.foul.own-ball: only directly onto one's own ball ------------------------------

@settings(max_examples=200, deadline=None)
@given(st.data(), st.booleans(), st.booleans(), st.sampled_from(["before", "after", "none"]),
       st.sampled_from(["p1", None]), st.booleans())
def test_golf_foul_own_ball_only_when_played_directly_onto_it(
        data: Any, strike: bool, positions: bool, cushion: str, cushion_ball: str | None,
        second_contact: bool) -> None:
    """"Playing one of your own balls directly onto another of your own balls costs the turn":
    a cushion before the first contact (in time, whatever the line order) means not directly."""
    shot = [ev(1.0, "strike", ball="p1")] if strike else []
    shot.append(ev(1.5, "contact", balls=["p1", "p1"]))
    if cushion != "none":
        shot.append(ev(1.2 if cushion == "before" else 1.8, "cushion", cushion=2, ball=cushion_ball))
    if second_contact:
        shot.append(ev(2.0, "contact", balls=["p1", "p2"]))
    lines = list(data.draw(st.permutations(shot), label="the shot's lines"))
    lines.append(ev(4.0, "rest", **({"positions": layout()} if positions else {})))
    state, errors = replay(lines)
    assert errors == []
    foul = cushion != "before"
    assert ("golf.foul.own-ball" in rules(state)) is foul
    assert state["at_table"] == "p2"  # no goal: the turn passes either way
    assert state["spots_waiting"] == (["p1"] if foul else [])


# --- golf.spot.choice: a spot a ball lies on is unusable ---------------------------------

@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.sampled_from(["own-goal", "jump"]), st.integers(1, 3), st.sampled_from(["p1", "p2"]),
       st.booleans(), st.booleans())
def test_golf_spot_choice_a_spot_a_ball_lies_on_cannot_be_named(
        strike: bool, foul: str, taken: int, owner: str, by_player: bool, layout_rest: bool) -> None:
    """"If the position of the other balls makes these replacement spots unusable": the last rest's
    positions show a ball on the spot: the opponent cannot name it (one clear line, the ball
    keeps waiting); a free spot is taken."""
    shot = [ev(1.0, "strike", ball="p1")] if strike else []
    shot.append(ev(1.2, "cushion", cushion=3, ball=None))
    if foul == "own-goal":
        shot.append(ev(1.5, "goal", goal="A", ball="p1"))
    else:
        shot.append(ev(1.5, "call", call="foul", foul="jump"))
    where = layout(4 if foul == "own-goal" else 5, moved={owner: REPLACEMENT_SPOTS["p1"][taken]})
    lines = [*shot, ev(4.0, "rest", positions=where)]
    if layout_rest:
        lines.append(ev(6.0, "rest", positions=where))  # the lay-out reported again: nothing moved
    name = {"player": "p2"} if by_player else {"ball": "p1"}
    lines.append(ev(8.0, "call", call="spot", spot=taken, **name))
    state, errors = replay(lines)
    assert len(errors) == 1 and f"replacement spot {taken} is unusable" in errors[0]
    assert state["spots_waiting"] == ["p1"] and state["replacements"] == []
    free = next(n for n in (1, 2, 3) if n != taken)
    lines.append(ev(9.0, "call", call="spot", spot=free, **name))
    state, errors = replay(lines)
    assert len(errors) == 1 and state["spots_waiting"] == []
    assert state["replacements"] == [{"ball": "p1", "spot": free}]


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.sampled_from([None, 2, 3]))
def test_golf_spot_repeat_skips_a_spot_a_ball_lies_on(strike: bool, taken: int | None) -> None:
    """"The first available replacement spot from which no foul shot has been played yet": in zone
    play p1 fouls from spot 1; spot 2 is next unless a ball lies on it (the rest's positions)."""
    def shot(t: float, *events: dict[str, Any]) -> list[dict[str, Any]]:
        played = [ev(t, "strike", ball="p1")] if strike else []
        return [*played, ev(t + 0.1, "cushion", cushion=3, ball=None), *events]

    lines = shot(1.0, *(ev(1.2 + k / 10, "goal", goal="B", ball="p1") for k in range(4)))
    lines += [ev(3.0, "rest")]  # four goals: p1 has one ball left, zone play
    lines += shot(10.0, ev(10.2, "call", call="foul", foul="push")) + [ev(12.0, "rest")]
    lines += [ev(13.0, "call", call="spot", ball="p1", spot=1)]  # p2 names spot 1
    lines += [ev(20.0, "strike", ball="p2")] if strike else []
    lines += [ev(20.2, "cushion", cushion=1, ball=None), ev(22.0, "rest")]  # p2 misses
    where = layout(1, 5, moved={"p2": REPLACEMENT_SPOTS["p1"][taken]} if taken else None)
    if taken == 3:  # spot 2 taken too: 3 is the next free one... and 4 when 3 is taken
        where["p2"][1] = list(REPLACEMENT_SPOTS["p1"][2])
    lines += shot(30.0, ev(30.2, "call", call="foul", foul="push")) + [ev(32.0, "rest", positions=where)]
    state, errors = replay(lines)
    assert errors == []
    repeat = [r for r in state["rulings"] if r["rule"] == "golf.spot.repeat"]
    assert repeat and repeat[-1]["from_spot"] == 1
    assert repeat[-1]["spot"] == {None: 2, 2: 3, 3: 4}[taken]
