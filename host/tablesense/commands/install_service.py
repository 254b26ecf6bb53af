"""``tablesense install-service``: start ``tablesense run`` at boot, restart it after a crash.

    tablesense install-service --list-ports
    tablesense install-service --serial /dev/ttyUSB0 --profile golf --dry-run
    sudo .venv/bin/tablesense install-service --serial /dev/ttyUSB0 --profile golf
    tablesense install-service --user --serial /dev/ttyUSB0 --profile golf
"""

from __future__ import annotations

import argparse
import getpass
import os
import subprocess
import sys
from pathlib import Path

from ..command_line.options import add_db, add_http, add_lang, add_serial
from ..command_line.serial_port import url_mistake
from ..deploy.ports import list_serial_ports
from ..deploy.service import (
    UDEV_RULE,
    UnitOptions,
    duplicate_ids,
    enable_commands,
    render_unit,
    stable_port,
    udev_line,
    unit_path,
)
from ..table.profile import ProfileError, load_profile

EXAMPLES = """
tablesense install-service --list-ports
tablesense install-service --serial socket://table1:7000 --profile carom --dry-run
sudo .venv/bin/tablesense install-service --serial /dev/ttyUSB0 --profile golf
tablesense install-service --user --serial /dev/ttyUSB0 --profile golf --http 0.0.0.0:8080
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_serial(p, repeat=True, help="a table's serial port, written into the unit as its /dev/serial/by-id "
                                    "name; repeat it, one per table")
    p.add_argument("--profile", action="append", default=[], metavar="ID",
                   help="table profile per --serial (golf, kegle, carom); default golf")
    p.add_argument("--user", action="store_true",
                   help="a user unit (~/.config/systemd/user), no root needed, instead of a system unit")
    p.add_argument("--dry-run", action="store_true", help="print the unit and the commands, change nothing")
    p.add_argument("--list-ports", action="store_true",
                   help="list the serial ports with their stable by-id names and a udev rule for each")
    p.add_argument("--udev-example", action="store_true", help="print an example udev rule file")
    p.add_argument("--no-enable", action="store_true", help="write the unit but do not run systemctl")
    add_db(p, "the match log (default: /var/lib/tablesense/tablesense.db, "
              "~/.local/share/tablesense/tablesense.db with --user)")
    add_http(p, host="0.0.0.0", old_port="--port-http")
    add_lang(p, default="en")
    p.add_argument("--run-as", metavar="USER",
                   help="user the system unit runs as (default: the user who ran sudo)")


def run(args: argparse.Namespace) -> int:
    if args.udev_example:
        sys.stdout.write(UDEV_RULE)
        return 0
    if args.list_ports:
        return _list_ports()
    if not args.serial:
        print("tablesense install-service: give the tables' serial ports with --serial "
              "(see them with --list-ports)", file=sys.stderr)
        return 2
    from .run import check_http_port

    why = check_http_port(args.http.port)
    if why:
        print(f"tablesense install-service: --http: {why}", file=sys.stderr)
        return 2
    if len(args.profile) > len(args.serial):
        print(f"tablesense install-service: {len(args.profile)} --profile for {len(args.serial)} --serial: "
              "give one --profile per --serial, in the same order", file=sys.stderr)
        return 2
    try:
        for prof in args.profile:
            load_profile(prof)
    except ProfileError as exc:
        print(f"tablesense install-service: {exc}", file=sys.stderr)
        return 2
    ports = []
    for port in args.serial:
        mistake = url_mistake(port)  # the unit would restart on it for ever
        if mistake:
            print(f"tablesense install-service: {mistake}", file=sys.stderr)
            return 2
        stable, warning = stable_port(port)
        if warning:
            print(f"tablesense install-service: {warning}", file=sys.stderr)
        if stable in ports:
            print(f"tablesense install-service: {port} is given twice (as {stable}): one --serial per table",
                  file=sys.stderr)
            return 2
        ports.append(stable)
    home = Path.home()
    db = args.db or str(home / ".local/share/tablesense/tablesense.db" if args.user
                        else "/var/lib/tablesense/tablesense.db")
    run_as = None if args.user else (args.run_as or os.environ.get("SUDO_USER") or getpass.getuser())
    opts = UnitOptions(executable=str(Path(sys.executable).parent / "tablesense"), ports=tuple(ports),
                       profiles=tuple(args.profile), db=str(Path(db).resolve()), user_unit=args.user,
                       user=run_as, host=args.http.host, http_port=args.http.port, lang=args.lang,
                       docs=str(Path(__file__).resolve().parents[3] / "docs" / "installation.md"))
    text = render_unit(opts)
    path = unit_path(args.user, home)
    cmds = enable_commands(args.user, getpass.getuser() if args.user else None)
    if args.dry_run:
        print(f"# would write {path}:")
        sys.stdout.write(text)
        print(f"# would create {Path(opts.db).parent}/ and run:")
        for cmd in cmds:
            print("  " + " ".join(cmd))
        return 0
    try:
        Path(opts.db).parent.mkdir(parents=True, exist_ok=True)
        if run_as and os.geteuid() == 0:
            import shutil

            shutil.chown(Path(opts.db).parent, user=run_as)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (OSError, LookupError) as exc:
        hint = " (a system unit needs root: sudo, or use --user)" if not args.user else ""
        print(f"tablesense install-service: cannot write {path}: {exc}{hint}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    if args.no_enable:
        print("enable it with:\n" + "\n".join("  " + " ".join(c) for c in cmds))
        return 0
    for cmd in cmds:
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            res = None
            err = str(exc)
        else:
            err = (res.stderr or res.stdout).strip()
        if res is None or res.returncode != 0:
            print(f"tablesense install-service: `{' '.join(cmd)}` failed: {err}\n"
                  "run the remaining commands by hand once systemd is available:\n"
                  + "\n".join("  " + " ".join(c) for c in cmds), file=sys.stderr)
            return 1
    print("tablesense starts at boot; now: systemctl " + ("--user " if args.user else "")
          + "status tablesense")
    return 0


def _list_ports() -> int:
    ports = list_serial_ports()
    if not ports:
        print("no serial ports: plug the board in with a data USB cable")
        return 1
    dups = set(duplicate_ids(ports))
    for n, p in enumerate(ports, start=1):
        print(f"{p.device}  {p.description}")
        if p.by_id:
            note = "  (SHARED by several boards: use a udev rule by USB socket)" if p.by_id in dups else ""
            print(f"    stable name: {p.by_id}{note}")
        else:
            print("    no /dev/serial/by-id name (not a USB serial adapter?)")
        if p.vid is not None:
            print(f"    udev: {udev_line(p.vid, p.pid, p.serial, f'tablesense-table{n}')}")
    return 0
