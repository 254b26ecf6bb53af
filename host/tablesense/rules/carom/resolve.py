"""The referee's decision on one carom shot, on a ``Draft`` (pure; seeds/carom.md).

``decide`` takes the score before the shot and the shot's facts (``shot``) and
rules: no blame, the carom (contacts or the referee), the faults, the inning's end,
the equalising inning, the match's end and its points, the zone for the next shot.
Every ruling is data: a rule id and its parameters (``texts/<lang>/carom.ftl``
says them). Whatever differs between the clubs is asked of the profile record.

Each rule check is a named pure function whose docstring starts with the rule it checks:
"Seed <the catalogue's seed paragraphs>, <catalogue id>" (seeds/carom.md;
tests/rules/carom/test_carom_rule_checks.py holds them to the catalogue): ``counts_as_carom``,
``opening_shot_ok``, ``struck_wrong_ball``, ``sensed_jump``, ``reste_dedans``,
``counted_carom_stands``, ``is_poedel``, ``is_series``, ``equalising_inning_due``,
``innings_limit_reached``, ``zone_entered`` ...; ``decide`` and its helpers apply them to a
``Draft``.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import other
from ..ruling_log import Trail
from .geometry import CaromTable, opening_positions
from .geometry import table as carom_table
from .match import Draft, Match
from .profiles import CUE_BALL, CUSHIONS_NEEDED, DISCIPLINE_RULE, Profile
from .shot import Evidence, ShotFacts
from .targets import match_points
from .zones import ball_xy, object_balls_zone, still_in

IDX = {"p1": 0, "p2": 1}
COUNTDOWN_RULE = "carom.countdown"


# --- the rule checks: named pure predicates, each citing its seed paragraphs (seeds/carom.md) ---

def no_blame_at(fouls: tuple[tuple[str, float], ...]) -> float | None:
    """Seed 003 Art. 5.11; 004 "Fouten veroorzaakt zonder schuld", carom.foul.no-blame: the
    time of the first fault called as one the player is not to blame for (the shot is void),
    or None."""
    for key, ft in fouls:
        if key == "no-blame":
            return ft
    return None


def contacts_decide(facts: ShotFacts, need: int) -> bool:
    """Seed 003 Art. 3; 004 "Onder het maken van een carambole", carom.carom: the contacts of a
    full-information source decide the carom, where cushions count (``need``) only when every
    cushion event named its ball; else only the referee's call counts one."""
    return facts.contacts > 0 and (need == 0 or facts.cushions_known)


def counts_as_carom(facts: ShotFacts, need: int) -> bool:
    """Seed 003 Art. 3; 004 "Onder het maken van een carambole", carom.carom / Seed 004 "De Libre
    partij", carom.libre / Seed issue 6; 004 (Libre en Bandstoten), carom.bandstoten / Seed 004
    "Driebanden", carom.driebanden: the cue ball touched both other balls, with at least
    ``need`` cushions (libre 0, bandstoten 1, driebanden 3) before the third ball."""
    return facts.both_touched and facts.cushions_before_third >= need


def struck_wrong_ball(struck: str | None, cue: str) -> bool:
    """Seed 003 Art. 5.9; 004 J, carom.foul.wrong-ball: the strike sensor saw another ball than
    the player's own struck."""
    return struck is not None and struck != cue


def sensed_jump(jumped: tuple[str | None, ...], called: set[str], profile: Profile) -> bool:
    """Seed 003 Art. 4, Art. 5.2; 004 A, "Deze afstoot wordt herhaald", carom.jump: a ball off the
    table is a jump, unless a fault already called for the shot is one that re-spots (a
    called woodwork fault stands for it only where touching the woodwork is a jump)."""
    return bool(jumped) and not any(profile.respots(k) for k in called)


def judges_opening_shot(carom: bool, from_outlay: bool, facts: ShotFacts) -> bool:
    """Seed 003 Art. 2, carom.opening-shot.direct / Seed 004 "De afstoot moet gespeeld worden",
    carom.opening-shot.cushion: only a carom played from the starting position is an opening
    shot, judged where the contacts show how it went."""
    return carom and from_outlay and facts.contacts > 0 and facts.both_touched


