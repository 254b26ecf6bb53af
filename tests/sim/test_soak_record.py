"""A season's record (tests/soak/record.py) read again from a copy of its work directory
names the copy's databases and profiles, not the run's (``--recheck`` of a kept copy)."""

from __future__ import annotations

import shutil
from pathlib import Path

from soak.record import Record, TableRecord


def test_a_record_copied_elsewhere_reads_the_copy_s_databases(tmp_path: Path) -> None:
    run = tmp_path / "tablesense-soak-x"
    table = TableRecord("kroeg-1", "kroeg", "1", "carom", str(run / "profiles/carom.toml"))
    rec = Record(seed=1, tables=[table],
                 pub_dbs={"kroeg": str(run / "kroeg/disk-kept/pub.db")},
                 league_db=str(run / "league/disk-kept/league.db"), competition="c", acks={},
                 answers_5xx=[], stderrs={}, host_stops={},
                 faults=[{"at": 29.62, "kind": "disk_full", "target": "league", "params": {"leave": 4096}}])
    run.mkdir()
    rec.save(run / "record.json")
    assert Record.load(run / "record.json").pub_dbs == rec.pub_dbs  # where it ran: as saved
    copy = tmp_path / "kept"
    shutil.copytree(run, copy)
    again = Record.load(copy / "record.json")
    assert again.pub_dbs == {"kroeg": str(copy.resolve() / "kroeg/disk-kept/pub.db")}
    assert again.league_db == str(copy.resolve() / "league/disk-kept/league.db")
    assert again.tables[0].profile == str(copy.resolve() / "profiles/carom.toml")
    assert again.faults[0]["kind"] == "disk_full"  # what hit which target when, for the reader of a kept run
