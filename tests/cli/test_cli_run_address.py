"""``tablesense run`` serves the pub's network and says, at start, the address the referee QR
code carries: this PC's on the network, which a phone can open. ``--http 127.0.0.1:PORT``
keeps it on the PC, with one line saying phones cannot reach it. The QR code is read as
the pub's TV gets it (paired with the TV code the start prints) and compared with the
code of the printed address."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from helpers.ports import free_port
from paths import ROOT

from tablesense.cli import main
from tablesense.command_line.phone_address import phone_address
from tablesense.web.lan import lan_address
from tablesense.web.qr import qr_svg


class Running:
    """``tablesense run ARGS`` as a process: its start lines, read as they come."""

    def __init__(self, args: list[str], tmp: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "host") + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-m", "tablesense", "run", "--db", str(tmp / "pub.db"),
                                      *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def start_lines(self) -> str:
        """stdout up to the line saying what the QR codes carry."""
        out = ""
        deadline = time.monotonic() + 60
        while "phones:" not in out:
            try:
                out += self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no start lines in 60 s:\n{out}") from None
        return out

    def stop(self) -> tuple[int, str]:
        """SIGTERM (as systemd stops it): the exit status and stderr."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        assert self.proc.stderr is not None
        return self.proc.returncode, self.proc.stderr.read()


def _started(out: str) -> dict[str, str]:
    """The QR address, a table's token and TV code, and the URL on this PC, from the start lines."""
    found = {
        "carries": re.search(r"phones: .* carries (http://\S+?)/ref/", out),
        "token": re.search(r"table 1: .* referee \S+/ref/1\?token=(\S+)", out),
        "code": re.search(r"the pub's TV of table 1: \S+\?tv=(\S+)", out),
        "port": re.search(r"scoreboard on http://\S+:(\d+)/", out),
    }
    assert all(found.values()), out
    return {k: m.group(1) for k, m in found.items() if m is not None}


async def _tv_qr(local: str, code: str) -> bytes:
    """The referee QR code as the pub's TV gets it: paired with the TV code first."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.post(f"{local}/api/table/1/tv", json={"code": code}) as r:
            assert r.status == 200
        async with http.get(f"{local}/api/table/1/qr.svg") as r:
            assert r.status == 200
            return await r.read()


async def test_run_serves_the_pubs_network_and_the_qr_code_carries_the_address_it_prints(
        tmp_path: Path) -> None:
    run = Running(["--tables", "1", "--http", str(free_port(""))], tmp_path)
    try:
        started = _started(run.start_lines())
        port = started["port"]
        lan = lan_address()
        assert started["carries"] == f"http://{lan or '127.0.0.1'}:{port}"  # the phones' address, not 0.0.0.0
        svg = await _tv_qr(f"http://127.0.0.1:{port}", started["code"])
        assert svg == qr_svg(f"{started['carries']}/ref/1?token={started['token']}")
        if lan is not None:  # it answers on the network address it printed
            async with aiohttp.ClientSession() as http, http.get(f"{started['carries']}/api/tables") as r:
                assert r.status == 200
    finally:
        status, err = run.stop()
    assert status == 0 and "Traceback" not in err
    assert ("phones cannot reach" in err) == (lan_address() is None), err


async def test_http_on_loopback_keeps_it_on_this_pc_with_one_line_saying_phones_cannot_reach_it(
        tmp_path: Path) -> None:
    run = Running(["--tables", "1", "--http", f"127.0.0.1:{free_port('127.0.0.1')}"], tmp_path)
    try:
        started = _started(run.start_lines())
        port = started["port"]
        assert started["carries"] == f"http://127.0.0.1:{port}"
        svg = await _tv_qr(f"http://127.0.0.1:{port}", started["code"])
        assert svg == qr_svg(f"http://127.0.0.1:{port}/ref/1?token={started['token']}")
        lan = lan_address()
        if lan is not None:  # nothing listens on the network address
            with pytest.raises(aiohttp.ClientConnectionError):
                async with aiohttp.ClientSession() as http, http.get(f"http://{lan}:{port}/api/tables"):
                    pass
    finally:
        status, err = run.stop()
    assert status == 0
    warnings = [line for line in err.splitlines() if "phones cannot reach" in line]
    assert len(warnings) == 1, err
    assert warnings[0].startswith("tablesense run: --http 127.0.0.1: this PC only"), err


def test_a_public_url_given_is_what_the_qr_code_carries_and_every_address_needs_a_network() -> None:
    assert phone_address("0.0.0.0", "https://pub.example/", "192.168.1.5").base == "https://pub.example"
    assert phone_address("0.0.0.0", "", "192.168.1.5").at(8080) == "http://192.168.1.5:8080"
    assert phone_address("::", "", "fd00::5").at(8080) == "http://[fd00::5]:8080"
    alone = phone_address("0.0.0.0", "", None)
    assert alone.at(8080) == "http://127.0.0.1:8080" and "phones cannot reach" in (alone.warning or "")
    for host in ("127.0.0.1", "localhost", "::1"):
        assert "phones cannot reach" in (phone_address(host, "", "192.168.1.5").warning or ""), host
    named = phone_address("192.168.1.5", "", "10.0.0.2")
    assert named.at(80) == "http://192.168.1.5:80" and named.warning is None


@pytest.mark.parametrize("url", ["garbage", "192.168.1.20:8080", "ftp://pub", "http://pub:port", "http://"])
def test_a_public_url_no_phone_can_open_is_refused_in_one_line(url: str, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The QR codes would carry it ("garbage/ref/1?token=..."): refused before anything starts."""
    with pytest.raises(SystemExit) as stop:
        main(["run", "--tables", "1", "--public-url", url, "--db", str(tmp_path / "pub.db")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err
    assert err.startswith("tablesense run: ") and f"{url!r} is not an address phones can open" in err, err
    assert not (tmp_path / "pub.db").exists()


async def test_a_tv_code_of_any_characters_pairs_the_tv_at_the_address_printed(tmp_path: Path) -> None:
    """The pub's TV opens the printed address as it stands: a code with a space or an & in it
    is escaped in it (unescaped, the TV was paired with "a" and refused)."""
    run = Running(["--tables", "1", "--tv-code", "a b&c", "--http", f"127.0.0.1:{free_port('127.0.0.1')}"],
                  tmp_path)
    try:
        out = run.start_lines()
        started = _started(out)
        address = re.search(r"the pub's TV of table 1: (\S+)", out)
        assert address is not None, out
        code = parse_qs(urlsplit(address.group(1)).query)["tv"]  # as the TV page reads it
        assert code == ["a b&c"], address.group(1)
        await _tv_qr(f"http://127.0.0.1:{started['port']}", code[0])
    finally:
        status, err = run.stop()
    assert status == 0 and "Traceback" not in err, err