def opening_shot_ok(facts: ShotFacts, direct: bool) -> bool:
    """Seed 003 Art. 2, carom.opening-shot.direct / Seed 004 "De afstoot moet gespeeld worden",
    carom.opening-shot.cushion: the red first, then ``direct`` (kampioen): no cushion before
    it; else (liemers) more cushions before the third ball than before the red (known only
    where the cushions name their ball)."""
    if facts.first_object != "red":
        return False
    if direct:
        return facts.cushions_before_first == 0
    if facts.cushions_known:
        return facts.cushions_before_third > facts.cushions_before_first
    return True


def counted_carom_stands(profile: Profile, facts: ShotFacts, faults: list[tuple[str, float]]) -> bool:
    """Seed 003 Art. 5.12, carom.wrong-ball.counted: a carom the referee counted stands though
    made with the wrong ball (where the profile says so), when the wrong ball is the shot's
    only fault and was not called before the count."""
    return (profile.counted_wrong_ball_stands and facts.carom_called is not None
            and not facts.wrong_ball_called_first and all(k == "wrong-ball" for k, _ in faults))


def reste_dedans(discipline: str, zone: str | None, corner: str | None, positions: dict[str, Any] | None,
                 cue: str, tab: CaromTable) -> bool:
    """Seed 003 Art. 5.7; 004 "Binnen deze zone mogen ten hoogste 2", carom.dedans.reste: a carom
    in dedans (libre) after which both object balls still lie in that corner's zone."""
    return (discipline == "libre" and zone == "dedans" and bool(corner)
            and bool(still_in(positions, objects(cue), corner, tab)))  # type: ignore[arg-type]


def reaches_target(made: int, target: int) -> bool:
    """Seed 004 "Heeft de speler de laatste carambole gemaakt", carom.last-carom: the player has
    made his last carom: his target is reached (caroms never exceed it)."""
    return made >= target


def is_poedel(run: int) -> bool:
    """Seed 003 Art. 5.1, Art. 8, carom.poedel: an inning ended without a valid carom (NUL or
    POEDEL)."""
    return run == 0


def is_series(run: int) -> bool:
    """Seed 003 Art. 3, carom.series: two or more caroms in a row by one player are a series."""
    return run >= 2


def equalising_inning_due(reached: bool, player: str, breaker: str, nastoot: bool) -> bool:
    """Seed 003 Art. 11.2; 004 "Dezelfde afstoot ... nastoot", "gelijk makende beurt",
    carom.nastoot: the breaking player reaching his target gives the other one last inning."""
    return reached and player == breaker and not nastoot


def innings_limit_reached(player: str, second: str, limit: int | None, innings: int) -> bool:
    """Seed extension: neither 003 nor 004 has a limit (003 Art. 11.1 plays out "ongeacht het
    aantal beurten", `carom.target.play-out`); a competition's own setting, carom.innings-limit:
    the second player has played the last inning of the set-up's limit."""
    return player == second and bool(limit) and innings >= limit  # type: ignore[operator]


def zone_entered(was: str | None, was_corner: str | None, corner: str) -> str:
    """Seed 003 Art. 5.7; 004 "ENTREE", carom.zone.entree / Seed 003 Art. 5.7; 004 "DEDANS",
    carom.zone.dedans: both object balls in ``corner``'s zone after a valid carom from entree
    in that corner are "dedans" for the player; else "entree" (the rule starts again)."""
    return "dedans" if was is not None and was_corner == corner else "entree"


# --- the decision -----------------------------------------------------------------------------

def decide(d: Draft, b: Match, player: str, facts: ShotFacts, t: float) -> None:
    """Rule on the shot ``player`` played from the score ``b``; ``d`` starts as ``b``."""
    tab = carom_table(b.table)
    fouls = facts.fouls
    if fouls:
        blameless = no_blame_at(fouls)
        if blameless is not None:
            d.positions, d.shots = b.positions, b.shots
            d.rule(blameless, "carom.foul.no-blame", player)
            return
    # a shot has been played: the balls no longer lie in the starting position unless a
    # rule puts them back (jump, equalising inning); the opponent's next shot is no break
    if b.from_outlay:
        d.from_outlay = False
    # the carom: contacts decide; the referee's call counts it too (003 Art. 3)
    need = CUSHIONS_NEEDED[b.discipline]
    decides = contacts_decide(facts, need)
    sensor_carom = decides and counts_as_carom(facts, need)
    called = facts.carom_called is not None
    carom = sensor_carom or called
    # ``facts.evidence``, inline
    d.evidence = Evidence(facts.cushions, facts.cushions_before_last_contact, facts.contacts,
                          "referee" if called else ("contacts" if decides else "none"))
    if decides and facts.both_touched and not sensor_carom and not called:
        d.rule(t, DISCIPLINE_RULE[b.discipline], player, cushions=facts.cushions_before_third, need=need)
    faults = _faults(b, player, facts, carom, t)
    if (carom and not faults and b.zone == "dedans"
            and reste_dedans(b.discipline, b.zone, b.zone_corner, d.positions, CUE_BALL[player], tab)):
        faults.append(("reste-dedans", t))
    if faults:
        _fault(d, b, player, facts, faults, carom, t, tab)
    elif carom:
        _carom(d, b, player, facts, t, tab)
    else:
        end_inning(d, player, t, tab)


