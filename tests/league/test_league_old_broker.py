"""A league broker set up by a version before team nights (its ACL lets the league only read):
``tablesense league serve`` says in one line, once, that the broker refuses the nights and what
to run again; ``broker-config`` run again says the ACL changed and that Mosquitto must read it;
after that the pub gets its nights. A real Mosquitto (``league_broker``)."""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from helpers.waits import wait_until
from league_broker import Broker, broker  # noqa: F401 (the fixture)
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from tablesense.cli import main
from tablesense.league import LeagueStore, service
from tablesense.league.broker_url import parse_broker_url
from tablesense.league.fixtures import schedule
from tablesense.league.messages import nights_topic
from tablesense.league.service import LeagueService

#: the ACL ``broker-config`` wrote before team nights (each pub writes its own topics; the league reads)
OLD_ACL = """# tablesense league ACL (tablesense league broker-config): each pub writes only under its
# own topics; the league service only reads.

user league
topic read tablesense/pubs/#

user kroeg
topic write tablesense/pubs/kroeg/#

user zaal
topic write tablesense/pubs/zaal/#

user hoek
topic write tablesense/pubs/hoek/#
"""


def nights_received(b: Broker, pub: str) -> bytes | None:
    """The retained nights the broker gives ``pub`` (None: none within a few seconds)."""
    got: list[bytes] = []
    done = threading.Event()
    c = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{pub}",
                    protocol=MQTTProtocolVersion.MQTTv5)
    c.username_pw_set(pub, b.passwords[pub])
    c.on_connect = lambda cl, *_: cl.subscribe(nights_topic(pub), qos=1)
    c.on_message = lambda cl, u, msg: (got.append(bytes(msg.payload)), done.set())
    c.connect("127.0.0.1", b.port)
    c.loop_start()
    try:
        done.wait(5)
    finally:
        c.disconnect()
        c.loop_stop()
    return got[0] if got else None


def test_a_broker_set_up_before_team_nights_is_said_once_with_what_to_run_again(
    broker: Broker,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broker.stop()
    (broker.dir / "acl").write_text(OLD_ACL)
    broker.start()
    db = tmp_path / "league.db"
    with LeagueStore(str(db)) as store:
        comp = store.create("Visite", scheme="visite-25")
        for team, pub, names in (("De Kroeg", "kroeg", ("Ann", "Bob")), ("De Zaal", "zaal", ("Cor", "Dirk"))):
            store.add_team(comp, team, pub)
            for name in names:
                store.add_player(comp, name, 0.8, team=team)
        store.set_schedule(comp, schedule({"": ["De Kroeg", "De Zaal"]}, dt.date.today(), 7))
    monkeypatch.setattr(service, "NIGHTS_EVERY", 0.2)  # many looks: the refusal is still said once
    svc = LeagueService(parse_broker_url(broker.url("league")), str(db))
    svc.start()
    try:
        err = ""

        def said() -> bool:
            nonlocal err
            err += capsys.readouterr().err
            return "refuses tablesense/league/nights/" in err

        wait_until(said)
        time.sleep(1.5)
        err += capsys.readouterr().err
        [line] = [x for x in err.splitlines() if "refuses tablesense/league/nights/" in x]
        assert line.startswith("tablesense league serve: the broker refuses tablesense/league/nights/")
        assert "'league' (Not authorized)" in line and "older than team nights" in line
        assert "run tablesense league broker-config --dir DIR --pub PUB ... again, with every pub" in line
        assert "restart Mosquitto" in line
        assert nights_received(broker, "kroeg") is None, "Mosquitto kept nothing of the refused nights"

        # the fix, as the line says: broker-config again over the same directory, then a restart
        args = ["league", "broker-config", "--dir", str(broker.dir), "--broker-port", str(broker.port),
                "--bind", "127.0.0.1", "--pub", "kroeg", "--pub", "zaal"]
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "kroeg: password unchanged" in out and "the ACL changed" in out and "restarted" in out
        assert "no account now for hoek (not given with --pub)" in out
        conf = broker.dir / "mosquitto.conf"
        if os.geteuid() == 0:  # as league_broker does: root's Mosquitto would become 'mosquitto'
            conf.write_text(conf.read_text() + "user root\n")
        broker.stop()
        broker.start()
        wait_until(lambda: nights_received(broker, "kroeg") is not None and nights_received(broker, "zaal"))
        assert "told kroeg its team nights" in capsys.readouterr().out
    finally:
        svc.close()
