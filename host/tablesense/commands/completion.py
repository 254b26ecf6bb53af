"""``tablesense completion bash|zsh``: the shell completion script, written from the parser."""

from __future__ import annotations

import argparse
import sys

from ..command_line.completion import SERIAL, SHELLS, script

EXAMPLES = """
source <(tablesense completion bash)
tablesense completion bash > ~/.local/share/bash-completion/completions/tablesense
tablesense completion zsh > ~/.zfunc/_tablesense
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")


def run(args: argparse.Namespace) -> int:
    from ..cli import build_parser
    from ..command_line.topics import pages
    from ..table.profile import profile_ids

    values = {"serial": [SERIAL], "profile": profile_ids(), "topic": list(pages())}
    sys.stdout.write(script(build_parser(), args.shell, values))
    return 0
