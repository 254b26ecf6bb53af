"""The season soak's invariant checks (tests/soak/invariants.py) can fail: each break the
soak looks for, made on purpose in a small record, is found and named; a record without
one passes. No processes: boards, logs and incidents are built here."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from soak import invariants as inv
from soak.board import Boot, FrameRec

from tablesense.table.profile import load_profile

CAROM = load_profile("carom")
CUSHIONS = [c.ch for c in CAROM.channels if c.kind == "cushion"]
CUSHION_INDEX = {c.ch: int(c.index) for c in CAROM.channels}
T0 = 1_000_000.0  # wall time the board came on


def board(n: int, start: float = T0, number: int = 1, gap_every: int = 4) -> Boot:
    """A boot that wrote ``n`` cushion counts, a shot of ``gap_every`` hits about 50 ms apart,
    then quiet (its microseconds at random, as a table's are)."""
    b = Boot(number, start, 0.0)
    rng = random.Random(number * 1000 + n)
    t = 100_000
    for seq in range(n):
        ch = CUSHIONS[seq % len(CUSHIONS)]
        b.frames[seq] = FrameRec(seq, "count", ch, 3, t, start + t / 1e6)
        b.progress.append((start + t / 1e6, seq))
        b.heard.append((start + t / 1e6, seq))
        t += rng.randint(30_000, 70_000) if (seq + 1) % gap_every else 2_000_000  # 1.5 s quiet between shots
    return b


def log_of(b: Boot, drop: set[int] = frozenset(), double: set[int] = frozenset(),
           rests: bool = True, offset_us: int = 0) -> list[inv.Logged]:
    """The pub's log of the boot: its events (some dropped, some twice), a rest after each shot;
    ``offset_us``: where the table's time had got when the boot began (link/translate.py)."""
    out: list[tuple[dict[str, Any], float]] = []  # (line, when the pub logged it)
    frames = [b.frames[s] for s in sorted(b.frames)]
    for i, f in enumerate(frames):
        t = (f.t_us + offset_us) / 1e6
        ev = {"t": t, "type": "cushion", "cushion": CUSHION_INDEX[f.ch], "ball": None}
        if f.seq not in drop:
            out.append((ev, f.wall + 0.01))
        if f.seq in double:
            out.append((dict(ev), f.wall + 0.02))
        last = i + 1 == len(frames) or frames[i + 1].t_us - f.t_us >= CAROM.rest_quiet_ms * 1000
        if last and rests:
            rest = {"t": (f.t_us + offset_us + CAROM.rest_quiet_ms * 1000) / 1e6, "type": "rest"}
            out.append((rest, f.wall + CAROM.rest_quiet_ms / 1000))
    return [inv.Logged(row, 1, obj, at) for row, (obj, at) in enumerate(out, start=1)]


def check(b: list[Boot], logged: list[inv.Logged], said: list[tuple[float, str]] = ()
          ) -> tuple[list[str], Any]:
    fig = inv.SensorFigures()
    return inv.check_sensor_events("t", logged, b, CAROM, list(said), fig), fig


def test_a_whole_log_holds_every_invariant() -> None:
    b = board(40)
    logged = log_of(b)
    broken, fig = check([b], logged)
    assert broken == [] and fig.matched == 40
    assert inv.check_shots_ended("t", logged, [b], CAROM) == []
    assert inv.check_times_in_order("t", logged) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 80), st.data())
def test_every_event_dropped_or_doubled_is_found(n: int, data: st.DataObject) -> None:
    b = board(n)
    drop = data.draw(st.sets(st.integers(0, n - 1), max_size=5))
    double = data.draw(st.sets(st.integers(0, n - 1), max_size=5)) - drop
    broken, fig = check([b], log_of(b, drop, double))
    assert fig.silently_lost == len(drop)
    assert fig.doubled == len(double)
    assert bool(broken) == bool(drop or double)
    if drop:
        assert any("not said lost" in line for line in broken)


