"""The carom engine: libre (with forbidden zones), bandstoten and driebanden, two club profiles.

Rule ids come from seeds/carom.md. A shot is resolved as a pure function of the
state before it and its evidence (sensor events and referee calls): ``_resolve``.
A call that arrives after the shot's ``rest`` (a ``carom`` or a ``foul``) appends to
that evidence and resolves the shot again from the state before it, so a late call
amends the shot just ended. A call with nothing to amend (no shot yet, the carom
already counted, or naming the player now at the table) is a shot of its own; the
``rest`` that follows it at once closes that shot.

Players: p1 plays the yellow (marked) ball, p2 the white. The breaking player (p1
unless a ``start`` call says otherwise) is "yellow" in the sense of the equalising
inning: when he reaches his target the other player gets one last inning.

Speed: the state is small (the base fields, the ``Match`` record, the shot under way
and the state before it) and copied with ``_evolve``; a sensor event inside a shot
costs one copy, the score is rebuilt once per shot through a ``Draft``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import msgspec

from ..errors import IllegalCall
from ..events import Call, Contact, Cushion, Event, OffTable, Rest, Setup, Strike
from ..geometry.carom import TABLES as CAROM_TABLES
from ..geometry.carom import CaromTable, opening_positions
from ..geometry.carom import table as carom_table
from .base import BaseState, Engine, Ruling, other, register
from .carom_match import Draft, Match
from .carom_profiles import (
    CAROM_BALLS,
    COUNTDOWN_FROM,
    CUE_BALL,
    CUSHIONS_NEEDED,
    DISCIPLINE_RULE,
    WOODWORK_RULE,
    championship_match,
    foul_rule,
    match_points,
    normalise_foul,
    resolve_profile,
    resolve_scheme,
    respots,
    targets_for,
)
from .carom_shot import ShotFacts, read_shot
from .carom_zones import ball_xy, object_balls_zone, still_in
from .ruling_log import RulingLog

_IDX = {"p1": 0, "p2": 1}
_SHOT_EVENTS = frozenset({Contact, Cushion, Strike, OffTable})

#: procedural rules a referee records with a ``note`` call
NOTE_RULES = (
    "carom.referee.warning", "carom.referee.show-ball", "carom.referee.duties", "carom.referee.change",
    "carom.protest", "carom.interruption", "carom.schedule", "carom.board-decides",
)
_NOTE_PROFILE = {"carom.referee.change": "liemers", "carom.protest": "liemers",
                 "carom.interruption": "liemers", "carom.schedule": "kampioen"}
FROZEN_RULE = {"kampioen": "carom.frozen", "liemers": "carom.frozen.libre",
               "liemers-driebanden": "carom.frozen.driebanden"}
FROZEN_CHOICES = {
    "kampioen": ("outlay", "play"),
    "liemers": ("outlay", "play"),
    "liemers-driebanden": ("play", "masse", "spot"),
}


_NO_MATCH = Match()


@dataclass(frozen=True, slots=True, kw_only=True)
class CaromState(BaseState):
    m: Match = _NO_MATCH
    #: the shot under way (``open``) or the last one: its events and calls, and the state before it
    shot: tuple[Event, ...] = ()
    open: bool = False
    #: how many rulings there were when the last shot was resolved (later ones are calls after it)
    settled: int = 0
    before: CaromState | None = None


_STATE_FIELDS = tuple(f.name for f in fields(CaromState))
_EVOLVERS: dict[tuple[str, ...], Any] = {}


def _evolver(names: tuple[str, ...]) -> Any:
    """A compiled copier that sets ``names`` and copies every other field (made once per set)."""
    fn = _EVOLVERS.get(names)
    if fn is None:
        body = "".join(f"    _set(new, {n!r}, {n if n in names else 's.' + n})\n" for n in _STATE_FIELDS)
        src = f"def evolve(s, {', '.join(names)}):\n    new = _new(CaromState)\n{body}    return new\n"
        scope = {"_new": object.__new__, "_set": object.__setattr__, "CaromState": CaromState}
        exec(src, scope)
        fn = _EVOLVERS[names] = scope["evolve"]
    return fn


def _evolve(s: CaromState, **changes: Any) -> CaromState:
    """``dataclasses.replace`` without its overhead (the state is frozen and slotted)."""
    return _evolver(tuple(changes))(s, **changes)  # type: ignore[no-any-return]


_add_event = _evolver(("shot",))
_add_event_unit = _evolver(("shot", "checkpoint", "in_shot"))
_open_shot = _evolver(("shot", "open", "before", "checkpoint", "in_shot"))


@register
class CaromEngine(Engine[CaromState]):
    game = "carom"

    # --- set-up ---------------------------------------------------------------------
    def new_state(self, setup: Setup) -> CaromState:
        profile = resolve_profile(setup.profile)
        discipline = setup.discipline or "libre"
        extra = setup.extra or {}
        scheme = resolve_scheme(extra.get("points", extra.get("scheme", "de-bruijn")))
        tab = _bed(extra.get("table"))
        targets, _how = targets_for(setup.targets, setup.moyennes, extra,
                                    championship=championship_match(profile, extra))
        m = Match(discipline=discipline, profile=profile, scheme=scheme, table=tab.name, targets=targets,
                  positions=_outlay(tab, "p1"))
        return CaromState(game="carom", players=tuple(setup.players.items()), m=m,
                          rulings=RulingLog())  # type: ignore[arg-type]

    @staticmethod
    def rule(state: CaromState, t: float, rule: str, player: str | None = None, text: str = "",
             **data: Any) -> CaromState:
        ruling = Ruling(t=t, rule=rule, player=player, text=text, data=tuple(data.items()))
        return _evolve(state, rulings=state.rulings + (ruling,))

    # --- events ---------------------------------------------------------------------
    def apply(self, state: CaromState, event: Event) -> CaromState:
        """The base's ``apply`` with a fast path for the events inside a shot.

        Same snapshots as the base: the state before a shot's first event (and before
        a referee call) is the checkpoint ``undo`` returns; a ``rest`` closes the shot
        and its checkpoint is the state before the whole shot.
        """
        kind = type(event)
        if not state.finished:
            if kind in _SHOT_EVENTS:
                event = _check_balls(event)
                if not state.open:
                    return _open_shot(state, (event,), True, state, state, True)  # type: ignore[no-any-return]
                if state.in_shot:
                    return _add_event(state, state.shot + (event,))  # type: ignore[no-any-return]
                return _add_event_unit(state, state.shot + (event,), state, True)  # type: ignore[no-any-return]
            if kind is Rest:
                return self.step(state, event)
        return super().apply(state, event)

    def step(self, state: CaromState, event: Event) -> CaromState:
        if type(event) in _SHOT_EVENTS:
            event = _check_balls(event)
            if state.open:
                return _evolve(state, shot=state.shot + (event,))
            return _evolve(state, shot=(event,), open=True, before=state)
        if isinstance(event, Rest):
            if state.open:
                before, shot = state.before, state.shot + (event,)
            elif state.before is not None and _awaits_rest(state.shot):
                # the rest of a shot the referee's call alone made ("carom", then "rest"):
                # it closes that shot (its positions count) instead of being a shot of its own
                shot = tuple(e for e in state.shot if not _is_call_rest(e)) + (event,)
                later = state.rulings[state.settled:]
                new = self._resolve(state.before, shot)
                return _evolve(new, rulings=new.rulings + later) if later else new
            elif state.before is None and state.m.shots == 0 and event.positions:
                return self._placed(state, event)
            else:
                before, shot = state, (event,)
            assert before is not None
            return self._resolve(before, shot)
        if isinstance(event, Call):
            return self._call(state, event)
        raise IllegalCall(f"a carom table has no {event.type} sensors (carom.equipment: "
                          "three balls, four cushions)")

    def _call(self, state: CaromState, call: Call) -> CaromState:
        kind = call.call
        if kind == "start":
            if state.m.shots or state.open:
                raise IllegalCall("'start' is only allowed before the first shot")
            player = call.player or "p1"
            tab = carom_table(state.m.table)
            m = _match(state.m, breaker=player, positions=_outlay(tab, player))
            s = _evolve(state, at_table=player, m=m)
            return self.rule(s, call.t, "carom.outlay", player=player,
                             text=f"{_name(s, player)} breaks from the outlay")
        if kind in ("carom", "foul"):
            if kind == "foul":
                if call.foul is None:
                    raise IllegalCall("a foul call needs 'foul'")
                call = Call(t=call.t, call="foul", foul=normalise_foul(call.foul, state.m.profile),
                            player=call.player, extra=call.extra)
            if state.open:
                return _evolve(state, shot=state.shot + (call,))
            counted = kind == "carom" and any(isinstance(e, Call) and e.call == "carom" for e in state.shot)
            # a call naming the player now at the table, who did not play the last shot, is his
            new_player = (call.player is not None and state.before is not None
                          and call.player == state.at_table and call.player != state.before.at_table)
            if state.before is None or counted or (new_player and not state.finished):
                # nothing to amend (no shot yet, its carom already counted, or the call is about
                # the next player): the call is a shot of its own, seen by the referee alone
                if state.finished:
                    raise IllegalCall(f"the match is over ({self.result_text(state)}); "
                                      f"the last shot's {kind} is already decided")
                return self._resolve(state, (call, Rest(t=call.t, extra={_CALL_REST: True})))
            later = state.rulings[state.settled:]  # notes and calls made since the shot
            amended = self._resolve(state.before, state.shot + (call,))
            if later:
                amended = _evolve(amended, rulings=amended.rulings + later)
            return self.rule(amended, call.t, "carom.referee.amend", player=state.before.at_table,
                             text=f"the referee's {kind} call amends the last shot")
        if kind == "frozen":
            return self._frozen(state, call)
        if kind == "note":
            return self._note(state, call)
        raise IllegalCall(f"unknown carom call {kind!r} "
                          "(calls: start, carom, foul, frozen, note, answer, undo)")

    def _placed(self, state: CaromState, rest: Rest) -> CaromState:
        """A ``rest`` with positions before the first shot and without a sensor event: where
        the balls lie for the first shot, not a shot (a full-information source reports a
        shot with its strike, contacts and cushions)."""
        m = state.m
        tab = carom_table(m.table)
        d = Draft(m, state.at_table, state.finished, state.winner, dict(state.players))
        d.positions = rest.positions
        # balls placed elsewhere than the starting position: the first shot is no opening shot
        d.from_outlay = _at_outlay(rest.positions, tab, m.breaker)
        self._update_zone(d, None, state.at_table or "p1", tab, rest.t, same_player=False)
        return _evolve(state, m=d.freeze(), rulings=state.rulings + d.rulings, checkpoint=state)

    def _frozen(self, state: CaromState, call: Call) -> CaromState:
        if state.open:
            raise IllegalCall("a frozen ball is dealt with before the shot, not during it")
        if state.finished:
            raise IllegalCall("the match is over")
        m = state.m
        key = m.profile + ("-driebanden" if m.profile == "liemers" and m.discipline == "driebanden" else "")
        rule = FROZEN_RULE[key]
        choices = FROZEN_CHOICES[key]
        choice = str(call.extra.get("choice", "")).lower()
        if choice not in choices:
            raise IllegalCall(f"frozen: choice must be one of {', '.join(choices)} ({rule}), not {choice!r}")
        player = state.at_table or "p1"
        s = state
        if choice == "outlay":
            s = _evolve(s, m=_match(m, from_outlay=True, positions=_outlay(carom_table(m.table), player),
                                    zone=None, zone_corner=None))
        return self.rule(s, call.t, rule, player=player, text=f"frozen ball: {choice}", choice=choice)

    def _note(self, state: CaromState, call: Call) -> CaromState:
        rule = call.extra.get("rule")
        if rule not in NOTE_RULES:
            raise IllegalCall(f"note: 'rule' must be one of {', '.join(NOTE_RULES)}, not {rule!r}")
        profile = state.m.profile
        needs = _NOTE_PROFILE.get(rule)
        if needs and needs != profile:
            raise IllegalCall(f"{rule} is a rule of profile {needs}, not {profile}")
        if rule == "carom.referee.warning" and profile == "liemers":
            raise IllegalCall("carom.referee.warning: under liemers the referee may not warn a player "
                              "of a fault he is about to make")
        if rule == "carom.referee.change" and (state.open or state.m.run > 0):
            raise IllegalCall("carom.referee.change: the referee changes after an inning, not during one")
        if rule == "carom.protest" and state.finished:
            raise IllegalCall("carom.protest: no protest is accepted after the match")
        return self.rule(state, call.t, rule, player=call.player, text=str(call.extra.get("text", "")))

    # --- resolving a shot -----------------------------------------------------------------
    def _resolve(self, before: CaromState, shot: tuple[Event, ...]) -> CaromState:
        player = before.at_table or "p1"
        cue = CUE_BALL[player]
        facts = read_shot(shot, cue)
        rest = next(e for e in reversed(shot) if type(e) is Rest)
        t = rest.t
        d = Draft(before.m, before.at_table, before.finished, before.winner, dict(before.players))
        d.shots += 1
        d.announcement = None
        d.positions = rest.positions
        self._decide(d, before.m, player, facts, t)
        if d.profile == "liemers" and not d.finished and d.at_table is not None:
            i = _IDX[d.at_table]
            left = d.targets[i] - d.caroms[i]
            if 0 < left <= COUNTDOWN_FROM[d.discipline]:
                d.rule(t, COUNTDOWN_RULE, d.at_table, f"{d.name(d.at_table)}: nog {left}", left=left)
        rulings = before.rulings + d.rulings
        return _evolve(before, m=d.freeze(), at_table=d.at_table, finished=d.finished, winner=d.winner,
                       rulings=rulings, shot=shot, open=False, before=before, checkpoint=before,
                       in_shot=False, settled=len(rulings))

    def _decide(self, d: Draft, b: Match, player: str, facts: ShotFacts, t: float) -> None:
        tab = carom_table(b.table)
        cue = CUE_BALL[player]
        fouls = list(facts.fouls)
        blameless = [ft for key, ft in fouls if key == "no-blame"]
        if blameless:
            d.positions, d.shots = b.positions, b.shots
            d.rule(blameless[0], "carom.foul.no-blame", player,
                   "a fault the player is not to blame for: the shot does not count")
            return
        # a shot has been played: the balls no longer lie in the starting position unless a
        # rule puts them back (jump, equalising inning); the opponent's next shot is no break
        d.from_outlay = False
        # the carom: contacts decide; the referee's call counts it too (003 Art. 3)
        need = CUSHIONS_NEEDED[b.discipline]
        decides = facts.full_information and (need == 0 or facts.cushions_known)
        sensor_carom = decides and facts.both_touched and facts.cushions_before_third >= need
        carom = sensor_carom or facts.carom_called is not None
        decided_by = "referee" if facts.carom_called is not None else ("contacts" if decides else "none")
        d.evidence = facts.evidence(decided_by)
        if decides and facts.both_touched and not sensor_carom and facts.carom_called is None:
            d.rule(t, DISCIPLINE_RULE[b.discipline], player,
                   f"{facts.cushions_before_third} cushion(s) before the third ball; "
                   f"{b.discipline} needs {need}")
        faults = self._faults(b, player, facts, carom, fouls, t)
        if carom and not faults and b.discipline == "libre" and b.zone == "dedans" and b.zone_corner:
            if still_in(d.positions, _objects(cue), b.zone_corner, tab):
                faults.append(("reste-dedans", t))
        if faults:
            self._fault(d, b, player, facts, faults, carom, t, tab)
        elif carom:
            self._carom(d, b, player, facts, t, tab)
        else:
            self._end_inning(d, player, t, tab)

    @staticmethod
    def _faults(b: Match, player: str, facts: ShotFacts, carom: bool, fouls: list[tuple[str, float]],
                t: float) -> list[tuple[str, float]]:
        out = list(fouls)
        keys = {k for k, _ in out}
        if facts.struck is not None and facts.struck != CUE_BALL[player] and "wrong-ball" not in keys:
            out.append(("wrong-ball", t))
        # a ball off the table is a jump; a called woodwork fault stands for it only where touching
        # the woodwork is itself a jump (kampioen), not under liemers, where they differ
        if facts.jumped and not any(respots(k, b.profile) for k in keys):
            out.append(("jump", t))
        if carom and b.from_outlay and facts.full_information and facts.both_touched:
            ok = facts.first_object == "red"
            if b.profile == "kampioen":
                ok = ok and facts.cushions_before_first == 0
            elif facts.cushions_known:
                ok = ok and facts.cushions_before_third > facts.cushions_before_first
            if not ok and "opening-shot" not in keys:
                out.append(("opening-shot", t))
        return out

    def _fault(self, d: Draft, b: Match, player: str, facts: ShotFacts, faults: list[tuple[str, float]],
               carom: bool, t: float, tab: CaromTable) -> None:
        # 003 Art. 5.12: a carom the referee has counted stands though made with the wrong ball;
        # a wrong ball called before the count is a plain fault
        if (b.profile == "kampioen" and facts.carom_called is not None and not facts.wrong_ball_called_first
                and all(k == "wrong-ball" for k, _ in faults)):
            d.rule(facts.carom_called, "carom.wrong-ball.counted", player,
                   "the referee counted the carom made with the wrong ball: it stands")
            self._carom(d, b, player, facts, t, tab)
            return
        jump = False
        for key, ft in faults:
            jump = jump or respots(key, b.profile)
            said = "RESTE DEDANS" if key == "reste-dedans" else key.replace("-", " ")
            rule = foul_rule(key, b.profile, b.discipline)
            if rule == WOODWORK_RULE:
                said += " (the balls stay where they lie)"
            d.rule(ft, rule, player, f"fault: {said}")
        if carom:
            d.rule(t, "carom.foul.carom-void", player, "the carom of a faulty shot does not count")
        self._end_inning(d, player, t, tab, announce=False)
        if jump and not d.finished:
            if b.profile == "liemers" and b.discipline == "driebanden":
                d.positions = _spot_jumped(d.positions, facts.jumped, CUE_BALL[player], tab)
            else:
                nxt = d.at_table or other(player)
                d.from_outlay, d.positions, d.zone, d.zone_corner = True, _outlay(tab, nxt), None, None
                d.rule(t, "carom.outlay", nxt, "all balls to the outlay")

    def _carom(self, d: Draft, b: Match, player: str, facts: ShotFacts, t: float, tab: CaromTable) -> None:
        i = _IDX[player]
        made = b.caroms[i] + 1
        d.run = b.run + 1
        d.add(i, "caroms", made)
        d.add(i, "high_run", max(d.run, b.high_run[i]))
        d.from_outlay = False
        d.rule(t, "carom.carom", player, f"carom {made}",
               cushions=facts.cushions_before_third if facts.full_information else facts.cushions)
        if made >= b.targets[i]:
            d.rule(t, "carom.last-carom", player, f"{d.name(player)} has made the target of {b.targets[i]}")
            self._end_inning(d, player, t, tab, announce=False, reached=True)
            return
        self._update_zone(d, b, player, tab, t, same_player=True)

    def _end_inning(self, d: Draft, player: str, t: float, tab: CaromTable, announce: bool = True,
                    reached: bool = False) -> None:
        i = _IDX[player]
        run = d.run
        d.add(i, "innings", d.innings[i] + 1)
        d.run = 0
        if announce:
            if run == 0:
                d.announcement = "POEDEL"
                d.rule(t, "carom.poedel", player, f"POEDEL {d.name(player)}")
            else:
                d.rule(t, "carom.inning.end", player, f"{run} carom{'s' if run != 1 else ''} in the inning")
        elif run == 0 and not reached:
            # a fault in the inning's first shot: no valid carom, NUL or POEDEL too (003 Art. 8)
            d.announcement = "POEDEL"
            if not any(r.rule == "carom.poedel" for r in d.rulings):  # not twice for a `foul poedel`
                d.rule(t, "carom.poedel", player, f"POEDEL {d.name(player)}")
        if run >= 2:
            d.rule(t, "carom.series", player, f"series of {run}", run=run)
        second = other(d.breaker)
        if reached and player == d.breaker and not d.nastoot:
            d.at_table, d.nastoot, d.from_outlay = second, True, True
            d.positions, d.zone, d.zone_corner = _outlay(tab, second), None, None
            d.rule(t, "carom.nastoot", second, f"{d.name(second)} plays the equalising inning (outlay)")
        elif reached and d.nastoot:
            self._finish(d, "draw", t, "carom.draw", "both targets made: a draw")
        elif reached:
            self._finish(d, player, t, "carom.match.won", f"{d.name(player)} wins")
        elif d.nastoot:
            self._finish(d, d.breaker, t, "carom.match.won",
                         f"the equalising inning fell short: {d.name(d.breaker)} wins")
        else:
            d.at_table = other(player)
            self._update_zone(d, None, d.at_table, tab, t, same_player=False)

    @staticmethod
    def _finish(d: Draft, winner: str, t: float, rule: str, text: str) -> None:
        pts = match_points(d.scheme, winner, d.caroms, d.targets)
        d.finished, d.winner, d.points, d.zone, d.zone_corner = True, winner, pts, None, None
        d.rule(t, rule, None if winner == "draw" else winner, text)
        d.rule(t, "carom.match-points.de-bruijn", None, f"match points {pts[0]}-{pts[1]} ({d.scheme})",
               p1=pts[0], p2=pts[1])

    @staticmethod
    def _update_zone(d: Draft, b: Match | None, player: str, tab: CaromTable, t: float,
                     same_player: bool) -> None:
        """Zone status for ``player``'s next shot (libre only, from the rest positions)."""
        if d.discipline != "libre" or d.positions is None:
            d.zone = d.zone_corner = None
            return
        corner, on_line = object_balls_zone(d.positions, _objects(CUE_BALL[player]), tab)
        was = b.zone if (same_player and b is not None) else None
        if corner is None:
            if was is not None:
                d.rule(t, "carom.zone", player, "a ball has left the zone")
            d.zone = d.zone_corner = None
            return
        if on_line:
            d.rule(t, "carom.zone.line", player, "a ball on the line counts as in the zone")
        if was is not None and b is not None and b.zone_corner == corner:
            d.zone, d.zone_corner = "dedans", corner
            d.rule(t, "carom.zone.dedans", player, f"DEDANS ({corner})")
        else:
            d.zone, d.zone_corner = "entree", corner
            d.rule(t, "carom.zone.entree", player, f"ENTREE ({corner})")

    # --- output ---------------------------------------------------------------------
    def game_json(self, state: CaromState) -> dict[str, Any]:
        m = state.m

        def pair(v: tuple[Any, Any]) -> dict[str, Any]:
            return {"p1": v[0], "p2": v[1]}

        avg = tuple(round(c / n, 3) if n else 0 for c, n in zip(m.caroms, m.innings))
        return {
            "discipline": m.discipline, "profile": m.profile,
            "caroms": pair(m.caroms), "innings": pair(m.innings), "high_run": pair(m.high_run),
            "average": pair(avg), "targets": pair(m.targets),
            "match_points": pair(m.points) if m.points is not None else None,
            "current_run": m.run, "breaker": m.breaker, "nastoot": m.nastoot,
            "from_outlay": m.from_outlay, "announcement": m.announcement,
            "zone": m.zone_corner if m.zone else None,
            "entree": m.zone == "entree", "dedans": m.zone == "dedans",
            "countdown": countdown(state), "evidence": m.evidence, "scheme": m.scheme,
        }

    def summary(self, state: CaromState) -> str:
        m = state.m
        parts = [f"{_name(state, p)} {m.caroms[i]}/{m.targets[i]} in {m.innings[i]}" for p, i in _IDX.items()]
        tail = f" ({m.announcement})" if m.announcement else ""
        if m.zone:
            tail += f" [{m.zone.upper()}]"
        return " - ".join(parts) + tail


