"""A team night's match is set up as its scheme says: a carom night's innings cap is the match's
own innings limit (the rule engine ends it there, carom.innings-limit, and the league reads it as
it reads an older log played on past the cap); a keglebillard night's match is played to each
player's distance (kegle.distance); a set-up that says otherwise is refused with the reason."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_carom_helpers import Table, setup

from tablesense.errors import IllegalCall
from tablesense.events import parse_event
from tablesense.league import LeagueStore, Player, games
from tablesense.league.fixtures import schedule
from tablesense.league.matchlog import NotACompetitionMatch, replay_match
from tablesense.league.nights import cards_by_pub
from tablesense.league.pub_nights import PubNights
from tablesense.league.scheme import builtin, from_dict
from tablesense.pub import Pub
from tablesense.store import Store

TEAMS = {"De Kroeg": ("kroeg", ["Ann", "Bob"]), "De Zaal": ("zaal", ["Cor", "Dirk"])}
CAP = 3
SCHEME = {"name": "visite-3", "game": "carom", "count": "belgian", "innings_cap": CAP, "bonus": 1,
          "bonus_winner": 2, "night": "twice"}


def tonight(tmp_path: Path, scheme: dict[str, Any] | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The home pub of tonight's night and its cards, as the league tells them."""
    day = time.strftime("%Y-%m-%d")
    with LeagueStore(str(tmp_path / "league.db")) as store:
        comp = store.create("Visite", scheme=from_dict(scheme or SCHEME))
        for team, (pub, names) in TEAMS.items():
            store.add_team(comp, team, pub)
            for k, name in enumerate(names):
                store.add_player(comp, name, 0.5 + k, team=team)
        store.set_schedule(comp, schedule({"": list(TEAMS)}, dt.date.fromisoformat(day), 7))
        told = cards_by_pub(store, day)
    pub = next(p for p, cards in told.items() if cards and cards[0]["date"] == day)
    return pub, told[pub]


def sides(card: dict[str, Any]) -> tuple[list[str], list[str]]:
    return TEAMS[card["home"]["team"]][1], TEAMS[card["away"]["team"]][1]


def innings(runs: list[tuple[int, int]], **extra: Any) -> list[dict[str, Any]]:
    """Each pair the runs of one inning of Ann and of Cor (each then misses), to 20 each: a run
    ends at the target, and the innings end with the match (Cor's equalising inning after Ann
    reached hers)."""
    t = Table(setup(targets={"p1": 20, "p2": 20}, **extra))
    t.events[0]["players"] = {"p1": "Ann", "p2": "Cor"}
    made = [0, 0]
    for pair in runs:
        for i, run in enumerate(pair):
            run = min(run, 20 - made[i])
            made[i] += run
            t.run(run)
            if made[i] < 20:
                t.piezo()
        if max(made) >= 20:
            break
    return t.events


def play_into(pub: Pub, table: str, events: list[dict[str, Any]]) -> Any:
    """Set up as the referee does, then the table's shots and the referee's calls (a carom called
    after its shot's rest, as the panel does)."""
    pub.start_match(table, {k: v for k, v in events[0].items() if k not in ("t", "type")})
    for ev in events[1:]:
        pub.submit(table, parse_event(ev), source="referee" if ev["type"] == "call" else "table")
    return pub.table(table)


@pytest.fixture
def night_pub(tmp_path: Path) -> Any:
    name, cards = tonight(tmp_path)
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1", "2"])
    keeper = PubNights(name, cards)
    pub.league_setup = keeper.setup_for
    yield pub, keeper, cards[0]
    pub.store.close()


def test_a_nights_match_is_set_up_to_the_schemes_innings_cap_and_the_engine_ends_it_there(
    night_pub: Any,
) -> None:
    pub, _, card = night_pub
    home, away = sides(card)
    events = innings([(2, 3)] * CAP)
    events[0]["players"] = {"p1": away[0], "p2": home[0]}  # the away player may break
    tab = play_into(pub, "1", events)
    assert json.loads(tab.log[0].line)["innings_limit"] == CAP, "the set-up carries the cap"
    assert tab.match.ended is not None, "the engine ended the match at the cap: the TV shows the end"
    snap = pub.snapshot("1")
    state = snap["state"]
    assert state["finished"] and state["winner"] == "p2" and state["innings"] == {"p1": CAP, "p2": CAP}
    assert any(r["rule"] == "carom.innings-limit" for r in state["rulings"])


