"""A team night's carom match shows the match points of the night's scheme, not de Bruijn's: a
visitebiljart match (``visite-*``: the Belgian count, caroms x 10 / target each) ends on the TV,
the score sheet and the engine's ruling with the points its competition counts for it; de
Bruijn (seed 003 Art. 11.6) is the club championship's scheme. The night's set-up names the
count as the match's ``points`` (``rules/carom/league.py:night_setup``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_carom_helpers import Table, setup
from test_league_night_innings import CAP, SCHEME, innings, play_into, sides, tonight

from tablesense.errors import IllegalCall
from tablesense.league.pub_nights import PubNights
from tablesense.league.scheme import from_dict
from tablesense.pub import Pub
from tablesense.store import Store


def _pub(tmp_path: Path, scheme: dict[str, Any]) -> tuple[Pub, dict[str, Any]]:
    name, cards = tonight(tmp_path, scheme)
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])
    pub.league_setup = PubNights(name, cards).setup_for
    return pub, cards[0]


def _played(pub: Pub, card: dict[str, Any]) -> dict[str, Any]:
    home, away = sides(card)
    events = innings([(2, 3)] * CAP)  # 6 and 9 of 20 at the cap: Cor wins on the share
    events[0]["players"] = {"p1": away[0], "p2": home[0]}
    play_into(pub, "1", events)
    state: dict[str, Any] = pub.snapshot("1")["state"]
    assert state["finished"] and state["winner"] == "p2"
    return state


def test_a_visitebiljart_nights_match_ends_with_the_belgian_count_not_de_bruijn(tmp_path: Path) -> None:
    pub, card = _pub(tmp_path, SCHEME)
    try:
        state = _played(pub, card)
    finally:
        pub.store.close()
    caroms, targets = state["caroms"], state["targets"]
    want = from_dict(SCHEME).carom_points("p2", (caroms["p1"], caroms["p2"]), (targets["p1"], targets["p2"]))
    assert state["match_points"] == {"p1": want[0], "p2": want[1]} == {"p1": 3, "p2": 4}
    said = [r["text"] for r in state["rulings"] if r["rule"] == "carom.match-points.de-bruijn"]
    assert said == ["match points 3-4 (Belgian count)"]


def test_a_de_bruijn_nights_match_keeps_de_bruijn(tmp_path: Path) -> None:
    pub, card = _pub(tmp_path, {**SCHEME, "name": "bruijn-3", "count": "de-bruijn"})
    try:
        state = _played(pub, card)
    finally:
        pub.store.close()
    assert state["match_points"] == {"p1": 3, "p2": 11}


def test_a_nights_match_set_up_to_other_match_points_is_refused_with_the_nights(tmp_path: Path) -> None:
    pub, card = _pub(tmp_path, SCHEME)
    home, away = sides(card)
    try:
        with pytest.raises(IllegalCall, match=r"counts match points by the Belgian count: .* not de-bruijn$"):
            pub.start_match("1", {"game": "carom", "players": {"p1": away[0], "p2": home[0]},
                                  "points": "de-bruijn"})
        assert pub.table("1").match is None
    finally:
        pub.store.close()


@pytest.mark.parametrize(("points", "words"), [("belgian", "Belgian count"),
                                               ("win-draw-loss", "win, draw, loss"),
                                               ("percentage", "percentage of the target")])
def test_a_matchs_own_points_say_their_scheme_in_words(points: str, words: str) -> None:
    t = Table(setup(targets={"p1": 2, "p2": 2}, points=points))
    t.run(2)
    t.piezo()
    state = t.state()
    assert state["finished"]
    said = [r["text"] for r in state["rulings"] if r["rule"] == "carom.match-points.de-bruijn"]
    assert said and said[-1].endswith(f"({words})")
