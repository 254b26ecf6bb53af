"""The ``tablesense`` command line: a static table of sub-commands, each in its own module.

``COMMANDS`` names each command, its line of help and the module under
``tablesense.commands`` that runs it. A module is imported only when its command is
asked for: ``tablesense --help`` and ``--version`` import none (the list of commands is
the table), ``tablesense replay ...`` and ``tablesense replay --help`` import
``commands.replay`` alone. Each module has ``add_arguments(parser)``, ``run(args) -> int``
and ``EXAMPLES`` (the end of its ``--help``). A command whose module cannot be imported
(an optional dependency missing) is listed but says so when run; a command that needs an
extra that is not installed says which in one line (``command_line.extras``). The words they share
(``--serial``, ``--http``, ``--db``, ...) come from ``tablesense.command_line``.

A command's common command lines may be read without argparse: a module with
``quick_args(words)`` gives the arguments of the words after its name as its parser would
(a ``Namespace``'s attributes), or None for anything else (help, an abbreviation, a
mistake), which goes to argparse as ever. ``tablesense replay FILE --json`` so imports
neither argparse nor gettext, and builds no parser (its start-up, docs/performance.md); and
msgspec without typing_extensions (``LEAN_STARTS``, ``command_line.lean_msgspec``).
"""

from __future__ import annotations

import importlib
import sys

from . import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: the start-up imports no more than it needs
    import argparse
    from collections.abc import Collection
    from types import FrameType, ModuleType
    from typing import Any

#: name -> (module under tablesense.commands, one line of help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("replay", "replay a match log (JSONL) and print the match state"),
    "sheet": ("sheet", "print a match's score sheet (HTML made for A4, or PDF) from its log or the pub's "
              "database"),
    "monitor": ("monitor", "print the decoded table events of a serial port live"),
    "sim": ("sim", "run the real firmware under MicroPython on a pty, driven by a file of edges"),
    "demo": ("demo", "play a whole simulated match and show it on the scoreboard"),
    "run": ("run", "serve the pub: links to the tables, match log, scoreboard and referee panel"),
    "league": ("league", "competitions of golf, keglebillard and carom: players, teams, results, schedule, "
               "standings, new moyennes"),
    "flash": ("flash", "compile and deploy the firmware to an ESP32 board"),
    "doctor": ("doctor", "live check of every sensor channel of a table"),
    "profile": ("profile", "validate table profiles and generate board configuration and wiring"),
    "install-service": ("install_service", "install the systemd unit that starts tablesense at boot"),
    "camera": ("camera", "the overhead camera: calibrate it, watch a recording"),
    "bench": ("bench", "run the benchmarks under bench/ and print their figures"),
    "completion": ("completion", "print the shell completion script for bash or zsh"),
    "help": ("help", "print a page of the documentation (tablesense help TOPIC; topics without one)"),
}

#: the commands that, run as the program, end the process at once after their last flush
#: (``_end_now``): they hold no child process, thread, server or ``atexit`` clean-up
QUICK_ENDS = frozenset({"replay"})

#: the commands whose start-up imports msgspec the lean way (``command_line.lean_msgspec``: without
#: typing_extensions, its modules a replay never uses, datetime's Python layer and platform)
LEAN_STARTS = frozenset({"replay"})

DESCRIPTION = """\
tablesense referees a pub's billiards tables -- golf billiards, Danish keglebillard and
Dutch carom -- from the sensors of an ESP32 on each table, keeps the match log and shows
the scoreboard on the pub's TV and a referee panel on a phone. A simulator stands in for
the table, so every command can be tried without hardware (start with `tablesense demo`).
"""

EPILOG = """\
The same words everywhere: --serial PORT (a board's serial port), --http [HOST:]PORT (the
web server), --db FILE, --profile ID, --lang CODE. `tablesense COMMAND --help`
explains a command with an example; `tablesense help cli` is the whole reference.

exit status: 0 done; 1 the command ran and found a problem (a bad line in a log, a noisy
sensor, a failed flash); 2 it could not start (a bad argument, a missing serial port or
file, a web port taken).
"""