def countdown(d: Draft, t: float) -> None:
    """COUNTDOWN_RULE (liemers): the caroms the player at the table still has to make."""
    b = d.base
    announce_from = b.profile.countdown_from
    if not announce_from or d.finished:
        return
    left = caroms_to_go(announce_from, b.discipline, False, d.at_table, b.targets, d.caroms)
    if left is not None:
        d.rule(t, COUNTDOWN_RULE, d.at_table, left=left)


def caroms_to_go(announce_from: Any, discipline: str, finished: bool, at_table: str | None,
                 targets: tuple[int, int], caroms: tuple[int, int]) -> int | None:
    """Seed 004 "In het Libre en Bandstoten", carom.countdown: the countdown a profile announces,
    from its ``countdown_from`` (liemers: 5, driebanden 3) down; None when the referee
    announces nothing."""
    start = announce_from.get(discipline)
    if start is None or finished or at_table is None:
        return None
    i = IDX[at_table]
    left = targets[i] - caroms[i]
    return left if 0 < left <= start else None


def _faults(b: Match, player: str, facts: ShotFacts, carom: bool, t: float) -> list[tuple[str, float]]:
    """The shot's faults: those called, then those the sensors show (each check asked only
    where the shot has what it looks at: a strike, a ball off the table, a carom from the
    starting position)."""
    fouls = facts.fouls
    out = list(fouls)
    keys = {k for k, _ in fouls} if fouls else set()
    struck = facts.struck
    if struck is not None and "wrong-ball" not in keys and struck_wrong_ball(struck, CUE_BALL[player]):
        out.append(("wrong-ball", t))
    if facts.jumped and sensed_jump(facts.jumped, keys, b.profile):
        out.append(("jump", t))
    if (carom and b.from_outlay and "opening-shot" not in keys and judges_opening_shot(carom, True, facts)
            and not opening_shot_ok(facts, b.profile.opening_direct)):
        out.append(("opening-shot", t))
    return out


def _fault(d: Draft, b: Match, player: str, facts: ShotFacts, faults: list[tuple[str, float]],
           carom: bool, t: float, tab: CaromTable) -> None:
    profile = b.profile
    # a wrong ball called before the count is a plain fault
    if counted_carom_stands(profile, facts, faults):
        d.rule(facts.carom_called, "carom.wrong-ball.counted", player)  # type: ignore[arg-type]
        _carom(d, b, player, facts, t, tab)
        return
    jump = False
    for key, ft in faults:
        jump = jump or profile.respots(key)
        d.rule(ft, profile.foul_rule(key, b.discipline), player, "fault", foul=key)
    if carom:
        d.rule(t, "carom.foul.carom-void", player)
    # after a jump the balls go to their spots (003 Art. 4): no zone is judged where they lay
    end_inning(d, player, t, tab, announce=False, zone=not jump)
    if jump and not d.finished:
        if b.discipline in profile.spot_jumped_balls:
            d.positions = _spot_jumped(d.positions, facts.jumped, CUE_BALL[player], tab)
            update_zone(d, None, d.at_table or other(player), tab, t, same_player=False)
        else:
            nxt = d.at_table or other(player)
            d.from_outlay, d.positions, d.zone, d.zone_corner = True, outlay(tab, nxt), None, None
            d.rule(t, "carom.outlay", nxt, "respot")


