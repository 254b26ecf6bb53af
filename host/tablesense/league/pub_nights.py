"""A pub's team nights, as ``tablesense run --league`` keeps them (the league's side is
``nights``): the cards the league told this pub, the matches of tonight's night on its
tables, and the night's score for its TV overview (``Pub.team_night``, served as
``/api/team-night``).

Each finished match of the night is read and scored once (cached by its match id and its
number of logged events: a correction reads it again); a match in play shows its score line.
As the referee starts a match of tonight's night (``setup_for``: ``Pub.league_setup``), its
set-up gets what the night's scheme fixes: a carom night with an innings cap the cap as its
``innings_limit``, so the rule engine itself ends the match at the cap (carom.innings-limit) and
the TV shows the end; a keglebillard night each player's own distance. A carom match started
without the limit (before the pub knew its nights, or by an older version) is still counted as
played once both players have had that many innings (``games.read`` reads the match at the
cap), and the publisher sends it to the league then (``complete``).
"""

from __future__ import annotations

import time
from typing import Any

from ..pub import Pub
from ..store import Store
from ..store import effective_lines as store_effective
from . import part
from .matchlog import NotACompetitionMatch, replay_match
from .nights import BadNights, card_result, decode_nights, night_view, scheme_of, tag
from .standings import Result

#: the most of the pub's newest matches looked at for tonight's nights
RECENT = 200


class PubNights:
    def __init__(self, name: str, cards: list[dict[str, Any]] | None = None) -> None:
        self.name = name
        self.cards: list[dict[str, Any]] = cards or []
        self._read: dict[tuple[int, int], Result | None] = {}

    def told(self, raw: bytes) -> list[dict[str, Any]]:
        """The league's new nights message (``BadNights`` if it does not read)."""
        self.cards = decode_nights(raw, self.name)
        return self.cards

    def tonight(self, now: float | None = None) -> list[dict[str, Any]]:
        day = time.strftime("%Y-%m-%d", time.localtime(time.time() if now is None else now))
        return [c for c in self.cards if c["date"] == day]

    def setup_for(self, setup: dict[str, Any], now: float | None = None) -> dict[str, Any]:
        """A referee's set-up as a match of tonight's night is played (a match between a player,
        or a golf duo, of each team): what the night's scheme fixes is filled in, and a set-up
        that says otherwise is refused (``IllegalCall``, one line), since the league would
        refuse the match at its end:

        - carom: the competition's discipline; each player's moyenne in the competition, his
          target following from it (carom.target.moyenne, as ``league add-result`` counts
          it), unless the referee gave targets or moyennes; the match marked as one of the
          competition (its minimum target, carom.target.minimum); the scheme's innings cap
          as the match's ``innings_limit`` (carom.innings-limit: the engine ends it there);
        - keglebillard: each player's distance under the scheme (kegle.distance: his series
          average's handicap, or the fixed one) as the set-up's ``targets``, in place of the
          one distance the panel offers.

        Any other set-up is unchanged."""
        game, players = setup.get("game"), setup.get("players")
        own = part.find(game)
        if own is None or not isinstance(players, dict) or not self.cards \
                or not all(isinstance(v, (str, list)) for v in players.values()):
            return setup  # no night's match (or a set-up the engine refuses with its reason)
        card = tag(self.cards, str(game), players, time.time() if now is None else now)
        if card is None:
            return setup
        night = (f"this is a match of tonight's team night ({card['home']['team']} - {card['away']['team']}, "
                 f"{card['competition']})")
        night_setup: dict[str, Any] = own.night_setup(setup, card, scheme_of(card), night)
        return night_setup

    # --- reading the night's matches ------------------------------------------------------
    def _result(self, log: Store, card: dict[str, Any], match_id: int, table: str) -> Result | None:
        events = log.events(match_id)
        key = (match_id, len(events))
        if key not in self._read:
            lines = [e.line for e in store_effective(events)]
            try:
                self._read[key] = card_result(card, replay_match(lines), source=f"{self.name}:{table}")
            except NotACompetitionMatch:
                self._read[key] = None
        return self._read[key]

    def complete(self, pub: Pub, log: Store) -> set[int]:
        """Matches not ended that their night's scheme reads as played: an innings cap reached,
        in play or left there when the table's next match started."""
        if not any(scheme_of(c).innings_cap is not None for c in self.cards):
            return set()
        current = {tab.match.id: tab for tab in pub.tables.values() if tab.match is not None}
        out: set[int] = set()
        for m in log.matches(limit=RECENT):
            own = part.find(m.game)
            if m.ended is not None or own is None or not own.READ_UNFINISHED:  # an innings cap may read it
                continue
            card = tag(self.cards, m.game, m.players, m.started)
            if card is None or scheme_of(card).innings_cap is None:
                continue
            tab = current.get(m.id)
            if tab is not None and not _at_cap(card, tab):
                continue  # in play, short of the cap: not replayed at every shot
            if self._result(log, card, m.id, m.table_id) is not None:
                out.add(m.id)
        return out

    def view(self, pub: Pub, log: Store, now: float | None = None) -> dict[str, Any]:
        """Tonight's nights at this pub as the overview shows them."""
        tonight = self.tonight(now)
        if not tonight:
            return {"pub": self.name, "nights": []}
        current = {tab.match.id: tab for tab in pub.tables.values() if tab.match is not None}
        capped = self.complete(pub, log)
        out = []
        recent = log.matches(limit=RECENT)
        for card in tonight:
            played: list[tuple[str, Result]] = []
            playing: list[dict[str, Any]] = []
            for m in reversed(recent):
                if tag([card], m.game, m.players, m.started) is None:
                    continue
                done = m.ended is not None or m.id in capped
                result = self._result(log, card, m.id, m.table_id) if done else None
                if result is not None:
                    played.append((m.table_id, result))
                elif m.id in current and m.ended is None:
                    summary = pub.snapshot(current[m.id].id).get("summary", "")
                    playing.append({"table": m.table_id, "p1": m.players.get("p1"), "p2": m.players.get("p2"),
                                    "summary": summary})
            out.append(night_view(card, played, playing))
        return {"pub": self.name, "nights": out}



def _at_cap(card: dict[str, Any], tab: Any) -> bool:
    """A carom match in play under a night with an innings cap, both players past it."""
    cap = scheme_of(card).innings_cap
    if cap is None:
        return False
    innings = getattr(getattr(tab.replay.state, "m", None), "innings", (0, 0))
    return min(innings) >= cap


__all__ = ["BadNights", "PubNights"]