def test_a_range_said_lost_excuses_what_a_rebooted_board_no_longer_held() -> None:
    old, new = board(30, T0, 1), board(10, T0 + 60, 2)
    old.ended = T0 + 50
    said = [(T0 + 61, "lost 6 frames (seq 20..25): the device restarted before replaying them")]
    broken, fig = check([old, new], log_of(old, drop=set(range(20, 26))) + log_of(new, offset_us=60_000_000),
                        said)
    assert broken == [] and fig.said_lost == 6


def _lost_burst_then_a_short_boot(n_old: int, lost: int, n_short: int, n_after: int
                                  ) -> tuple[list[Boot], list[inv.Logged], list[tuple[float, str]], int]:
    """Make test's season, seed 11, kroeg-1: a boot whose last ``lost`` events but 40 (a
    practice burst cut) went with its reboot, said lost with their range; a boot of
    ``n_short`` events rebooted soon after; a third boot. The pub logged every event it had
    once, each boot's times going on from where the table's time had got. Returns the
    boots, the log, what was said lost and the third boot's offset."""
    one = board(n_old, T0, 1)
    one.ended = one.frames[n_old - 1].wall + 1.0
    two = board(n_short, one.ended + 0.5, 2)
    two.ended = two.frames[n_short - 1].wall + 1.0
    three = board(n_after, two.ended + 0.5, 3)
    first = n_old - 40 - lost
    said = [(one.ended + 0.6, f"lost {lost} frames (seq {first}..{first + lost - 1}): the device restarted "
             "before replaying them")]
    rest_us = CAROM.rest_quiet_ms * 1000
    off2 = one.frames[n_old - 1].t_us + rest_us
    off3 = off2 + two.frames[n_short - 1].t_us + rest_us
    logged = (log_of(one, drop=set(range(first, first + lost))) + log_of(two, offset_us=off2)
              + log_of(three, offset_us=off3))
    return [one, two, three], _numbered(logged), said, off3


def _numbered(logged: list[inv.Logged]) -> list[inv.Logged]:
    return [inv.Logged(row, 1, g.obj, g.at) for row, g in enumerate(logged, 1)]


@settings(max_examples=30, deadline=None)
@given(st.integers(200, 500), st.integers(60, 150), st.integers(1, 5), st.integers(20, 120))
def test_a_short_boot_after_a_range_said_lost_is_found_logged_once_at_its_own_time(
        n_old: int, lost: int, n_short: int, n_after: int) -> None:
    """The offset of a boot of a few events is told by when they were logged, not only by
    pairing keys: a hundred events said lost before it made the key-only pairing put its
    events against others of their key far back, and the check took them, logged once at
    the right time, for lost and made up ("the same events made again with another clock")."""
    boots, logged, said, _ = _lost_burst_then_a_short_boot(n_old, lost, n_short, n_after)
    broken, fig = check(boots, logged, said)
    assert broken == []
    assert fig.said_lost == lost and fig.matched == n_old - lost + n_short + n_after


def test_a_short_boot_s_events_logged_again_with_the_next_boot_s_clock_are_a_break() -> None:
    boots, logged, said, off3 = _lost_burst_then_a_short_boot(300, 110, 3, 60)
    two, three = boots[1], boots[2]
    # the short boot's frames again after the next boot's HELLO, stamped with its clock
    again = log_of(two, rests=False, offset_us=off3)
    again = [inv.Logged(0, 1, g.obj, three.started + 0.2) for g in again]
    k = next(i for i, g in enumerate(logged) if g.at >= three.started)
    broken, fig = check(boots, _numbered(logged[:k] + again + logged[k:]), said)
    # (the first lands on the next boot's first hit: the same key at the same time, doubled)
    assert fig.invented + fig.doubled == 3 and fig.silently_lost == 0 and fig.matched == 300 - 110 + 3 + 60
    assert any("at a time the board never wrote them" in line for line in broken)


