"""The parser every ``tablesense`` command is built on: a mistake is one line,
``tablesense COMMAND: what is wrong (see tablesense COMMAND --help)``, exit status 2, with
"did you mean" for a word close to one the parser knows (a command, an action, an
option, a choice).

argparse suggests a close word itself only from Python 3.14 (``suggest_on_error``); this
does the same on 3.11 with ``difflib``. An option argparse does not know ends up in the
top parser's leftovers (it names no command there): ``unknown_arguments`` says it in the
name of the command or action it was given to. Only ``argparse`` is imported here:
``tablesense --help`` and ``--version`` load this module and nothing heavier.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False
if TYPE_CHECKING:  # the annotations only (typing costs a start-up its import)
    from collections.abc import Iterable, Sequence
    from typing import Any, NoReturn


class Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help layout (descriptions and examples as written), its width found
    without ``shutil``: argparse makes a formatter for every argument it adds, and
    ``shutil`` (with bz2, lzma and zlib) would be most of what ``--version`` imports."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        width = width if width is not None else columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def columns() -> int:
    """The terminal's width, as ``shutil.get_terminal_size`` finds it: $COLUMNS, the
    terminal of stdout, else 80."""
    import os
    import sys

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean replay?"`` for the known word closest to ``word``, or ``""``."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


class Parser(argparse.ArgumentParser):
    """An argparse parser whose mistakes are one line: what is wrong, a close word it knows,
    and where help is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:  # argparse's own hook
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(c) for c in choices]
        hint = did_you_mean(str(value), names)
        if isinstance(action, argparse._SubParsersAction):
            kind = (action.metavar or "command").lower()
            article = "an" if kind[:1] in "aeiou" else "a"
            message = f"{value!r} is not {article} {kind}" + (hint or f"; {kind}s: {', '.join(names)}")
        else:
            name = "/".join(action.option_strings) or action.metavar or action.dest
            message = f"{name}: {value!r} is not one of {', '.join(names)}{hint}"
        raise argparse.ArgumentError(None, message)


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the command (and action) ``args`` were parsed for: ``tablesense league
    standings``'s for ``league standings X``."""
    while True:
        sub = _subparsers(parser)
        name = getattr(args, sub.dest, None) if sub is not None else None
        if sub is None or name not in sub.choices:
            return parser
        parser = sub.choices[name]


def unknown_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace,
                      extras: Sequence[str]) -> NoReturn:
    """Say the words no parser took, in the name of the command they were given to, with the
    option closest to each unknown option; exit 2."""
    where = chosen(parser, args)
    known = [o for a in where._actions if a.help != argparse.SUPPRESS for o in a.option_strings]
    said = []
    for word in extras:
        if word.startswith("-") and len(word) > 1 and not word[1:].replace(".", "").isdigit():
            option = word.split("=", 1)[0]
            said.append(f"unknown option {option}{did_you_mean(option, known)}")
        else:
            said.append(f"unexpected argument {word!r}")
    where.error("; ".join(said))