def build_parser(load: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``tablesense``. ``load``: the commands whose modules are imported and
    whose arguments are added (None: every one, as the completion script and the help
    test need); the others are listed with their line of help only."""
    from .command_line.argument_parser import Formatter, Parser

    parser = Parser(prog="tablesense", description=DESCRIPTION, epilog=EPILOG, formatter_class=Formatter)
    parser.add_argument("--version", action="version", version=f"tablesense {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_subparser)
    for name, (module, help_text) in COMMANDS.items():
        if load is not None and name not in load:
            sub.add_parser(name, help=help_text, add_help=False, listed=True)
            continue
        mod = _load(module)
        p = sub.add_parser(name, help=help_text, description=help_text[:1].upper() + help_text[1:] + ".",
                           epilog=_examples(getattr(mod, "EXAMPLES", "")), formatter_class=Formatter)
        p.set_defaults(_module=module)
        if mod is not None:
            mod.add_arguments(p)
    if load is None or load:
        from .command_line import old_spellings

        old_spellings.reset()  # a new command line: each old spelling is noticed again
    return parser


def _subparser(*, listed: bool = False, **kwargs: Any) -> argparse.ArgumentParser:
    """A command's parser; for a command only ``listed`` (not the one asked for), a stand-in
    that makes it only if argparse ever asks (``tablesense -- sheet``): its name and line of
    help are in the list already, and a parser a command costs a start-up ~0.1 ms each."""
    from .command_line.argument_parser import Parser

    return _Listed(kwargs) if listed else Parser(**kwargs)  # type: ignore[return-value]


class _Listed:
    """The parser of a command that is listed only, made on first use."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        self._kwargs = kwargs

    def __getattr__(self, name: str) -> Any:
        made = self.__dict__.get("_made")
        if made is None:
            from .command_line.argument_parser import Parser

            made = self.__dict__["_made"] = Parser(**self._kwargs)
        return getattr(made, name)


def _examples(text: str) -> str | None:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return "examples:\n" + "\n".join(f"  {ln}" for ln in lines) if lines else None


def _load(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"tablesense.commands.{module}")
    except ModuleNotFoundError as exc:
        if exc.name == f"tablesense.commands.{module}":
            return None
        raise


def command_word(argv: list[str]) -> str | None:
    """The command ``argv`` names: its first word that is no option (the top level's options
    take no value)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def _quick_args(name: str | None, argv: list[str]) -> Any:
    """The arguments of ``argv`` read by its command's ``quick_args`` (a ``SimpleNamespace``
    with the attributes argparse's ``Namespace`` would have), when the command is its first
    word and its module reads these words; None: argparse reads them."""
    if name not in COMMANDS or not argv or argv[0] != name:
        return None
    module = COMMANDS[name][0]
    if name in LEAN_STARTS:
        from .command_line.lean_msgspec import lean_start

        mod = lean_start(lambda: _load(module))
    else:
        mod = _load(module)
    quick = getattr(mod, "quick_args", None)
    args = quick(argv[1:]) if quick is not None else None
    if args is not None:
        args.command, args._module = name, module
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (None: the process's own, ``sys.argv``); its exit status.
    Called as the program is (the console script, ``python -m tablesense``), a command of
    ``QUICK_ENDS`` ends the process itself (``_end_now``)."""
    if argv is None:
        name = command_word(sys.argv[1:])
        code = _main(sys.argv[1:], name)
        if name in QUICK_ENDS:
            _end_now(code)
        return code
    argv = list(argv)
    return _main(argv, command_word(argv))


def _main(argv: list[str], name: str | None) -> int:
    args = _quick_args(name, argv)
    if args is None:
        parser = build_parser(load=(name,) if name in COMMANDS else ())
        args, extras = parser.parse_known_args(argv)
        if extras:
            from .command_line.argument_parser import unknown_arguments

            unknown_arguments(parser, args, extras)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
    mod = _load(args._module)
    if mod is None:
        print(f"tablesense: the '{args.command}' command is not available in this build", file=sys.stderr)
        return 2
    # the functions of ``signal`` without its enums (``signal`` is ``_signal`` and the enums of
    # the signals and handlers, whose making is ~1.5 % of a short replay's start-up)
    import _signal as signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # started as `cmd &` by a script:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a SIGTERM must still stop it
    previous = signal.signal(signal.SIGTERM, _as_interrupt)
    try:
        return int(mod.run(args) or 0)
    except ModuleNotFoundError as exc:  # an optional part the command did not ask for first
        from .command_line.extras import missing_line, part_of

        part = part_of(exc.name)
        if part is None:
            raise
        print(missing_line(f"tablesense {args.command}", [part]), file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C, or systemd's SIGTERM: a stop asked for, not a failure
        return 0
    except BrokenPipeError:  # `tablesense replay log | head`: the reader has what it wanted
        _quiet_stdout()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)


def _end_now(code: int) -> None:
    """End the process with ``code`` once stdout and stderr are flushed, without the interpreter's
    teardown: at a short command's end it frees every module and object one by one for nothing
    (5.5M instructions, ~4 % of a short replay's start-up, docs/performance.md). Returns when a
    flush fails: the interpreter then ends as ever, its own flush failing as it would have."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # (a stream closed, gone, or None)
        return
    os._exit(code)


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (what systemd, ``kill`` and ``docker stop`` send) is handled as Ctrl-C is:
    whatever handles SIGINT just then (asyncio's runner cancels its main task; outside
    it ``KeyboardInterrupt``) stops the command, and the command's own clean-up runs
    (``finally``, context managers: the firmware child, the browser, the serial port)."""
    import _signal as signal

    signal.raise_signal(signal.SIGINT)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