def test_a_match_outside_the_night_and_other_games_are_set_up_as_the_referee_said(night_pub: Any) -> None:
    pub, keeper, card = night_pub
    home, away = sides(card)
    same_team = {"game": "carom", "players": {"p1": home[0], "p2": home[1]}}
    assert keeper.setup_for(same_team) == same_team
    golf = {"game": "golf", "players": {"p1": home[0], "p2": away[0]}}
    assert keeper.setup_for(golf) == golf
    tomorrow = {"game": "carom", "players": {"p1": home[0], "p2": away[1]}}
    assert keeper.setup_for(tomorrow, now=time.time() + 3 * 86400) == tomorrow
    odds = ({"game": "carom", "players": {"p1": [home[0]], "p2": {"x": 1}}}, {"game": "carom", "players": 3})
    for odd in odds:
        assert keeper.setup_for(odd) == odd, "refused by the set-up's own check, with its reason"
    pub.start_match("2", {**same_team, "targets": {"p1": 20, "p2": 20}})
    assert "innings_limit" not in json.loads(pub.table("2").log[0].line)


@pytest.mark.parametrize("given_limit", [1, CAP + 1, 30])
def test_a_nights_match_set_up_to_another_innings_limit_is_refused_with_the_nights_cap(
    night_pub: Any, given_limit: int
) -> None:
    pub, _, card = night_pub
    home, away = sides(card)
    body = {"game": "carom", "players": {"p1": home[0], "p2": away[0]}, "innings_limit": given_limit}
    with pytest.raises(IllegalCall, match=f"played to {CAP} innings .*make it {CAP}, not {given_limit}$"):
        pub.start_match("1", body)
    assert pub.table("1").match is None, "nothing logged"
    pub.start_match("1", {**body, "innings_limit": CAP})
    assert json.loads(pub.table("1").log[0].line)["innings_limit"] == CAP


runs = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=CAP, max_size=CAP + 2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=runs)
def test_the_league_reads_a_match_ended_at_its_limit_as_an_old_log_played_past_the_cap(
    runs: list[tuple[int, int]],
) -> None:
    """The same innings, once with the cap as the set-up's innings limit (the engine ends the
    match) and once without (an older pub's log: the engine plays on, the league reads it at the
    cap): the same caroms, innings, winner and points, whoever reaches 20 first."""
    scheme = from_dict(SCHEME)
    players = (Player("Ann", 0.5, team="De Kroeg"), Player("Cor", 0.5, team="De Zaal"))

    def result(events: list[dict[str, Any]]) -> Any:
        r = games.read(replay_match([json.dumps(e) for e in events]), scheme)
        return games.score(r, scheme, players)

    old, new = result(innings(runs)), result(innings(runs[:CAP], innings_limit=CAP))
    assert (new.caroms, new.innings, new.winner, new.points, new.high_run) == (
        old.caroms, old.innings, old.winner, old.points, old.high_run)
    assert max(new.innings) <= CAP


def test_a_match_ended_by_a_shorter_innings_limit_than_the_competitions_cap_is_refused() -> None:
    events = innings([(1, 1)] * 2, innings_limit=2)
    match = replay_match([json.dumps(e) for e in events])
    assert match.final["finished"]
    with pytest.raises(NotACompetitionMatch, match=r"innings limit of 2 .*played to 25 innings"):
        games.read(match, builtin("visite-25"))
    # a competition without a cap takes the limit the club set at the table (carom.innings-limit)
    assert games.read(match, builtin("de-bruijn")).winner == "draw"
    reached = innings([(20, 1)], innings_limit=2)  # a target reached before the limit: a result
    assert games.read(replay_match([json.dumps(e) for e in reached]), builtin("visite-25")).winner == "p1"


# --- keglebillard: each player's distance under the night's scheme ---------------------------------

KEGLE_TEAMS = {"De Kroeg": ("kroeg", [("Mette", 1.0), ("Lars", 2.6)]),
               "De Zaal": ("zaal", [("Ida", 0.5), ("Ole", 3.1)])}


def kegle_tonight(tmp_path: Path, scheme: str) -> tuple[str, list[dict[str, Any]]]:
    day = time.strftime("%Y-%m-%d")
    with LeagueStore(str(tmp_path / "league.db")) as store:
        comp = store.create("Kegle", game="kegle", scheme=scheme)
        for team, (pub, members) in KEGLE_TEAMS.items():
            store.add_team(comp, team, pub)
            for name, average in members:
                store.add_player(comp, name, average, team=team)
        store.set_schedule(comp, schedule({"": list(KEGLE_TEAMS)}, dt.date.fromisoformat(day), 7))
        told = cards_by_pub(store, day)
    pub = next(p for p, cards in told.items() if cards and cards[0]["date"] == day)
    return pub, told[pub]


@pytest.mark.parametrize(("scheme", "first"),
                         [("kegle-handicap", 0), ("kegle-handicap", 1), ("kegle-100", 0)])
