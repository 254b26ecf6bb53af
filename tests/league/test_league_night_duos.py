"""A golf team night of duos (two a side): the pub knows each duo by its two players, tags the
night's matches, and its overview adds up each team's points as the league does."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from league_play import golf_events, play

from tablesense.cli import main
from tablesense.league import LeagueStore
from tablesense.league.fixtures import schedule
from tablesense.league.inbox import open_inbox
from tablesense.league.messages import encode
from tablesense.league.nights import cards_by_pub, decode_nights, nights_message, tag
from tablesense.league.outbox import Outbox
from tablesense.league.pub_nights import PubNights
from tablesense.pub import Pub
from tablesense.store import Store

TEAMS = {
    "Kroeg": ("kroeg", [("Kroeg A", ("Ann", "Bob")), ("Kroeg B", ("Eva", "Fien"))]),
    "Zaal": ("zaal", [("Zaal A", ("Cor", "Dirk")), ("Zaal B", ("Gijs", "Hans"))]),
}


def league(path: str, scheme: str) -> tuple[str, list[dict[str, Any]]]:
    """A golf duo competition in team nights; the home pub of tonight's night and its cards."""
    day = time.strftime("%Y-%m-%d")
    with LeagueStore(path) as store:
        comp = store.create("Duo", game="golf", scheme=scheme)
        for team, (pub, duos) in TEAMS.items():
            store.add_team(comp, team, pub)
            for name, members in duos:
                store.add_player(comp, name, 0, members=members, team=team)
        store.set_schedule(comp, schedule({"": list(TEAMS)}, dt.date.fromisoformat(day), 7))
        told = cards_by_pub(store, day)
    pub = next(p for p, cards in told.items() if cards and cards[0]["date"] == day)
    raw = encode(nights_message(pub, told[pub]))
    return pub, decode_nights(raw, pub)  # as the pub reads them off the broker


def duos(card: dict[str, Any]) -> tuple[list[tuple[str, tuple[str, str]]], list[tuple[str, tuple[str, str]]]]:
    return TEAMS[card["home"]["team"]][1], TEAMS[card["away"]["team"]][1]


#: a match to two winning frames: its winner, whether it takes a third frame, the loser's balls
matches = st.tuples(st.sampled_from(["p1", "p2"]), st.booleans(), st.lists(st.integers(0, 4), min_size=3,
                                                                            max_size=3))


def frames(winner: str, three: bool, balls: list[int]) -> list[tuple[str, int]]:
    loser = "p2" if winner == "p1" else "p1"
    return [(winner, balls[0]), (loser, balls[1]), (winner, balls[2])] if three else \
        [(winner, balls[0]), (winner, balls[1])]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(matches, min_size=2, max_size=2), away_breaks=st.lists(st.booleans(), min_size=2,
                                                                              max_size=2),
       scheme=st.sampled_from(["golf-frames", "golf-match"]))
def test_a_duo_nights_score_is_each_teams_duos_points_added_up_as_the_league_does(
    games: list[tuple[str, bool, list[int]]], away_breaks: list[bool], scheme: str
) -> None:
    with tempfile.TemporaryDirectory() as d:
        name, cards = league(f"{d}/league.db", scheme)
        card = cards[0]
        assert {p["name"]: tuple(p["members"]) for p in card["home"]["players"]} == dict(duos(card)[0])
        pub = Pub(Store(f"{d}/pub.db"), ["1", "2"])
        outbox = Outbox(f"{d}/pub.db", name)
        inbox = open_inbox(f"{d}/league.db")
        try:
            keeper = PubNights(name, cards)
            for k, ((_, hm), (_, am)) in enumerate(zip(*duos(card), strict=True)):
                sides = [list(reversed(hm)), list(am)]  # the log names a duo by its players, any order
                if away_breaks[k]:
                    sides.reverse()
                assert tag(cards, "golf", {"p1": sides[0], "p2": sides[1]}, time.time()) == card
                play(pub, str(k + 1), golf_events(sides[0], sides[1], frames(*games[k])))
            [night] = keeper.view(pub, outbox.log)["nights"]
            assert night["played"] == 2 and night["to_play"] == []
            assert {frozenset((m["p1"], m["p2"])) for m in night["matches"]} == {
                frozenset(("Kroeg A", "Zaal A")), frozenset(("Kroeg B", "Zaal B"))}, "each duo by its name"
            assert outbox.sweep(nights=keeper.cards) == 2
            for (payload,) in outbox.db.execute("SELECT payload FROM league_outbox").fetchall():
                msg = json.loads(payload)
                assert msg["fixture"] == card["fixture"], "the pub tagged the duo match with its night"
                out = inbox.take(name, payload.encode())
                assert out.kind == "stored", out
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                assert main(["league", "--db", f"{d}/league.db", "standings", "Duo", "--json"]) == 0
            [league_night] = json.loads(said.getvalue())["nights"]
            assert [night["home"]["points"], night["away"]["points"]] == league_night["points"], (
                "the overview adds up each team's duos' points as the league does")
            assert night["team_points"] == league_night["team_points"]
            home = dict(duos(card)[0])
            assert night["home"]["points"] == sum(m["points"][0 if m["p1"] in home else 1]
                                                  for m in night["matches"])
        finally:
            outbox.close()
            inbox.store.close()
            pub.store.close()


