"""What a season leaves for its checks, kept as one JSON file in its work directory
(``record.json``) beside the databases and logs, so that the invariants can be checked
again without playing the season again: ``python bench/season_soak.py --recheck DIR``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tablesense.table.profile import load_profile

from . import invariants as inv
from .board import Boot, FrameRec

INVARIANTS = ("sensor events once and in order, or said lost",
              "lost said only where the board no longer held it",
              "table times in order", "every shot ended", "acknowledged calls kept", "league standings",
              "no 5xx", "no traceback")


@dataclass
class TableRecord:
    name: str
    pub: str
    table: str
    game: str
    profile: str  # the TOML the pub's host ran
    boots: list[Boot] = field(default_factory=list)


@dataclass
class Record:
    seed: int
    tables: list[TableRecord]
    pub_dbs: dict[str, str]
    league_db: str
    competition: str
    acks: dict[str, list[inv.Ack]]
    answers_5xx: list[tuple[str, str, int]]
    stderrs: dict[str, str]
    host_stops: dict[str, list[float]]
    #: the faults as played (kind, target, params, wall times, whether the system came back;
    #: before the sensor breaks were laid at their door); none in a record kept before
    faults: list[dict[str, Any]] = field(default_factory=list)

    def save(self, path: Path) -> None:
        obj = asdict(self)
        for t, tr in zip(obj["tables"], self.tables):
            t["boots"] = [_boot_json(b) for b in tr.boots]
        path.write_text(json.dumps(obj), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Record:
        obj = json.loads(path.read_text(encoding="utf-8"))
        _moved(obj, path.parent)
        tables = []
        for t in obj["tables"]:
            boots = [_boot_from(b) for b in t.pop("boots")]
            tables.append(TableRecord(**t, boots=boots))
        obj["tables"] = tables
        obj["acks"] = {k: [inv.Ack(**a) for a in v] for k, v in obj["acks"].items()}
        obj["answers_5xx"] = [tuple(x) for x in obj["answers_5xx"]]
        return cls(**obj)


def _moved(obj: dict[str, Any], work: Path) -> None:
    """A work directory copied or moved elsewhere (``--recheck`` of a copy): its paths, saved
    under the directory the season ran in (the league's database is ``<work>/league/...``),
    are read under the one the record is in now."""
    was = str(Path(obj["league_db"]).parents[2])
    now = str(work.resolve())
    if was == now:
        return

    def here(p: str) -> str:
        return now + p[len(was):] if p == was or p.startswith(was + "/") else p

    obj["league_db"] = here(obj["league_db"])
    obj["pub_dbs"] = {k: here(v) for k, v in obj["pub_dbs"].items()}
    for t in obj["tables"]:
        t["profile"] = here(t["profile"])


def _boot_json(b: Boot) -> dict[str, Any]:
    return {"number": b.number, "started": b.started, "mono0": b.mono0, "ended": b.ended,
            "frames": [[f.seq, f.kind, f.ch, f.value, f.t_us, f.wall] for f in b.frames.values()],
            "progress": b.progress, "heard": b.heard, "hello_seen": b.hello_seen, "replayed": b.replayed}


def _boot_from(d: dict[str, Any]) -> Boot:
    b = Boot(d["number"], d["started"], d["mono0"], d["ended"])
    b.frames = {f[0]: FrameRec(*f) for f in d["frames"]}
    b.progress = [tuple(p) for p in d["progress"]]  # type: ignore[misc]
    # a record kept before the relay noted what it passed on: as if a host had heard it all
    b.heard = [tuple(p) for p in d.get("heard", d["progress"])]  # type: ignore[misc]
    b.hello_seen, b.replayed = d["hello_seen"], d["replayed"]
    return b


def check(rec: Record) -> tuple[dict[str, list[str]], inv.SensorFigures, dict[str, list[float]]]:
    """Every invariant over the record: (what broke, per invariant; the sensor figures; per
    table, the wall times of the sensor events that broke)."""
    broken: dict[str, list[str]] = {k: [] for k in INVARIANTS}
    sensor = inv.SensorFigures()
    per_table: dict[str, list[float]] = {}
    profiles: dict[str, Any] = {}
    for t in rec.tables:
        profile = profiles.setdefault(t.profile, load_profile(Path(t.profile)))
        db = Path(rec.pub_dbs[t.pub])
        logged = inv.sensor_events(db, t.table)
        before = len(sensor.break_times)
        said = inv.incidents(db, t.table)
        for line in inv.check_sensor_events(t.name, logged, t.boots, profile, said, sensor,
                                            rec.host_stops.get(t.pub)):
            broken[INVARIANTS[1] if "still held" in line else INVARIANTS[0]].append(line)
        per_table[t.name] = sensor.break_times[before:]
        broken[INVARIANTS[2]] += inv.check_times_in_order(t.name, logged)
        broken[INVARIANTS[3]] += inv.check_shots_ended(t.name, logged, t.boots, profile)
        broken[INVARIANTS[4]] += inv.check_acknowledged_calls(t.name, rec.acks.get(t.name, []),
                                                              inv.referee_lines(db, t.table))
    pubs = {p: Path(d) for p, d in rec.pub_dbs.items()}
    broken[INVARIANTS[5]] += inv.check_league(Path(rec.league_db), rec.competition, pubs)
    broken[INVARIANTS[6]] += inv.check_no_5xx(rec.answers_5xx)
    broken[INVARIANTS[7]] += inv.check_no_traceback(rec.stderrs)
    return broken, sensor, per_table