def test_a_keglebillard_nights_match_is_set_up_to_each_players_distance_and_counts(
    tmp_path: Path, scheme: str, first: int
) -> None:
    """The panel offers one distance (100 unless changed); a night's match is played to each
    player's own distance under the scheme, as the league checks (kegle.distance), and counts
    on the pub's overview."""
    from league_play import kegle_events

    from tablesense.league.outbox import Outbox

    name, cards = kegle_tonight(tmp_path, scheme)
    card = cards[0]
    s = builtin(scheme)
    home, away = KEGLE_TEAMS[card["home"]["team"]][1], KEGLE_TEAMS[card["away"]["team"]][1]
    pair = [home[first], away[first]]
    if first:
        pair.reverse()  # the away player breaks
    want = {"p1": s.kegle_distance(pair[0][1]), "p2": s.kegle_distance(pair[1][1])}
    pub = Pub(Store(str(tmp_path / "pub.db")), ["1"])
    outbox = Outbox(str(tmp_path / "pub.db"), name)
    keeper = PubNights(name, cards)
    pub.league_setup = keeper.setup_for
    try:
        body = {"game": "kegle", "players": {"p1": pair[0][0], "p2": pair[1][0]}, "distance": 100}
        with pytest.raises(IllegalCall, match=rf"{pair[0][0]} to {want['p1']} and {pair[1][0]} to "
                                              rf"{want['p2']} \(kegle.distance\)"):
            pub.start_match("1", {**body, "targets": {"p1": want["p1"] + 1, "p2": want["p2"]}})
        events = kegle_events(pair[0][0], pair[1][0], (want["p1"], want["p2"]), (6, 4))
        pub.start_match("1", body)
        assert json.loads(pub.table("1").log[0].line)["targets"] == want
        for ev in events[1:]:
            pub.submit("1", parse_event(ev), source="referee" if ev["type"] == "call" else "table")
        assert pub.table("1").match.ended is not None  # type: ignore[union-attr]
        [night] = keeper.view(pub, outbox.log)["nights"]
        assert night["played"] == 1, "the league's reading: each played to his own distance"
    finally:
        outbox.close()
        pub.store.close()


def test_a_carom_nights_match_of_another_discipline_is_refused_at_the_set_up(night_pub: Any) -> None:
    pub, _, card = night_pub
    home, away = sides(card)
    with pytest.raises(IllegalCall, match=r"team night .* played libre, not bandstoten$"):
        pub.start_match("1", {"game": "carom", "discipline": "bandstoten",
                              "players": {"p1": home[0], "p2": away[0]}})
    assert pub.table("1").match is None


@pytest.mark.parametrize("rank", [0, 1])
def test_a_carom_nights_match_without_targets_plays_to_each_players_moyenne_target(
    night_pub: Any, rank: int
) -> None:
    """The referee types only the names: each player plays to the target of his moyenne in the
    competition (carom.target.moyenne, as the league counts a result entered by hand); targets
    the referee gives stay his."""
    from tablesense.rules.carom.targets import target_from_moyenne

    pub, _, card = night_pub
    home, away = sides(card)
    strength = {p["name"]: p["strength"] for key in ("home", "away") for p in card[key]["players"]}
    p1, p2 = away[rank], home[1 - rank]
    pub.start_match("1", {"game": "carom", "players": {"p1": p1, "p2": p2}})
    setup = pub.snapshot("1")["match"]["setup"]
    assert setup["moyennes"] == {"p1": strength[p1], "p2": strength[p2]} and setup["competition"] == "Visite"
    state = pub.snapshot("1")["state"]
    want = {side: target_from_moyenne(strength[n]) for side, n in (("p1", p1), ("p2", p2))}
    assert state["targets"] == want
    assert state["targets"]["p1"] != state["targets"]["p2"], "two moyennes, two targets"
    pub.start_match("2", {"game": "carom", "players": {"p1": p1, "p2": p2}, "targets": {"p1": 30, "p2": 40}})
    assert pub.snapshot("2")["state"]["targets"] == {"p1": 30, "p2": 40}
    assert "moyennes" not in pub.snapshot("2")["match"]["setup"]


junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=6),
                 st.floats(allow_nan=False), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.sampled_from(["p1", "p2", "x"]), st.integers(-1, 50), max_size=3))
side = st.one_of(st.sampled_from(["Ann", "Bob", "Cor", "Dirk", "Eve"]), junk,
                 st.lists(st.sampled_from(["Ann", "Bob", "Cor", "Dirk"]) | junk, max_size=3))
setups = st.fixed_dictionaries(
    {"game": st.sampled_from(["carom", "kegle", "golf"]) | junk,
     "players": st.fixed_dictionaries({}, optional={"p1": side, "p2": side}) | junk},
    optional={k: junk for k in ("targets", "moyennes", "innings_limit", "discipline", "distance",
                                "competition")})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=setups)
def test_a_set_up_of_any_shape_is_filled_in_or_refused_in_one_line(night_pub: Any,
                                                                    setup: dict[str, Any]) -> None:
    """Whatever the panel or a script sends, the night's look at it gives a set-up or a one-line
    refusal: never another error (a 500 on the panel)."""
    _, keeper, _ = night_pub
    try:
        out = keeper.setup_for(setup)
    except IllegalCall as exc:
        assert "\n" not in str(exc) and "team night" in str(exc)
        return
    assert isinstance(out, dict)
    assert all(out[k] == v for k, v in setup.items() if v not in (None, "", {}, [])), "what was given stays"
