"""A league season under fire, short: the whole system played and attacked for about a
minute, then its invariants checked (tests/soak/, docs/reliability.md "A season under fire").

Three pubs of two tables each: the simulator's players on the real firmware under
MicroPython's unix port, a cable that is cut and a board that reboots, each pub's
``tablesense run`` publishing to a real Mosquitto, ``tablesense league serve`` taking the
matches, the referee's calls through the panel's HTTP API. Meanwhile, from a fixed seed,
at least one fault of every kind: SIGKILLs of a pub's host, of the league service and of
the broker, cable cuts (also while frames pour in at up to the link's rate), board
reboots (also just after booting), a full disk, both cores loaded, hostile web clients,
junk MQTT messages. The season is played once; each test below checks one invariant of
it. ``bench/season_soak.py --minutes N --seed S`` plays long ones.
"""

from __future__ import annotations

import shutil

import pytest
from soak.driver import Play
from soak.faults import KINDS
from soak.season import INVARIANTS, Report, SoakConfig, format_report, run

pytestmark = [pytest.mark.micropython, pytest.mark.slow]

SEED = 11
SECONDS = 45.0


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Report:
    if shutil.which("mosquitto") is None:
        pytest.skip("Mosquitto is not installed (apt-get install mosquitto; make test does it)")
    cfg = SoakConfig(seed=SEED, seconds=SECONDS, every_kind=True, settle=45.0,
                     play=Play(carom_targets=(1, 2)),
                     workdir=tmp_path_factory.mktemp("season"))
    report = run(cfg)
    print(format_report(report))
    return report


def _holds(season: Report, invariant: str) -> None:
    broken = season.broken[invariant]
    repeat = (f"python bench/season_soak.py --seed {SEED} --minutes {SECONDS / 60:g} --every-kind "
              "--anchor-minutes 0")
    assert not broken, (f"{invariant}: broken (seed {SEED}; {repeat}):\n  " + "\n  ".join(broken[:10])
                        + f"\n\n{format_report(season)}")


def test_the_season_was_played_and_every_fault_kind_injected(season: Report) -> None:
    fig = season.figures
    assert sorted(fig["faults"]) == sorted(KINDS), fig["faults"]
    assert fig["play"]["matches finished in the pubs"] >= 2, fig["play"]
    assert fig["league"]["results in the league"] >= 1, fig["league"]
    assert fig["sensor events"]["the boards wrote"] >= 200, fig["sensor events"]
    assert fig["referee"].get("call ack", 0) >= 5, fig["referee"]
    assert fig["link"]["cuts_hard"] + fig["link"]["cuts_silent"] >= 1
    assert fig["link"]["reboots"] >= 1


def test_every_sensor_event_is_logged_once_in_order_or_said_lost(season: Report) -> None:
    _holds(season, INVARIANTS[0])


def test_frames_are_said_lost_only_where_the_board_no_longer_held_them(season: Report) -> None:
    _holds(season, INVARIANTS[1])


def test_table_times_go_forward_in_every_log(season: Report) -> None:
    _holds(season, INVARIANTS[2])


def test_every_shot_is_ended_by_its_rest(season: Report) -> None:
    _holds(season, INVARIANTS[3])


def test_every_acknowledged_referee_call_is_kept(season: Report) -> None:
    _holds(season, INVARIANTS[4])


def test_the_leagues_standings_are_those_of_the_pubs_logs(season: Report) -> None:
    _holds(season, INVARIANTS[5])


def test_no_web_server_answered_5xx(season: Report) -> None:
    _holds(season, INVARIANTS[6])


def test_no_process_wrote_a_traceback(season: Report) -> None:
    _holds(season, INVARIANTS[7])