COUNTDOWN_RULE = "carom.countdown"


def countdown(state: CaromState) -> int | None:
    """COUNTDOWN_RULE (liemers): the caroms the player at the table still has to make, announced
    from 5 (driebanden 3) down; None when the referee announces nothing."""
    m = state.m
    if m.profile != "liemers" or state.finished or state.at_table is None:
        return None
    i = _IDX[state.at_table]
    left = m.targets[i] - m.caroms[i]
    return left if 0 < left <= COUNTDOWN_FROM[m.discipline] else None


def _match(m: Match, **changes: Any) -> Match:
    d = Draft(m, None, False, None)
    for k, v in changes.items():
        setattr(d, k, v)
    return d.freeze()


def _name(state: BaseState, player: str) -> str:
    name = dict(state.players).get(player, player)
    return " & ".join(name) if isinstance(name, list) else str(name)


def _objects(cue: str) -> tuple[str, str]:
    return ("red", "white") if cue == "yellow" else ("red", "yellow")


def _bed(name: Any) -> CaromTable:
    """The bed a setup's ``table`` names: a size ("2.30", 2.3) or "match". A name that is no
    number ("table 1" of a pub) names the table, not its bed size: the match bed."""
    if name is None or isinstance(name, bool):
        return carom_table(None)
    key = str(name).strip().lower()
    if key in CAROM_TABLES:
        return CAROM_TABLES[key]
    try:
        size = float(key)
    except ValueError:
        return carom_table(None)
    for tab in CAROM_TABLES.values():
        if abs(tab.length - size) < 0.005:
            return tab
    raise IllegalCall(f"setup: unknown carom table {name!r} (tables: {', '.join(CAROM_TABLES)})")