def test_frames_said_lost_while_the_board_still_held_them_are_a_break() -> None:
    b = board(30)
    said = [(T0 + 40, "lost 3 frames (seq 10..12): no replay after 3 requests")]
    broken, fig = check([b], log_of(b, drop={10, 11, 12}), said)
    assert fig.said_lost == 3 and fig.lost_said_held == 1
    assert any("still held" in line for line in broken)


def test_a_restart_while_the_host_was_down_covers_the_boot_it_had_and_those_since() -> None:
    one, two, three = board(12, T0, 1), board(8, T0 + 30, 2), board(8, T0 + 40, 3)
    one.ended, two.ended = T0 + 29, T0 + 39
    said = [(T0 + 45, "the board restarted while the host was down: what it sent from seq 5 of its previous "
             "boot on is lost")]
    logged = (log_of(one, drop=set(range(5, 12))) + log_of(two, drop=set(range(8)), offset_us=30_000_000)
              + log_of(three, offset_us=40_000_000))
    fig = inv.SensorFigures()
    broken = inv.check_sensor_events("t", logged, [one, two, three], CAROM, said, fig, host_stops=[T0 + 20])
    assert broken == [] and fig.said_lost == 15


def test_events_of_one_key_at_one_stamp_pair_each_with_its_own_logged_line() -> None:
    """Seed 7710 (hoek-2): one scan stamped eleven pocket events alike, some pockets twice;
    all eleven logged. Each logged line is the next of the board's events it can be, so none
    is taken for lost and logged again; one left out is lost, one logged twice is doubled."""
    b = board(8)
    t, wall = 5_000_000, T0 + 5.0
    for seq in range(8, 14):  # three cushions, each twice, at one stamp
        b.frames[seq] = FrameRec(seq, "count", CUSHIONS[seq % 3], 3, t, wall)
        b.progress.append((wall, seq))
    broken, fig = check([b], log_of(b))
    assert broken == [] and fig.matched == 14 and fig.doubled == 0
    broken, fig = check([b], log_of(b, drop={11}))
    assert fig.silently_lost == 1 and fig.doubled == 0, broken
    broken, fig = check([b], log_of(b, double={9}))
    assert fig.silently_lost == 0 and fig.doubled == 1, broken


def test_a_host_killed_twice_across_a_short_boot_is_said_lost_from_the_boot_of_its_checkpoint() -> None:
    """Seed 51207 (zaal-2): the host killed, back, killed again before it heard the board; the
    board rebooted between the two (a long boot, then a short one), and the third host says
    what the boot of its checkpoint sent from seq N on is lost. The boot on at the last kill
    (the short one) never got to seq N: the range is the long boot's."""
    one, two, three = board(30, T0, 1), board(3, T0 + 40, 2), board(8, T0 + 45, 3)
    one.ended, two.ended = T0 + 40, T0 + 42
    said = [(T0 + 46, "the board restarted while the host was down: what it sent from seq 20 of its previous "
             "boot on is lost")]
    logged = (log_of(one, drop=set(range(20, 30))) + log_of(two, offset_us=40_000_000)
              + log_of(three, offset_us=45_000_000))
    fig = inv.SensorFigures()
    broken = inv.check_sensor_events("t", logged, [one, two, three], CAROM, said, fig,
                                     host_stops=[T0 + 35, T0 + 41])
    assert broken == [] and fig.said_lost == 10 and fig.silently_lost == 0


