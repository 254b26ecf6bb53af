"""The referee's ``carom`` after a shot's rest, amending that shot in one step.

A ``carom`` call after a shot's rest amends the shot (``CaromEngine._evidence``): the general
way adds the call to the shot and the base resolves the whole shot again from the state
before it (``AMEND``: the events read again, the shot decided again). For the shot the call
is nearly always about (a plain shot, ``plain``: no fault, no note, no zone; the cushion
sensors alone saw it, so only the referee's call counts its carom), ``called_carom`` makes
the same state from what the shot already established: its facts as ``plain_shot`` read
them at the rest (``shot_facts``), with the call's carom, decided in one pass
(``plain_decision``), the shot stage's own fields set as the base sets them. Anything else
answers None, and the call goes the general way.

tests/rules/carom/test_carom_call_amends_at_once.py holds the two ways equal over made-up
matches; tests/cli/test_replay_fast_paths.py turns this one off (``called_carom``) for whole
recorded matches.
"""

from __future__ import annotations

import msgspec

from ...events import Call
from ..shot_engine import ShotRecord
from .match import CaromState
from .plain import plain_decision, shot_facts
from .profiles import CUE_BALL

replace = msgspec.structs.replace


def called_carom(state: CaromState, call: Call) -> CaromState | None:
    """The state after ``call``, the referee's ``carom`` (canonical) between shots that amends
    ``state``'s last shot (``_evidence``: not a shot of its own), as the general way makes it:
    the shot resolved again from the state before it with the call after its rest; None where
    the shot is not plain with the call (the general way then)."""
    shot, before = state.shot, state.before
    if shot is None or before is None or shot.calls or before.ended is not None:
        return None  # a call after it already, or the match over: the general way
    events, rest = shot.events, shot.rest
    if type(events) is not tuple or not events or rest is None:
        return None  # a rest alone, or a shot still open
    facts = shot_facts(shot, CUE_BALL[before.at_table or "p1"])
    if facts.carom_called is not None or facts.fouls:
        return None  # its carom already counted (the call is a shot of its own), or a foul
    calls = (call,)
    amended = ShotRecord(shot.player, events, rest, shot.late, calls)  # the shot with the call after its rest
    # the call is the shot's only carom call, and no foul was called: what it changes of the facts
    # is that the carom is called (``wrong_ball_called_first`` asks for a foul), at whatever time
    decision = plain_decision(before, facts, True, rest, calls, shot.player)
    if decision is None:
        return None
    m, after, log, ended = decision
    # ``ShotEngine.amend``: the shot with the call after its rest, resolved from the state before
    # it (``_resolved``: the stage's fields as they are now), and what an undo goes back to
    return replace(before, m=m, at_table=after, rulings=log, ended=ended,
                   before=before, shot=amended, cut=state.cut, in_shot=state.in_shot, checkpoint=state)
