"""Team nights between pubs: a match of a night belongs to it only at the home team's pub and
between a player of each team; the night's score is the sum of the players' points under the
scheme; the pub reads the league's nights with bounds and tags its matches."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from league_play import START, lines_of, match_events, play

from tablesense.cli import main
from tablesense.league import LeagueStore
from tablesense.league.fixtures import schedule
from tablesense.league.inbox import Inbox, open_inbox
from tablesense.league.messages import encode, match_message, reported
from tablesense.league.nights import BadNights, cards_by_pub, decode_nights, nights_message, tag
from tablesense.league.outbox import Outbox
from tablesense.league.pub_nights import PubNights
from tablesense.pub import Pub
from tablesense.replay import Replay
from tablesense.store import Store

TODAY = time.strftime("%Y-%m-%d", time.localtime(START))
TEAMS = {"De Kroeg": ("kroeg", ["Ann", "Bob"]), "De Zaal": ("zaal", ["Cor", "Dirk"])}


def make(store: LeagueStore, day: str = TODAY) -> None:
    comp = store.create("Visite", scheme="visite-25")
    for team, (pub, names) in TEAMS.items():
        store.add_team(comp, team, pub)
        for k, name in enumerate(names):
            store.add_player(comp, name, 0.5 + k, team=team)
    store.set_schedule(comp, schedule({"": list(TEAMS)}, dt.date.fromisoformat(day), 7))


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[Inbox]:
    box = open_inbox(str(tmp_path / "league.db"))
    make(box.store)
    yield box
    box.store.close()


def send(inbox: Inbox, pub: str, p1: str, p2: str, started: float = START, fixture: int | None = None) -> Any:
    lines = lines_of(match_events(p1, p2, 5, 7))
    rep = Replay().feed_lines(lines)
    assert rep.engine is not None and rep.state is not None
    msg = match_message(
        pub,
        "1",
        started,
        "carom",
        {"p1": p1, "p2": p2},
        lines,
        reported(rep.engine.to_json(rep.state)),
        fixture=fixture,
    )
    return inbox.take(pub, encode(msg))


def nights(inbox: Inbox) -> list[Any]:
    comp = inbox.store.competition("Visite")
    return inbox.store.fixtures(comp)


def test_a_nights_match_is_taken_at_the_home_pub_only(inbox: Inbox) -> None:
    home = next(f for f in nights(inbox) if f.date == TODAY)
    pub = TEAMS[home.home][0]
    other = "zaal" if pub == "kroeg" else "kroeg"
    a, b = TEAMS[home.home][1][0], TEAMS[home.away][1][0]
    out = send(inbox, other, a, b, fixture=home.id)
    assert out.kind == "refused" and f"is played at {pub}, {home.home}'s home, not at {other}" in out.text
    out = send(inbox, pub, a, b, started=START + 1, fixture=home.id)
    assert out.kind == "stored", out
    [r] = inbox.store.results(inbox.store.competition("Visite"))
    assert r.fixture == home.id


def test_a_nights_match_is_between_a_player_of_each_team(inbox: Inbox) -> None:
    f = next(f for f in nights(inbox) if f.date == TODAY)
    pub = TEAMS[f.home][0]
    out = send(inbox, pub, *TEAMS[f.home][1], fixture=f.id)
    assert out.kind == "refused" and f"both play for {f.home}: a night is between two teams" in out.text
    later = next(x for x in nights(inbox) if x.id != f.id)
    out = send(inbox, TEAMS[later.home][0], TEAMS[later.home][1][0], TEAMS[later.away][1][0], fixture=999)
    assert out.kind == "refused" and "night 999, which is no fixture of Visite" in out.text


def test_an_untagged_match_is_the_night_of_its_date_or_none(inbox: Inbox) -> None:
    f = next(f for f in nights(inbox) if f.date == TODAY)
    pub = TEAMS[f.home][0]
    a, b = TEAMS[f.home][1][1], TEAMS[f.away][1][1]
    assert send(inbox, pub, b, a).kind == "stored", "the away player may break: still the night"
    [r] = inbox.store.results(inbox.store.competition("Visite"))
    assert r.fixture == f.id
    out = send(inbox, pub, a, b, started=START + 3 * 86400)
    assert out.kind == "refused" and f"no fixture of {f.home} and {f.away} on" in out.text


def test_the_nights_score_adds_up_the_players_points_and_gives_team_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        make(store, "2026-09-21")
        [f1] = [f for f in store.fixtures(store.competition("Visite")) if f.round == 1]
    home, away = TEAMS[f1.home][1], TEAMS[f1.away][1]

    def result(*args: str) -> tuple[int, str, str]:
        code = main(["league", "--db", str(db), "add-result", "Visite", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, _, err = result(
        home[0], away[0], "--caroms", "20", "10", "--innings", "12", "--targets", "20", "20"
    )
    assert code == 1 and "played in team nights: say which with --night" in err
    for p1, p2, caroms in ((home[0], away[0], ("20", "10")), (home[1], away[1], ("14", "20"))):
        code, _, err = result(
            p1, p2, "--caroms", *caroms, "--innings", "25", "--targets", "20", "20", "--night", str(f1.id)
        )
        assert code == 0, err
    data = json.loads(main_json(db, capsys))
    [night] = data["nights"]
    assert (night["home"], night["away"]) == ("De Kroeg", "De Zaal")
    # the Belgian count: Ann 10 (20/20), Cor 5 (10/20); Bob 7 (14/20), Dirk 10. The bonus for a
    # match moyenne above one's own: Ann 20/25 = 0.80 above 0.5, the winner: 2; Cor 0.40 below
    # 0.5; Bob 0.56 and Dirk 0.80 below 1.5: none
    assert night["points"] == [10 + 2 + 7, 5 + 10] and night["team_points"] == [2, 0]
    teams = {t["name"]: t for t in data["teams"]}
    assert teams[f1.home]["points_for"] == night["points"][0] and teams[f1.home]["played"] == 1


def main_json(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    main(["league", "--db", str(db), "standings", "Visite", "--json"])
    return capsys.readouterr().out


# --- the pub's side ----------------------------------------------------------------------------------


def cards(tmp_path: Path, day: str) -> dict[str, list[dict[str, Any]]]:
    with LeagueStore(str(tmp_path / "cards.db")) as store:
        make(store, day)
        return cards_by_pub(store, day)


def week(day: str) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=7)).isoformat()


def test_the_league_tells_each_home_pub_its_nights_and_the_pub_reads_them_with_bounds(tmp_path: Path) -> None:
    told = cards(tmp_path, TODAY)
    assert {pub: [c["date"] for c in mine] for pub, mine in told.items()} in (
        {"kroeg": [TODAY], "zaal": [week(TODAY)]},
        {"kroeg": [week(TODAY)], "zaal": [TODAY]},
    ), "each pub its home night: today and a week on"
    for pub, mine in told.items():
        raw = encode(nights_message(pub, mine))
        assert decode_nights(raw, pub) == json.loads(raw)["nights"]
        with pytest.raises(BadNights, match="for kroeg"):
            decode_nights(raw, "hoek") if pub == "kroeg" else decode_nights(
                encode(nights_message("kroeg", [])), "hoek"
            )
    card = next(c for cs in told.values() for c in cs)
    for bad in (
        {**card, "date": "tonight"},
        {**card, "scheme": {**card["scheme"], "team_points": [2]}},
        {**card, "home": {"team": "", "players": []}},
    ):
        with pytest.raises(BadNights):
            decode_nights(encode(nights_message("kroeg", [bad])), "kroeg")


def test_the_pub_tags_a_nights_match_and_adds_up_its_score(tmp_path: Path) -> None:
    day = time.strftime("%Y-%m-%d")
    told = cards(tmp_path, day)
    pub_name = next(p for p, c in told.items() if c[0]["date"] == day)
    card = told[pub_name][0]
    home = TEAMS[card["home"]["team"]][1]
    away = TEAMS[card["away"]["team"]][1]
    assert tag(told[pub_name], "carom", {"p1": away[0], "p2": home[0]}, time.time()) == card
    assert tag(told[pub_name], "carom", {"p1": home[0], "p2": home[1]}, time.time()) is None
    assert tag(told[pub_name], "golf", {"p1": away[0], "p2": home[0]}, time.time()) is None
    path = str(tmp_path / "pub.db")
    pub = Pub(Store(path), ["1", "2"])
    outbox = Outbox(path, pub_name)
    try:
        outbox.save_nights(encode(nights_message(pub_name, told[pub_name])))
        keeper = PubNights(pub_name, outbox.nights())
        play(pub, "1", match_events(home[0], away[0], 5, 7))
        pub.start_match(
            "2", {"game": "carom", "players": {"p1": home[1], "p2": away[1]}, "targets": {"p1": 20, "p2": 20}}
        )
        view = keeper.view(pub, outbox.log)
        [night] = view["nights"]
        assert night["played"] == 1 and night["expected"] == 4, "visitebiljart: every player twice"
        assert sorted(map(tuple, night["to_play"])) == sorted([(home[0], away[1]), (home[1], away[0])])
        assert [m["state"] for m in night["matches"]] == ["played", "playing"]
        played = night["matches"][0]
        assert (
            night["home"]["points"] == played["points"][0] and night["away"]["points"] == played["points"][1]
        )
        assert outbox.sweep(nights=keeper.cards) == 1
        [(payload,)] = outbox.db.execute("SELECT payload FROM league_outbox").fetchall()
        sent = json.loads(payload)
        assert sent["fixture"] == card["fixture"] and sent["competition"] == "Visite"
    finally:
        outbox.close()
        pub.store.close()


@pytest.mark.browser
def test_the_pubs_tv_overview_shows_tonights_team_score(tmp_path: Path) -> None:
    """The overview in a real browser (Debian's chromium): the bar above the tables names both
    teams with their points, as the pub's night keeper worked them out from its own log."""
    import os

    from test_browser import ARGS, CHROMIUM, LivePub

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    day = time.strftime("%Y-%m-%d")
    told = cards(tmp_path, day)
    pub_name = next(p for p, c in told.items() if c[0]["date"] == day)
    card = told[pub_name][0]
    home, away = TEAMS[card["home"]["team"]][1], TEAMS[card["away"]["team"]][1]
    path = str(tmp_path / "pub.db")
    live = LivePub(path, ["1", "2"])
    outbox = Outbox(path, pub_name)
    try:
        keeper = PubNights(pub_name, told[pub_name])
        live.call(play, live.pub, "1", match_events(home[0], away[0], 5, 7))

        def show() -> dict[str, Any]:
            live.pub.team_night = keeper.view(live.pub, outbox.log)
            return live.pub.team_night

        [night] = live.call(show)["nights"]
        assert night["played"] == 1
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = b.new_page()
                page.goto(live.url)
                bar = page.locator("#team-night")
                bar.locator(".tn-points").first.wait_for(timeout=15000)
                assert bar.is_visible()
                text = bar.inner_text()
                assert card["home"]["team"] in text and card["away"]["team"] in text and "Visite" in text
                for side in ("home", "away"):
                    shown = bar.locator(f'.tn-points[data-side="{side}"]').inner_text()
                    assert shown == str(night[side]["points"])
                assert f"{home[0]} {night['matches'][0]['points'][0]}-" in text
            finally:
                b.close()
    finally:
        outbox.close()
        live.close()
        live.pub.store.close()
