"""``tablesense help [TOPIC]``: a page of the documentation on the terminal; the topics without one."""

from __future__ import annotations

import argparse
import sys

from ..command_line.topics import TopicError, find, pages, title

EXAMPLES = """
tablesense help
tablesense help cli
tablesense help league | less
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", metavar="TOPIC",
                   help="a page of docs/ by name (cli, league, scoreboard, ...); none: list them")


def run(args: argparse.Namespace) -> int:
    if not args.topic:
        every = pages()
        if not every:
            print("tablesense help: no documentation is installed with this copy", file=sys.stderr)
            return 2
        width = max(len(name) for name in every)
        print("help topics (tablesense help TOPIC):")
        for name, page in every.items():
            print(f"  {name:<{width}}  {title(page)}")
        print("a command's own help: tablesense COMMAND --help")
        return 0
    try:
        _name, page = find(args.topic)
    except TopicError as exc:
        print(f"tablesense help: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(page.read_text(encoding="utf-8"))
    return 0
