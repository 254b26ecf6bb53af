"""The referee panel in chromium at a pub's team night: the set-up offers tonight's matches still
to play; a tap fills in the game and both names as the league knows them (a golf duo by its two
players), and the host sets the match up as the night's scheme says (a carom night's innings
cap: the TV shows "inning 1 of 25"). The league's nights are the test's (``PubNights`` over
cards the league made), as ``tablesense run --league`` keeps them."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest
from screen_checks import axe_violations, describe
from test_browser import LivePub, _page
from test_browser_panel import Referee

from tablesense.league import LeagueStore
from tablesense.league.fixtures import schedule
from tablesense.league.nights import cards_by_pub
from tablesense.league.outbox import Outbox
from tablesense.league.pub_nights import PubNights

pytestmark = [pytest.mark.browser]


def tonight(path: str, game: str, scheme: str,
            teams: dict[str, tuple[str, list[Any]]]) -> tuple[str, list[Any]]:
    day = time.strftime("%Y-%m-%d")
    with LeagueStore(path) as store:
        comp = store.create("Avond", game=game, scheme=scheme)
        for team, (pub, entrants) in teams.items():
            store.add_team(comp, team, pub)
            for e in entrants:
                if isinstance(e, tuple):
                    store.add_player(comp, e[0], 0, members=e[1], team=team)
                else:
                    store.add_player(comp, e, 1.0, team=team)
        store.set_schedule(comp, schedule({"": list(teams)}, dt.date.fromisoformat(day), 7))
        told = cards_by_pub(store, day)
    pub = next(p for p, cards in told.items() if cards and cards[0]["date"] == day)
    return pub, told[pub]


LIVE_TABLES = ("1",)  # the pub's tables (tests/browser/conftest.py: live)


def keep(live: LivePub, tmp_path: Path, name: str, cards: list[Any]) -> PubNights:
    """The pub's nights as its league link keeps them: the set-up hook and the overview's data."""
    keeper = PubNights(name, cards)
    outbox = Outbox(str(tmp_path / "pub.db"), name)

    def show() -> None:
        live.pub.league_setup = keeper.setup_for
        live.pub.team_night = keeper.view(live.pub, outbox.log)

    live.call(show)
    outbox.close()
    return keeper


def test_a_carom_nights_match_is_picked_on_the_panel_and_played_to_the_innings_cap(
    ctx: Any, live: LivePub, tmp_path: Path
) -> None:
    teams = {"De Kroeg": ("kroeg", ["Ann", "Bob"]), "De Zaal": ("zaal", ["Cor", "Dirk"])}
    name, cards = tonight(str(tmp_path / "league.db"), "carom", "visite-25", teams)
    keep(live, tmp_path, name, cards)
    card = cards[0]
    ref = Referee(ctx, live)
    ref.page.select_option("#lang", "nl")
    ref.page.wait_for_function("document.documentElement.lang === 'nl'")
    ref.page.wait_for_selector("#setup[open] button.night-pair")
    assert "Teamavond vanavond" in ref.page.inner_text("#night-pairs")
    found = axe_violations(ref.page)
    assert found == [], describe(found)
    home, away = teams[card["home"]["team"]][1], teams[card["away"]["team"]][1]
    assert ref.page.locator("button.night-pair").count() == len(card["pairings"]) == 4, "visite: twice each"
    ref.page.locator("button.night-pair", has_text=f"{home[0]} - {away[0]}").click()
    assert ref.page.input_value("input[name=p1]") == home[0]
    assert ref.page.input_value("input[name=p2]") == away[0]
    assert ref.page.is_checked("input[name=game][value=carom]")
    ref.tap(ref.page.locator("#start-match"))
    snap = live.call(live.pub.snapshot, "1")
    assert snap["match"]["setup"]["innings_limit"] == 25 and snap["match"]["players"] == {"p1": home[0],
                                                                                          "p2": away[0]}
    tv = _page(ctx)
    tv.goto(f"{live.url}/table/1")
    tv.wait_for_selector(".limit[data-limit='25']")
    assert "25" in tv.inner_text(".limit")


def test_a_golf_duo_nights_match_is_picked_by_the_duos_names(ctx: Any, live: LivePub, tmp_path: Path) -> None:
    teams = {"Kroeg": ("kroeg", [("Kroeg A", ("Ann", "Bob"))]),
             "Zaal": ("zaal", [("Zaal A", ("Cor", "Dirk"))])}
    name, cards = tonight(str(tmp_path / "league.db"), "golf", "golf-frames", teams)
    keeper = keep(live, tmp_path, name, cards)
    ref = Referee(ctx, live)
    ref.page.wait_for_selector("#setup[open] button.night-pair")
    [pair] = ref.page.locator("button.night-pair").all()
    assert pair.inner_text() in ("Kroeg A - Zaal A", "Zaal A - Kroeg A")
    pair.click()
    assert ref.page.is_checked("input[name=game][value=golf]")
    assert ref.page.is_checked("input[name=format][value=duo]")
    ref.tap(ref.page.locator("#start-match"))
    match = live.call(live.pub.snapshot, "1")["match"]
    assert sorted(map(sorted, match["players"].values())) == [["Ann", "Bob"], ["Cor", "Dirk"]]
    outbox = Outbox(str(tmp_path / "pub.db"), name)
    try:
        [night] = live.call(keeper.view, live.pub, outbox.log)["nights"]
    finally:
        outbox.close()
    assert [m["state"] for m in night["matches"]] == ["playing"] and night["to_play"] == [], (
        "the match is the night's: tagged by the duos' players")
