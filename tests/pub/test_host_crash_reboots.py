"""A board that reboots again and again while a carom shot rolls, then its host killed before
the next quiet point (and, in some runs, the board rebooted once more while the host is
down): the restarted host logs every cushion once, in order, table time never goes back,
and the shot gets its one ``rest``.

The season soak, seed 29735 (hoek-1): four reboots 0.6-1.9 s apart while a carom shot
rolled, the host killed before the next quiet point. The restarted host resumed from the
checkpoint of a boot before the newest; the newest boot, past that checkpoint's seq and
uptime, was read as that boot going on, under its clock: its events came out behind the
rest logged before the kill (row 1179 t=101.14 after row 1178 t=101.84). Now a reboot the
host sees is a checkpoint of its own also mid-shot, and a restarted host tells a boot that
began after its checkpoint's by the host's raw clock (link/hostclock.py).

``tablesense run`` reads the real firmware (MicroPython's unix port, in real time) through
``tablesense.sim.cable.Cable``, behind which a rebooted board is a new firmware process
(its clock and seqs from 0); the host is SIGKILLed (tests/pub/test_host_crash_reboot.py).
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest
from effort import share
from helpers.ports import free_port
from helpers.processes import stop
from helpers.waits import wait_until, within
from paths import ROOT
from test_host_crash import _first_checkpoint, _logged
from test_host_crash_reboot import _incidents, _shot

from tablesense.sim.cable import Cable
from tablesense.sim.fitl import FirmwareProcess, start_firmware
from tablesense.table.profile import board_config_json, load_profile

pytestmark = [pytest.mark.micropython, pytest.mark.slow]

#: a shot rests after 4 s without motion: the reboots (up to 1.9 s apart) and the kill come
#: before, on a loaded machine too
QUIET_MS = 4000
APART_S = (0.6, 1.9, 1.2)  # the reboots, this far apart (the soak's were 0.6-1.9 s)
EACH = [2, 1]  # the cushions each boot sees, 0.3 s after it booted


def _profile(tmp: Path) -> Path:
    src = (ROOT / "hardware" / "profiles" / "carom.toml").read_text(encoding="utf-8")
    path = tmp / "carom-slow-rest.toml"
    path.write_text(src.replace("rest_quiet_ms = 1500", f"rest_quiet_ms = {QUIET_MS}"), encoding="utf-8")
    return path


def _cushions(db: Path) -> list[int]:
    return [e["cushion"] for e in _logged(db) if e["type"] == "cushion"]


#: (reboots mid-shot, one more while the host is down): every pair under plain ``pytest``; the
#: fewest and the most under ``make test`` (tests/effort.py)
CASES = share([(1, False), (1, True), (3, False), (3, True)], [(1, False), (3, True)])


@pytest.mark.parametrize(("reboots", "while_down"), CASES,
                         ids=[f"{n}-{'one-more' if d else 'none'}-while-down" for n, d in CASES])
def test_a_board_rebooting_again_and_again_mid_shot_then_its_host_killed_logs_every_cushion_once(
        tmp_path: Path, tablesense_cmd: list[str], reboots: int, while_down: bool) -> None:
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
    want = [1, 2, 3]  # shot A, which rests: the host's checkpoint before shot B

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def reboot() -> float:
        fws[-1].stop()
        fws.append(start_firmware(board, realtime=True))
        cable.attach(fws[-1].port)
        return time.monotonic()

    host = start()
    try:
        up = _first_checkpoint(db, host)
        a = up + 1_500_000
        fws[0].send_edges(_shot(a, [1, 2, 3]) + _shot(a + 2_000_000 + QUIET_MS * 1000, [4, 3]))
        want += [4, 3]  # shot B's first cushions, on the first boot
        wait_until(lambda: _cushions(db) == want, 60, "shot A and B's first cushions were not logged")
        booted = time.monotonic()
        for gap in APART_S[:reboots]:  # shot B rolls on: the bed's motion and a cushion on each boot
            time.sleep(max(0.0, booted + gap - time.monotonic()))
            booted = reboot()
            fws[-1].send_edges(_shot(300_000, EACH))
            want = want + EACH
            wait_until(lambda want=want: _cushions(db) == want, 30, "a new boot's cushions were not logged")
        assert sum(e["type"] == "rest" for e in _logged(db)) == 1, _logged(db)  # shot A's: shot B rolls
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        stderr.append(host.stderr.read() if host.stderr else "")
        if while_down:  # 1.5 s after the last boot began; the host is back 1 s later: up longer
            time.sleep(max(0.0, booted + 1.5 - time.monotonic()))
            reboot()
            fws[-1].send_edges(_shot(1_000_000, [4]))
            want += [4]
            time.sleep(1.0)
        host = start()
        # shot B's rest, after the last cushion: anything doubled comes before it or with it
        rested = within(lambda: _cushions(db) == want and _logged(db)[-1]["type"] == "rest"
                        and sum(e["type"] == "rest" for e in _logged(db)) == 2, 60)
        time.sleep(1.0)
    finally:
        stop(host, timeout=15)
        stderr.append(host.stderr.read() if host.stderr else "")
        cable.close()
        for fw in fws:
            fw.stop()
    said = "\n".join(stderr)
    got = _logged(db)
    assert rested, f"shot B's cushions and rest were not logged in 60 s: {got}\n{said[-3000:]}"
    times = [e["t"] for e in got]
    assert times == sorted(times), f"table time goes back: {got}\n{said[-2000:]}"
    assert _cushions(db) == want, f"{got}\n{said[-2000:]}"
    rests = [i for i, e in enumerate(got) if e["type"] == "rest"]
    assert len(rests) == 2 and rests[-1] == len(got) - 1, got  # shot A's, shot B's once at its end
    down = [t for t in _incidents(db) if "restarted while the host was down" in t]
    assert len(down) == while_down, _incidents(db)
    assert "Traceback" not in said, said[-3000:]
