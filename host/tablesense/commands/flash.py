"""``tablesense flash --serial PORT --profile ID``: check the board's MicroPython, compile, copy what
changed, reset, check HELLO.

Reading the board (its MicroPython, its manifest) goes through mpremote, which stops the
firmware (Ctrl-C) for its raw REPL; so every flash ends with a restart (``mpremote reset``),
also when nothing was copied, when it is a dry run, and when a step failed, and says whether
the firmware answered HELLO after it."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..command_line.numbers import seconds
from ..command_line.options import add_serial
from ..command_line.serial_port import serial_problem
from ..deploy.build import FIRMWARE_DIR, MARCH, BuildError, build, firmware_version
from ..deploy.hello import HelloError, ask_hello, check_hello, describe
from ..deploy.plan import make_plan, parse_manifest
from ..deploy.run import FlashError, board_micropython, execute, mpremote_path, read_manifest, restart
from ..deploy.versions import expected_chip, note, refusal
from ..link.lines import BAUD, baud, link_baud
from ..table.profile import ProfileError, load_profile, profile_ids

EXAMPLES = """
tablesense flash --serial /dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0 --profile golf
tablesense flash --serial /dev/ttyUSB0 --profile carom --dry-run
make flash PORT=/dev/ttyUSB0 PROFILE=kegle
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_serial(p, help="the board's serial port (/dev/serial/by-id/... keeps its name; a pyserial URL "
                       "works too)")
    p.add_argument("--profile", default="golf", metavar="ID",
                   help="table profile the board starts with: golf, kegle, carom or a TOML file "
                        "(default: golf)")
    p.add_argument("--firmware", default=str(FIRMWARE_DIR), help=argparse.SUPPRESS)
    p.add_argument("--force", action="store_true", help="copy every file, even those the board already has")
    p.add_argument("--dry-run", action="store_true",
                   help="print the plan (the mpremote commands) without changing the board")
    p.add_argument("--build-dir", default=None, metavar="DIR",
                   help="build the firmware files into DIR and keep them (default: a temporary folder, "
                        "removed afterwards); with --dry-run, the printed commands can then be run by hand")
    p.add_argument("--no-check", action="store_true", help="do not ask the board for HELLO afterwards")
    p.add_argument("--timeout", type=seconds, default=15.0, metavar="S",
                   help="seconds to wait for HELLO after the reset")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of the link, for the HELLO check (default: the profile's, else {BAUD}; "
                        "mpremote copies at 115200)")
    p.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)  # no soft reset: the unix port
    # the unix port standing in for a board (tests/virtual_board.py): paths relative to its folder,
    # native code for this host
    p.add_argument("--root", default="/", help=argparse.SUPPRESS)
    p.add_argument("--march", default=None, help=argparse.SUPPRESS)


@contextlib.contextmanager
def _build_dir(keep: str | None) -> Iterator[Path]:
    """Where the firmware is built: ``keep`` (made if missing, kept), else a temporary folder."""
    if keep is not None:
        out = Path(keep).expanduser().resolve()
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FlashError(f"cannot make the build folder {out}: {exc.strerror or exc}") from None
        yield out
        return
    with tempfile.TemporaryDirectory(prefix="tablesense-flash-") as tmp:
        yield Path(tmp)


def _say(text: str) -> None:
    print(text, flush=True)


def run(args: argparse.Namespace) -> int:
    args.port = args.serial  # the port the messages name
    stopped = [False]  # mpremote stopped the firmware: it is started again whatever happens
    try:
        code = _flash(args, stopped)
    except (ProfileError, BuildError, FlashError, HelloError) as exc:
        print(f"tablesense flash: {exc}", file=sys.stderr)
        code = 1
    finally:
        if stopped[0]:
            _restart(args)
    return code


def _restart(args: argparse.Namespace) -> None:
    """The firmware was stopped and the plan's own restart did not run: restart the board."""
    _say(f"restarting {args.port} (mpremote reset): the firmware runs again")
    try:
        restart(args.port, mpremote_path(), resume=args.resume)
    except FlashError as exc:
        print(f"tablesense flash: could not restart the board: {exc}; press its EN button",
              file=sys.stderr)


def _flash(args: argparse.Namespace, stopped: list[bool]) -> int:
    profile = load_profile(args.profile)
    others = [load_profile(pid) for pid in profile_ids() if pid != profile.id]
    problem = serial_problem(args.serial) if not args.dry_run or not args.serial else None
    if problem:
        print(f"tablesense flash: {problem}", file=sys.stderr)
        return 2
    baud = link_baud(args.baud, profile)
    fw_dir = Path(args.firmware)
    version = firmware_version(fw_dir)
    mpremote = mpremote_path()
    connected = not args.dry_run or Path(args.port).exists() or "://" in args.port
    chip = ""
    if connected:  # before anything is built or copied: is its MicroPython one we run on?
        board = board_micropython(args.port, soft_reset=not args.resume)
        stopped[0] = True  # mpremote's Ctrl-C stopped the firmware
        _say(f"{args.port}: MicroPython {board.text} on {board.chip or board.machine}")
        why = refusal(board)
        if why:
            print(f"tablesense flash: {why}", file=sys.stderr)
            return 2
        remark = note(board)
        if remark:
            _say(f"note: {remark}")
        chip = board.chip
        wanted = expected_chip(profile.module)
        if chip and wanted and chip not in (wanted, "unix"):
            _say(f"note: profile {profile.id} is for an {profile.module} ({wanted}), "
                 f"the board is an {chip}")
    with _build_dir(args.build_dir) as out:
        march = args.march or MARCH
        _say(f"building firmware {version} (mpy-cross -march={march}) for profile {profile.id}")
        arts = build(out, [profile, *others], profile, fw_dir, march=march)
        if not connected:
            _say(f"{args.port} is not connected: planning for a clean board")
            text = None
        else:
            text = read_manifest(args.port, mpremote, root=args.root, resume=args.resume)
        on_board = parse_manifest(text)
        manifest_file = out / "tablesense.json"
        plan = make_plan(args.port, arts, on_board, version, profile.id, force=args.force,
                         mpremote=mpremote, manifest_local=str(manifest_file), root=args.root,
                         resume=args.resume)
        manifest_file.write_text(json.dumps(plan.manifest, indent=1) + "\n", encoding="utf-8")
        state = "clean board" if on_board is None else f"{len(plan.unchanged)} files already up to date"
        _say(f"plan for {args.port} ({state}): copy {len(plan.copied)}, remove {len(plan.removed)}")
        if args.dry_run:
            for step in plan.steps:
                _say(f"  {step}    # {step.why}")
            if args.build_dir is None:
                _say("(the files are built in a temporary folder, removed now: add --build-dir DIR to keep "
                     "them and run these commands by hand)")
            return 0  # (the board, if it was read, is restarted on the way out)
        execute(plan, _say)
        stopped[0] = False  # the plan's last step restarted it
    if args.no_check:
        _say(f"{args.port} restarted; HELLO not checked (--no-check)")
        return 0
    _say(f"asking {args.port} for HELLO")
    hello = ask_hello(args.port, timeout=args.timeout, baudrate=baud)
    problems = check_hello(hello, version, profile.id, chip=chip)
    if problems:
        print("tablesense flash: " + "; ".join(problems), file=sys.stderr)
        return 1
    _say(f"ok: the firmware runs: {describe(hello)}")
    return 0
