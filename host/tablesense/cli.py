"""The ``tablesense`` command line: a table of sub-commands, each in its own module.

Each module under ``tablesense.commands`` has ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only when their command runs, so a
command whose optional dependencies are missing never breaks the others.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from types import FrameType

from . import __version__

#: name -> (module under tablesense.commands, one line of help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("replay", "replay a match log (JSONL) and print the match state"),
    "monitor": ("monitor", "print the decoded table events of a serial port live"),
    "sim": ("sim", "run the real firmware under MicroPython on a pty, driven by a file of edges"),
    "demo": ("demo", "play a whole simulated match and show it on the scoreboard"),
    "run": ("run", "serve the pub: links to the tables, match log, scoreboard and referee panel"),
    "league": ("league", "club competition: players, results, standings, new moyennes"),
    "flash": ("flash", "compile and deploy the firmware to an ESP32 board"),
    "doctor": ("doctor", "live check of every sensor channel of a table"),
    "profile": ("profile", "validate table profiles and generate board configuration and wiring"),
    "install-service": ("install_service", "install the systemd unit that starts tablesense at boot"),
    "camera": ("camera", "the overhead camera: calibrate it, watch a recording"),
    "bench": ("bench", "run the benchmarks under bench/ and print their figures"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablesense", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"tablesense {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        mod = _load(module)
        if mod is not None:
            mod.add_arguments(p)
    return parser


def _load(module: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(f"tablesense.commands.{module}")
    except ModuleNotFoundError as exc:
        if exc.name == f"tablesense.commands.{module}":
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    mod = _load(args._module)
    if mod is None:
        print(f"tablesense: the '{args.command}' command is not available in this build", file=sys.stderr)
        return 2
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # started as `cmd &` by a script:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a SIGTERM must still stop it
    previous = signal.signal(signal.SIGTERM, _as_interrupt)
    try:
        return int(mod.run(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C, or systemd's SIGTERM: a stop asked for, not a failure
        return 0
    except BrokenPipeError:  # `tablesense replay log | head`: the reader has what it wanted
        _quiet_stdout()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (what systemd, ``kill`` and ``docker stop`` send) is handled as Ctrl-C is:
    whatever handles SIGINT just then (asyncio's runner cancels its main task; outside
    it ``KeyboardInterrupt``) stops the command, and the command's own clean-up runs
    (``finally``, context managers: the firmware child, the browser, the serial port)."""
    signal.raise_signal(signal.SIGINT)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
