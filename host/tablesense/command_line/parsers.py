"""A walk over the ``tablesense`` parser: every command and action with its arguments.

The help test (every argument described) and the shell completion scripts are both made
from this walk, so neither can drift from the parser.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Argument:
    """One argument a user can type: its spellings (none for a positional), what it is, and
    which words it takes (``choices``), if any."""

    options: tuple[str, ...]
    dest: str
    help: str | None
    takes_value: bool
    choices: tuple[str, ...]
    hidden: bool  # an old spelling, or an option for the tests (help=SUPPRESS)


@dataclass(frozen=True)
class Command:
    """A parser reached by the words ``path`` (``("league", "standings")``)."""

    path: tuple[str, ...]
    parser: argparse.ArgumentParser
    help: str | None  # the line the parent's list gives it
    arguments: tuple[Argument, ...]
    children: tuple[str, ...]  # its sub-commands or actions


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:  # type: ignore[type-arg]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _arguments(parser: argparse.ArgumentParser) -> tuple[Argument, ...]:
    out = []
    for a in parser._actions:
        if isinstance(a, (argparse._SubParsersAction, argparse._HelpAction)):
            continue
        takes = a.nargs != 0
        choices = tuple(str(c) for c in a.choices) if a.choices else ()
        out.append(Argument(tuple(a.option_strings), a.dest, a.help if a.help != argparse.SUPPRESS else None,
                            takes, choices, a.help == argparse.SUPPRESS))
    return tuple(out)


def walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = (), help: str | None = None
         ) -> Iterator[Command]:
    """``parser`` and every parser below it, parents first."""
    sub = _subparsers(parser)
    helps = {c.dest: c.help for c in sub._choices_actions} if sub is not None else {}
    children = tuple(sub.choices) if sub is not None else ()
    yield Command(path, parser, help, _arguments(parser), children)
    if sub is not None:
        for name, child in sub.choices.items():
            yield from walk(child, (*path, name), helps.get(name))


def undescribed(parser: argparse.ArgumentParser) -> list[str]:
    """``tablesense league create: name`` for every visible argument, command and action
    without a help text."""
    missing = []
    for cmd in walk(parser):
        where = " ".join(("tablesense", *cmd.path))
        if cmd.path and not cmd.help:
            missing.append(f"{where} (the command itself)")
        if cmd.path and not cmd.parser.epilog:
            missing.append(f"{where} (no example)")
        for arg in cmd.arguments:
            if not arg.hidden and not (arg.help or "").strip():
                missing.append(f"{where}: {'/'.join(arg.options) or arg.dest}")
    return missing
