"""Golf's rule checks: each a small pure function named for the rule it decides.

Each docstring starts with the seed paragraph(s) and the catalogue id(s) it decides
(``Seed "Scoring", golf.goal.edge: ...``, as seeds/golf.md's ``seed`` column writes them;
tests/rules/golf/test_golf_faults.py holds them to it). ``resolve.py`` walks a shot through them in
the order of the rule text; the checks on the balls' positions (zones, triangles,
replacement spots) are in ``positions.py``, the fouls a referee calls and what each costs
in ``fouls.py``. No state, no rulings here: the inputs are plain values of one shot.
"""

from __future__ import annotations

from typing import Any

from .geometry import ATTACKS

#: a ball's ``(t, goal, ball)`` or ``(t, ball, ...)`` record of one shot
Item = tuple[Any, ...]


# --- scoring --------------------------------------------------------------------------

def valid_goal(ball: str, goal: str, shooter: str) -> bool:
    """Seed "How you win; Scoring", golf.goal: the shooter's own ball, regularly played, into
    the goal they attack (p1 into B, p2 into A) is a valid goal."""
    return ball == shooter and goal == ATTACKS[shooter]


def own_goal(ball: str, goal: str, shooter: str) -> bool:
    """Seed "How you win; Scoring", golf.own-goal: the shooter's own ball into their own
    (defending) goal does not count; it goes on a replacement spot and the turn is over."""
    return ball == shooter and goal != ATTACKS[shooter]


def opponent_ball_goal(ball: str, shooter: str) -> bool:
    """Seed "How you win; Scoring", golf.goal.opponent-ball: an opponent's ball that drops
    into either goal counts for the opponent."""
    return ball != shooter


def keeps_turn(valid_own: bool, fouled: bool, own_goal: bool, own_off: bool, opp_off: bool,
               own_wedged: bool) -> bool:
    """Seed "What is golf billiards?; Scoring", golf.turn: only a valid goal of one's own keeps
    the player at the table, and anything else in the shot that costs the turn (a foul, an own
    goal, a ball off the table, one's own ball wedged in the defending goal) ends it all the
    same."""
    return valid_own and not (fouled or own_goal or own_off or opp_off or own_wedged)


def edge_annulled(late: list[Item], goals: list[Item], ball: str) -> tuple[str, int] | None:
    """Seed "Scoring", golf.goal.edge: a ball on the goal's edge that drops after it came to
    rest does not count. The referee's ``edge`` call for ``ball``: ``("late", j)`` when the
    cut already placed that drop after the rest (``late[j]``, a late settle: nothing more to
    annul), ``("goal", j)`` for the shot's last goal of that ball, which it annuls; None when
    neither is there."""
    j = last_of(late, 2, ball)
    if j is None:
        j = last_of(late, 2, None)
    if j is not None:
        return "late", j
    j = last_of(goals, 2, ball)
    return None if j is None else ("goal", j)


def late_drop_of_last_shot(first_drop_t: float, last_rest_t: float, quiet_s: float) -> bool:
    """Seed "Scoring", golf.goal.edge: a unit of goals alone that the referee says dropped after
    resting, whose first drop came within the table's quiet time of the last shot's rest (the
    rest, or its last late settle), is that shot's late drop, not a shot of its own."""
    return first_drop_t - last_rest_t < quiet_s


# --- off the table, wedged --------------------------------------------------------------

def own_ball_off(ball: str, shooter: str) -> bool:
    """Seed "Fouls", golf.off-table.own: the shooter's own ball sent off the table goes on a
    replacement spot; a valid goal of the same shot costs the turn (the goal counts)."""
    return ball == shooter


def opponent_ball_off(ball: str, shooter: str) -> bool:
    """Seed "Fouls", golf.off-table.opponent: the opponent's ball sent off the table goes into
    the goal (it counts for the opponent); the ball played goes on a replacement spot."""
    return ball != shooter


def off_on_cushion(source: str) -> bool:
    """Seed "Fouls", golf.off-table.on-cushion: a ball that stays on the cushion, a goal peg or
    the goal cap counts as played off the table: the referee's ``off_table`` call says so."""
    return source == "call"


def rail_return(offs: list[Item], ball: str) -> int | None:
    """Seed "Fouls", golf.off-table.rail-return: a ball that comes back onto the bed off the
    wooden rail is not penalised: the shot's last off-table of ``ball`` (its index in
    ``offs``) is cancelled; None when the shot has none."""
    return last_of(offs, 1, ball)


def one_one_lost(balls_left_before: tuple[int, int], opp_off: bool, valid_own: bool) -> bool:
    """Seed "Fouls", golf.off-table.one-one: at 1/1, sending the opponent's ball off the table
    and scoring a valid goal in the same shot costs the frame."""
    return balls_left_before == (1, 1) and opp_off and valid_own


def wedged(where: str) -> str:
    """Seed "Fouls", golf.wedged.attacking-goal, golf.wedged.defending-goal, golf.wedged.cushion:
    a ball wedged between the pegs of the goal it attacks is a valid goal; between the goal pegs
    of its owner's defending goal it goes on a replacement spot; between a peg and the short
    cushion it is freed and laid loose, no penalty. The rule for ``where`` the referee says."""
    if where == "attacking":
        return "golf.wedged.attacking-goal"
    if where == "defending":
        return "golf.wedged.defending-goal"
    return "golf.wedged.cushion"


# --- fouls the sensors see ----------------------------------------------------------------

def played_opponent_ball(strike: str | None, shooter: str) -> bool:
    """Seed "Aiming", golf.foul.opponent-ball: the cue struck an opponent's ball."""
    return strike is not None and strike != shooter


