"""`tablesense flash` always leaves the firmware running and says so (HELLO seen): on a
fresh board, on one that is up to date and on one whose files changed, and when the flash
stops half way. The real `tablesense flash` and the real mpremote, against the firmware under
MicroPython's unix port standing in for an ESP32 (tests/virtual_board.py: the REPL after
Ctrl-C, `machine.reset()` booting main.py again). Two things the stand-in cannot do: a soft
reset inside mpremote's raw REPL (so flash runs with --resume, as on the unix port), and
xtensawin native code (the firmware is compiled for this host: --march)."""

from __future__ import annotations

import platform
import shutil
from pathlib import Path

import pytest
from virtual_board import VirtualBoard, firmware_files

from tablesense.cli import main
from tablesense.deploy.build import firmware_sources, firmware_version
from tablesense.deploy.hello import ask_hello, check_hello
from tablesense.table.profile import load_profile

HOST_MARCH = {"x86_64": "x64", "amd64": "x64", "i686": "x86"}.get(platform.machine().lower())
pytestmark = [
    pytest.mark.micropython,
    pytest.mark.skipif(HOST_MARCH is None, reason="mpy-cross cannot emit native code for this host"),
]


def flash(board: VirtualBoard, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    code = main(["flash", "--serial", board.port, "--profile", "golf", "--resume", "--root", "",
                 "--march", HOST_MARCH or "x64", *extra])
    got = capsys.readouterr()
    return code, got.out, got.err


def answers_hello(board: VirtualBoard) -> None:
    """The board runs the firmware: a HELLO from a port opened afresh, as the pub's would be."""
    hello = ask_hello(board.port, timeout=15)
    assert check_hello(hello, firmware_version(), "golf") == []
    assert board.boots[-1][0] == "firmware"


@pytest.mark.slow
def test_flash_leaves_the_firmware_running_on_a_fresh_an_up_to_date_and_a_changed_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "board"
    folder.mkdir()
    with VirtualBoard(folder) as board:
        # a fresh board: MicroPython's REPL, nothing on its flash
        code, out, err = flash(board, capsys)
        assert code == 0, err
        assert "plan for" in out and "(clean board)" in out
        assert "ok: the firmware runs: firmware" in out
        assert board.boots[0] == ("repl", 1)
        answers_hello(board)
        # up to date: nothing to copy, and the firmware mpremote stopped runs again
        code, out, err = flash(board, capsys)
        assert code == 0, err
        assert "copy 0, remove 0" in out and "start the firmware again" in out
        assert "ok: the firmware runs" in out
        answers_hello(board)
        # one module changed: it alone goes over, then the board restarts
        fw2 = tmp_path / "fw2"
        fw2.mkdir()
        for src in firmware_sources():
            shutil.copyfile(src, fw2 / src.name)
        with (fw2 / "ring.py").open("a") as fh:
            fh.write("\nFLASH_BOARD_TEST = 1\n")
        code, out, err = flash(board, capsys, "--firmware", str(fw2))
        assert code == 0, err
        assert "copy 1, remove 0" in out and ":ring.mpy" in out
        assert "ok: the firmware runs" in out
        answers_hello(board)
        assert [b for b in board.boots if b[0] == "firmware"] == [("firmware", 2)] * 3
        assert not (folder / "crash.txt").exists(), board.stderr_text()


@pytest.fixture
def flashed(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A board flashed before the test (the files put in place, no mpremote), running."""
    folder = tmp_path / "board"
    folder.mkdir()
    golf = load_profile("golf")
    firmware_files(folder, [golf, load_profile("kegle"), load_profile("carom")], golf, HOST_MARCH or "x64")
    with VirtualBoard(folder) as board:
        ask_hello(board.port, timeout=15)
        yield board


def test_a_dry_run_on_a_running_board_starts_its_firmware_again(
        flashed: VirtualBoard, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = flash(flashed, capsys, "--dry-run")
    assert code == 0, err
    assert "restarting" in out and "the firmware runs again" in out
    answers_hello(flashed)
    assert ("repl", 1) in flashed.boots  # the version probe did stop it


def test_a_flash_that_fails_after_reading_the_board_starts_its_firmware_again(
        flashed: VirtualBoard, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for src in firmware_sources():
        shutil.copyfile(src, broken / src.name)
    (broken / "ring.py").write_text("def take(:\n")
    code, out, err = flash(flashed, capsys, "--firmware", str(broken))
    assert code == 1
    assert "mpy-cross failed on ring.py" in err and "Traceback" not in err
    assert "restarting" in out
    answers_hello(flashed)
