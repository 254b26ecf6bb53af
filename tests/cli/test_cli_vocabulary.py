"""One vocabulary across the commands: --serial, --http [HOST:]PORT, --db; the old spellings
still work for a release, each use saying so in one line; options after the action."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest

from tablesense.cli import build_parser, main
from tablesense.command_line.options import HttpAddress, parse_http
from tablesense.command_line.parsers import walk


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


@pytest.mark.parametrize(("text", "host", "port"), [
    ("8080", None, 8080), ("0.0.0.0:9000", "0.0.0.0", 9000), ("[::1]:8081", "::1", 8081),
    ("localhost:0", "localhost", 0),
])
def test_http_takes_a_port_or_host_and_port(text: str, host: str | None, port: int) -> None:
    assert parse_http(text) == (host, port)


@pytest.mark.parametrize("text", ["eighty", "host:", "[::1]8080", ""])
def test_http_refuses_what_is_not_host_and_port(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_http(text)


def test_run_and_demo_and_install_service_take_the_web_address_the_same_way() -> None:
    assert parse("run", "--tables", "1", "--http", "9000").http == HttpAddress("0.0.0.0", 9000)  # the network
    assert parse("run", "--tables", "1", "--http", "0.0.0.0:9000").http == HttpAddress("0.0.0.0", 9000)
    assert parse("demo", "--http", "0").http == HttpAddress("127.0.0.1", 0)
    assert parse("install-service", "--http", "8090").http == HttpAddress("0.0.0.0", 8090)
    assert str(HttpAddress("::", 80)) == "[::]:80"


@pytest.mark.parametrize(("old", "new"), [
    (["run", "--port", "socket://t:1", "--port-http", "9000", "--host", "0.0.0.0"],
     ["run", "--serial", "socket://t:1", "--http", "0.0.0.0:9000"]),
    (["demo", "--port", "0"], ["demo", "--http", "0"]),
    (["monitor", "/dev/ttyUSB0"], ["monitor", "--serial", "/dev/ttyUSB0"]),
    (["doctor", "--port", "/dev/ttyUSB0"], ["doctor", "--serial", "/dev/ttyUSB0"]),
    (["flash", "--port", "/dev/ttyUSB0"], ["flash", "--serial", "/dev/ttyUSB0"]),
    (["install-service", "--port", "a", "--port", "b", "--port-http", "81"],
     ["install-service", "--serial", "a", "--serial", "b", "--http", "81"]),
])
def test_an_old_spelling_means_the_same_and_says_so_once(old: list[str], new: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    before = {k: v for k, v in vars(parse(*new)).items() if k != "port"}
    assert capsys.readouterr().err == ""
    after = {k: v for k, v in vars(parse(*old)).items() if k != "port"}
    assert after == before
    err = capsys.readouterr().err.splitlines()
    spellings = {w for w in old if w.startswith("--")} or {"the PORT argument"}
    assert len(err) == len(spellings)  # one line per old spelling, however often it is given
    for line in err:
        assert line.startswith(f"tablesense {old[0]}: ") and " is now --" in line and "next release" in line


def test_the_serial_port_is_called_serial_in_every_command_that_opens_one() -> None:
    for cmd in walk(build_parser()):
        visible = {o for a in cmd.arguments if not a.hidden for o in a.options}
        if cmd.path[:1] in (("monitor",), ("run",), ("doctor",), ("flash",), ("install-service",)):
            assert "--serial" in visible, cmd.path
        assert "--port" not in visible and "--port-http" not in visible and "--host" not in visible, cmd.path
        if "--db" in visible or cmd.path[:1] == ("league",):
            assert "--db" in visible, cmd.path


def test_league_takes_db_before_or_after_the_action(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert main(["league", "create", "Najaar 2026", "--db", db]) == 0
    assert main(["league", "--db", db, "add-player", "Najaar 2026", "Ann", "--moyenne", "1.2"]) == 0
    assert main(["league", "add-player", "Najaar 2026", "--db", db, "Bob", "--moyenne", "1.8"]) == 0
    capsys.readouterr()
    assert main(["league", "standings", "Najaar 2026", "--db", db, "--json"]) == 0
    names = [r["name"] for r in json.loads(capsys.readouterr().out)["standings"]]
    assert sorted(names) == ["Ann", "Bob"]
    assert main(["league", "list"]) == 2
    assert capsys.readouterr().err == "tablesense league: give the competition database with --db FILE\n"


def test_the_systemd_unit_speaks_the_new_words(tablesense_cmd: list[str]) -> None:
    argv = ["install-service", "--serial", "socket://table1:7000", "--profile", "carom", "--http",
            "0.0.0.0:8081", "--dry-run"]
    done = subprocess.run([*tablesense_cmd, *argv], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stderr == ""
    start = next(line for line in done.stdout.splitlines() if line.startswith("ExecStart="))
    assert "run --serial socket://table1:7000 --profile carom --http 0.0.0.0:8081" in start
    assert start.endswith("--wait") and "--port" not in start and "--host" not in start
