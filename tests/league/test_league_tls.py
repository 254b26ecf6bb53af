"""The league over TLS: ``broker-config --tls-cert/--tls-key`` makes Mosquitto's listener TLS;
a pub with ``mqtts://...?ca=FILE`` publishes through it and one that cannot check the
broker's certificate does not connect. Certificates made by openssl for this test."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from league_broker import Broker, configure, free_port

from tablesense.league.broker_url import parse_broker_url
from tablesense.league.mqtt import AsyncPublisher

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("mosquitto") is None or shutil.which("openssl") is None,
                                 reason="needs mosquitto and openssl")]


def certificates(d: Path) -> tuple[Path, Path, Path]:
    d.mkdir(parents=True)
    run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True, cwd=d)  # noqa: E731
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=club CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out", "broker.csr",
        "-subj", "/CN=localhost")
    (d / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "broker.crt", "-days", "2", "-extfile", "san.ext")
    os.chmod(d / "broker.key", 0o644)
    return d / "ca.crt", d / "broker.crt", d / "broker.key"


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[tuple[Broker, Path]]:
    ca, cert, key = certificates(tmp_path / "certs")
    port = free_port()
    accounts = configure(tmp_path / "broker", port, ("kroeg",), extra=("--tls-cert", str(cert), "--tls-key",
                                                                      str(key)))
    conf = (tmp_path / "broker" / "mosquitto.conf").read_text()
    assert f"certfile {cert}" in conf and f"keyfile {key}" in conf
    b = Broker(tmp_path / "broker", port, accounts)
    b.start()
    try:
        yield b, ca
    finally:
        b.stop()


async def test_a_pub_publishes_over_tls_to_a_broker_it_can_check(tls_broker: tuple[Broker, Path]) -> None:
    broker, ca = tls_broker
    base = f"mqtts://kroeg:{broker.passwords['kroeg']}@localhost:{broker.port}"
    good = AsyncPublisher(parse_broker_url(f"{base}?ca={ca}"), "tls-good")
    bad = AsyncPublisher(parse_broker_url(base), "tls-bad")  # the system's authorities: not our club CA
    good.start()
    bad.start()
    try:
        await asyncio.wait_for(good.up.wait(), 10)
        await good.publish("tablesense/pubs/kroeg/live/1", b"{}", retain=True)
        await asyncio.sleep(1.0)
        assert not bad.up.is_set()
    finally:
        await asyncio.to_thread(good.close)
        await asyncio.to_thread(bad.close)
