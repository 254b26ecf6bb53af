"""``tablesense demo``: a simulated match end to end (direct, and through the real firmware)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from helpers.processes import signalled

from tablesense.cli import main
from tablesense.events import Cushion, Pin, Pocket, Setup, dump_event, parse_line
from tablesense.replay import Replay
from tablesense.sim.match import play_match
from tablesense.web.lan import lan_address

TABLESENSE = str(Path(sys.executable).parent / "tablesense")


def test_demo_prints_a_whole_match_that_replays_to_its_result(capsys):
    assert main(["demo", "--game", "kegle", "--direct", "--speed", "0", "--print", "--distance", "6",
                 "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    setup = parse_line(lines[0])
    assert isinstance(setup, Setup) and setup.game == "kegle" and setup.distance == 6
    state = Replay().feed_lines(lines).to_json()
    assert state["finished"] and state["winner"] in ("p1", "p2", "draw")
    assert "errors" not in state
    names = setup.players
    winner = state["winner"]
    won = "is a draw" if winner == "draw" else f"{names[winner]} wins the keglebillard match"
    assert won in err
    assert " p1 " not in err and " p2 " not in err  # names, never p1/p2


@pytest.mark.parametrize("argv,message", [
    (["--speed", "-1"], "--speed must be 0"),
    (["--speed", "nan"], "--speed must be 0 (as fast as possible) or more, not nan"),
    (["--speed", "inf"], "--speed must be 0 (as fast as possible) or more, not inf"),
    (["--game", "golf", "--target", "3"], "--target is for --game carom"),
    (["--game", "carom", "--distance", "3"], "--distance is for --game kegle"),
    (["--full-info"], "--full-info needs --direct"),
])
def test_demo_refuses_bad_options_with_a_reason(argv, message, capsys):
    assert main(["demo", *argv]) == 2
    assert message in capsys.readouterr().err


def test_demo_on_a_port_in_use_says_so(tmp_path, capsys):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["demo", "--direct", "--speed", "0", "--http", str(port), "--exit",
                     "--db", str(tmp_path / "demo.db")]) == 2
    err = capsys.readouterr().err
    assert f"cannot serve on 127.0.0.1:{port}" in err and "--http 0" in err


def test_demo_on_a_match_log_it_cannot_open_says_so_and_exit_2(tmp_path, capsys):
    assert main(["demo", "--direct", "--speed", "0", "--http", "0", "--exit", "--db", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot open the match log {tmp_path}" in err


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read())


def test_demo_serves_the_match_on_the_scoreboard(tmp_path):
    proc = subprocess.Popen(
        [TABLESENSE, "demo", "--game", "carom", "--direct", "--speed", "0", "--target", "1", "--http", "0",
         "--seed", "3", "--db", str(tmp_path / "demo.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"(http://\S+)/table/carom", line)
        assert m, line
        base = m.group(1)
        referee, stop = proc.stdout.readline(), proc.stdout.readline()
        lan = lan_address()
        if lan:  # phones reach the referee panel (and its QR code) at the LAN address, not 127.0.0.1
            assert f"referee panel at http://{lan}:{base.rsplit(':', 1)[1]}/ref/carom?token=" in referee
            assert _get(f"http://{lan}:{base.rsplit(':', 1)[1]}/api/table/carom")["table"] == "carom"
        assert "Ctrl-C stops it" in stop, stop
        deadline = time.monotonic() + 60
        snapshot: dict = {}
        while time.monotonic() < deadline:
            snapshot = _get(f"{base}/api/table/carom")
            if _finished(snapshot):
                break
            time.sleep(0.3)
        assert _finished(snapshot), snapshot
        page = urllib.request.urlopen(f"{base}/table/carom", timeout=5).read().decode()
        assert "<html" in page.lower()
    finally:
        proc.terminate()
        proc.wait(10)


def _demo(tmp_path: Path, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([TABLESENSE, "demo", "--direct", "--http", "0", "--db", str(tmp_path / "demo.db"),
                             *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    return signalled(proc, sig, 30)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_stopping_a_demo_mid_match_never_says_the_scoreboard_stays_up(tmp_path, sig):
    proc = _demo(tmp_path, "--game", "golf", "--speed", "1")  # minutes long: it is stopped mid-match
    assert "scoreboard at" in proc.stdout.readline()
    time.sleep(1)
    status, err = _stop(proc, sig)
    assert status == 0 and "Traceback" not in err, err
    assert "stays up" not in err, err
    assert "did not finish" in err, err


def test_after_the_match_the_demo_says_once_that_the_scoreboard_stays_up_and_then_only_stops(tmp_path):
    proc = _demo(tmp_path, "--game", "carom", "--speed", "0", "--target", "1", "--seed", "3")
    assert proc.stderr is not None
    said = ""
    deadline = time.monotonic() + 60
    while "stays up" not in said and time.monotonic() < deadline:
        said += proc.stderr.readline()
    assert "wins the carom match" in said and said.rstrip().endswith("Ctrl-C stops the demo"), said
    status, after = _stop(proc, signal.SIGINT)
    assert status == 0 and "stays up" not in after and "Traceback" not in after, after


def _finished(snapshot: dict) -> bool:
    state = snapshot.get("state") or {}
    return state.get("game") == "carom" and state.get("finished") is True


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
@pytest.mark.browser
def test_demo_open_without_display_runs_chromium_headless(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run(
        [TABLESENSE, "demo", "--game", "carom", "--direct", "--speed", "0", "--target", "1", "--http", "0",
         "--open", "--exit", "--db", str(tmp_path / "demo.db")],
        capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "chromium runs headless on http://127.0.0.1:" in done.stdout
    assert "/table/carom" in done.stdout


@pytest.mark.micropython
@pytest.mark.slow
async def test_a_match_through_the_real_firmware_and_link_matches_the_simulator():
    """Keglebillard to 4 points (two shots): pins with chatter, a pocket with its colour
    sensor, cushion piezos, the pins set up again, rests from the quiet bed sensor."""
    from tablesense.sim.firmware_feed import firmware_match

    direct = play_match("kegle", seed=0, full_info=False, distance=4)
    notes: list[str] = []
    got = []
    async with asyncio.timeout(80):
        async for event in firmware_match("kegle", seed=0, speed=0, notes=notes, distance=4):
            got.append(event)
    assert not any(n.startswith("no rest") for n in notes), notes

    def sensed(events):
        return [e for e in events if isinstance(e, (Cushion, Pin, Pocket)) and not (
            isinstance(e, Pin) and e.state == "up")]

    link, sim = sensed(got), sensed(direct)
    assert [(type(e), getattr(e, "pin", None), getattr(e, "pocket", None), getattr(e, "cushion", None),
             getattr(e, "ball", None)) for e in link] == [
        (type(e), getattr(e, "pin", None), getattr(e, "pocket", None), getattr(e, "cushion", None),
         getattr(e, "ball", None)) for e in sim]
    for a, b in zip(link, sim):
        # device stamps follow the simulator's clock; pins and pulse counts are read every 20 ms scan
        assert 0 <= a.t - b.t <= 0.05, (a, b)
    end_link = Replay().feed_lines(dump_event(e) for e in got).to_json()
    end_sim = Replay().feed_lines(dump_event(e) for e in direct).to_json()
    assert end_link["finished"] and "errors" not in end_link
    for key in ("winner", "points", "series"):
        assert end_link[key] == end_sim[key]
