"""A host killed mid-shot whose board reboots before the host is back: the restarted host
says what the old boot wrote after its checkpoint is lost, reads the new boot from its
start, and the new boot's table times go on after the latest time in the match log.

The restarted host resumes from the link checkpoint saved before the shot; the events
logged after it (the shot's first cushions) came later. Going on from the checkpoint's
clock put the new boot's events before them: table time went back in the log (the season
soak, seed 3: kroeg-1, t=8.82 logged after t=16.64).

``tablesense run`` reads the real firmware (MicroPython's unix port, in real time) through
``tablesense.sim.cable.Cable`` (``socket://``), behind which a rebooted board is a new
firmware process (its clock and seqs from 0), as a USB bridge stays while the ESP32 behind
it restarts; the host is SIGKILLed as a power cut or the OOM killer does.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from helpers.ports import free_port
from helpers.processes import stop
from helpers.waits import wait_until, within
from paths import ROOT
from test_host_crash import _first_checkpoint, _logged

from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware
from tablesense.table.profile import board_config_json, load_profile

pytestmark = [pytest.mark.micropython, pytest.mark.slow]

QUIET_MS = 300


def _profile(tmp: Path) -> Path:
    src = (ROOT / "hardware" / "profiles" / "carom.toml").read_text(encoding="utf-8")
    path = tmp / "carom-quick.toml"
    path.write_text(src.replace("rest_quiet_ms = 1500", f"rest_quiet_ms = {QUIET_MS}"), encoding="utf-8")
    return path


def _shot(start_us: int, cushions: list[int]) -> list[dict[str, int]]:
    """The cushions hit 150 ms apart, the bed's motion sensor counting every 20 ms meanwhile."""
    lines = [{"t_us": start_us + k * 150_000, "ch": c - 1, "pulses": 1} for k, c in enumerate(cushions)]
    span = 150_000 * len(cushions)
    lines += [{"t_us": start_us + k * 20_000 + 5_000, "ch": 4, "pulses": 2} for k in range(span // 20_000)]
    return sorted(lines, key=lambda e: e["t_us"])


def _incidents(db: Path) -> list[str]:
    con = sqlite3.connect(db, timeout=10)
    try:
        return [r[0] for r in con.execute("SELECT text FROM incidents WHERE table_id='1' ORDER BY id")]
    finally:
        con.close()


@pytest.mark.parametrize("logged_first", [1, 3], ids=["after-one-cushion", "after-three-cushions"])
@pytest.mark.parametrize("host_first", [False, True], ids=["board-back-first", "host-back-first"])
def test_a_board_rebooted_while_its_host_was_down_goes_on_after_the_logs_latest_time(
        tmp_path: Path, tablesense_cmd: list[str], logged_first: int, host_first: bool) -> None:
    profile = _profile(tmp_path)
    board = tmp_path / "board.json"
    board.write_text(board_config_json(load_profile(profile)), encoding="utf-8")
    db = tmp_path / "pub.db"
    argv = [*tablesense_cmd, "run", "--serial", "", "--profile", str(profile), "--db", str(db),
            "--http", f"127.0.0.1:{free_port()}", "--wait"]
    fws: list[FirmwareProcess] = [start_firmware(board, realtime=True)]
    cable = Cable(fws[0].port)
    argv[argv.index("--serial") + 1] = cable.url
    stderr: list[str] = []

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    host = start()
    try:
        up = _first_checkpoint(db, host)
        t0 = time.monotonic()
        a = up + 1_500_000
        # shot B 3 s after shot A: a heartbeat comes between A's rest and B (one a second),
        # the quiet point at which the host saves the checkpoint it will resume from
        fws[0].send_edges(_shot(a, [1, 2, 3]) + _shot(a + 3_000_000, [4, 3, 2, 1, 4, 3, 2, 1]))
        wait_until(lambda: _first_checkpoint(db, host) > a, 60, "no checkpoint after shot A")
        # shot A ends with its rest; shot B has logged its first cushions: the host is killed
        wait_until(lambda: sum(e["type"] == "cushion" for e in _logged(db)) >= 3 + logged_first, 60,
               "the host did not log the shots")
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        stderr.append(host.stderr.read() if host.stderr else "")
        # the board reboots while the host is down: what it wrote after the checkpoint is gone
        fws[0].stop()
        if host_first:
            host = start()
            time.sleep(0.5)
        fws.append(start_firmware(board, realtime=True))
        booted = time.monotonic()
        cable.attach(fws[-1].port)
        if not host_first:
            time.sleep(0.3)
            host = start()
        c = 1_500_000  # shot C, 1.5 s after the new boot
        fws[-1].send_edges(_shot(c, [2, 4]))
        shot_c = within(lambda: _logged(db)[-1:] == [{"t": _logged(db)[-1]["t"], "type": "rest"}]
                         and sum(e["type"] == "cushion" for e in _logged(db)) >= 3 + logged_first + 2
                         and time.monotonic() - booted > 3.0, 60)
    finally:
        stop(host, timeout=15)
        stderr.append(host.stderr.read() if host.stderr else "")
        cable.close()
        for fw in fws:
            fw.stop()
    said = "\n".join(stderr)
    got = _logged(db)
    assert shot_c, f"shot C was not logged in 60 s: {got}\n{said[-3000:]}"
    assert time.monotonic() - t0 < 120
    times = [e["t"] for e in got]
    assert times == sorted(times), f"table time goes back: {got}\n{said[-2000:]}"
    cushions = [e["cushion"] for e in got if e["type"] == "cushion"]
    shot_b = [4, 3, 2, 1, 4, 3, 2, 1]
    k = len(cushions) - 3 - 2
    assert logged_first <= k <= len(shot_b), cushions
    assert cushions == [1, 2, 3] + shot_b[:k] + [2, 4], f"{got}\n{said[-2000:]}"
    rests = [i for i, e in enumerate(got) if e["type"] == "rest"]
    # shot A's; shot B's, cut short by the kill and the reboot: given by the restarted host at
    # the quiet time after B's last logged event, so B and C are not read as one shot; shot C's
    assert len(rests) == 3 and rests[-1] == len(got) - 1, got
    first_c = next(i for i, e in enumerate(got) if e["type"] == "cushion" and i > rests[0]
                   and sum(x["type"] == "cushion" for x in got[:i]) == 3 + k)
    assert rests[0] < rests[1] < first_c, f"shot B has no rest of its own before shot C: {got}"
    assert got[first_c]["t"] > got[first_c - 1]["t"]
    assert any("restarted while the host was down" in t for t in _incidents(db)), _incidents(db)
    assert "Traceback" not in said, said[-3000:]