def played_onto_own_ball(first_contact: tuple[str, ...] | None, shooter: str) -> bool:
    """Seed "Playing on your own ball", golf.foul.own-ball: the shot's first contact, with no
    cushion before it, is between two of the shooter's own balls."""
    return first_contact == (shooter, shooter)


def touch_foul(foul_id: str, zone: bool, standalone: bool) -> str:
    """Seed "Touch", golf.foul.touch, golf.foul.touch.own-ball, golf.foul.touch.opponent-ball,
    golf.foul.touch.no-shot: touching one's own or the opponent's ball is a zone-play rule;
    before zone play it is the plain touch. A touch that stands alone (no shot played) is the
    touch without a shot: "Touching a ball without playing a shot costs the turn as well, and
    all moved balls are put back" (no ball played, so none on a replacement spot). The foul a
    called ``foul_id`` is."""
    if standalone and foul_id in _TOUCHES:
        return "golf.foul.touch.no-shot"
    if not zone and foul_id in _ZONE_TOUCHES:
        return "golf.foul.touch"
    return foul_id


_ZONE_TOUCHES = frozenset({"golf.foul.touch.own-ball", "golf.foul.touch.opponent-ball"})
_TOUCHES = frozenset({"golf.foul.touch", *_ZONE_TOUCHES})


def zone_obligation_open(zone: bool, scored_or_off: bool, fouled: bool) -> bool:
    """Seed "Zone play: Obligations", golf.zone.leave: in zone play at least one ball must leave
    its zone with every shot; a ball that dropped into a goal (or left the table) has changed
    zone, and a shot already fouled is not judged again. True when the positions must show a
    ball that left its zone (``positions.zone_left``)."""
    return zone and not scored_or_off and not fouled


# --- the frame, the match, zone play ----------------------------------------------------------

def zone_play(balls_left: tuple[int, int] | list[int]) -> bool:
    """Seed "Zone play: Start of zone play", golf.zone.play: zone play starts as soon as either
    player has only one ball left, and lasts to the end of the frame."""
    return 1 in balls_left


def frame_won_by(balls_left: tuple[int, int] | list[int]) -> str | None:
    """Seed "How you win", golf.frame.won: a player who has scored their last ball wins the
    frame once the balls rest; None while both have balls (both out: ``first_out``)."""
    if balls_left[0] == 0:
        return "p1"
    if balls_left[1] == 0:
        return "p2"
    return None


def first_out(zero_t: tuple[float, float], zero_k: tuple[int, int]) -> str:
    """Seed "How you win; Scoring", golf.frame.double-finish: one shot leaves both players
    without balls: the frame goes to the player whose last ball dropped first, on ``t`` (at the
    very same ``t``, the goal listed first in the log)."""
    return "p1" if (zero_t[0], zero_k[0]) < (zero_t[1], zero_k[1]) else "p2"


def frame_winner(one_one: bool, other: str, balls_left: tuple[int, int] | list[int],
                 zero_t: tuple[float | None, float | None] | list[float | None],
                 zero_k: tuple[int, int] | list[int]) -> tuple[str | None, tuple[float, int] | None]:
    """Who wins the frame after a shot, and, for a double finish, when and by how many µs:
    golf.off-table.one-one (``other``, the shooter's opponent), golf.frame.double-finish
    (``first_out``, of the times and places in the log each player's last ball dropped),
    golf.frame.won; None while both have balls."""
    if one_one:
        return other, None
    if balls_left[0] == 0 and balls_left[1] == 0:
        t1, t2 = zero_t
        assert t1 is not None and t2 is not None
        return first_out((t1, t2), (zero_k[0], zero_k[1])), (min(t1, t2), round(abs(t1 - t2) * 1e6))
    return frame_won_by(balls_left), None


def members_after(members: tuple[int, int], duo: bool, stays: bool, shooter: int) -> tuple[int, int]:
    """golf's pairs: the member of each side at the table; a shooter's side that loses the turn
    sends its other member next time (``shooter``: 0 for p1, 1 for p2)."""
    if stays or not duo:
        return members
    return (1 - members[0], members[1]) if shooter == 0 else (members[0], 1 - members[1])


def match_won(frames_won: int, frames_to_win: int) -> bool:
    """Seed "How you win", golf.match.won: a match is played to two winning frames."""
    return frames_won >= frames_to_win


def opener(frame: int, first_opener: str) -> str:
    """Seed "Duo matches: The opening shot (our reading for singles)", golf.frame.opening: the
    player who opened frame 1 does not open frame 2; the deciding frame is opened as frame 1
    (unless a ``start`` call decides again)."""
    if frame == 2:
        return "p2" if first_opener == "p1" else "p1"
    return first_opener


def deciding_start(duo: bool, frame: int) -> bool:
    """Seed "Duo matches: The opening shot", golf.duo.deciding: in a duo's deciding frame each
    duo decides again who opens: a ``start`` call then is that decision (else the frame's
    opening, ``golf.frame.opening``)."""
    return duo and frame == 3


# --- replacement spots ----------------------------------------------------------------------------

def spot_repeats(zone: bool, owner: str, shooter: str, fouled: bool, placed: int | None,
                 balls_left: int) -> bool:
    """Seed "Replacement spots", golf.spot.repeat: a player who fouls in zone play with a ball
    that lies on a replacement spot: the engine knows the ball played was it when the offender
    has one ball left and their last penalised ball went on a spot (``placed``)."""
    return zone and owner == shooter and fouled and placed is not None and balls_left == 1


# --- helpers ----------------------------------------------------------------------------------

def last_of(items: list[Item], at: int, ball: str | None) -> int | None:
    """The index of the last entry of ``items`` whose field ``at`` is ``ball``, or None."""
    for j in range(len(items) - 1, -1, -1):
        if items[j][at] == ball:
            return j
    return None