def test_a_boot_begun_just_before_the_host_was_killed_is_lost_whole_when_a_later_boot_is_found() -> None:
    """Seed 9137 (hoek-2): the board rebooted 0.12 s before the host was killed, the new boot
    wrote its first frame after the kill, got past the checkpoint's seq and rebooted again
    before the next host heard it. That host says what the boot of its checkpoint sent from
    seq N on is lost: the boot the host had heard to seq N - 1 before it was killed, not the
    one begun just before, which had written nothing by then; the boot between is lost whole."""
    one, two, three = board(30, T0, 1), board(25, T0 + 39.9, 2, gap_every=25), board(8, T0 + 45, 3)
    one.ended, two.ended = T0 + 39.5, T0 + 44.9
    said = [(T0 + 46, "the board restarted while the host was down: what it sent from seq 20 of its previous "
             "boot on is lost")]
    logged = (log_of(one, drop=set(range(20, 30))) + log_of(two, drop=set(range(25)), offset_us=39_900_000)
              + log_of(three, offset_us=45_000_000))
    fig = inv.SensorFigures()
    broken = inv.check_sensor_events("t", logged, [one, two, three], CAROM, said, fig,
                                     host_stops=[T0 + 39.95])
    assert broken == [] and fig.said_lost == 35 and fig.silently_lost == 0


def test_a_board_rebooted_twice_within_one_cut_is_said_lost_from_the_boot_the_host_last_heard() -> None:
    """Seed 26662: the line was out 3.4 s and the board rebooted in it, then again within a
    second; the host, back, says what the boot it last heard sent from seq N on is lost. That
    is the long boot before the short one between, not the short one."""
    one, two, three = board(30, T0, 1), board(2, T0 + 40, 2), board(8, T0 + 41, 3)
    one.ended, two.ended = T0 + 40, T0 + 41
    said = [(T0 + 42, "the device restarted after its line was reopened: what it sent from seq 20 of its "
             "previous boot on is lost (if it sent any after the last one heard)")]
    logged = (log_of(one, drop=set(range(20, 30))) + log_of(two, drop={0, 1}, offset_us=40_000_000)
              + log_of(three, offset_us=41_000_000))
    fig = inv.SensorFigures()
    broken = inv.check_sensor_events("t", logged, [one, two, three], CAROM, said, fig)
    assert broken == [] and fig.said_lost == 12 and fig.silently_lost == 0


def test_a_board_rebooted_in_a_cut_past_the_seq_it_was_heard_to_is_said_lost_from_the_boot_heard() -> None:
    """Seed 9811 (kroeg-1): the host heard a boot to seq 6, the cable was pulled for 3.4 s, and
    the board rebooted in the cut, then again and again: a boot of 30 frames nobody heard, two
    of none, then the one the host found. It says what the boot it last heard sent from seq 7
    on is lost: the boot heard to seq 6, not the one of 30 frames after it, which got past
    seq 6 unheard; that one is lost whole."""
    one, two, three = board(27, T0, 1, gap_every=27), board(30, T0 + 2, 2, gap_every=30), board(8, T0 + 5, 3)
    one.ended, two.ended = T0 + 1.9, T0 + 4
    one.heard = one.progress[:7]
    two.heard = []
    said = [(T0 + 5.5, "the device restarted after its line was reopened: what it sent from seq 7 of its "
             "previous boot on is lost")]
    logged = (log_of(one, drop=set(range(7, 27))) + log_of(two, drop=set(range(30)), offset_us=2_000_000)
              + log_of(three, offset_us=5_000_000))
    fig = inv.SensorFigures()
    broken = inv.check_sensor_events("t", logged, [one, two, three], CAROM, said, fig)
    assert broken == [] and fig.said_lost == 50 and fig.silently_lost == 0


def test_a_shot_without_its_rest_and_a_storm_of_rests_are_breaks() -> None:
    b = board(12)
    logged = log_of(b)
    no_rest = [g for g in logged if not (g.type == "rest" and g.row == logged[4].row)]
    assert any("no rest after" in line for line in inv.check_shots_ended("t", no_rest, [b], CAROM))
    rest = logged[-1]
    storm = logged + [inv.Logged(rest.row + k, 1, {"t": rest.obj["t"] + 0.02 * k, "type": "rest"}, rest.at)
                      for k in range(1, 4)]
    assert any("with no shot between" in line for line in inv.check_shots_ended("t", storm, [b], CAROM))


