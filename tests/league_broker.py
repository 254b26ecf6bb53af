"""A real Mosquitto for the league tests, set up by the project's own ``tablesense league
broker-config`` (password file, ACL, config) on a free loopback port; stopped at teardown,
also when a test fails. Mosquitto comes from Debian (``make test`` and ``.ci/run`` install it).

No tests here; the test_league_mqtt* modules import the ``broker`` fixture (and
``free_port``, ``wait_port`` of tests/helpers/ports.py through it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.ports import free_port, wait_port  # noqa: F401 (the league tests and the soak import it from here)
from helpers.processes import start_listening, stop

PUBS = ("kroeg", "zaal", "hoek")


class Broker:
    """A Mosquitto process that a test may stop and start again (same port, same data)."""

    def __init__(self, directory: Path, port: int, accounts: dict[str, str]) -> None:
        self.dir, self.port, self.passwords = directory, port, accounts
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, user: str, password: str | None = None) -> str:
        return f"mqtt://{user}:{password or self.passwords[user]}@127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = start_listening(["mosquitto", "-c", str(self.dir / "mosquitto.conf")], self.port,
                                    self.dir / "mosquitto.log", 30)

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves the queued messages of persistent sessions, then exits."""
        if self.proc is not None:
            stop(self.proc)
        self.proc = None


def configure(directory: Path, port: int, pubs: tuple[str, ...] = PUBS,
              extra: tuple[str, ...] = ()) -> dict[str, str]:
    """The project's broker set-up; returns user -> password."""
    args = [sys.executable, "-m", "tablesense", "league", "broker-config", "--dir", str(directory),
            "--broker-port", str(port), "--bind", "127.0.0.1", "--broker-host", "127.0.0.1", "--json", *extra]
    for pub in pubs:
        args += ["--pub", pub]
    done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=True)
    accounts = {a["user"]: a["password"] for a in json.loads(done.stdout)["accounts"]}
    if os.geteuid() == 0:  # as root Mosquitto would switch to the user 'mosquitto', who cannot read our files
        with open(directory / "mosquitto.conf", "a") as fh:
            fh.write("user root\n")
    return accounts


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if shutil.which("mosquitto") is None:
        pytest.skip("Mosquitto is not installed (apt-get install mosquitto; make test does it)")
    port = free_port()
    directory = tmp_path / "broker"
    b = Broker(directory, port, configure(directory, port))
    b.start()
    try:
        yield b
    finally:
        b.stop()


def serve_league(broker: Broker, db: Path, http: int, log: Path, timeout: float = 30,
                 output: bool = False) -> subprocess.Popen:  # type: ignore[type-arg]
    """``tablesense league serve`` on ``broker`` with the league file ``db`` and its page on
    127.0.0.1:``http``, its stderr (with ``output`` its stdout too) in ``log``; returned once the
    page listens (stopped, and ``OSError`` raised, if it does not within ``timeout`` s)."""
    argv = [sys.executable, "-m", "tablesense", "league", "serve", "--broker", broker.url("league"),
            "--db", str(db), "--http", f"127.0.0.1:{http}"]
    return start_listening(argv, http, log, timeout, output=output)