def _at_outlay(positions: dict[str, Any] | None, tab: CaromTable, breaker: str) -> bool:
    """Whether the given balls lie on their outlay spots (red boven, the other white beneden,
    the breaker's ball on links or rechts), within 3 cm."""
    cue = CUE_BALL[breaker]
    other_white = "white" if cue == "yellow" else "yellow"
    spots = {"red": ("boven",), cue: ("links", "rechts"), other_white: ("beneden",)}
    for ball, names in spots.items():
        xy = ball_xy(positions, ball)
        if xy is not None and not any(math.dist(xy, tab.spot(n)) <= 0.03 for n in names):
            return False
    return True


def _outlay(tab: CaromTable, breaker: str) -> dict[str, Any]:
    cue = CUE_BALL[breaker]
    pos = opening_positions(tab, "rechts", cue=cue, other="white" if cue == "yellow" else "yellow")
    return {ball: [round(x, 4), round(y, 4)] for ball, (x, y) in pos.items()}


def _spot_jumped(positions: dict[str, Any] | None, jumped: tuple[str | None, ...], cue: str,
                 tab: CaromTable) -> dict[str, Any] | None:
    """"carom.jump.driebanden": jumped balls to their spots (red boven, cue beneden, other midden)."""
    if positions is None:
        return None
    spot_of = {"red": "boven", cue: "beneden"}
    out = dict(positions)
    for ball in jumped:
        if ball is not None:
            x, y = tab.spot(spot_of.get(ball, "midden"))
            out[ball] = [round(x, 4), round(y, 4)]
    return out