def _carom(d: Draft, b: Match, player: str, facts: ShotFacts, t: float, tab: CaromTable) -> None:
    i = IDX[player]
    caroms = b.caroms
    made = caroms[i] + 1
    run = d.run = b.run + 1
    d.caroms = (made, caroms[1]) if i == 0 else (caroms[0], made)
    high = b.high_run
    if run > high[i]:
        d.high_run = (run, high[1]) if i == 0 else (high[0], run)
    if b.from_outlay:
        d.from_outlay = False
    d.rule(t, "carom.carom", player, made=made,
           cushions=facts.cushions_before_third if facts.contacts > 0 else facts.cushions)
    target = b.targets[i]
    if reaches_target(made, target):
        d.rule(t, "carom.last-carom", player, target=target)
        end_inning(d, player, t, tab, announce=False, reached=True)
        return
    update_zone(d, b, player, tab, t, same_player=True)


def end_inning(d: Draft, player: str, t: float, tab: CaromTable, announce: bool = True,
               reached: bool = False, zone: bool = True) -> None:
    b = d.base
    i = IDX[player]
    run = d.run
    innings = d.innings
    runs = d.runs
    # the run goes on the player's score sheet: ``Trail.plus`` (shares the runs before it)
    if i == 0:
        d.innings = innings = (innings[0] + 1, innings[1])
        mine = runs[0]
        d.runs = (Trail((run,), mine) if type(mine) is Trail else Trail(mine + (run,)), runs[1])
    else:
        d.innings = innings = (innings[0], innings[1] + 1)
        mine = runs[1]
        d.runs = (runs[0], Trail((run,), mine) if type(mine) is Trail else Trail(mine + (run,)))
    if run:
        d.run = 0
    poedel = is_poedel(run)
    if announce:
        if poedel:
            d.announcement = "POEDEL"
            d.rule(t, "carom.poedel", player)
        else:
            d.rule(t, "carom.inning.end", player, run=run)
    elif poedel and not reached:
        # a fault in the inning's first shot: no valid carom, NUL or POEDEL too (003 Art. 8)
        d.announcement = "POEDEL"
        for r in d.rulings:  # not twice for a `foul poedel` (a loop: no generator made a fault)
            if r.rule == "carom.poedel":
                break
        else:
            d.rule(t, "carom.poedel", player)
    if is_series(run):
        d.rule(t, "carom.series", player, run=run)
    breaker = b.breaker
    nastoot = d.nastoot
    if reached and equalising_inning_due(reached, player, breaker, nastoot):
        second = other(breaker)
        d.at_table, d.nastoot, d.from_outlay = second, True, True
        d.positions, d.zone, d.zone_corner = outlay(tab, second), None, None
        d.rule(t, "carom.nastoot", second)
    elif reached and nastoot:
        _finish(d, "draw", t, "carom.draw")
    elif reached:
        _finish(d, player, t, "carom.match.won")
    elif nastoot:
        _finish(d, breaker, t, "carom.match.won", "short")
    elif b.innings_limit and innings_limit_reached(player, other(breaker), b.innings_limit, innings[i]):
        won = limit_winner(d.caroms, b.targets)
        _finish(d, won, t, INNINGS_LIMIT_RULE, "draw" if won == "draw" else None, innings=innings[i])
    else:
        d.at_table = nxt = "p2" if player == "p1" else "p1"  # ``other(player)``, inline
        if zone:
            update_zone(d, None, nxt, tab, t, False)


INNINGS_LIMIT_RULE = "carom.innings-limit"


def limit_winner(caroms: tuple[int, int], targets: tuple[int, int]) -> str:
    """Seed extension: neither 003 nor 004 has a limit (003 Art. 11.1 plays out "ongeacht het
    aantal beurten", `carom.target.play-out`); a competition's own setting, carom.innings-limit:
    the innings are up with neither target reached: the larger share of one's target wins
    (caroms / target), the same share is a draw."""
    a, b = caroms[0] * targets[1], caroms[1] * targets[0]  # caroms[0]/targets[0] vs caroms[1]/targets[1]
    return "p1" if a > b else "p2" if b > a else "draw"


def _finish(d: Draft, winner: str, t: float, rule: str, what: str | None = None, **params: Any) -> None:
    scheme, caroms, targets = d.base.scheme, d.caroms, d.base.targets
    pts = match_points(scheme, winner, caroms, targets)
    d.finished, d.winner, d.points, d.zone, d.zone_corner = True, winner, pts, None, None
    d.rule(t, rule, None if winner == "draw" else winner, what, **params)
    d.rule(t, "carom.match-points.de-bruijn", None, p1=pts[0], p2=pts[1], scheme=scheme)
    d.ended = (rule, {"caroms": {"p1": caroms[0], "p2": caroms[1]},
                      "targets": {"p1": targets[0], "p2": targets[1]},
                      "match_points": {"p1": pts[0], "p2": pts[1]},
                      **({"equalising_inning": "short"} if what == "short" else {})})


