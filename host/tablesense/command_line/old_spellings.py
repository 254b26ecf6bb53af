"""Old option spellings that keep working for one release, each use saying so in one line.

``old_option(parser, "--port", new_action)`` adds ``--port`` as a hidden spelling of
``new_action`` (``--serial``): the value goes where ``--serial``'s would, and stderr gets
``tablesense run: --port is now --serial; the old spelling goes in the next release``
(once per spelling and command line: ``reset()`` starts a new one). ``docs/cli.md`` lists
every old spelling.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

_said: set[tuple[str, str]] = set()


def reset() -> None:
    """A new command line: each old spelling is noticed again."""
    _said.clear()


def notice(prog: str, old: str, new: str) -> None:
    """One line on stderr, once per (command, old spelling)."""
    if (prog, old) in _said:
        return
    _said.add((prog, old))
    print(f"{prog}: {old} is now {new}; the old spelling goes in the next release", file=sys.stderr,
          flush=True)


class OldSpelling(argparse.Action):
    """A hidden option that hands its value to another action (or to ``store``) after the notice."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str,
                 target: argparse.Action | None = None,
                 store: Callable[[argparse.Namespace, Any], None] | None = None, **kw: Any) -> None:
        super().__init__(option_strings, dest, **kw)
        self.new, self.target, self.store = new, target, store

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if values is None and not self.option_strings:  # an optional positional left out
            return
        notice(parser.prog, option_string or f"the {self.metavar or self.dest} argument", self.new)
        if self.store is not None:
            self.store(namespace, values)
        elif self.target is not None:
            self.target(parser, namespace, values, option_string)


def old_option(parser: argparse.ArgumentParser, old: str, new: argparse.Action, *,
               type: Callable[[str], Any] | None = None,
               store: Callable[[argparse.Namespace, Any], None] | None = None) -> argparse.Action:
    """``old`` (``--port``) as a hidden spelling of the option ``new`` (its value converted
    by ``type``, default ``new``'s, and stored by ``new`` or by ``store``)."""
    return parser.add_argument(old, action=OldSpelling, dest=new.dest, new=new.option_strings[0],
                               target=new, store=store, type=type or new.type, metavar=new.metavar,
                               default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def old_positional(parser: argparse.ArgumentParser, name: str, new: argparse.Action) -> argparse.Action:
    """A positional argument (``monitor PORT``) kept as a hidden spelling of ``new``."""
    return parser.add_argument(name, nargs="?", action=OldSpelling, new=f"{new.option_strings[0]} "
                               f"{new.metavar or name.upper()}", target=new, metavar=name.upper(),
                               default=None, help=argparse.SUPPRESS)
