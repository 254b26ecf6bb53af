"""Carom rules hold however the situation is logged. Each test names its rule id and generates
the ways a log may give the same situation: a strike or none, contacts or none, rest positions
or none (and where the balls lay), the fault seen by a sensor or called by the referee during
the shot or after its rest, the lines of a shot in any order, both club profiles. The rule's
outcome must not change."""

from __future__ import annotations

from typing import Any

from helpers.replaying import ev, replay_log
from hypothesis import given, settings
from hypothesis import strategies as st

PLAYERS = {"p1": "Ann", "p2": "Bob"}
ZONES = ("carom.zone", "carom.zone.entree", "carom.zone.dedans", "carom.zone.line")
#: both object balls of p2 (white cue: red and yellow) in the corner zone by the head cushion
P2_OBJECTS_IN_ZONE = {"white": [1.0, 0.7], "red": [0.05, 0.08], "yellow": [0.1, 0.05]}
#: both object balls of p1 (yellow cue: red and white) in that zone
P1_OBJECTS_IN_ZONE = {"yellow": [1.0, 0.7], "red": [0.05, 0.08], "white": [0.1, 0.05]}


# --- carom.jump (003 Art. 4, 5.7): no zone judged where the balls lay ---------------------

@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(["kampioen", "liemers"]), st.sampled_from(["libre", "driebanden"]),
       st.sampled_from(["off_table", "call-during", "call-after"]), st.sampled_from(["p2", "p1", None]),
       st.booleans(), st.booleans(), st.booleans())
def test_carom_jump_no_zone_ruling_from_where_the_balls_lay(
        data: Any, profile: str, discipline: str, how: str, zone_of: str | None, strike: bool,
        contacts: bool, placed: bool) -> None:
    """After a jumped ball the balls go to their spots (kampioen: all three to the outlay;
    liemers libre too, driebanden the jumped ball): no ENTREE, DEDANS or zone ruling is judged
    on where they lay at the jump's rest, whoever's object balls lay in a corner."""
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline, "profile": profile,
             "players": PLAYERS, "targets": {"p1": 30, "p2": 30}}
    lines = []
    if placed:  # the balls placed for the first shot
        placed_at = {"yellow": [1.0, 0.3], "white": [1.2, 0.7], "red": [2.0, 0.7]}
        lines.append(ev(0.5, "rest", positions=placed_at))
    shot = [ev(1.2, "cushion", cushion=1, ball="yellow")]
    if strike:
        shot.append(ev(1.0, "strike", ball="yellow"))
    if contacts:
        shot.append(ev(1.4, "contact", balls=["yellow", "red"]))
    if how == "off_table":
        shot.append(ev(1.6, "off_table", ball="white"))
    lines += data.draw(st.permutations(shot), label="the shot's lines")
    if how == "call-during":
        lines.append(ev(1.7, "call", call="foul", foul="jump"))
    where = {"p2": P2_OBJECTS_IN_ZONE, "p1": P1_OBJECTS_IN_ZONE}.get(zone_of or "")
    lines.append(ev(3.0, "rest", **({"positions": where} if where else {})))
    if how == "call-after":
        lines.append(ev(3.5, "call", call="foul", foul="jump"))
    state, errors = replay_log(setup, lines)
    assert errors == []
    jump = next(r for r in state["rulings"] if r["rule"].startswith("carom.jump"))
    assert not [r for r in state["rulings"] if r["rule"] in ZONES and r["t"] >= 1.0], state["rulings"]
    assert jump["player"] == "p1" and state["at_table"] == "p2"
    assert state["zone"] is None and state["entree"] is False and state["dedans"] is False
    if discipline == "libre":
        assert state["from_outlay"] is True


