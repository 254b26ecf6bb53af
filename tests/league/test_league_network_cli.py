"""``tablesense league broker-config | serve | alias | year`` and ``create --after`` through the
real command line and real files (the broker itself: test_league_mqtt.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

import pytest

from tablesense.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def config(capsys: pytest.CaptureFixture[str], d: Path, *pubs: str,
           extra: tuple[str, ...] = ()) -> dict[str, str]:
    args = ["league", "broker-config", "--dir", str(d), "--json", *extra]
    for p in pubs:
        args += ["--pub", p]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return {a["user"]: a["password"] for a in json.loads(out)["accounts"]}


def test_broker_config_into_a_folder_that_cannot_be_made_is_one_plain_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "a-file"
    where.write_text("")
    code, _, err = run(capsys, "league", "broker-config", "--dir", str(where / "conf"), "--pub", "kroeg")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"tablesense league: {where / 'conf'}") and "[Errno" not in err, err


def test_broker_config_lets_each_pub_write_only_under_its_own_topics_and_read_only_its_own_nights(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    accounts = config(capsys, tmp_path, "kroeg", "zaal")
    assert set(accounts) == {"league", "kroeg", "zaal"}
    acl = (tmp_path / "acl").read_text().split("\n\n")
    grants = {block.splitlines()[0]: block.splitlines()[1:] for block in acl if block.startswith("user")}
    nights = "tablesense/league/nights"
    assert grants == {"user league": ["topic read tablesense/pubs/#", f"topic write {nights}/#"],
                      "user kroeg": ["topic write tablesense/pubs/kroeg/#", f"topic read {nights}/kroeg"],
                      "user zaal": ["topic write tablesense/pubs/zaal/#", f"topic read {nights}/zaal"]}
    conf = (tmp_path / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and f"acl_file {tmp_path / 'acl'}" in conf
    assert os.stat(tmp_path / "passwd").st_mode & 0o077 == 0, "the password file: the broker's eyes only"


def test_broker_config_hashes_as_mosquitto_does_and_never_stores_a_password(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    accounts = config(capsys, tmp_path, "kroeg")
    text = (tmp_path / "passwd").read_text()
    assert accounts["kroeg"] not in text
    _, rest = next(line for line in text.splitlines() if line.startswith("kroeg:")).split(":", 1)
    _, kind, rounds, salt, digest = rest.split("$")
    assert kind == "7"  # Mosquitto 2's PBKDF2-SHA512
    assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", accounts["kroeg"].encode(),
                                                            base64.b64decode(salt), int(rounds))


def test_broker_config_again_keeps_the_passwords_it_gave(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    config(capsys, tmp_path, "kroeg")
    before = (tmp_path / "passwd").read_text().splitlines()
    again = config(capsys, tmp_path, "kroeg", "hoek")
    assert again["kroeg"] is None and again["league"] is None and again["hoek"]
    after = (tmp_path / "passwd").read_text().splitlines()
    assert set(before) < set(after)
    reset = config(capsys, tmp_path, "kroeg", "hoek", extra=("--reset", "kroeg"))
    assert reset["kroeg"] and reset["hoek"] is None
    code, out, _ = run(capsys, "league", "broker-config", "--dir", str(tmp_path), "--pub", "kroeg",
                       "--pub", "hoek")
    assert code == 0 and "kroeg: password unchanged" in out


@pytest.mark.parametrize(("args", "message"), [
    (("broker-config", "--dir", "D", "--pub", "a/b"), "a pub's name is 1-64 letters"),
    (("broker-config", "--dir", "D", "--pub", "league"), "none called 'league'"),
    (("broker-config", "--dir", "D", "--pub", "x", "--pub", "x"), "each pub once"),
    (("broker-config", "--dir", "D", "--pub", "x", "--tls-cert", "c.pem"), "go together"),
    (("serve", "--broker", "http://h", "--db", "L"), "starts mqtt://"),
    (("serve", "--broker", "mqtt://h:99999", "--db", "L"), "no number 1..65535"),
    (("serve", "--broker", "mqtt://h", "--db", "L", "--http", "x:y"), "--http is [HOST:]PORT"),
    (("--db", "L", "barrage", "kroeg:1:5"), "no match 'kroeg:1:5' came from a pub"),
])
def test_network_mistakes_are_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  args: tuple[str, ...], message: str) -> None:
    args = tuple(str(tmp_path / a) if a in ("D", "L") else a for a in args)
    code, _, err = run(capsys, "league", *args)
    assert code == 1 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("args", "message"), [
    (("serve", "--broker", "mqtt://h"), "serve needs --db FILE"),
    (("standings", "X"), "give the competition database"),
    (("barrage", "kroeg:1:5"), "barrage needs --db FILE"),
    (("year", "A", "B"), "year needs --db FILE"),
])
def test_a_missing_database_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                  args: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, "league", *args)
    assert code == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1


def _half(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    run(capsys, "league", "--db", str(db), "create", "Najaar", "--season", "2026-2027")
    for name, moyenne in (("Ann", "1.2"), ("Bob", "1.8")):
        run(capsys, "league", "--db", str(db), "add-player", "Najaar", name, "--moyenne", moyenne)
    run(capsys, "league", "--db", str(db), "add-result", "Najaar", "Ann", "Bob", "--caroms", "30", "20",
        "--innings", "20")


def test_the_next_half_starts_from_the_last_halfs_moyennes(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.db"
    _half(capsys, db)
    code, out, err = run(capsys, "league", "--db", str(db), "create", "Voorjaar", "--season", "2026-2027",
                         "--half", "voorjaar", "--after", "Najaar")
    assert code == 0 and "2 players from Najaar" in out, err
    code, out, _ = run(capsys, "league", "--db", str(db), "moyennes", "Voorjaar", "--json")
    assert {r["name"]: r["old"] for r in json.loads(out)["moyennes"]} == {"Ann": 1.5, "Bob": 1.0}


def test_the_year_standings_count_both_halves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.db"
    _half(capsys, db)
    run(capsys, "league", "--db", str(db), "create", "Voorjaar", "--half", "voorjaar", "--after", "Najaar")
    run(capsys, "league", "--db", str(db), "add-result", "Voorjaar", "Bob", "Ann", "--caroms", "25", "10",
        "--innings", "10")  # targets now: Bob 1.0 -> 25, Ann 1.5 -> 38; Bob had 20/45 -> 4 points
    code, out, err = run(capsys, "league", "--db", str(db), "year", "Najaar", "Voorjaar", "--json")
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)["standings"]}
    assert rows["Ann"]["played"] == 2 and rows["Ann"]["points"] == 11 + 2
    assert rows["Bob"]["points"] == 4 + 11 and rows["Bob"]["caroms"] == 45


def test_an_alias_must_name_a_member(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.db"
    _half(capsys, db)
    code, out, _ = run(capsys, "league", "--db", str(db), "alias", "Najaar", "annie", "Ann", "--pub", "kroeg")
    assert code == 0 and "annie in kroeg's matches is Ann in Najaar" in out
    code, _, err = run(capsys, "league", "--db", str(db), "alias", "Najaar", "zed", "Zed")
    assert code == 1 and "'Zed' is not a player of Najaar" in err


def _as_root_with_mosquitto() -> bool:
    import pwd
    import shutil
    try:
        pwd.getpwnam("mosquitto")
    except KeyError:
        return False
    return os.geteuid() == 0 and all(shutil.which(b) is not None for b in ("mosquitto", "mosquitto_pub"))


@pytest.mark.skipif(not _as_root_with_mosquitto(), reason="needs root, Debian's mosquitto and its user")
def test_broker_configs_run_line_run_as_root_starts_a_broker_the_league_logs_into(
        capsys: pytest.CaptureFixture[str]) -> None:
    """As root Mosquitto drops to the user ``mosquitto``: the line broker-config prints must
    give him the files, or the broker stops at once on a password file it cannot read."""
    import re
    import shutil
    import subprocess
    import tempfile

    from league_broker import free_port, wait_port

    d = Path(tempfile.mkdtemp(prefix="tablesense-broker-"))  # not under pytest's 0700 folder
    d.chmod(0o755)
    port = free_port()
    proc = None
    try:
        code, out, err = run(capsys, "league", "broker-config", "--dir", str(d / "b"), "--pub", "kroeg",
                             "--broker-port", str(port), "--broker-host", "127.0.0.1")
        assert code == 0, err
        line = re.search(r"; run: (.*?)(?: \(as root[^)]*\))?$", out.splitlines()[0])
        assert line is not None, out
        password = re.search(r"mqtt://league:([^@]+)@", out)
        assert password is not None, out
        proc = subprocess.Popen(["bash", "-c", line.group(1)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
        wait_port(port, timeout=30)
        sent = subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-u", "league",
                               "-P", password.group(1), "-t", "tablesense/league/nights/kroeg", "-n"],
                              capture_output=True, text=True, timeout=30)
        assert sent.returncode == 0, sent.stderr
    finally:
        if proc is not None:
            os.killpg(proc.pid, 15)
            proc.wait(timeout=30)
        shutil.rmtree(d, ignore_errors=True)
