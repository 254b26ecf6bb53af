"""Flashing: mpy-cross over every firmware file, the flash plan for a clean and an updated
board, the HELLO check against the real firmware (unix port on a pty), clear errors."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import pytest
from paths import ROOT
from unix_repl import UnixRepl

from tablesense.cli import main
from tablesense.deploy.build import (
    Artifact,
    BuildError,
    build,
    compile_module,
    firmware_sources,
    firmware_version,
    sha256_file,
)
from tablesense.deploy.hello import ask_hello, check_hello
from tablesense.deploy.plan import FlashPlan, make_plan, parse_manifest
from tablesense.deploy.run import execute
from tablesense.table.profile import load_profile

XTENSAWIN = 10  # MP_NATIVE_ARCH_XTENSAWIN in the .mpy header


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> list[Artifact]:
    out = tmp_path_factory.mktemp("flash")
    golf = load_profile("golf")
    return build(out, [golf, load_profile("kegle"), load_profile("carom")], golf)


def test_every_firmware_module_compiles_for_the_esp32(built: list[Artifact]) -> None:
    sources = firmware_sources()
    mpys = {a.remote: a for a in built if a.remote.endswith(".mpy")}
    assert set(mpys) == {f"/{p.stem}.mpy" for p in sources if p.name != "main.py"}
    for a in mpys.values():
        head = a.local.read_bytes()[:4]
        assert head[0:1] == b"M" and head[1] == 6, a.remote  # .mpy format 6
        # bytecode-only modules are portable (arch 0); native code (viper) must be for the ESP32
        source = (ROOT / "firmware" / (a.remote[1:-4] + ".py")).read_text()
        native = "@micropython.viper" in source or "@micropython.native" in source
        assert head[2] >> 2 == (XTENSAWIN if native else 0), f"{a.remote}: wrong architecture"
    main_py = next(a for a in built if a.remote == "/main.py")
    assert main_py.local.read_text() == (ROOT / "firmware" / "main.py").read_text()


def test_native_code_is_compiled_for_xtensawin(tmp_path: Path) -> None:
    src = tmp_path / "fast.py"
    src.write_text("import micropython\n@micropython.native\ndef f(x):\n    return x + 1\n")
    head = compile_module(src, tmp_path).read_bytes()[:3]
    assert head[:2] == b"M\x06" and head[2] >> 2 == XTENSAWIN


def test_a_module_that_does_not_compile_is_named(tmp_path: Path) -> None:
    src = tmp_path / "broken.py"
    src.write_text("def f(:\n")
    with pytest.raises(BuildError, match=r"failed on broken\.py: File .*line 1, SyntaxError: invalid syntax"):
        compile_module(src, tmp_path)


def test_board_configs_are_built_for_every_profile_and_the_default(built: list[Artifact]) -> None:
    remotes = {a.remote: a for a in built}
    configs = {"/profiles/golf.json", "/profiles/kegle.json", "/profiles/carom.json", "/board.json"}
    assert configs <= set(remotes)
    assert json.loads(remotes["/board.json"].local.read_text())["profile"] == "golf"
    assert remotes["/board.json"].sha256 == remotes["/profiles/golf.json"].sha256


def test_firmware_version_is_read_from_the_firmware() -> None:
    text = "\n".join(p.read_text() for p in (ROOT / "firmware").glob("*.py"))
    version = firmware_version()
    assert f'FW_VERSION = "{version}"' in text


def cp_targets(plan_steps: tuple) -> list[str]:  # type: ignore[type-arg]
    return [s.argv[-1] for s in plan_steps if s.argv[3:5] == ("fs", "cp")]


def test_plan_for_a_clean_board(built: list[Artifact]) -> None:
    plan = make_plan("/dev/ttyUSB0", built, None, "0.1.0", "golf", manifest_local="m.json")
    argvs = [s.argv for s in plan.steps]
    assert all(a[:3] == ("mpremote", "connect", "/dev/ttyUSB0") for a in argvs)
    assert argvs[0][3:] == ("fs", "mkdir", ":/profiles")
    targets = cp_targets(plan.steps)
    assert sorted(targets[:-1]) == sorted(f":{a.remote}" for a in built)  # everything, then the manifest
    libs = [t for t in targets if t.endswith(".mpy")]
    configs = [t for t in targets if t.endswith(".json") and t != ":/tablesense.json"]
    assert targets == [*libs, *configs, ":/main.py", ":/tablesense.json"]  # main.py after what it imports
    assert argvs[-1][3:] == ("reset",)
    assert plan.manifest["files"] == {a.remote: a.sha256 for a in built}
    assert plan.manifest["fw_version"] == "0.1.0" and plan.manifest["profile"] == "golf"


def test_plan_for_an_updated_board_copies_only_what_changed(built: list[Artifact]) -> None:
    on_board = {a.remote: a.sha256 for a in built}
    wire = next(a for a in built if a.remote == "/wire.mpy")
    on_board["/wire.mpy"] = "0" * 64  # an older wire module
    on_board["/profiles/kegle.json"] = "1" * 64  # an older kegle profile
    on_board["/oldmod.mpy"] = "2" * 64  # a module the new firmware no longer has
    text = json.dumps({"fw_version": "0.0.9", "profile": "golf", "files": on_board})
    plan = make_plan("/dev/ttyUSB0", built, parse_manifest(text), "0.1.0", "golf")
    assert [str(s).split(" ", 3)[3] for s in plan.steps] == [
        "fs rm :/oldmod.mpy",
        f"fs cp {wire.local} :/wire.mpy",
        f"fs cp {next(a.local for a in built if a.remote == '/profiles/kegle.json')} :/profiles/kegle.json",
        "fs cp tablesense.json :/tablesense.json",
        "reset",
    ]
    assert plan.removed == ("/oldmod.mpy",) and plan.copied == ("/wire.mpy", "/profiles/kegle.json")


def test_plan_for_an_up_to_date_board_copies_nothing_unless_forced_and_restarts_it(
        built: list[Artifact]) -> None:
    """Reading the board stopped its firmware (mpremote's Ctrl-C): an up-to-date board is
    restarted all the same, or it would stay at the REPL."""
    on_board = {a.remote: a.sha256 for a in built}
    plan = make_plan("P", built, on_board, "0.1.0", "golf")
    assert plan.up_to_date and plan.changes == ()
    assert [s.argv for s in plan.steps] == [("mpremote", "connect", "P", "reset")]
    forced = make_plan("P", built, on_board, "0.1.0", "golf", force=True)
    assert len(cp_targets(forced.steps)) == len(built) + 1 and forced.steps[-1].argv[-1] == "reset"
    assert all(s.why == "forced" for s in forced.steps if s.argv[-1] not in (":/tablesense.json", "reset"))


def test_another_default_profile_rewrites_only_board_json(built: list[Artifact], tmp_path: Path) -> None:
    on_board = {a.remote: a.sha256 for a in built}
    kegle = load_profile("kegle")
    rebuilt = build(tmp_path, [load_profile("golf"), kegle, load_profile("carom")], kegle)
    plan = make_plan("P", rebuilt, on_board, "0.1.0", "kegle")
    assert plan.copied == ("/board.json",)


@pytest.mark.parametrize("text", [None, "", "not json", '{"files": 3}', "[]"])
def test_a_missing_or_garbled_manifest_means_a_clean_board(text: str | None) -> None:
    assert parse_manifest(text) is None


def test_flash_to_a_missing_port_says_so_and_lists_ports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--port", "/dev/ttyUSB97", "--profile", "golf"]) == 2
    err = capsys.readouterr().err
    assert "serial port /dev/ttyUSB97 not found" in err
    assert "Ports seen:" in err or "no serial ports are connected" in err
    assert "Traceback" not in err


def test_flash_with_an_unknown_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--port", "/dev/ttyUSB97", "--profile", "snooker"]) == 1
    assert "unknown table profile (profiles: carom, golf, kegle)" in capsys.readouterr().err


def test_dry_run_without_a_board_prints_the_clean_board_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash", "--port", "/dev/ttyUSB97", "--profile", "kegle", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "/dev/ttyUSB97 is not connected: planning for a clean board" in out
    assert "connect /dev/ttyUSB97 fs mkdir :/profiles" in out
    assert out.index(":/wire.mpy") < out.index(":/board.json") < out.index(":/main.py") < out.index("reset")
    assert "add --build-dir DIR to keep them" in out  # the printed paths are gone with the run


def test_dry_run_with_a_build_dir_prints_commands_whose_files_exist(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A dry run's commands can be run by hand: every local file they copy is there afterwards."""
    build = tmp_path / "fw"
    assert main(["flash", "--port", "/dev/ttyUSB97", "--profile", "carom", "--dry-run",
                 "--build-dir", str(build)]) == 0
    out = capsys.readouterr().out
    copied = [word for line in out.splitlines() if " cp " in line for word in line.split()
              if word.startswith(str(build))]
    assert copied and all(Path(p).is_file() for p in copied)
    assert "--build-dir" not in out


@pytest.mark.micropython
def test_hello_check_against_the_real_firmware(tmp_path: Path) -> None:
    from tablesense.sim import fitl
    from tablesense.table.profile import board_config_json

    board = tmp_path / "board.json"
    board.write_text(board_config_json(load_profile("kegle")))
    with fitl.start_firmware(str(board), realtime=True) as fw:
        hello = ask_hello(fw.port, timeout=10)
    assert hello.n_channels == 16
    assert check_hello(hello, firmware_version(), "kegle") == []
    assert check_hello(hello, "9.9.9", "golf") == [
        f"board runs firmware {firmware_version()!r}, expected '9.9.9'",
        "board uses profile 'kegle', expected 'golf'",
    ]


@pytest.mark.micropython
def test_hello_waits_for_a_port_that_comes_back_after_the_reset(tmp_path: Path) -> None:
    """A native-USB board's port vanishes while it resets: the check waits for it."""
    import threading

    from tablesense.deploy.hello import HelloError
    from tablesense.sim import fitl
    from tablesense.table.profile import board_config_json

    with pytest.raises(HelloError, match=r"cannot open .*/gone"):
        ask_hello(str(tmp_path / "gone"), timeout=0.6, every=0.2)
    board = tmp_path / "board.json"
    board.write_text(board_config_json(load_profile("golf")))
    port = tmp_path / "ttyACM0"
    with fitl.start_firmware(str(board), realtime=True) as fw:
        plug = threading.Timer(0.7, lambda: port.symlink_to(fw.port))
        plug.start()
        try:
            hello = ask_hello(str(port), timeout=10, every=0.2)
        finally:
            plug.cancel()
    assert hello.profile_id == "golf"


# -- the plan run for real: mpremote against MicroPython's unix port -----------------------
#
# The unix port's REPL on a pty speaks mpremote's raw-REPL protocol, so it stands in for a
# board's filesystem: the same plan, with paths relative to a scratch folder (root "") and
# `resume` (the unix REPL cannot soft-reset) and without the final `reset`. Then the
# flashed folder is booted as the firmware and asked for HELLO.


VirtualBoard = UnixRepl  # the board of these tests: the unix port's REPL on a pty


def run_plan(plan: FlashPlan) -> None:
    steps = tuple(s for s in plan.steps if s.argv[-1] != "reset")
    execute(FlashPlan(plan.port, steps, plan.copied, plan.removed, plan.unchanged, plan.manifest), print)


HOST_MARCH = {"x86_64": "x64", "amd64": "x64", "i686": "x86"}.get(platform.machine().lower())


@pytest.mark.micropython
@pytest.mark.slow
@pytest.mark.skipif(HOST_MARCH is None, reason="mpy-cross cannot emit native code for this host")
def test_flash_plan_runs_with_mpremote_and_the_flashed_firmware_says_hello(tmp_path: Path) -> None:
    from tablesense.deploy.run import mpremote_path, read_manifest
    from tablesense.sim.fitl import start_firmware

    golf = load_profile("golf")
    profiles = [golf, load_profile("kegle"), load_profile("carom")]
    folder = tmp_path / "board"
    folder.mkdir()
    board = VirtualBoard(folder)
    mpremote = mpremote_path()
    try:
        # a clean board: everything goes over
        assert read_manifest(board.port, mpremote, root="", resume=True) is None
        arts = build(tmp_path / "b1", profiles, golf, march=HOST_MARCH or "x64")
        plan = make_plan(board.port, arts, None, "0.1.0", "golf", mpremote=mpremote,
                         manifest_local=str(tmp_path / "m1.json"), root="", resume=True)
        (tmp_path / "m1.json").write_text(json.dumps(plan.manifest))
        run_plan(plan)
        for a in arts:
            assert (folder / a.remote.lstrip("/")).read_bytes() == a.local.read_bytes(), a.remote
        # the manifest read back: the board is up to date
        on_board = parse_manifest(read_manifest(board.port, mpremote, root="", resume=True))
        assert on_board == {a.remote: a.sha256 for a in arts}
        assert make_plan(board.port, arts, on_board, "0.1.0", "golf").changes == ()
        # an updated firmware: only the changed module goes over
        fw2 = tmp_path / "fw2"
        fw2.mkdir()
        for src in firmware_sources():
            (fw2 / src.name).write_bytes(src.read_bytes())
        with (fw2 / "ring.py").open("a") as fh:
            fh.write("\nFLASH_TEST_MARK = 1\n")
        arts2 = build(tmp_path / "b2", profiles, golf, firmware_dir=fw2, march=HOST_MARCH or "x64")
        plan2 = make_plan(board.port, arts2, on_board, "0.1.0", "golf", mpremote=mpremote,
                          manifest_local=str(tmp_path / "m2.json"), root="", resume=True)
        assert plan2.copied == ("/ring.mpy",)
        (tmp_path / "m2.json").write_text(json.dumps(plan2.manifest))
        run_plan(plan2)
        assert sha256_file(folder / "ring.mpy") == next(a.sha256 for a in arts2 if a.remote == "/ring.mpy")
    finally:
        board.close()
    # boot what was flashed (compiled modules and all) and check HELLO like `tablesense flash`
    with start_firmware(folder / "board.json", firmware_dir=folder) as fw:
        hello = ask_hello(fw.port, timeout=10)
    assert check_hello(hello, firmware_version(), "golf") == []
    assert [p.name for p in folder.glob("*.py")] == ["main.py"]  # everything else is compiled
