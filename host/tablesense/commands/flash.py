"""``tablesense flash --serial PORT --profile ID``: check the board's MicroPython, compile, copy what
changed, reset, check HELLO."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from ..command_line.options import add_serial
from ..command_line.serial_port import serial_problem
from ..deploy.build import FIRMWARE_DIR, BuildError, build, firmware_version
from ..deploy.hello import HelloError, ask_hello, check_hello, describe
from ..deploy.plan import make_plan, parse_manifest
from ..deploy.run import FlashError, board_micropython, execute, mpremote_path, read_manifest
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
    p.add_argument("--no-check", action="store_true", help="do not ask the board for HELLO afterwards")
    p.add_argument("--timeout", type=float, default=15.0, metavar="S",
                   help="seconds to wait for HELLO after the reset")
    p.add_argument("--baud", type=baud, default=None, metavar="N",
                   help=f"baud rate of the link, for the HELLO check (default: the profile's, else {BAUD}; "
                        "mpremote copies at 115200)")
    p.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)  # no soft reset: the unix port


def _say(text: str) -> None:
    print(text, flush=True)


def run(args: argparse.Namespace) -> int:
    args.port = args.serial  # the port the messages name
    try:
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
        with tempfile.TemporaryDirectory(prefix="tablesense-flash-") as tmp:
            out = Path(tmp)
            _say(f"building firmware {version} (mpy-cross -march=xtensawin) for profile {profile.id}")
            arts = build(out, [profile, *others], profile, fw_dir)
            if not connected:
                _say(f"{args.port} is not connected: planning for a clean board")
                text = None
            else:
                text = read_manifest(args.port, mpremote, resume=args.resume)
            on_board = parse_manifest(text)
            manifest_file = out / "tablesense.json"
            plan = make_plan(args.port, arts, on_board, version, profile.id, force=args.force,
                             mpremote=mpremote, manifest_local=str(manifest_file), resume=args.resume)
            manifest_file.write_text(json.dumps(plan.manifest, indent=1) + "\n", encoding="utf-8")
            state = "clean board" if on_board is None else f"{len(plan.unchanged)} files already up to date"
            _say(f"plan for {args.port} ({state}): copy {len(plan.copied)}, remove {len(plan.removed)}")
            if args.dry_run:
                for step in plan.steps:
                    _say(f"  {step}    # {step.why}")
                return 0
            execute(plan, _say)
        if args.no_check:
            return 0
        _say(f"asking {args.port} for HELLO")
        hello = ask_hello(args.port, timeout=args.timeout, baudrate=baud)
        problems = check_hello(hello, version, profile.id, chip=chip)
        if problems:
            print("tablesense flash: " + "; ".join(problems), file=sys.stderr)
            return 1
        _say(f"ok: {describe(hello)}")
        return 0
    except (ProfileError, BuildError, FlashError, HelloError) as exc:
        print(f"tablesense flash: {exc}", file=sys.stderr)
        return 1