def update_zone(d: Draft, b: Match | None, player: str, tab: CaromTable, t: float,
                same_player: bool) -> None:
    """Zone status for ``player``'s next shot (libre only, from the rest positions)."""
    positions = d.positions
    if positions is None or d.base.discipline != "libre":
        if d.zone is not None:  # out of the zone (``zone`` and ``zone_corner`` go together)
            d.zone = d.zone_corner = None
        return
    corner, on_line = object_balls_zone(positions, OBJECTS[player], tab)
    was = b.zone if (same_player and b is not None) else None
    if corner is None:
        if was is not None:
            d.rule(t, "carom.zone", player)
        if d.zone is not None:  # out of the zone
            d.zone = d.zone_corner = None
        return
    if on_line:
        d.rule(t, "carom.zone.line", player)
    status = zone_entered(was, b.zone_corner if b is not None else None, corner)
    d.zone, d.zone_corner = status, corner
    d.rule(t, "carom.zone.dedans" if status == "dedans" else "carom.zone.entree", player, corner=corner)


def with_entry(pair: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    """``pair`` with player ``i``'s entry (0: p1, 1: p2) set to ``value``."""
    return (value, pair[1]) if i == 0 else (pair[0], value)


# --- the table ----------------------------------------------------------------------------

def objects(cue: str) -> tuple[str, str]:
    return ("red", "white") if cue == "yellow" else ("red", "yellow")


#: each player's object balls (``objects`` of his cue ball)
OBJECTS = {p: objects(cue) for p, cue in CUE_BALL.items()}


def at_outlay(positions: dict[str, Any] | None, tab: CaromTable, breaker: str) -> bool:
    """Seed 003 Art. 1; 004 "Bij de afstoot", carom.outlay: whether the given balls lie on their
    outlay spots (red boven, the other white beneden, the breaker's ball on links or rechts),
    within 3 cm."""
    cue = CUE_BALL[breaker]
    other_white = "white" if cue == "yellow" else "yellow"
    spots = {"red": ("boven",), cue: ("links", "rechts"), other_white: ("beneden",)}
    for ball, names in spots.items():
        xy = ball_xy(positions, ball)
        if xy is not None and not any(math.dist(xy, tab.spot(n)) <= 0.03 for n in names):
            return False
    return True


def outlay(tab: CaromTable, breaker: str) -> dict[str, Any]:
    """Seed 003 Art. 1; 004 "Bij de afstoot", carom.outlay: the balls of the starting position,
    the breaker's on the right spot. Worked out once per bed and breaker and shared by every
    match and respot that asks (a position is never changed in place: a rest brings its own,
    ``_spot_jumped`` makes a new one)."""
    spots = _OUTLAYS.get((tab.name, tab.length, tab.width, breaker))
    if spots is None:
        cue = CUE_BALL[breaker]
        pos = opening_positions(tab, "rechts", cue=cue, other="white" if cue == "yellow" else "yellow")
        spots = {ball: [round(x, 4), round(y, 4)] for ball, (x, y) in pos.items()}
        _OUTLAYS[(tab.name, tab.length, tab.width, breaker)] = spots
    return spots


#: ``outlay``'s positions by bed (its name and size: no dataclass hash a set-up) and breaker
_OUTLAYS: dict[tuple[str, float, float, str], dict[str, Any]] = {}


def _spot_jumped(positions: dict[str, Any] | None, jumped: tuple[str | None, ...], cue: str,
                 tab: CaromTable) -> dict[str, Any] | None:
    """Seed 004 Driebanden "Springen één of meer ballen", carom.jump.driebanden: the jumped balls to
    their spots (red boven, cue ball beneden, the other white midden); the others stay."""
    if positions is None:
        return None
    spot_of = {"red": "boven", cue: "beneden"}
    out = dict(positions)
    for ball in jumped:
        if ball is not None:
            x, y = tab.spot(spot_of.get(ball, "midden"))
            out[ball] = [round(x, 4), round(y, 4)]
    return out
