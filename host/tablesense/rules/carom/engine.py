"""The carom engine: libre (with forbidden zones), bandstoten and driebanden, two club profiles.

Rule ids come from seeds/carom.md. The engine is a ``ShotEngine``: the base cuts the
stream into shots and keeps the state before each; the engine resolves a whole shot,
``resolve(before, shot)``, a pure function of the score before it and its evidence
(docs/carom.md, "How a shot is refereed"):

- a shot's sensor events, and the referee's calls during it in stream order
  (``shot.events``): a ``carom`` or ``foul`` called while the balls roll is part of
  the shot;
- the calls after its ``rest`` (``shot.calls``): a ``carom`` or ``foul`` call then
  amends it (``call`` returns ``AMEND``; the base resolves the shot again from the
  state before it), and a ``note`` or ``frozen`` call made after it is kept with it,
  so that an amended shot keeps them. The referee's ``carom`` after a plain shot (most
  calls: the cushion sensors alone saw the shot) amends it in one step instead, from the
  facts the shot's rest read (``amend.called_carom``): the same state;
- a ``carom`` or ``foul`` call with nothing to amend (no shot yet, the carom already
  counted, or naming the player now at the table) is a shot of its own, seen by the
  referee alone (``events`` holds the call); the ``rest`` that follows it closes that
  shot (its positions count) instead of being a shot of its own.

A ``rest`` with positions before any shot places the balls for the first shot.

Players: p1 plays the yellow (marked) ball, p2 the white. The breaking player (p1
unless a ``start`` call says otherwise) is "yellow" in the sense of the equalising
inning: when he reaches his target the other player gets one last inning.

Rulings are data (rule id and parameters); ``texts/<lang>/carom.ftl`` says them.
Names the referee writes loosely are read at the input edge
(``tablesense.rules.carom.names``); everything a club's rules change is its
``Profile`` record (``profiles``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any

import msgspec

from ...errors import IllegalCall
from ...events import Call, Contact, Cushion, Event, OffTable, Rest, Setup, Strike
from ...shots import _NO_PINS, _OPEN, _SETTLING_PHASE, Cutter
from ...texts import phrase
from ...vocabulary import Vocabulary, for_game
from ..base import Ruling, player_names, register
from ..base import replace as replace_event
from ..first_states import FirstStates
from ..ruling_log import RulingLog
from ..ruling_log import made as made_when_read
from ..shot_engine import AMEND, Redo, ShotEngine, ShotRecord, canonical, shot_cut
from . import amend, faulted
from .faulted import faulted_shot
from .fouls import BY_NAME
from .geometry import TABLES as CAROM_TABLES
from .geometry import CaromTable
from .geometry import table as carom_table
from .match import CaromState, Draft, Match
from .plain import (
    _CALLED,
    _SHARED,
    _carom_rulings,
    plain_decision,
    plain_parts,
    plain_shot,
    shot_facts,
    unseen_cushions,
)
from .profiles import CAROM_BALLS, CUE_BALL, CUSHIONS_NEEDED, PROFILES, profile
from .resolve import (
    COUNTDOWN_RULE,
    IDX,
    OBJECTS,
    at_outlay,
    caroms_to_go,
    countdown,
    decide,
    outlay,
    update_zone,
    with_entry,
)
from .sensed import sensed_shot
from .shot import Evidence, cushion_facts, read_events
from .targets import championship_match, resolve_scheme, targets_for
from .zones import in_a_corner

replace = msgspec.structs.replace

#: procedural rules a referee records with a ``note`` call (each profile says which it has)
NOTE_RULES = (
    "carom.referee.warning", "carom.referee.show-ball", "carom.referee.duties", "carom.referee.change",
    "carom.protest", "carom.interruption", "carom.schedule", "carom.board-decides",
)
CALLS = ("start", "carom", "foul", "frozen", "note", "timeout", "answer", "undo")
_ONE_BALL = frozenset({Cushion, Strike, OffTable})
#: ball names as the engine knows them (a cushion, strike or off-table event may name none)
_NAMED = frozenset({*CAROM_BALLS, None})
#: a profile's name -> whether its vocabulary keeps the call ``carom`` as it is (``_carom_called``)
_CAROM_KEPT: dict[str, bool] = {}
#: marks the rest the engine gives a shot made of a referee call alone, until its own comes
_CALL_REST = "_closed_by_call"
#: a match's cut before its first event (an immutable value: every match starts from this one)
_CUT = Cutter(game="carom")
#: every match's state before its set-up's own fields (``new_state``): its cut, and an empty
#: ruling log (a log extended links no empty one: ``RulingLog``), shared
_START = CaromState(game="carom", m=Match(), cut=_CUT, rulings=RulingLog())


@register
class CaromEngine(ShotEngine[CaromState]):
    game = "carom"
    drops = False  # no pins, no holes: nothing comes before a shot's start to give back

    # --- set-up ---------------------------------------------------------------------
    def new_state(self, setup: Setup) -> CaromState:
        try:  # a log of many matches set up alike: one state to start each from (no other keys, most
            # often: written as nil, not through ``enc_hook``; ``_first_match`` reads none as no keys)
            key: bytes | None = _SETUP_KEY.encode((setup.profile, setup.discipline, setup.targets,
                                                   setup.moyennes, setup.extra or None, setup.players))
        except (TypeError, msgspec.EncodeError):  # a value MessagePack cannot write: made anew
            key = None
        first = _FIRST.get(key) if key is not None else None  # type: ignore[arg-type]
        if first is None:
            state = replace(_START, players=tuple(setup.players.items()), m=_first_match(setup))
            first = (state, countdown_of(state))
            if key is not None:
                _FIRST.keep(key, first)
        state, left = first
        if left is None:  # (``_first_countdown``: nothing to announce before the first shot)
            return state
        return CaromEngine.rule(state, setup.t, COUNTDOWN_RULE, state.at_table, left=left)

    def vocabulary(self, state: CaromState) -> Vocabulary:
        return for_game("carom", state.m.profile.name)

    # --- the input edge ---------------------------------------------------------------
    def apply(self, state: CaromState, event: Event) -> CaromState:  # type: ignore[override]
        """The base's ``apply``, after refusing what a carom table cannot report (carom.equipment)
        and naming its balls by their canonical ids ("p1" is the yellow)."""
        kind = type(event)  # ``admit``, inline: once per event
        if kind is Contact:
            if not _NAMED.issuperset(event.balls):  # type: ignore[attr-defined]
                event = self._carom_balls(state, event)
        elif kind in _ONE_BALL:
            if event.ball not in _NAMED:  # type: ignore[attr-defined]
                event = self._carom_balls(state, event)
        elif kind is Call:
            if event.call == "carom" and state.shot is not None and not state.in_shot:  # type: ignore[attr-defined]
                new = self._carom_called(state, event)  # type: ignore[arg-type]
                if new is not None:
                    return new
        elif kind is not Rest and kind is not Setup and not state.finished:
            raise IllegalCall(f"a carom table has no {event.type} sensors (carom.equipment: "
                              "three balls, four cushions)")
        return ShotEngine.apply(self, state, event)

    def _carom_called(self, state: CaromState, event: Call) -> CaromState | None:
        """The referee's ``carom`` between shots amending the last one, in one step where the
        shot is plain (``amend.called_carom``): the state ``apply`` makes of it the general way
        (``_evidence``'s ``AMEND``, the shot resolved again); None anywhere else (the general
        way then: a call that is a shot of its own, one about a shot that is not plain)."""
        if state.held:
            return None
        name = state.m.profile.name
        kept = _CAROM_KEPT.get(name)
        if kept is None:  # whether the profile's names keep a plain ``carom`` as it is
            kept = _CAROM_KEPT[name] = self.vocabulary(state).lookup("calls", "carom") in (None, "carom")
        if kept and event.foul is None and event.ball is None:
            call = event  # ``canonical`` of it: itself (it changes ``call``, ``foul`` and ``ball`` only)
        else:
            call = canonical(self.vocabulary(state), event)  # ``_call``: canonical ids only
            if call.call != "carom":
                return None
        player = call.player
        shot = state.shot
        assert shot is not None
        if player is not None and player == state.at_table and player != shot.player and not state.finished:
            return None  # the player now at the table, who did not play the last shot: his own shot
        return amend.called_carom(state, call)

    def admit(self, state: CaromState, gathered: Sequence[Event], event: Event) -> Event:
        """``apply``'s checks of a sensor event in a shot in progress: the event with its balls
        named by their canonical ids (``ShotEngine.gather``)."""
        kind = type(event)
        if kind is Contact:
            if not _NAMED.issuperset(event.balls):  # type: ignore[attr-defined]
                return self._carom_balls(state, event)
        elif kind in _ONE_BALL:
            if event.ball not in _NAMED:  # type: ignore[attr-defined]
                return self._carom_balls(state, event)
        elif not state.finished:
            raise IllegalCall(f"a carom table has no {event.type} sensors (carom.equipment: "
                              "three balls, four cushions)")
        return event

    def whole(self, state: CaromState, events: Sequence[Event], rest: Rest) -> CaromState | None:
        """``ShotEngine.whole``: ``admit``'s checks of each event (its balls named by their
        canonical ids; a sensor a carom table has not raises, as ``apply`` does), the cut (one
        record, ``whole_cut``), and the shot resolved from the state before it: no state at its
        opening, none per event (``drops`` and ``pins`` off: nothing before its start to give back)."""
        if state.in_shot or state.held or state.ended is not None:
            return None
        named = tuple(events)
        if type(named[0]) is not Cushion:  # a full-information shot, most often: read and decided at once
            sensed = sensed_shot(state, named, rest)  # (the state with the shot stage's fields)
            if sensed is not None:
                return sensed
        cushions = True  # the shot is cushions alone (``cushion_facts``)
        known = True  # each names its ball
        strike: bool | None = False
        for e in named:  # ``admit`` of each: most events name their balls as the engine does
            kind = type(e)
            if kind is Cushion:
                ball = e.ball  # type: ignore[attr-defined]
                if ball is None:
                    known = False
                    continue
                if ball in _NAMED:
                    continue
            elif kind is Contact:
                cushions = False
                if _NAMED.issuperset(e.balls):  # type: ignore[attr-defined]
                    continue
            elif kind in _ONE_BALL:
                cushions = False
                if kind is Strike:
                    strike = True
                if e.ball in _NAMED:  # type: ignore[attr-defined]
                    continue
            admit = self.admit
            named = tuple([admit(state, (), x) for x in named])
            cushions, strike = False, None
            break
        cut = state.cut
        t = rest.t
        if type(t) is float and strike is not None and cut.phase != _OPEN:
            # ``whole_cut``'s common case, inline (each of ``named`` is a carom table's sensor event)
            cut = Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t, False,
                         False, _NO_PINS, cut.strikes or strike)
        else:
            cut = whole_cut(cut, named, rest, strike)  # type: ignore[assignment]
            if cut is None:
                return None
        before = state  # (the base's ``close`` of the last shot: carom drops nothing from it)
        shot = ShotRecord(before.at_table, named, rest)
        # ``_resolved``: ``resolve``'s state (a plain shot's, else the general decision's) with the
        # shot stage's fields; a plain shot's in one copy of the state before it
        if cushions:
            facts = cushion_facts(len(named), known)
            fast = unseen_cushions(before, shot, facts, rest)
            if fast:  # the inning's end, the match going on
                return replace(before, m=fast[0], at_table=fast[1], rulings=fast[2], before=before, shot=shot,
                               cut=cut, checkpoint=state)
            decision = plain_parts(before, shot, rest, facts)  # (False: a zone, decided there)
        else:
            decision = plain_parts(before, shot, rest)
        if decision is None:
            return replace(self._played(before, shot, rest), before=before, shot=shot, cut=cut, in_shot=False,
                           checkpoint=state)
        m, after, log, ended = decision
        return replace(before, m=m, at_table=after, rulings=log, ended=ended,
                       before=before, shot=shot, cut=cut, in_shot=False, checkpoint=state)

    def redo(self, redo: Redo) -> CaromState:
        """``ShotEngine.redo``: the state a ``Redo`` stands for. One ``whole_called`` keeps (the state
        after a shot's rest: its base, the shot's sensor events and the rest ``apply``'d again) is
        made in one step where ``whole`` takes the shot (the state ``apply`` of each event gives:
        ``whole``'s contract); any other the base's way, its events applied one at a time.
        tests/rules/carom/test_carom_undo_redone_at_once.py holds the two ways to each other."""
        events = redo.events
        if redo.applied and type(events) is tuple and len(events) > 1 and type(events[-1]) is Rest:
            new = self.whole(redo.base, events[:-1], events[-1])  # type: ignore[arg-type]
            if new is not None:
                return new
        return ShotEngine.redo(self, redo)  # type: ignore[return-value]

    def whole_called(self, state: CaromState, events: Sequence[Event], rest: Rest,
                     call: Call) -> CaromState | None:
        """``whole`` of a shot and ``apply`` of the referee's ``call`` right after its rest, in one
        step where the call is a plain ``carom`` (no player, ball or foul named) amending a plain
        shot (``amend.called_carom``): the shot decided once, with its carom called, not at its rest
        and again at the call. The state ``apply(whole(state, events, rest), call)`` gives but for
        its ``checkpoint`` (what an undo of the call goes back to: the state after the rest), a
        ``Redo`` of ``state`` and the shot's lines, ``apply``'d again only if an undo asks for it
        (``Redo.applied``: a replay keeping a bounded history, ``Replay._feed_chunk``). None
        anywhere else (``ShotEngine.whole_called``).

        Most recorded shots are cushions alone whose carom the referee calls, the inning going on:
        those are decided here first, in one pass (``plain_decision``'s decision of them); the others,
        and a foul called after the rest, by ``_called``. tests/rules/carom/test_carom_cushion_shot_at_once.py
        and test_carom_whole_shot_and_call.py hold the step to ``whole`` and ``apply`` of the call."""
        if state.in_shot or state.held or state.ended is not None:
            return None
        if call.call != "carom" or call.player is not None or call.foul is not None or call.ball is not None:
            foul = self._foul_amending(state, call)  # a foul called after the rest: the general way
            if foul is None:
                return None
            return self._called(state, events, rest, foul)
        b = state.m
        name = b.profile.name
        try:  # (a subscript, no ``get`` call: once a shot)
            kept = _CAROM_KEPT[name]
        except KeyError:  # (``_carom_called``)
            kept = _CAROM_KEPT[name] = self.vocabulary(state).lookup("calls", "carom") in (None, "carom")
        if not kept:
            return None
        named = tuple(events)
        for e in named:  # cushions alone, each naming its ball as the engine does or none: decided below
            if type(e) is not Cushion or e.ball not in _NAMED:  # type: ignore[attr-defined]
                return self._called(state, named, rest, call)
        cut = state.cut
        t = rest.t
        discipline = b.discipline
        if type(t) is not float or not named or cut.phase == _OPEN or discipline not in CUSHIONS_NEEDED \
                or b.zone is not None:
            return self._called(state, named, rest, call)
        # ``_called``'s decision of such a shot where the carom leaves the match going on with the same
        # player at the table: ``plain_decision(state, cushion_facts(n, known), True, rest, calls, at_table)``
        # at once; not the last carom, not from a zone nor into a corner's (libre); the same decision with
        # what such a shot cannot have left out: no contact (no opening shot judged, the contacts decide
        # nothing), no strike, no fault, no note; the carom the referee's, the inning going on (no
        # announcement). The cut: ``whole_cut``'s common case, inline (the next shot, at rest at ``t``)
        at_table = state.at_table
        player = at_table or "p1"
        i = 0 if player == "p1" else 1
        caroms = b.caroms
        made = caroms[i] + 1
        positions = rest.positions
        if made >= b.targets[i] or (positions is not None and discipline == "libre"  # ``reaches_target``
                                    and in_a_corner(positions, OBJECTS[player], b.table)):
            return self._called(state, named, rest, call)
        run = b.run + 1
        high = b.high_run  # ``plain.counted``, inline (its call here: +0.8 % of a recorded replay)
        if i == 0:
            caroms = (made, caroms[1])
            if run > high[0]:
                high = (run, high[1])
        else:
            caroms = (caroms[0], made)
            if run > high[1]:
                high = (high[0], run)
        count = 2  # the carom and the call's amendment (``_carom_rulings``)
        left = None
        profile = b.profile
        announce_from = profile.countdown_from  # ``countdown``: of the player still playing
        if announce_from and at_table is not None:
            # (no ``get``: a ``MappingProxyType``'s is a call of its mapping's, twice as slow)
            start = announce_from[discipline] if discipline in announce_from else None
            if start is not None:
                left = b.targets[i] - made
                if 0 < left <= start:
                    count = 3
                else:
                    left = None
        n = len(named)
        calls = (call,)
        m = Match(discipline, profile, b.scheme, b.table, b.targets, caroms, b.innings, high,
                  run, b.runs, b.innings_limit, b.shot_clock, b.timeouts, b.timeouts_used,
                  b.breaker, b.shots + 1, True, b.nastoot, False, None, None, positions, None,
                  _CALLED[n] if n < _SHARED else Evidence(n, n, 0, "referee"), b.points)
        return replace(state, m=m, rulings=made_when_read(state.rulings, count, [
                           _carom_rulings, t, player, made, n, at_table, left, calls, at_table]),
                       before=state, shot=ShotRecord(at_table, named, rest, (), calls),
                       cut=Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t,
                                  False, False, _NO_PINS, cut.strikes),
                       checkpoint=Redo(state, named + (rest,), True))

    def _called(self, state: CaromState, events: Sequence[Event], rest: Rest,
                call: Call) -> CaromState | None:
        """``whole_called`` of a shot other than cushions alone whose carom the referee calls, the
        match going on with the same player (``call``: a plain ``carom``, or a foul by its canonical
        ids that ``_foul_amending`` let through): decided by ``plain_decision``, or the general way
        (``_amended``); None where ``whole`` and ``apply`` of the call are needed apart."""
        named = tuple(events)
        cushions = True  # the shot is cushions alone (``cushion_facts``)
        known = True  # each names its ball
        strike = False
        for e in named:  # the events as ``whole`` takes them: named as the engine names the balls
            kind = type(e)
            if kind is Cushion:
                ball = e.ball  # type: ignore[attr-defined]
                if ball is None:
                    known = False
                elif ball not in _NAMED:
                    return None
                continue
            cushions = False
            if kind is Contact:
                if not _NAMED.issuperset(e.balls):  # type: ignore[attr-defined]
                    return None
            elif kind not in _ONE_BALL or e.ball not in _NAMED:  # type: ignore[attr-defined]
                return None
            elif kind is Strike:
                strike = True
        cut = state.cut
        t = rest.t
        if type(t) is float and named and cut.phase != _OPEN:
            # ``whole_cut``'s common case, inline (each of ``named`` is a carom table's sensor event):
            # the next shot, at rest at ``t``, with a strike among its events if any
            cut = Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t, False,
                         False, _NO_PINS, cut.strikes or strike)
        else:
            cut = whole_cut(cut, named, rest, strike)  # type: ignore[assignment]
            if cut is None:
                return None
        if call.call == "foul":
            return self._amended(state, named, rest, call, cut)
        calls = (call,)
        at_table = state.at_table
        if cushions:  # (nothing called in them: the carom is the call's, no foul)
            facts = cushion_facts(len(named), known)
        else:
            facts = read_events(named, CUE_BALL[at_table or "p1"])
            if facts.carom_called is not None or facts.fouls:
                return None
        decision = plain_decision(state, facts, True, rest, calls, at_table)
        if decision is None:  # not plain (a carom left in dedans, say): the general way, in the one step
            return self._amended(state, named, rest, call, cut)
        m, after, log, ended = decision
        return replace(state, m=m, at_table=after, rulings=log, ended=ended,
                       before=state, shot=ShotRecord(at_table, named, rest, (), calls), cut=cut,
                       in_shot=False, checkpoint=Redo(state, named + (rest,), True))

    def _foul_amending(self, state: CaromState, call: Call) -> Call | None:
        """``call`` by its canonical ids where it is a foul after a shot's rest that ``apply`` would
        add to that shot (``_evidence``'s ``AMEND``): a foul the profile knows, naming no ball, and
        no player or the one who played the shot (a call naming the other player may be about his
        own shot); None for any other call (``whole_called`` then leaves the shot and call apart)."""
        if call.call != "foul" or call.ball is not None:
            return None
        player = call.player
        if player is not None and player != state.at_table:
            return None
        call = canonical(self.vocabulary(state), call)
        if call.call != "foul" or call.foul is None or call.ball is not None:
            return None
        try:
            self._check_foul(state, call)
        except IllegalCall:  # (``apply`` of the call says so, on its own line)
            return None
        return call

    def _amended(self, state: CaromState, named: tuple[Event, ...], rest: Rest, call: Call,
                 cut: Cutter) -> CaromState:
        """``whole_called``'s general way: the shot ``named`` played from ``state`` and at rest, with
        ``call`` after its rest amending it, resolved once (``resolve``: ``decide``'s way, or the
        faults' one pass), not at the rest and again at the call as ``apply`` of the call does
        (``_evidence``'s ``AMEND``: the shot with the call, resolved from the state before it)."""
        shot = ShotRecord(state.at_table, named, rest, (), (call,))
        return replace(self.resolve(state, shot), before=state, shot=shot, cut=cut, in_shot=False,
                       checkpoint=Redo(state, named + (rest,), True))

    def _carom_balls(self, state: CaromState, event: Event) -> Event:
        balls = event.balls if type(event) is Contact else (event.ball,)  # type: ignore[attr-defined]
        vocab = self.vocabulary(state)
        named = tuple(None if b is None else vocab.lookup("balls", b) or b for b in balls)
        for b in named:
            if b is not None and b not in CAROM_BALLS:
                raise IllegalCall(f"carom.equipment: a carom table has the balls yellow, white and red, "
                                  f"not {b!r}")
        if type(event) is Contact:
            return replace_event(event, balls=named)  # type: ignore[no-any-return]
        return replace_event(event, ball=named[0])  # type: ignore[no-any-return]

    # --- calls ------------------------------------------------------------------------
    def call(self, state: CaromState, call: Call) -> Any:
        kind = call.call
        if kind == "start":
            return self._start(state, call)
        if kind in ("carom", "foul"):
            if kind == "foul":
                self._check_foul(state, call)
            return self._evidence(state, call)
        if kind == "frozen":
            return self._frozen(state, call)
        if kind == "note":
            return self._note(state, call)
        if kind == "timeout":
            return self._timeout(state, call)
        raise IllegalCall(f"unknown carom call {kind!r} (calls: {', '.join(CALLS)})")

    def _start(self, state: CaromState, call: Call) -> CaromState:
        if state.m.shots or state.in_shot:
            raise IllegalCall("'start' is only allowed before the first shot")
        player = call.player or "p1"
        m = replace(state.m, breaker=player, positions=outlay(carom_table(state.m.table), player))
        # before the first shot: the warning goes to the player who breaks, not to the one the
        # set-up put at the table
        rulings = state.rulings
        if any(r.rule == COUNTDOWN_RULE for r in rulings):
            rulings = RulingLog(r for r in rulings if r.rule != COUNTDOWN_RULE)
        s = replace(state, at_table=player, m=m, rulings=rulings)
        return _first_countdown(self.rule(s, call.t, "carom.outlay", player=player, what="break"), call.t)

    def _check_foul(self, state: CaromState, call: Call) -> None:
        """A foul by canonical id that the profile's text names, or ``IllegalCall``."""
        foul, club = call.foul, state.m.profile
        if foul is None:
            raise IllegalCall("a foul call needs 'foul'")
        if foul == "masse":
            raise IllegalCall(club.masse)
        if club.knows(foul):
            return
        known = ", ".join(k for k in BY_NAME if club.knows(k))
        elsewhere = foul in BY_NAME or any(for_game("carom", p).lookup("fouls", foul) for p in PROFILES)
        what = f"not a foul in profile {club.name}" if elsewhere else "unknown foul"
        raise IllegalCall(f"{what}: {foul!r} (fouls: {known})")

    def _evidence(self, state: CaromState, call: Call) -> Any:
        """A ``carom`` or ``foul`` call: part of the shot under way, an amendment of the last
        one, or a shot of its own."""
        shot = state.shot
        if state.in_shot and shot is not None:
            return replace(state, shot=replace(shot, events=(*shot.events, call)))
        last = _last_shot(state.before, shot)
        played = last[1] if last is not None and not _placed(*last) else None
        counted = played is not None and call.call == "carom" and _carom_called(played)
        # a call naming the player now at the table, who did not play the last shot, is his
        new_player = (played is not None and call.player is not None and call.player == state.at_table
                      and call.player != played.player)
        if played is not None and not counted and not (new_player and not state.finished):
            return AMEND
        # nothing to amend (no shot yet, its carom already counted, or the call is about the
        # next player): the call is a shot of its own, seen by the referee alone
        if state.finished:
            raise IllegalCall(f"the match is over ({self.result_text(state)}); "
                              f"the last shot's {call.call} is already decided")
        before = self.close(state) if shot is not None else state
        rest = Rest(t=call.t, extra={_CALL_REST: True})
        own = ShotRecord(player=before.at_table, events=(call,), rest=rest)
        return replace(self.resolve(before, own), before=before, shot=own)

    def _frozen(self, state: CaromState, call: Call) -> Any:
        if state.in_shot:
            raise IllegalCall("a frozen ball is dealt with before the shot, not during it")
        if state.finished:
            raise IllegalCall("the match is over")
        frozen = state.m.profile.frozen_rule(state.m.discipline)
        choice = str(call.extra.get("choice", "")).lower()
        if choice not in frozen.choices:
            raise IllegalCall(f"frozen: choice must be one of {', '.join(frozen.choices)} ({frozen.rule}), "
                              f"not {choice!r}")
        return self._about_last_shot(state, call)

    def _note(self, state: CaromState, call: Call) -> Any:
        rule = call.extra.get("rule")
        if rule not in NOTE_RULES:
            raise IllegalCall(f"note: 'rule' must be one of {', '.join(NOTE_RULES)}, not {rule!r}")
        club = state.m.profile
        if rule in club.refused_notes:
            raise IllegalCall(club.refused_notes[rule])
        if rule not in club.notes:
            has = next(p.name for p in PROFILES.values() if rule in p.notes)
            raise IllegalCall(f"{rule} is a rule of profile {has}, not {club.name}")
        if rule == "carom.referee.change" and (state.in_shot or state.m.run > 0):
            raise IllegalCall("carom.referee.change: the referee changes after an inning, not during one")
        if rule == "carom.protest" and state.finished:
            raise IllegalCall("carom.protest: no protest is accepted after the match")
        if state.in_shot and state.shot is not None:
            return replace(state, shot=replace(state.shot, events=(*state.shot.events, call)))
        return self._about_last_shot(state, call)

    def _timeout(self, state: CaromState, call: Call) -> CaromState:
        """SHOT_CLOCK_RULE: the player at the table takes a time-out (one more shot-clock
        period for this shot), as many as the set-up allows him."""
        m = state.m
        if m.shot_clock is None:
            raise IllegalCall(f"no shot clock in this match: a time-out needs the set-up's shot_clock "
                              f"({SHOT_CLOCK_RULE})")
        if state.finished:
            raise IllegalCall("the match is over")
        if state.in_shot:
            raise IllegalCall("a time-out is taken before the shot, not while the balls roll")
        player = call.player or state.at_table or "p1"
        if player != state.at_table:
            raise IllegalCall(f"only the player at the table ({state.at_table}) takes a time-out")
        i = IDX[player]
        if m.timeouts_used[i] >= m.timeouts:
            raise IllegalCall(f"{player} has no time-out left ({m.timeouts} a match, {SHOT_CLOCK_RULE})")
        used = with_entry(m.timeouts_used, i, m.timeouts_used[i] + 1)
        s = replace(state, m=replace(m, timeouts_used=used))
        return self.rule(s, call.t, SHOT_CLOCK_RULE, player, what="timeout", left=m.timeouts - used[i],
                         seconds=m.shot_clock)

    def _about_last_shot(self, state: CaromState, call: Call) -> Any:
        """A ``note`` or ``frozen`` call between shots: kept with the last shot (an amended
        shot keeps it), or applied at once before the first."""
        last = _last_shot(state.before, state.shot)
        if last is not None and not _placed(*last):
            return AMEND
        return _after_call(state, call)

    def incident(self, state: CaromState, event: Event) -> CaromState:
        """Between shots on a table that reports strikes, a ``rest`` with nothing open is no shot;
        it still closes a shot the referee's call alone made (its positions count) and places the
        balls before the first shot, as it does where strikes are not reported."""
        if isinstance(event, Rest):
            last = state.shot
            if (last is not None and _awaits_rest(last)) or (not state.m.played and event.positions):
                before = self.close(state) if last is not None else state
                return self._resolved(before, ShotRecord(player=before.at_table, rest=event), state)
            return state
        return ShotEngine.incident(self, state, event)

    # --- resolving a shot -------------------------------------------------------------
    def asks_live(self, event: Event) -> bool:
        """Carom asks no questions: a shot's live view is the score with its notes."""
        return False

    def resolve(self, before: CaromState, shot: ShotRecord) -> CaromState:
        rest = shot.rest
        if rest is None:  # in progress: the score before it, with the notes made during it
            return _notes(before, shot.events)
        if not shot.events:  # a rest alone: it may close a shot of a call, or place the balls
            before, shot = _last_shot(before, shot)  # type: ignore[misc]
            if _placed(before, shot):
                s = self._placed(before, rest)
                for call in shot.calls:
                    s = _after_call(s, call, shot.player)
                return s
        # most shots are plain (no fault, no zone, the match goes on): one pass; else ``decide``
        return plain_shot(before, shot, rest) or self._played(before, shot, rest)

    def _played(self, before: CaromState, shot: ShotRecord, rest: Rest) -> CaromState:
        """The shot decided (``decide``) on a ``Draft`` of the score before it, then what the
        calls after its rest add: one new state, its rulings added to the log at once. Its facts
        are those ``plain_parts`` read of the same shot where it read them last, before saying it
        is not plain (``shot_facts``: a shot its callers hand to ``plain_parts`` first), else read."""
        at_table = before.at_table
        player = at_table or "p1"
        facts = shot_facts(shot, CUE_BALL[player])
        if faulted.ON:  # an inning ended by a fault or too few cushions, the match going on: one pass
            quick = faulted_shot(before, shot, rest, facts)
            if quick is not None:
                return quick
        t = rest.t
        b = before.m
        ended = before.ended
        d = Draft(b, at_table, ended is not None, None if ended is None else ended.winner)
        d.shots = b.shots + 1
        if not b.played:
            d.played = True
        if b.announcement is not None:
            d.announcement = None
        d.positions = rest.positions
        decide(d, b, player, facts, t)
        countdown(d, t)
        rulings = d.rulings
        if facts.notes:  # the notes made during the shot, after its rulings (``_notes``)
            for e in shot.events:
                if type(e) is Call and e.call == "note":
                    rulings.append(_call_ruling(e, None))  # type: ignore[arg-type]
        calls = shot.calls
        later = ()  # calls after the rest that change more than the rulings (a frozen ball)
        if calls:
            for i, call in enumerate(calls):
                if call.call == "frozen":
                    later = calls[i:]
                    break
                ruling = _call_ruling(call, shot.player)
                if ruling is not None:
                    rulings.append(ruling)
        s = replace(before, m=d.freeze(), at_table=d.at_table,
                    rulings=RulingLog(rulings, before.rulings) if rulings else before.rulings)
        if d.ended is not None:
            rule, data = d.ended
            s = replace(self.end(s, d.winner, rule, **data), at_table=d.at_table)
        for call in later:
            s = _after_call(s, call, shot.player)
        return s

    def _placed(self, state: CaromState, rest: Rest) -> CaromState:
        """A ``rest`` with positions before the first shot and without a sensor event: where
        the balls lie for the first shot, not a shot (a full-information source reports a
        shot with its strike, contacts and cushions)."""
        m = state.m
        tab = carom_table(m.table)
        d = Draft(m, state.at_table, state.finished, state.winner)
        d.positions = rest.positions
        # balls placed elsewhere than the starting position: the first shot is no opening shot
        d.from_outlay = at_outlay(rest.positions, tab, m.breaker)
        update_zone(d, None, state.at_table or "p1", tab, rest.t, same_player=False)
        return replace(state, m=d.freeze(), rulings=state.rulings + d.rulings)

    # --- output ---------------------------------------------------------------------
    def game_json(self, state: CaromState) -> dict[str, Any]:
        m = state.m

        def pair(v: tuple[Any, Any]) -> dict[str, Any]:
            return {"p1": v[0], "p2": v[1]}

        avg = tuple(round(c / n, 3) if n else 0 for c, n in zip(m.caroms, m.innings, strict=True))
        return {
            "discipline": m.discipline, "profile": m.profile.name,
            "caroms": pair(m.caroms), "innings": pair(m.innings), "high_run": pair(m.high_run),
            "runs": {"p1": list(m.runs[0]), "p2": list(m.runs[1])}, "innings_limit": m.innings_limit,
            "shot_clock": m.shot_clock,
            "timeouts_left": pair(tuple(m.timeouts - u for u in m.timeouts_used)) if m.shot_clock else None,
            "average": pair(avg), "targets": pair(m.targets),
            "match_points": pair(m.points) if m.points is not None else None,
            "current_run": m.run, "breaker": m.breaker, "nastoot": m.nastoot,
            "from_outlay": m.from_outlay, "announcement": m.announcement,
            "zone": m.zone_corner if m.zone else None,
            "entree": m.zone == "entree", "dedans": m.zone == "dedans",
            "countdown": countdown_of(state),
            "evidence": m.evidence.to_dict() if m.evidence is not None else None, "scheme": m.scheme,
        }

    def summary(self, state: CaromState, lang: str = "en") -> str:
        m = state.m
        names = player_names(state)
        parts = [phrase("summary.carom:player", {"name": names.get(p, p), "caroms": m.caroms[i],
                                                 "target": m.targets[i], "innings": m.innings[i]}, lang)
                 for p, i in IDX.items()]
        tail = f" ({m.announcement})" if m.announcement else ""  # POEDEL: the club's word in any language
        if m.zone:
            tail += f" [{m.zone.upper()}]"  # ENTREE, DEDANS: the same words in Dutch and Danish
        return " - ".join(parts) + tail


def _first_match(setup: Setup) -> Match:
    """The score before a match's first shot, as its set-up says (``IllegalCall`` where it says
    something carom has not)."""
    club = profile(setup.profile)
    discipline = setup.discipline or "libre"
    extra = setup.extra or {}
    scheme = resolve_scheme(extra.get("points", extra.get("scheme", "de-bruijn")))
    tab = _bed(extra.get("table"))
    targets, _how = targets_for(setup.targets, setup.moyennes, extra,
                                championship=championship_match(club, extra))
    return Match(discipline=discipline, profile=club, scheme=scheme, table=tab.name, targets=targets,
                 positions=outlay(tab, "p1"), innings_limit=_innings_limit(extra.get("innings_limit")),
                 **_shot_clock(extra))


#: a match's state before its first shot and before the countdown's ruling (``new_state``), and the
#: caroms that ruling announces (None: none), by what it is made of (a set-up's profile, discipline,
#: targets, moyennes, its other keys and its players, ``_SETUP_KEY``): immutable, shared by the
#: matches set up alike. MessagePack tells apart what the set-up's readers tell apart (true, 1 and
#: 1.0; null and NaN); a list and a tuple it writes alike, and they read alike
_FIRST: FirstStates[bytes, tuple[CaromState, int | None]] = FirstStates()
_SETUP_KEY = msgspec.msgpack.Encoder(enc_hook=dict)


def whole_cut(cut: Cutter, events: tuple[Event, ...], rest: Rest,
              strike: bool | None = None) -> Cutter | None:
    """The cutter after a whole shot of ``events`` (the first opening it) and ``rest``: the one
    ``Cutter.feed`` of each in turn gives, None where the first opens no shot. Made as one record
    (``shot_cut``: the first event, then the rest), with the first strike among the other events
    (``apply``'s hot path: the table has a strike sensor) added as its ``feed`` adds it. ``strike``:
    whether one of ``events`` is a strike, where the caller knows (None: looked for here).

    Its common case made at once: no shot open (the shot before at rest, its settle window open: a
    carom table has nothing that settles; or closed; or none yet, a match's first shot), the first
    event a carom table's sensor (it opens a shot, whatever the table reports) and the rest's time a
    float: the next shot, at rest at ``rest.t``."""
    t = rest.t
    if type(t) is float and type(events[0]) in _CAROM_KINDS and cut.phase != _OPEN:
        strikes = cut.strikes
        if not strikes:
            if strike is None:
                for e in events:
                    if type(e) is Strike:
                        strike = True
                        break
            strikes = bool(strike)
        return Cutter(cut.strike_sensor, cut.window, cut.game, cut.shot + 1, _SETTLING_PHASE, t, False, False,
                      _NO_PINS, strikes)
    new = shot_cut(cut, events[0], rest)
    if new is None or new.strikes:
        return new
    for e in islice(events, 1, None):
        if type(e) is Strike:
            return replace(new, strikes=True)
    return new


#: a carom table's sensor events: the first of them opens a shot after the last one's rest
_CAROM_KINDS = frozenset({Strike, Cushion, Contact, OffTable})


def countdown_of(state: CaromState) -> int | None:
    """carom.countdown (liemers): the caroms the player at the table still has to make,
    announced from 5 (driebanden 3) down; None when the referee announces nothing."""
    m = state.m
    return caroms_to_go(m.profile.countdown_from, m.discipline, state.finished, state.at_table, m.targets,
                        m.caroms)


def _first_countdown(state: CaromState, t: float) -> CaromState:
    """carom.countdown before the first inning (004: "waarschuwen als deze nog 5-4-3-2-1 caroms te
    maken heeft"): a player at the table whose target is within the countdown is warned before
    his first shot as well; after a shot ``countdown`` warns the player it leaves at the table."""
    left = countdown_of(state)
    if left is None:
        return state
    return CaromEngine.rule(state, t, COUNTDOWN_RULE, state.at_table, left=left)


def _placed(before: CaromState | None, shot: ShotRecord) -> bool:
    """The shot is a ``rest`` with positions before any shot was played: it places the balls."""
    return (before is not None and not before.m.played and not shot.events and shot.rest is not None
            and bool(shot.rest.positions))


def _last_shot(before: CaromState | None, shot: ShotRecord | None) -> tuple[CaromState, ShotRecord] | None:
    """The state before the last shot and that shot, for the state whose ``before`` and
    ``shot`` these are: the rest that closed a shot the referee's call alone made is that
    shot's rest (the base took it for a shot of its own)."""
    if shot is None or before is None:
        return None
    own = before.shot
    if not shot.events and own is not None and before.before is not None and _awaits_rest(own):
        assert shot.rest is not None
        return before.before, replace(own, rest=shot.rest, calls=own.calls + shot.calls)
    return before, shot


def _carom_called(shot: ShotRecord) -> bool:
    """Whether the referee called a ``carom`` in ``shot`` or after its rest."""
    for e in shot.events:
        if type(e) is Call and e.call == "carom":
            return True
    for c in shot.calls:
        if c.call == "carom":
            return True
    return False


def _awaits_rest(shot: ShotRecord) -> bool:
    """A shot the referee's call alone made, whose own ``rest`` has not come yet."""
    return shot.rest is not None and bool(shot.rest.extra.get(_CALL_REST))


def _notes(state: CaromState, events: tuple[Event, ...]) -> CaromState:
    """``state`` with the notes the referee made during a shot."""
    for e in events:
        if type(e) is Call and e.call == "note":
            state = _after_call(state, e)
    return state


def _call_ruling(call: Call, shot_player: str | None) -> Ruling | None:
    """The ruling a ``note`` call makes, or the amendment's of a ``carom`` or ``foul`` call
    after a shot's rest (of the shot ``shot_player`` played); None for any other call."""
    kind = call.call
    if kind == "note":
        text = call.extra.get("text")
        data = (("text", str(text)),) if text not in (None, "") else ()
        return Ruling(t=call.t, rule=str(call.extra["rule"]), player=call.player, data=data)
    if kind in ("carom", "foul"):
        return Ruling(t=call.t, rule="carom.referee.amend", player=shot_player, data=(("call", kind),))
    return None


def _after_call(state: CaromState, call: Call, shot_player: str | None = None) -> CaromState:
    """What a call after a shot's rest adds to it: the ruling of a note, the frozen ball's
    choice, and for a ``carom`` or ``foul`` call the amendment's ruling (``_call_ruling``)."""
    kind = call.call
    if kind == "frozen":
        m = state.m
        frozen = m.profile.frozen_rule(m.discipline)
        choice = str(call.extra.get("choice", "")).lower()
        player = state.at_table or "p1"
        if choice == "outlay":
            spots = outlay(carom_table(m.table), player)
            m = replace(m, from_outlay=True, positions=spots, zone=None, zone_corner=None)
            state = replace(state, m=m)
        return CaromEngine.rule(state, call.t, frozen.rule, player, choice=choice)
    ruling = _call_ruling(call, shot_player)
    if ruling is None:
        return state
    return replace(state, rulings=state.rulings + (ruling,))


SHOT_CLOCK_RULE = "carom.shot-clock"


def _shot_clock(extra: dict[str, Any]) -> dict[str, Any]:
    """The set-up's ``shot_clock`` (seconds) and ``timeouts`` (a player's in a match,
    default 1) as ``Match`` fields (SHOT_CLOCK_RULE); none without a shot clock."""
    clock, timeouts = extra.get("shot_clock"), extra.get("timeouts", 1)
    if clock is None:
        return {}
    for name, value, least in (("shot_clock", clock, 1), ("timeouts", timeouts, 0)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise IllegalCall(f"setup: {name} must be a whole number of {'seconds' if least else 'time-outs'}"
                              f" ({SHOT_CLOCK_RULE}), not {value!r}")
    return {"shot_clock": clock, "timeouts": timeouts}


def _innings_limit(value: Any) -> int | None:
    """The set-up's ``innings_limit`` ("carom.innings-limit"): a positive whole number of
    innings, or none (play to the targets, carom.target.play-out)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise IllegalCall(f"setup: innings_limit must be a positive whole number of innings, not {value!r}")
    return value


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


__all__ = ["CaromEngine", "CaromState", "countdown_of"]