def test_carom_zone_entree_still_judged_after_a_plain_miss() -> None:
    """The same lay-out after a miss without a jump: the next player's ENTREE is announced."""
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": "libre", "profile": "kampioen",
             "players": PLAYERS, "targets": {"p1": 30, "p2": 30}}
    state, errors = replay_log(setup, [ev(1.2, "cushion", cushion=1, ball="yellow"),
                                   ev(3.0, "rest", positions=P2_OBJECTS_IN_ZONE)])
    assert errors == [] and state["entree"] is True and state["at_table"] == "p2"
    assert any(r["rule"] == "carom.zone.entree" and r["player"] == "p2" for r in state["rulings"])


# --- carom.countdown (004): before the first inning too ---------------------------------

@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["libre", "bandstoten", "driebanden"]), st.integers(1, 8), st.integers(1, 8),
       st.sampled_from([None, "p1", "p2"]), st.booleans())
def test_carom_countdown_warns_before_the_first_inning_as_well(
        discipline: str, target1: int, target2: int, start: str | None, strike: bool) -> None:
    """004: the referee warns a player with 5-4-3-2-1 caroms to make (driebanden 3-2-1); a
    player whose whole target is within that is warned before his first inning, not only from
    the second on; with a ``start`` call, the player who breaks."""
    announce = 3 if discipline == "driebanden" else 5
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": discipline, "profile": "liemers",
             "players": PLAYERS, "targets": {"p1": target1, "p2": target2}}
    lines = [ev(0.5, "call", call="start", player=start)] if start else []
    state, errors = replay_log(setup, lines)
    first = start or "p1"
    other = "p2" if first == "p1" else "p1"
    targets = {"p1": target1, "p2": target2}

    def warned(s: dict[str, Any], player: str) -> list[int]:
        return [r["left"] for r in s["rulings"] if r["rule"] == "carom.countdown" and r["player"] == player]

    assert errors == []
    assert warned(state, first) == ([targets[first]] if targets[first] <= announce else [])
    assert warned(state, other) == []
    assert state["countdown"] == (targets[first] if targets[first] <= announce else None)
    # the breaker misses: the other player is warned before his first inning
    played = [ev(1.0, "strike", ball="yellow" if first == "p1" else "white")] if strike else []
    miss = [*played, ev(1.2, "cushion", cushion=1, ball=None), ev(3.0, "rest")]
    state, errors = replay_log(setup, [*lines, *miss])
    assert errors == [] and state["at_table"] == other
    assert warned(state, other) == ([targets[other]] if targets[other] <= announce else [])
    assert warned(state, first) == ([targets[first]] if targets[first] <= announce else [])


# --- a shot the referee's call alone made, closed by the table's rest ----------------------

@settings(max_examples=40, deadline=None)
@given(st.booleans(), st.booleans(), st.booleans())
def test_carom_carom_call_alone_is_a_shot_closed_by_the_tables_rest_with_strikes_or_without(
        strike: bool, positions: bool, placed: bool) -> None:
    """carom.carom by the referee's call for the player now at the table (a shot the sensors did
    not see): the rest the table reports after it closes that shot, also on a table that reports
    strikes, where a rest with nothing open is otherwise no shot; its positions count."""
    setup = {"t": 0, "type": "setup", "game": "carom", "discipline": "libre", "profile": "kampioen",
             "players": PLAYERS, "targets": {"p1": 30, "p2": 30}}
    where = {"yellow": [1.0, 0.3], "white": [1.2, 0.7], "red": [2.0, 0.7]}
    lines = [ev(0.5, "rest", positions=where)] if placed else []
    lines += [ev(1.0, "strike", ball="yellow")] if strike else []
    lines += [ev(1.2, "cushion", cushion=1, ball="yellow"), ev(3.0, "rest"),
              ev(5.0, "call", call="carom", player="p2"),
              ev(6.0, "rest", **({"positions": P1_OBJECTS_IN_ZONE} if positions else {}))]
    state, errors = replay_log(setup, lines)
    assert errors == []
    assert state["caroms"] == {"p1": 0, "p2": 1} and state["at_table"] == "p2"
    assert [r["t"] for r in state["rulings"] if r["rule"] == "carom.carom"] == [6.0]
