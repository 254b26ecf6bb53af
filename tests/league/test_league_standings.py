"""The competition's pure logic: results, standings, barrage, new moyennes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import IllegalCall
from tablesense.league import Player, decide, make_result, new_moyennes, standings, winner

ANN, BOB, COR = Player("Ann", 1.2), Player("Bob", 1.8), Player("Cor", 0.5)


def test_decide_follows_the_targets() -> None:
    assert decide((30, 20), (30, 45)) == "p1"
    assert decide((20, 45), (30, 45)) == "p2"
    assert decide((30, 45), (30, 45)) == "draw"
    with pytest.raises(IllegalCall, match=r"carom\.target\.play-out"):
        decide((10, 10), (30, 45))


def test_targets_default_to_the_moyenne_rule() -> None:
    r = make_result(ANN, COR, (30, 4), (9, 9))
    assert r.targets == (30, 20) and r.winner == "p1" and r.points == (11, 2)


def test_three_players_level_all_need_the_barrage() -> None:
    results = [make_result(ANN, BOB, (30, 45), (5, 5)), make_result(BOB, COR, (45, 20), (5, 5)),
               make_result(COR, ANN, (20, 30), (5, 5))]
    rows = standings([ANN, BOB, COR], results)
    assert {r.points for r in rows} == {20}
    champ, barrage = winner(rows)
    assert champ is None and sorted(barrage) == ["Ann", "Bob", "Cor"]


def test_no_winner_before_any_match() -> None:
    assert winner(standings([ANN, BOB], [])) == (None, [])


def test_a_player_without_innings_keeps_his_moyenne() -> None:
    rows = new_moyennes([ANN, BOB, COR], [make_result(ANN, BOB, (30, 10), (20, 20))])
    assert [(p.name, m) for p, m, _ in rows] == [("Ann", 1.5), ("Bob", 0.5), ("Cor", 0.5)]
    assert [t for _, _, t in rows] == [38, 20, 20]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 29), st.integers(1, 40)),
                min_size=1, max_size=12))
def test_standings_points_add_up_and_stay_sorted(games: list[tuple[int, int, int, int]]) -> None:
    players = [ANN, BOB, COR]
    results = []
    for a, b, loser_made, innings in games:
        if a == b:
            continue
        p1, p2 = players[a], players[b]
        made = (30 if p1 is ANN else 45 if p1 is BOB else 20, min(loser_made, 19))
        results.append(make_result(p1, p2, made, (innings, innings)))
    rows = standings(players, results)
    assert sum(r.points for r in rows) == sum(sum(r.points) for r in results)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert sum(r.played for r in rows) == 2 * len(results)