def test_an_event_logged_once_but_out_of_order_is_named_so() -> None:
    b = board(12)
    logged = log_of(b)
    logged[1], logged[2] = logged[2], logged[1]  # two hits of one shot swapped
    broken, fig = check([b], logged)
    assert fig.out_of_order == 1 and fig.silently_lost == 0 and fig.invented == 0
    assert any("out of the board's (device-time) order" in line for line in broken)


def test_time_going_back_is_a_break() -> None:
    b = board(8)
    logged = log_of(b)
    logged[3] = inv.Logged(logged[3].row, 1, {**logged[3].obj, "t": 0.001}, logged[3].at)
    assert inv.check_times_in_order("t", logged)


def test_an_acknowledged_call_missing_from_the_log_is_a_break() -> None:
    setup = inv.Ack("1", "setup", {"game": "carom"}, 1, 0.0)
    acks = [setup, inv.Ack("1", "call", {"call": "start"}, None, 1.0),
            inv.Ack("1", "call", {"call": "carom"}, None, 2.0)]
    lines = [(1, {"type": "setup", "game": "carom", "t": 0}), (1, {"type": "call", "call": "start", "t": 1})]
    assert inv.check_acknowledged_calls("1", acks[:2], lines) == []
    assert inv.check_acknowledged_calls("1", acks, lines)
    assert inv.check_acknowledged_calls("1", acks[:1], [(2, lines[0][1])])  # logged under another match


def test_5xx_and_tracebacks_are_named() -> None:
    assert inv.check_no_5xx([("pub", "GET /", 200), ("pub", "GET /x", 404)]) == []
    assert inv.check_no_5xx([("league", "GET /api/league", 500)])
    text = "ok\nTraceback (most recent call last):\n  File \"x\", line 1\nValueError: boom\n"
    [line] = inv.check_no_traceback({"league": text, "pub": "fine\n"})
    assert "league" in line and "ValueError: boom" in line


def test_a_full_league_disk_is_seen_to_end_when_the_league_says_it_stores_matches_again() -> None:
    """The soak's disk-full fault on the league reads the league's own lines (seed 26662 took a
    recovered league for one still refusing: the soak looked for a line the league never says)."""
    from soak.inject import _still_refusing

    from tablesense.league.service import AGAIN, REFUSED

    refused = f"tablesense league serve: a received match {REFUSED.format('stored')} (disk is full)"
    assert _still_refusing(refused)
    assert not _still_refusing(f"{refused}\ntablesense league serve: {AGAIN.format('stored')}")
    checking = refused.replace("stored", "checked")
    assert _still_refusing(checking)
    assert not _still_refusing(f"{checking}\n{AGAIN.format('checked')}")


def test_a_shot_logged_with_its_rest_after_a_shot_said_lost_is_ended() -> None:
    """Three shots of one boot: X (one hit, lost with its rest), Y (one hit of X's cushion),
    Z (that cushion, then another). The log holds Y, its rest, Z, its rest: every shot it has
    is ended. Paired by key alone, X took Y's row and Y took Z's first hit, whose next line is
    no rest: a shot with no rest was called where the log was right (kroeg-2, seed 4141)."""
    b = Boot(1, T0, 0.0)
    t, seq = 100_000, 0
    for shot in ([CUSHIONS[0]], [CUSHIONS[0]], [CUSHIONS[0], CUSHIONS[1]]):
        for ch in shot:
            b.frames[seq] = FrameRec(seq, "count", ch, 3, t, T0 + t / 1e6)
            b.progress.append((T0 + t / 1e6, seq))
            b.heard.append((T0 + t / 1e6, seq))
            seq, t = seq + 1, t + 50_000
        t += 2_000_000
    logged = log_of(b, drop={0})[1:]  # X's hit and its rest are not in the log
    assert [g.type for g in logged] == ["cushion", "rest", "cushion", "cushion", "rest"]
    assert inv.check_shots_ended("t", logged, [b], CAROM) == []
    no_rest = [g for g in logged if g is not logged[1]]  # Y's rest taken out: then it is a break
    assert any("no rest after" in line for line in inv.check_shots_ended("t", no_rest, [b], CAROM))
