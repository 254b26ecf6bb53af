"""The carom engine: libre (with forbidden zones), bandstoten and driebanden, two club profiles.

Rule ids come from seeds/carom.md. A shot is resolved as a pure function of the
state before it and its evidence (sensor events and referee calls): ``_resolve``.
A call that arrives after the shot's ``rest`` (a ``carom`` or a ``foul``) appends to
that evidence and resolves the shot again from the state before it, so a late call
amends the shot just ended.

Players: p1 plays the yellow (marked) ball, p2 the white. The breaking player (p1
unless a ``start`` call says otherwise) is "yellow" in the sense of the equalising
inning: when he reaches his target the other player gets one last inning.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import IllegalCall
from ..events import Call, Contact, Cushion, Event, OffTable, Rest, Setup, Strike
from ..geometry.carom import CaromTable, opening_positions
from ..geometry.carom import table as carom_table
from .base import BaseState, Engine, other, register
from .carom_profiles import (
    CAROM_BALLS,
    COUNTDOWN_FROM,
    CUE_BALL,
    CUSHIONS_NEEDED,
    DISCIPLINE_RULE,
    SCHEMES,
    foul_rule,
    match_points,
    normalise_foul,
    resolve_profile,
    targets_for,
)
from .carom_shot import ShotFacts, read_shot
from .carom_zones import object_balls_zone, still_in

_IDX = {"p1": 0, "p2": 1}

#: procedural rules a referee records with a ``note`` call
NOTE_RULES = (
    "carom.referee.warning", "carom.referee.show-ball", "carom.referee.duties", "carom.referee.change",
    "carom.protest", "carom.interruption", "carom.schedule", "carom.board-decides",
)
_NOTE_PROFILE = {"carom.referee.change": "liemers", "carom.protest": "liemers",
                 "carom.interruption": "liemers", "carom.schedule": "kampioen"}
FROZEN_CHOICES = {
    "kampioen": ("outlay", "play"),
    "liemers": ("outlay", "play"),
    "liemers-driebanden": ("play", "masse", "spot"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CaromState(BaseState):
    discipline: str = "libre"
    profile: str = "kampioen"
    scheme: str = "de-bruijn"
    table: str = "match"
    targets: tuple[int, int] = (20, 20)
    caroms: tuple[int, int] = (0, 0)
    innings: tuple[int, int] = (0, 0)
    high_run: tuple[int, int] = (0, 0)
    run: int = 0
    breaker: str = "p1"
    shots: int = 0
    nastoot: bool = False
    from_outlay: bool = True
    zone: str | None = None
    zone_corner: str | None = None
    positions: dict[str, Any] | None = None
    announcement: str | None = None
    evidence: dict[str, Any] | None = None
    points: tuple[int, int] | None = None
    #: the shot under way (``open``) or the last one: its events and calls, and the state before it
    shot: tuple[Event, ...] = ()
    open: bool = False
    before: CaromState | None = None


def _set(i: int, pair: tuple[int, int], value: int) -> tuple[int, int]:
    return (value, pair[1]) if i == 0 else (pair[0], value)


@register
class CaromEngine(Engine[CaromState]):
    game = "carom"

    # --- set-up ---------------------------------------------------------------------
    def new_state(self, setup: Setup) -> CaromState:
        profile = resolve_profile(setup.profile)
        discipline = setup.discipline or "libre"
        extra = setup.extra or {}
        scheme = str(extra.get("points", extra.get("scheme", "de-bruijn")))
        if scheme not in SCHEMES:
            raise IllegalCall(f"setup: unknown match-point scheme {scheme!r} (schemes: {', '.join(SCHEMES)})")
        try:
            tab = carom_table(extra.get("table"))
        except ValueError as exc:
            raise IllegalCall(f"setup: {exc}") from None
        targets, _how = targets_for(setup.targets, setup.moyennes, extra)
        return CaromState(
            game="carom", players=tuple(setup.players.items()), discipline=discipline, profile=profile,
            scheme=scheme, table=tab.name, targets=targets,
            positions=_outlay(tab, "p1"),
        )

    # --- events ---------------------------------------------------------------------
    def step(self, state: CaromState, event: Event) -> CaromState:
        if isinstance(event, Rest):
            if state.open:
                before, shot = state.before, state.shot + (event,)
            else:
                before, shot = state, (event,)
            assert before is not None
            return self._resolve(before, shot)
        if isinstance(event, Call):
            return self._call(state, event)
        if isinstance(event, (Contact, Cushion, OffTable, Strike)):
            _check_balls(event)
            if state.open:
                return replace(state, shot=state.shot + (event,))
            return replace(state, shot=(event,), open=True, before=state)
        raise IllegalCall(f"a carom table has no {event.type} sensors (carom.equipment: "
                          "three balls, four cushions)")

    def _call(self, state: CaromState, call: Call) -> CaromState:
        kind = call.call
        if kind == "start":
            if state.shots or state.open:
                raise IllegalCall("'start' is only allowed before the first shot")
            player = call.player or "p1"
            tab = carom_table(state.table)
            s = replace(state, breaker=player, at_table=player, positions=_outlay(tab, player))
            return self.rule(s, call.t, "carom.outlay", player=player,
                             text=f"{self._name(s, player)} breaks from the outlay")
        if kind in ("carom", "foul"):
            if kind == "foul":
                if call.foul is None:
                    raise IllegalCall("a foul call needs 'foul'")
                call = replace(call, foul=normalise_foul(call.foul, state.profile))
            if state.open:
                return replace(state, shot=state.shot + (call,))
            if state.before is None:
                what = "count" if kind == "carom" else "fault"
                raise IllegalCall(f"no shot has been played: nothing to {what}")
            if kind == "carom" and any(isinstance(e, Call) and e.call == "carom" for e in state.shot):
                raise IllegalCall("the carom of the last shot is already counted (a shot scores one carom)")
            amended = self._resolve(state.before, state.shot + (call,))
            return self.rule(amended, call.t, "carom.referee.amend", player=state.before.at_table,
                             text=f"the referee's {kind} call amends the last shot")
        if kind == "frozen":
            return self._frozen(state, call)
        if kind == "note":
            return self._note(state, call)
        raise IllegalCall(f"unknown carom call {kind!r} "
                          "(calls: start, carom, foul, frozen, note, answer, undo)")

    def _frozen(self, state: CaromState, call: Call) -> CaromState:
        if state.open:
            raise IllegalCall("a frozen ball is dealt with before the shot, not during it")
        if state.finished:
            raise IllegalCall("the match is over")
        key = state.profile + ("-driebanden" if state.profile == "liemers" and
                               state.discipline == "driebanden" else "")
        rule = {"kampioen": "carom.frozen", "liemers": "carom.frozen.libre",
                "liemers-driebanden": "carom.frozen.driebanden"}[key]
        choices = FROZEN_CHOICES[key]
        choice = str(call.extra.get("choice", "")).lower()
        if choice not in choices:
            raise IllegalCall(f"frozen: choice must be one of {', '.join(choices)} ({rule}), not {choice!r}")
        player = state.at_table or "p1"
        s = state
        if choice == "outlay":
            s = replace(s, from_outlay=True, positions=_outlay(carom_table(s.table), player),
                        zone=None, zone_corner=None)
        return self.rule(s, call.t, rule, player=player, text=f"frozen ball: {choice}", choice=choice)

    def _note(self, state: CaromState, call: Call) -> CaromState:
        rule = call.extra.get("rule")
        if rule not in NOTE_RULES:
            raise IllegalCall(f"note: 'rule' must be one of {', '.join(NOTE_RULES)}, not {rule!r}")
        needs = _NOTE_PROFILE.get(rule)
        if needs and needs != state.profile:
            raise IllegalCall(f"{rule} is a rule of profile {needs}, not {state.profile}")
        if rule == "carom.referee.warning" and state.profile == "liemers":
            raise IllegalCall("carom.referee.warning: under liemers the referee may not warn a player "
                              "of a fault he is about to make")
        if rule == "carom.referee.change" and (state.open or state.run > 0):
            raise IllegalCall("carom.referee.change: the referee changes after an inning, not during one")
        if rule == "carom.protest" and state.finished:
            raise IllegalCall("carom.protest: no protest is accepted after the match")
        text = str(call.extra.get("text", ""))
        return self.rule(state, call.t, rule, player=call.player, text=text)

    # --- resolving a shot -----------------------------------------------------------------
    def _resolve(self, before: CaromState, shot: tuple[Event, ...]) -> CaromState:
        player = before.at_table or "p1"
        cue = CUE_BALL[player]
        facts = read_shot(shot, cue)
        rest = next(e for e in reversed(shot) if isinstance(e, Rest))
        t = rest.t
        tab = carom_table(before.table)
        positions = rest.positions
        s = replace(before, shot=shot, open=False, before=before, shots=before.shots + 1,
                    announcement=None, positions=positions)
        fouls = [(key, ft) for key, ft in facts.fouls]
        if any(key == "no-blame" for key, _ in fouls):
            ft = next(ft for key, ft in fouls if key == "no-blame")
            s = replace(s, positions=before.positions, shots=before.shots)
            return self.rule(s, ft, "carom.foul.no-blame", player=player,
                             text="a fault the player is not to blame for: the shot does not count")

        # the carom: contacts decide; the referee's call counts it too (003 Art. 3)
        need = CUSHIONS_NEEDED[before.discipline]
        decides = facts.full_information and (need == 0 or facts.cushions_known)
        sensor_carom = decides and facts.both_touched and facts.cushions_before_third >= need
        short_cushions = decides and facts.both_touched and facts.cushions_before_third < need
        carom = sensor_carom or facts.carom_called is not None
        decided_by = "referee" if facts.carom_called is not None else ("contacts" if decides else "none")
        s = replace(s, evidence=facts.evidence(decided_by))
        if short_cushions and facts.carom_called is None:
            s = self.rule(s, t, DISCIPLINE_RULE[before.discipline], player=player,
                          text=f"{facts.cushions_before_third} cushion(s) before the third ball; "
                               f"{before.discipline} needs {need}")

        faults = self._faults(before, facts, carom, fouls, t)
        if carom and not faults and before.discipline == "libre":
            zone_fault = self._zone_fault(before, positions, cue, tab)
            if zone_fault:
                faults.append(("reste-dedans", t))
        if faults:
            return self._fault(s, before, facts, faults, carom, t, tab)
        if carom:
            return self._carom(s, before, facts, t, tab)
        return self._end_inning(s, player, t, tab)

    def _faults(self, before: CaromState, facts: ShotFacts, carom: bool, fouls: list[tuple[str, float]],
                t: float) -> list[tuple[str, float]]:
        player = before.at_table or "p1"
        out = list(fouls)
        wrong = facts.struck is not None and facts.struck != CUE_BALL[player]
        if wrong and not any(k == "wrong-ball" for k, _ in out):
            out.append(("wrong-ball", t))
        if facts.jumped and not any(k in ("jump", "woodwork") for k, _ in out):
            out.append(("jump", t))
        if carom and before.from_outlay and facts.full_information and facts.both_touched:
            ok = facts.first_object == "red"
            if before.profile == "kampioen":
                ok = ok and facts.cushions_before_first == 0
            elif facts.cushions_known:
                ok = ok and facts.cushions_before_third > facts.cushions_before_first
            if not ok and not any(k == "opening-shot" for k, _ in out):
                out.append(("opening-shot", t))
        return out

    def _zone_fault(self, before: CaromState, positions: dict[str, Any] | None, cue: str,
                    tab: CaromTable) -> bool:
        if before.zone != "dedans" or before.zone_corner is None:
            return False
        return bool(still_in(positions, _objects(cue), before.zone_corner, tab))

    def _fault(self, s: CaromState, before: CaromState, facts: ShotFacts, faults: list[tuple[str, float]],
               carom: bool, t: float, tab: CaromTable) -> CaromState:
        player = before.at_table or "p1"
        if (before.profile == "kampioen" and facts.carom_called is not None
                and all(k == "wrong-ball" for k, _ in faults)):
            s = self.rule(s, facts.carom_called, "carom.wrong-ball.counted", player=player,
                          text="the referee counted the carom made with the wrong ball: it stands")
            return self._carom(s, before, facts, t, tab)
        jump = False
        for key, ft in faults:
            rule = foul_rule(key, before.profile, before.discipline)
            jump = jump or key in ("jump", "woodwork")
            s = self.rule(s, ft, rule, player=player, text=f"fault: {key}")
        if carom:
            s = self.rule(s, t, "carom.foul.carom-void", player=player,
                          text="the carom of a faulty shot does not count")
        s = self._end_inning(s, player, t, tab, announce=False)
        if jump and not s.finished:
            if before.profile == "liemers" and before.discipline == "driebanden":
                s = replace(s, positions=_spot_jumped(s.positions, facts.jumped, before, tab))
            else:
                nxt = s.at_table or other(player)
                s = replace(s, from_outlay=True, positions=_outlay(tab, nxt), zone=None, zone_corner=None)
                s = self.rule(s, t, "carom.outlay", player=nxt, text="all balls to the outlay")
        return s

    def _carom(self, s: CaromState, before: CaromState, facts: ShotFacts, t: float,
               tab: CaromTable) -> CaromState:
        player = before.at_table or "p1"
        i = _IDX[player]
        made = before.caroms[i] + 1
        run = before.run + 1
        s = replace(s, caroms=_set(i, before.caroms, made), run=run, from_outlay=False,
                    high_run=_set(i, before.high_run, max(run, before.high_run[i])))
        s = self.rule(s, t, "carom.carom", player=player, text=f"carom {made}",
                      cushions=facts.cushions_before_third if facts.full_information else facts.cushions)
        if made >= before.targets[i]:
            s = self.rule(s, t, "carom.last-carom", player=player,
                          text=f"{self._name(s, player)} has made the target of {before.targets[i]}")
            return self._end_inning(s, player, t, tab, announce=False, reached=True)
        return self._update_zone(s, before, player, tab, t)

    def _end_inning(self, s: CaromState, player: str, t: float, tab: CaromTable,
                    announce: bool = True, reached: bool = False) -> CaromState:
        i = _IDX[player]
        run = s.run
        s = replace(s, innings=_set(i, s.innings, s.innings[i] + 1), run=0)
        if announce:
            if run == 0:
                s = replace(s, announcement="POEDEL")
                s = self.rule(s, t, "carom.poedel", player=player, text=f"POEDEL {self._name(s, player)}")
            else:
                plural = "s" if run != 1 else ""
                s = self.rule(s, t, "carom.inning.end", player=player,
                              text=f"{run} carom{plural} in the inning")
        if run >= 2:
            s = self.rule(s, t, "carom.series", player=player, text=f"series of {run}", run=run)
        second = other(s.breaker)
        if reached and player == s.breaker and not s.nastoot:
            s = replace(s, at_table=second, nastoot=True, from_outlay=True, positions=_outlay(tab, second),
                        zone=None, zone_corner=None)
            return self.rule(s, t, "carom.nastoot", player=second,
                             text=f"{self._name(s, second)} plays the equalising inning from the outlay")
        if reached and s.nastoot:
            return self._finish(s, "draw", t, "carom.draw", "both targets made: a draw")
        if reached:
            return self._finish(s, player, t, "carom.match.won", f"{self._name(s, player)} wins")
        if s.nastoot:
            return self._finish(s, s.breaker, t, "carom.match.won",
                                f"the equalising inning fell short: {self._name(s, s.breaker)} wins")
        nxt = other(player)
        s = replace(s, at_table=nxt)
        return self._update_zone(s, s, nxt, tab, t)

    def _finish(self, s: CaromState, winner: str, t: float, rule: str, text: str) -> CaromState:
        pts = match_points(s.scheme, winner, s.caroms, s.targets)
        s = replace(s, finished=True, winner=winner, points=pts, zone=None, zone_corner=None)
        s = self.rule(s, t, rule, player=None if winner == "draw" else winner, text=text)
        scheme_rule = "carom.match-points.de-bruijn"
        return self.rule(s, t, scheme_rule, text=f"match points {pts[0]}-{pts[1]} ({s.scheme})",
                         p1=pts[0], p2=pts[1])

    def _update_zone(self, s: CaromState, before: CaromState, player: str, tab: CaromTable,
                     t: float) -> CaromState:
        """Zone status for ``player``'s next shot (libre only, from the rest positions)."""
        if s.discipline != "libre" or s.positions is None:
            return replace(s, zone=None, zone_corner=None) if s.zone else s
        corner, on_line = object_balls_zone(s.positions, _objects(CUE_BALL[player]), tab)
        same_player = before.at_table == player and s is not before
        if corner is None:
            if same_player and before.zone in ("entree", "dedans"):
                s = self.rule(s, t, "carom.zone", player=player, text="a ball has left the zone")
            return replace(s, zone=None, zone_corner=None)
        if on_line:
            s = self.rule(s, t, "carom.zone.line", player=player,
                          text="a ball on the line counts as in the zone")
        if same_player and before.zone in ("entree", "dedans") and before.zone_corner == corner:
            s = replace(s, zone="dedans", zone_corner=corner)
            return self.rule(s, t, "carom.zone.dedans", player=player, text=f"DEDANS ({corner})")
        s = replace(s, zone="entree", zone_corner=corner)
        return self.rule(s, t, "carom.zone.entree", player=player, text=f"ENTREE ({corner})")

    # --- output ---------------------------------------------------------------------
    def game_json(self, state: CaromState) -> dict[str, Any]:
        def pair(v: tuple[Any, Any]) -> dict[str, Any]:
            return {"p1": v[0], "p2": v[1]}

        avg = tuple(round(c / n, 3) if n else 0 for c, n in zip(state.caroms, state.innings))
        return {
            "discipline": state.discipline, "profile": state.profile,
            "caroms": pair(state.caroms), "innings": pair(state.innings), "high_run": pair(state.high_run),
            "average": pair(avg), "targets": pair(state.targets),
            "match_points": pair(state.points) if state.points is not None else None,
            "current_run": state.run, "breaker": state.breaker, "nastoot": state.nastoot,
            "from_outlay": state.from_outlay, "announcement": state.announcement,
            "zone": ({"state": state.zone, "corner": state.zone_corner} if state.zone else None),
            "countdown": self.countdown(state), "evidence": state.evidence, "scheme": state.scheme,
        }

    @staticmethod
    def countdown(state: CaromState) -> dict[str, Any] | None:
        """"carom.countdown" (liemers): caroms still to make, announced from 5 (driebanden 3) down."""
        if state.profile != "liemers" or state.finished or state.at_table is None:
            return None
        i = _IDX[state.at_table]
        left = state.targets[i] - state.caroms[i]
        if 0 < left <= COUNTDOWN_FROM[state.discipline]:
            return {"player": state.at_table, "remaining": left, "rule": "carom.countdown"}
        return None

    def summary(self, state: CaromState) -> str:
        names = dict(state.players)
        parts = [f"{names.get(p, p)} {state.caroms[i]}/{state.targets[i]} in {state.innings[i]}"
                 for p, i in _IDX.items()]
        tail = f" ({state.announcement})" if state.announcement else ""
        if state.zone:
            tail += f" [{state.zone}]"
        return " - ".join(parts) + tail

    @staticmethod
    def _name(state: CaromState, player: str) -> str:
        name = dict(state.players).get(player, player)
        return " & ".join(name) if isinstance(name, list) else str(name)


