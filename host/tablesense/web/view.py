"""What the screens show beyond the engine's state, made on the host in the table's language.

``view(table, snapshot)`` is the pub's snapshot hook (``Pub.view``): the last shot told
in one line, what undo would take back, the players' ball colours, the plan of the
balls where the last rest put them (``plan``, when the table reports positions). The pages only
display it; ``panel(table)`` is what the referee panel draws its buttons from.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from .. import games
from ..club_figures import figures, for_screens
from ..errors import TablesenseError
from ..events import Call
from ..pub import Table, call_time, charged
from ..store import effective_lines
from ..texts import render
from . import fouls, last_shot, plan, sensors, undo
from .pages import strings


def colours(game: str | None) -> dict[str, str]:
    """The ball each player plays: the TV paints each player's card in their ball's colour
    (the game declares them, ``Game.card_colours``; keglebillard: both play the red, none)."""
    found = games.find(game)
    return dict(found.card_colours) if found is not None else {}


class _Log:
    """A match's log as the screens read it, kept up with each new line (a snapshot per
    event must not cost a pass over the whole match): the effective lines once a void
    record has left some out, made again at a void and extended with each line after it
    (a void leaves out lines before it only). (The undo walk is the pub's: ``Table.walk``.)"""

    __slots__ = ("effective", "fed", "match", "tab")

    def __init__(self, tab: Table, match: int) -> None:
        self.tab = tab
        self.match = match
        self.fed = 0  # log rows read
        self.effective: list[str] | None = None  # the effective lines after the set-up, once voided

    def update(self, tab: Table) -> None:
        """Read the rows logged since."""
        new = tab.log[self.fed:]
        self.fed = len(tab.log)
        if any('"void"' in e.line for e in new):
            self.effective = [e.line for e in effective_lines(tab.log)[1:]]
        elif self.effective is not None:
            self.effective.extend(e.line for e in new)


_LOGS: dict[int, _Log] = {}  # id(table) -> its log read so far


def view(tab: Table, snap: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``view``; a fault in it costs the view, never the table's snapshot."""
    try:
        return _view(tab, snap)
    except Exception as exc:  # the scoreboard goes on showing the state
        _LOGS.pop(id(tab), None)
        return {"error": f"the screens' view failed: {exc!r}"}


def _view(tab: Table, snap: dict[str, Any]) -> dict[str, Any]:
    match = snap.get("match")
    if match is None or tab.match is None:
        return {}
    s = strings(tab.lang)
    game = match["game"]
    players = match.get("players") or {}
    state = snap.get("state") or {}
    log = _LOGS.get(id(tab))
    if log is None or log.tab is not tab or log.match != tab.match.id or log.fed > len(tab.log):
        log = _LOGS[id(tab)] = _Log(tab, tab.match.id)
    log.update(tab)
    effective = log.effective  # once a void left lines out, the screens read the effective ones only

    def newest_first() -> Iterator[str]:
        return reversed(effective) if effective is not None else (e.line for e in reversed(tab.log))

    since = tab.walk.last_shot_since()
    rulings = [r for r in state.get("rulings") or () if float(r.get("t", 0.0)) > since]
    out: dict[str, Any] = {
        "last_shot": last_shot.tell(game, rulings, state, players, s),
        "undo": undo.describe(tab.walk.last(), game, players, s),
        "colours": colours(game),
        "foul_on": _foul_on(tab),
        "announcements": _announcements(tab),
        "club": _club(tab, match.get("setup") or {}),
        # the sensors were out: where the board's record and the referee's disagree
        "sensor_questions": sensors.questions(snap.get("sensors"), players, s),
        "extras": extras(game, state),
    }
    positions = plan.last_positions(islice(newest_first(), 400))
    drawn = plan.drawing(game, match.get("setup") or {}, state, positions, out["colours"])
    if drawn is not None:
        out["plan"] = drawn
    waiting = state.get("spots_waiting")
    spots = games.part(game, "spots") if isinstance(waiting, list) and waiting else None
    if spots is not None:  # golf: the opponent names where the penalised ball goes
        owner = str(waiting[0])
        out["spots"] = {"owner": owner, "allowed": spots.allowed(owner, positions),
                        "seen": positions is not None}
    return out


def extras(game: str, state: dict[str, Any]) -> dict[str, list[list[Any]]]:
    """The state's fields the game declares for the TV (``Game.tv``) as ``[field, value]``
    lines: ``p1``/``p2`` for each player's card, ``centre`` for the middle. A field that is
    absent, empty or not a plain value (a list, a nested record) is left out."""
    out: dict[str, list[list[Any]]] = {"p1": [], "p2": [], "centre": []}
    declared = games.find(game)
    for name in declared.tv if declared is not None else ():
        value = state.get(name)
        if isinstance(value, dict):
            for side in ("p1", "p2"):
                if _plain(value.get(side)):
                    out[side].append([name, value[side]])
        elif _plain(value):
            out["centre"].append([name, value])
    return out


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and value != ""


def _announcements(tab: Table) -> list[str]:
    """Keglebillard's referee announcements in the table's language (the state's are in English).
    The referee's bare "distance" is said as its rule's sentence ("distancen er nået"): on a
    screen the one word explains nothing."""
    state = tab.replay.state
    score = getattr(state, "score", None)
    out = []
    for key, params in getattr(score, "announcements", ()) or ():
        rule, _, what = str(key).partition(":")
        data = dict(params)
        if key != "kegle.distance:announce" and what:
            data["what"] = what
        out.append(render(rule, data, tab.lang))
    return out


def _club(tab: Table, setup: dict[str, Any]) -> dict[str, Any]:
    """What a club counts (``tablesense.club_figures``), from the engine's state as shown."""
    shown = _shown(tab)
    if shown is None:
        return {}
    moyennes = setup.get("moyennes")
    return for_screens(figures(shown, moyennes if isinstance(moyennes, dict) else None))


def _shown(tab: Table) -> Any:
    """The engine's state as the screens show it (a shot under way resolved as if it stopped now)."""
    rep = tab.replay
    if rep.engine is None or rep.state is None:
        return None
    live = getattr(rep.engine, "live", None)
    return live(rep.state) if live is not None else rep.state


def _foul_on(tab: Table) -> str | None:
    """The player a foul called now would go against ("p1"/"p2"): the engine is asked, with
    a push (a foul of every game), on the state as it is; nothing is logged."""
    rep = tab.replay
    if rep.engine is None or rep.state is None or tab.match is None or rep.state.finished:
        return None
    try:
        after = rep.engine.apply(rep.state, Call(t=call_time(tab), call="foul", foul="push"))
    except TablesenseError:
        return None
    return charged(rep.engine, rep.state, after)


def panel(tab: Table, state: dict[str, Any] | None) -> dict[str, Any]:
    """The referee panel's buttons for the table's match: its fouls (common first, the
    ones its rules or format do not know left out), golf's replacement spots, the sensor
    events entered by hand (``by_hand``, web/sensors.py)."""
    if tab.match is None:
        return {"game": None, "fouls": []}
    s = strings(tab.lang)
    game = tab.match.game
    state = state or {}
    declared = games.find(game)
    profile = None  # the match's rule variant, which picks its fouls (carom: the club's profile)
    if declared is not None:
        profile = state.get(declared.variant)
        if declared.variant_default is not None:
            profile = profile or declared.variant_default
    zone = state.get("zone_play")
    out: dict[str, Any] = {
        "game": game, "lang": tab.lang,
        "fouls": fouls.buttons(game, s, profile if isinstance(profile, str) else None,
                               zone if isinstance(zone, bool) else None),
    }
    spots = games.part(game, "spots")
    if spots is not None:
        out["table"] = spots.drawing()
    # the sensor events as buttons: while the sensors are out, or when the referee chooses
    out["by_hand"] = sensors.buttons(game, tab.match.players or {}, s)
    return out
