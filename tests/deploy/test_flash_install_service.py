"""install-service: the systemd unit (restart always, ports by USB id), dry run, user unit, ports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.cli import main
from tablesense.deploy.ports import PortInfo
from tablesense.deploy.service import (
    UDEV_RULE,
    UnitOptions,
    duplicate_ids,
    example_unit,
    render_unit,
    stable_port,
    udev_line,
)


def opts(**kw: object) -> UnitOptions:
    base: dict[str, object] = dict(executable="/opt/ts/bin/tablesense", ports=("/dev/serial/by-id/usb-A",),
                                   profiles=("kegle",), db="/var/lib/tablesense/t.db", user_unit=False,
                                   user="pi")
    base.update(kw)
    return UnitOptions(**base)  # type: ignore[arg-type]


def test_system_unit_restarts_always_and_runs_as_the_pub_user() -> None:
    unit = render_unit(opts())
    assert "Restart=always" in unit and "StartLimitIntervalSec=0" in unit
    assert "User=pi" in unit and "SupplementaryGroups=dialout" in unit
    assert ("ExecStart=/opt/ts/bin/tablesense run --serial /dev/serial/by-id/usb-A --profile kegle "
            "--http 0.0.0.0:8080 --db /var/lib/tablesense/t.db --lang en --wait") in unit
    assert "WorkingDirectory=/var/lib/tablesense" in unit
    assert unit.rstrip().endswith("WantedBy=multi-user.target")


def test_user_unit_has_no_user_line_and_starts_with_the_user_session() -> None:
    unit = render_unit(opts(user_unit=True, user=None))
    assert "User=" not in unit and "WantedBy=default.target" in unit


def test_paths_with_spaces_are_quoted() -> None:
    unit = render_unit(opts(executable="/home/pub owner/ts/bin/tablesense"))
    assert "ExecStart='/home/pub owner/ts/bin/tablesense' run" in unit


def test_a_port_is_written_by_its_usb_id(tmp_path: Path) -> None:
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    dev = tmp_path / "ttyUSB0"
    dev.touch()
    (by_id / "usb-Silicon_Labs_CP2102-if00-port0").symlink_to(dev)
    assert stable_port(str(dev), by_id) == (str(by_id / "usb-Silicon_Labs_CP2102-if00-port0"), None)
    other = tmp_path / "ttyACM3"
    other.touch()
    port, warning = stable_port(str(other), by_id)
    assert port == str(other) and warning and "no /dev/serial/by-id name" in warning
    assert stable_port("socket://localhost:7000", by_id) == ("socket://localhost:7000", None)


def test_boards_sharing_one_usb_serial_are_found() -> None:
    a = PortInfo("/dev/ttyUSB0", "/dev/serial/by-id/usb-CP2102_0001", "CP2102")
    b = PortInfo("/dev/ttyUSB1", "/dev/serial/by-id/usb-CP2102_0001", "CP2102")
    c = PortInfo("/dev/ttyUSB2", "/dev/serial/by-id/usb-CH340_X", "CH340")
    assert duplicate_ids([a, b, c]) == ["/dev/serial/by-id/usb-CP2102_0001"]


def test_udev_line() -> None:
    assert udev_line(0x10C4, 0xEA60, "0001", "tablesense-table1") == (
        'SUBSYSTEM=="tty", ATTRS{idVendor}=="10c4", ATTRS{idProduct}=="ea60", ATTRS{serial}=="0001", '
        'SYMLINK+="tablesense-table1", GROUP="dialout", MODE="0660"')


def test_committed_examples_are_up_to_date() -> None:
    assert (ROOT / "hardware/systemd/tablesense.service").read_text() == example_unit()
    assert (ROOT / "hardware/systemd/99-tablesense.rules").read_text() == UDEV_RULE


def test_dry_run_prints_the_unit_and_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    unit = Path("/etc/systemd/system/tablesense.service")
    existed = unit.exists()
    assert main(["install-service", "--serial", "socket://table1:7000", "--profile", "carom",
                 "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "# would write /etc/systemd/system/tablesense.service:" in out
    assert "--serial socket://table1:7000 --profile carom" in out and "Restart=always" in out
    assert "systemctl enable --now tablesense.service" in out
    assert unit.exists() == existed


def test_user_install_writes_the_unit_under_home(tmp_path: Path) -> None:
    env = dict(os.environ, HOME=str(tmp_path))
    res = subprocess.run([sys.executable, "-m", "tablesense", "install-service", "--user", "--no-enable",
                          "--serial", "socket://t:1", "--profile", "golf"], capture_output=True, text=True,
                         env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    unit = (tmp_path / ".config/systemd/user/tablesense.service").read_text()
    assert "Restart=always" in unit and "WantedBy=default.target" in unit
    assert f"--db {tmp_path}/.local/share/tablesense/tablesense.db" in unit
    assert (tmp_path / ".local/share/tablesense").is_dir()
    assert "systemctl --user enable --now tablesense.service" in res.stdout
    assert "loginctl enable-linger" in res.stdout


def test_no_port_and_a_bad_profile_are_user_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-service"]) == 2
    assert "give the tables' serial ports with --serial" in capsys.readouterr().err
    assert main(["install-service", "--serial", "socket://x:1", "--profile", "pool", "--dry-run"]) == 2
    assert "unknown table profile" in capsys.readouterr().err


def test_a_port_twice_or_more_profiles_than_ports_are_user_errors(capsys: pytest.CaptureFixture[str]) -> None:
    twice = ["install-service", "--dry-run", "--serial", "socket://x:1", "--serial", "socket://x:1"]
    assert main(twice) == 2
    assert "socket://x:1 is given twice" in capsys.readouterr().err
    extra = ["install-service", "--dry-run", "--serial", "socket://x:1",
             "--profile", "golf", "--profile", "kegle"]
    assert main(extra) == 2
    assert "give one --profile per --serial" in capsys.readouterr().err
    two = ["install-service", "--dry-run", "--serial", "socket://x:1", "--serial", "socket://x:2",
           "--profile", "golf", "--profile", "kegle"]
    assert main(two) == 0
    out = capsys.readouterr().out
    assert "--serial socket://x:1 --serial socket://x:2 --profile golf --profile kegle" in out