def _objects(cue: str) -> tuple[str, str]:
    return ("red", "white") if cue == "yellow" else ("red", "yellow")


def _outlay(tab: CaromTable, breaker: str) -> dict[str, Any]:
    cue = CUE_BALL[breaker]
    pos = opening_positions(tab, "rechts", cue=cue, other="white" if cue == "yellow" else "yellow")
    return {ball: [round(x, 4), round(y, 4)] for ball, (x, y) in pos.items()}


def _spot_jumped(positions: dict[str, Any] | None, jumped: tuple[str | None, ...], before: CaromState,
                 tab: CaromTable) -> dict[str, Any] | None:
    """"carom.jump.driebanden": jumped balls to their spots (red boven, cue beneden, other midden)."""
    if positions is None:
        return None
    cue = CUE_BALL[before.at_table or "p1"]
    spot_of = {"red": "boven", cue: "beneden"}
    out = dict(positions)
    for ball in jumped:
        if ball is None:
            continue
        x, y = tab.spot(spot_of.get(ball, "midden"))
        out[ball] = [round(x, 4), round(y, 4)]
    return out


def _check_balls(event: Event) -> None:
    balls: tuple[str | None, ...]
    if isinstance(event, Contact):
        balls = event.balls
    else:
        balls = (getattr(event, "ball", None),)
    for b in balls:
        if b is not None and b not in CAROM_BALLS:
            raise IllegalCall(f"carom.equipment: a carom table has the balls yellow, white and red, "
                              f"not {b!r}")