@pytest.mark.parametrize("side", [["Ann"], ["Ann", "Cor"], ["Ann", "Bob", "Eva"], ["Ann", "Eva"]])
def test_a_side_that_is_no_duo_of_the_night_is_not_tagged(tmp_path: Path, side: Any) -> None:
    _, cards = league(str(tmp_path / "league.db"), "golf-frames")
    card = cards[0]
    other = list(duos(card)[1][0][1])
    assert tag(cards, "golf", {"p1": side, "p2": other}, time.time()) is None


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "words"), [
    ("da", ("holdpoint 2-0", "1 af 2 kampe spillet", "bord 2, i gang")),
    ("nl", ("teampunten 2-0", "1 van 2 partijen gespeeld", "tafel 2, bezig")),
])
def test_the_overview_shows_a_duo_night_by_the_duos_names_in_the_pubs_language(
    tmp_path: Path, lang: str, words: tuple[str, str, str]
) -> None:
    """The overview in chromium, in the pub's language: both teams and their points, the team
    points they give, how many of the night's matches are played, each duo by its name, the
    match in play and its table; no engine words ("p1") in the bar."""
    import os

    from playwright.sync_api import sync_playwright
    from screen_checks import axe_violations, describe
    from test_browser import ARGS, CHROMIUM, LivePub

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    name, cards = league(str(tmp_path / "league.db"), "golf-frames")
    card = cards[0]
    (home1, hm1), (home2, hm2) = duos(card)[0]
    (away1, am1), (away2, am2) = duos(card)[1]
    live = LivePub(str(tmp_path / "pub.db"), ["1", "2"])
    outbox = Outbox(str(tmp_path / "pub.db"), name)
    try:
        live.pub.lang = lang
        live.call(play, live.pub, "1", golf_events(list(hm1), list(am1), [("p1", 2), ("p2", 3), ("p1", 1)]))
        live.call(live.pub.start_match, "2", {"game": "golf", "format": "duo",
                                              "players": {"p1": list(am2), "p2": list(hm2)}})
        keeper = PubNights(name, cards)

        def show() -> dict[str, Any]:
            live.pub.team_night = keeper.view(live.pub, outbox.log)
            return live.pub.team_night

        [night] = live.call(show)["nights"]
        assert (night["home"]["points"], night["away"]["points"], night["team_points"]) == (2, 1, [2, 0])
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = b.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(live.url)
                bar = page.locator("#team-night")
                page.wait_for_function("document.querySelector('#team-night .tn-tp')")
                text = bar.inner_text()
                for said in (*words, f"{home1} 2-1 {away1}", f"{away2} - {home2}", card["home"]["team"]):
                    assert said in text, f"{said!r} not in the bar: {text!r}"
                assert "p1" not in text and "p2" not in text
                assert bar.locator('.tn-points[data-side="home"]').inner_text() == "2"
                found = axe_violations(page)  # the bar's small words readable too (axe-core)
                assert found == [], describe(found)
            finally:
                b.close()
    finally:
        outbox.close()
        live.close()
        live.pub.store.close()
