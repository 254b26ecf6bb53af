"""Shell completion for bash and zsh, written from the parser (``parsers.walk``).

Both scripts share two generated shell functions: ``_tablesense_child PATH WORD`` (the
command path after one more word: ``/league`` + ``standings``) and ``_tablesense_words
PATH PREV`` (what may come next: the sub-commands and options of PATH, or the values of
the option PREV; ``@files`` and ``@serial`` ask for file names and serial ports). Only
the front ends differ: bash fills ``COMPREPLY``, zsh calls ``compadd``.
"""

from __future__ import annotations

import argparse
import shlex

from .parsers import Command, walk

SHELLS = ("bash", "zsh")

#: values offered for an option, by its dest, besides its choices
SERIAL = "@serial"


def _key(path: tuple[str, ...]) -> str:
    return "/" + "/".join(path) if path else ""


def _quote(words: list[str]) -> str:
    return shlex.quote(" ".join(words))


def _core(commands: list[Command], values: dict[str, list[str]]) -> str:
    lines = ["_tablesense_child() {", '    case "$1 $2" in']
    for cmd in commands:
        for child in cmd.children:
            lines.append(f"        {shlex.quote(_key(cmd.path) + ' ' + child)}) "
                         f"echo {shlex.quote(_key((*cmd.path, child)))} ;;")
    lines += ["    esac", "}", "", "_tablesense_words() {", '    case "$1 $2" in']
    for cmd in commands:
        for arg in cmd.arguments:
            if not arg.options or not arg.takes_value:
                continue
            words = list(arg.choices) or values.get(arg.dest, ["@files"])
            pattern = "|".join(shlex.quote(f"{_key(cmd.path)} {o}") for o in arg.options)
            lines.append(f"        {pattern}) echo {_quote(words)}; return ;;")
    lines += ["    esac", '    case "$1" in']
    for cmd in commands:
        words = list(cmd.children) + [o for a in cmd.arguments if not a.hidden for o in a.options]
        words += ["-h", "--help"] if cmd.path else ["--help", "--version"]
        for a in cmd.arguments:
            if not a.options and not a.hidden:  # a positional: its choices, its values, else files
                words += list(a.choices) or values.get(a.dest, ["@files"])
        label = shlex.quote(_key(cmd.path)) if cmd.path else "''"
        lines.append(f"        {label}) echo {_quote(words)} ;;")
    lines += ["    esac", "}", ""]
    return "\n".join(lines)


_SERIAL_PORTS = "/dev/serial/by-id/* /dev/ttyUSB* /dev/ttyACM*"

_BASH = """\
_tablesense() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" next w i
    for ((i = 1; i < COMP_CWORD; i++)); do
        next=$(_tablesense_child "$cmdpath" "${COMP_WORDS[i]}") && [[ -n $next ]] && cmdpath=$next
    done
    local words files=0 serial=0 plain=()
    for w in $(_tablesense_words "$cmdpath" "$prev"); do
        case "$w" in
            @files) files=1 ;;
            @serial) serial=1 ;;
            *) plain+=("$w") ;;
        esac
    done
    COMPREPLY=($(compgen -W "${plain[*]}" -- "$cur"))
    if ((serial)); then
        COMPREPLY+=($(compgen -W "$(ls -d %(ports)s 2>/dev/null)" -- "$cur"))
        [[ $cur == /* ]] && COMPREPLY+=($(compgen -f -- "$cur"))
    fi
    if ((files)) && [[ $cur != -* ]]; then
        COMPREPLY+=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _tablesense tablesense
"""

_ZSH = """\
_tablesense() {
    local cmdpath="" next i w
    for ((i = 2; i < CURRENT; i++)); do
        next=$(_tablesense_child "$cmdpath" "${words[i]}") && [[ -n $next ]] && cmdpath=$next
    done
    local -a plain
    local files=0 serial=0
    for w in ${=$(_tablesense_words "$cmdpath" "${words[CURRENT-1]}")}; do
        case "$w" in
            @files) files=1 ;;
            @serial) serial=1 ;;
            *) plain+=("$w") ;;
        esac
    done
    (( ${#plain} )) && compadd -- $plain
    (( serial )) && compadd -f -- %(zports)s
    (( files )) && [[ $PREFIX != -* ]] && _files
    return 0
}
if (( $+functions[compdef] )); then
    compdef _tablesense tablesense
fi
"""


def script(parser: argparse.ArgumentParser, shell: str, values: dict[str, list[str]] | None = None) -> str:
    """The completion script of ``parser`` for ``shell`` (bash or zsh); ``values``: the words
    offered for an option's value by its dest (default: its choices, else file names)."""
    if shell not in SHELLS:
        raise ValueError(f"no completion for {shell!r}: {' or '.join(SHELLS)}")
    commands = list(walk(parser))
    head = (f"# tablesense completion for {shell}, written by `tablesense completion {shell}` "
            "from its parser (docs/cli.md)\n")
    if shell == "zsh":
        head = "#compdef tablesense\n" + head
    zports = " ".join(f"{g}(N)" for g in _SERIAL_PORTS.split())
    front = (_BASH if shell == "bash" else _ZSH) % {"ports": _SERIAL_PORTS, "zports": zports}
    return head + _core(commands, values or {}) + front