#: marks the rest the engine adds to a shot made of a referee call alone
_CALL_REST = "_closed_by_call"


def _is_call_rest(event: Event) -> bool:
    return type(event) is Rest and bool(event.extra.get(_CALL_REST))


def _awaits_rest(shot: tuple[Event, ...]) -> bool:
    """A shot the referee's call alone made, whose own ``rest`` has not come yet."""
    return any(_is_call_rest(e) for e in shot) and not any(type(e) is Rest and not _is_call_rest(e)
                                                           for e in shot)


#: a player's name for his ball (EVENTS.md: p1 plays the yellow, p2 the white)
_PLAYER_BALL = {"p1": "yellow", "p2": "white"}


def _check_balls(event: Event) -> Event:
    """The event with carom ball names ("p1"/"p2" become their balls), or ``IllegalCall``."""
    balls = event.balls if type(event) is Contact else (event.ball,)  # type: ignore[attr-defined]
    if all(b is None or b in CAROM_BALLS for b in balls):
        return event
    named = tuple(_PLAYER_BALL.get(b, b) if b is not None else None for b in balls)
    for b in named:
        if b is not None and b not in CAROM_BALLS:
            raise IllegalCall(f"carom.equipment: a carom table has the balls yellow, white and red, "
                              f"not {b!r}")
    if type(event) is Contact:
        return msgspec.structs.replace(event, balls=named)
    return msgspec.structs.replace(event, ball=named[0])  # type: ignore[call-arg]
