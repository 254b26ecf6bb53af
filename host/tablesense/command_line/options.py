"""The one vocabulary of the ``tablesense`` command line.

The same thing has the same name in every sub-command: ``--serial PORT`` (the board's
serial port), ``--http [HOST:]PORT`` (the web server), ``--db FILE`` (the match log or
competition database), ``--profile ID`` (the table profile) and ``--lang CODE``. Each
``add_*`` here adds one of them with its help text; the old spellings (``--port``,
``--port-http``, ``--host``) stay for a release (``old_spellings``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from typing import Any

from .argument_parser import Parser
from .old_spellings import old_option

__all__ = ["HttpAddress", "Parser", "add_db", "add_http", "add_lang", "add_serial", "parse_http"]

SERIAL_HELP = ("the board's serial port: a device (/dev/serial/by-id/..., /dev/ttyUSB0, a pty) or a "
               "pyserial URL (socket://HOST:PORT)")


def add_serial(p: argparse.ArgumentParser, *, repeat: bool = False, old: str | None = "--port",
               help: str | None = None) -> argparse.Action:
    """``--serial PORT`` (``repeat``: once per table); ``old`` stays as a hidden spelling."""
    text = help or SERIAL_HELP + ("; repeat it, one per table" if repeat else "")
    action = p.add_argument("--serial", action="append" if repeat else "store",
                            default=[] if repeat else None, metavar="PORT", help=text)
    if old:
        old_option(p, old, action)
    return action


@dataclass(frozen=True)
class HttpAddress:
    """Where the web server listens."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_http(text: str) -> tuple[str | None, int]:
    """``[HOST:]PORT`` -> (HOST or None, PORT); ``[::1]:8080`` for an IPv6 address."""
    host: str | None = None
    port_text = text.strip()
    if port_text.startswith("["):
        inside, sep, rest = port_text[1:].partition("]")
        if not sep or not rest.startswith(":"):
            raise argparse.ArgumentTypeError(f"{text!r} is not [HOST:]PORT (an IPv6 host: [::1]:8080)")
        host, port_text = inside, rest[1:]
    elif ":" in port_text:
        host, _, port_text = port_text.rpartition(":")
    try:
        port = int(port_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not [HOST:]PORT (8080, 0.0.0.0:8080)") from None
    return (host or None), port


class _Http(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, ns: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        host, port = values
        setattr(ns, self.dest, HttpAddress(host or getattr(ns, self.dest).host, port))


def add_http(p: argparse.ArgumentParser, *, host: str, port: int = 8080, any_port: bool = False,
             old_port: str | None = None, old_host: str | None = "--host") -> argparse.Action:
    """``--http [HOST:]PORT`` into ``args.http`` (an ``HttpAddress``); ``old_port``
    (``--port-http``) and ``old_host`` (``--host``) stay as hidden spellings."""
    where = "0.0.0.0: the whole pub network" if host == "0.0.0.0" else f"{host}: this computer only"
    text = (f"where the web server listens (default {host}:{port}; host {where}"
            + ("; port 0: any free one" if any_port else "") + ")")
    action = p.add_argument("--http", action=_Http, type=parse_http, default=HttpAddress(host, port),
                            metavar="[HOST:]PORT", help=text)
    if old_port:
        old_option(p, old_port, action, type=int,
                   store=lambda ns, v: setattr(ns, "http", replace(ns.http, port=v)))
    if old_host:
        old_option(p, old_host, action, type=str,
                   store=lambda ns, v: setattr(ns, "http", replace(ns.http, host=v)))
    return action


def add_db(p: argparse.ArgumentParser, text: str, **kw: Any) -> argparse.Action:
    return p.add_argument("--db", metavar="FILE", help=text, **kw)


def add_lang(p: argparse.ArgumentParser, text: str = "language of the scoreboard",
             **kw: Any) -> argparse.Action:
    from ..store import LANGS

    return p.add_argument("--lang", choices=LANGS, metavar="CODE",
                          help=f"{text}: {', '.join(LANGS)}" + (f" (default {kw['default']})"
                                                                  if kw.get("default") else ""), **kw)


def also_after_action(parent: argparse.ArgumentParser, actions: list[argparse.ArgumentParser],
                      *names: str) -> None:
    """Let the options ``names`` of ``parent`` also come after its action
    (``league standings X --db club.db``): each action's parser takes them too, storing
    into the same place only when given there."""
    for action in list(parent._actions):
        if not set(action.option_strings) & set(names):
            continue
        for sub in actions:
            kwargs: dict[str, Any] = {"dest": action.dest, "default": argparse.SUPPRESS,
                                      "help": action.help, "metavar": action.metavar}
            if action.choices is not None:
                kwargs["choices"] = action.choices
            if action.type is not None:
                kwargs["type"] = action.type
            sub.add_argument(*action.option_strings, **kwargs)


def need(value: Any, prog: str, what: str) -> bool:
    """False (and one line on stderr) when a required option was given neither before nor
    after the action."""
    if value is None:
        print(f"{prog}: give {what}", file=sys.stderr)
        return False
    return True
