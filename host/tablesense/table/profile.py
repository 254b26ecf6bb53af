"""Table profiles: the sensor channels of one table type, loaded from hardware/profiles/.

``load_profile("golf")`` or ``load_profile("path/to/table.toml")`` returns a validated
:class:`TableProfile`; ``board_config(profile)`` is the JSON the firmware reads
(/profiles/<id>.json on the board, TABLESENSE_BOARD on the unix port).
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from ..errors import TablesenseError
from .model import (
    CYCLE_US,
    GAINS,
    KINDS,
    MODES,
    PULLS,
    Channel,
    ColourRef,
    ColourSettings,
    I2CBus,
    TableProfile,
)
from .validate import check_profile

#: what a profile is made of lives in ``model`` (below ``validate``); read from here as before
__all__ = ["GAINS", "KINDS", "MODES", "PULLS", "Channel", "ColourRef", "ColourSettings", "I2CBus",
           "ProfileError", "TableProfile", "board_config", "board_config_json", "load_profile",
           "profile_from_dict", "profile_ids"]

#: hardware/profiles/ of the source tree (the package is installed editable from it).
PROFILE_DIR = Path(__file__).resolve().parents[3] / "hardware" / "profiles"

PROFILE_FIELDS = ("id", "profile", "name", "game", "version", "fw_min", "module", "rest_quiet_ms", "scan_ms",
                  "heartbeat_ms", "colours", "i2c", "colour", "channels")
CHANNEL_FIELDS = ("ch", "name", "kind", "index", "gpio", "pull", "active", "mode", "debounce_us", "colour",
                  "mux", "sensor")
I2C_FIELDS = ("sda", "scl", "freq", "mux")
COLOUR_FIELDS = ("cycles", "gain", "delay_us", "ref")
REF_FIELDS = ("ch", "ball", "r", "g", "b", "clear", "min_clear", "max_dist")


class ProfileError(TablesenseError):
    """A table profile that cannot be used: each line names the channel and field."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__(f"{source}: " + "; ".join(problems) if len(problems) == 1
                         else f"{source}:\n" + "\n".join(f"  - {p}" for p in problems))


def profile_ids(directory: Path | None = None) -> list[str]:
    return sorted(p.stem for p in (directory or _profile_dir()).glob("*.toml"))


def _profile_dir() -> Path:
    env = os.environ.get("TABLESENSE_PROFILES")
    return Path(env) if env else PROFILE_DIR


def resolve(id_or_path: str | os.PathLike[str]) -> Path:
    """A profile id (``golf``) or a file path -> the file, or a ProfileError saying what exists."""
    text = os.fspath(id_or_path)
    path = Path(text)
    if path.suffix in (".toml", ".json") or os.sep in text or path.is_file():
        if not path.is_file():
            raise ProfileError(text, ["no such file"])
        return path
    found = _profile_dir() / f"{text}.toml"
    if not found.is_file():
        known = ", ".join(profile_ids()) or "none"
        raise ProfileError(text, [f"unknown table profile (profiles: {known})"])
    return found


def load_profile(id_or_path: str | os.PathLike[str]) -> TableProfile:
    """Load and validate a profile by id (hardware/profiles/<id>.toml) or by path (.toml, .json)."""
    path = resolve(id_or_path)
    try:
        if path.suffix == ".json":
            raw = json.loads(path.read_text(encoding="utf-8"))
        else:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError(str(path), [f"not valid {path.suffix[1:].upper()}: {exc}"]) from None
    except OSError as exc:
        raise ProfileError(str(path), [f"cannot read: {exc.strerror}"]) from None
    prof = profile_from_dict(raw, source=str(path))
    if path.suffix == ".toml" and path.parent.resolve() == _profile_dir().resolve() and path.stem != prof.id:
        raise ProfileError(str(path), [f"profile: field 'id' is {prof.id!r} but the file is {path.name}: "
                                       f"name it {prof.id}.toml"])
    return prof


def profile_from_dict(raw: Any, source: str = "<profile>") -> TableProfile:
    """Build and validate a profile from its TOML/JSON data; every problem is reported at once."""
    problems: list[str] = []
    if not isinstance(raw, dict):
        raise ProfileError(source, ["a profile is a table/object of settings"])
    r = _Reader(raw, "profile", problems)
    _unknown(raw, PROFILE_FIELDS, "profile", problems)
    # TOML profiles name themselves with `id`; a generated board config with `profile`.
    pid = raw.get("id", raw.get("profile"))
    if not isinstance(pid, str) or not pid:
        problems.append("profile: field 'id' must be a non-empty string")
        pid = "?"
    colours = r.get("colours", list, [])
    if not all(isinstance(c, str) for c in colours):
        problems.append("profile: field 'colours' must be a list of strings")
        colours = []
    i2c = None
    if "i2c" in raw:
        if isinstance(raw["i2c"], dict):
            ir = _Reader(raw["i2c"], "i2c", problems, required=("sda", "scl"))
            _unknown(raw["i2c"], I2C_FIELDS, "i2c", problems)
            i2c = I2CBus(sda=ir.get("sda", int, -1), scl=ir.get("scl", int, -1), mux=ir.get("mux", int, None),
                         freq=ir.get("freq", int, 100_000))
        else:
            problems.append("i2c: must be a table with sda, scl and optionally freq and mux")
    channels: list[Channel] = []
    raw_channels = raw.get("channels")
    if not isinstance(raw_channels, list) or not raw_channels:
        problems.append("profile: field 'channels' must be a non-empty list of channel tables")
        raw_channels = []
    for n, rc in enumerate(raw_channels):
        if not isinstance(rc, dict):
            problems.append(f"channels[{n}]: must be a table")
            continue
        channels.append(_channel(rc, n, problems))
    colour = _colour(raw.get("colour"), channels, tuple(colours), problems)
    prof = TableProfile(
        id=pid,
        name=r.get("name", str, pid),
        game=r.get("game", str, pid),
        version=r.get("version", int, 1),
        fw_min=r.get("fw_min", str, "0.1.0"),
        module=r.get("module", str, "esp32-wroom-32"),
        rest_quiet_ms=r.get("rest_quiet_ms", int, 1500),
        scan_ms=r.get("scan_ms", int, 20),
        heartbeat_ms=r.get("heartbeat_ms", int, 1000),
        colours=tuple(colours),
        channels=tuple(channels),
        i2c=i2c,
        colour=colour,
        source=source,
    )
    if not problems:
        problems.extend(check_profile(prof))
    if problems:
        raise ProfileError(source, problems)
    return prof


def _channel(rc: dict[str, Any], n: int, problems: list[str]) -> Channel:
    ch = rc.get("ch")
    where = f"channel {ch} ({rc.get('name', '?')})" if isinstance(ch, int) else f"channels[{n}]"
    r = _Reader(rc, where, problems, required=("ch", "gpio", "kind", "mode", "name"))
    _unknown(rc, CHANNEL_FIELDS, where, problems)
    pull = rc.get("pull", "none")
    if pull is None:
        pull = "none"
    if pull not in PULLS:
        problems.append(f"{where}: field 'pull' must be one of {', '.join(PULLS)} (got {pull!r})")
        pull = "none"
    index = rc.get("index", 0)
    if isinstance(index, bool) or not isinstance(index, int | str):
        problems.append(f"{where}: field 'index' must be a number or a letter")
        index = 0
    return Channel(
        ch=r.get("ch", int, -1),
        name=r.get("name", str, f"ch{ch}"),
        kind=r.get("kind", str, "?"),
        index=index,
        gpio=r.get("gpio", int, -1),
        pull=None if pull == "none" else pull,
        active=r.get("active", int, 0),
        mode=r.get("mode", str, "?"),
        debounce_us=r.get("debounce_us", int, 0),
        colour=r.get("colour", bool, False),
        mux=r.get("mux", int, None),
        sensor=r.get("sensor", str, ""),
    )


def _colour(raw: Any, channels: list[Channel], colours: tuple[str, ...],
            problems: list[str]) -> ColourSettings | None:
    """[colour] and its [[colour.ref]] entries; defaults when a channel has a sensor but the
    table is missing. A board config (JSON) carries refs as lists with the class number."""
    if raw is None:
        return ColourSettings() if any(c.colour for c in channels) else None
    if not isinstance(raw, dict):
        problems.append("colour: must be a table of cycles, gain, delay_us and [[colour.ref]] entries")
        return None
    r = _Reader(raw, "colour", problems)
    _unknown({k: v for k, v in raw.items() if k != "refs"}, COLOUR_FIELDS, "colour", problems)
    cycles = r.get("cycles", int, 4)
    refs: list[ColourRef] = []
    raw_refs = raw.get("ref", [])
    if isinstance(raw.get("refs"), list):  # a board config: [ch, class, r, g, b, clear, min_clear, max_dist]
        raw_refs = []
        for n, row in enumerate(raw["refs"]):
            if not (isinstance(row, list) and len(row) == 8 and isinstance(row[1], int)
                    and 1 <= row[1] <= len(colours)):
                problems.append(f"colour.refs[{n}]: must be [ch, class 1..{len(colours)}, r, g, b, clear, "
                                "min_clear, max_dist]")
                continue
            raw_refs.append(dict(zip(REF_FIELDS, [row[0], colours[row[1] - 1], *row[2:]], strict=True)))
    if not isinstance(raw_refs, list):
        problems.append("colour: 'ref' must be a list of [[colour.ref]] tables")
        raw_refs = []
    for n, rr in enumerate(raw_refs):
        where = f"colour.ref[{n}]"
        if not isinstance(rr, dict):
            problems.append(f"{where}: must be a table of {', '.join(REF_FIELDS)}")
            continue
        rd = _Reader(rr, where, problems, required=REF_FIELDS)
        _unknown(rr, REF_FIELDS, where, problems)
        refs.append(ColourRef(**{k: rd.get(k, str if k == "ball" else int, "?" if k == "ball" else -1)
                                 for k in REF_FIELDS}))
    return ColourSettings(cycles=cycles, gain=r.get("gain", int, 16),
                          delay_us=r.get("delay_us", int, 2 * cycles * CYCLE_US + 4800), refs=tuple(refs))


def _unknown(raw: dict[str, Any], known: tuple[str, ...], where: str, problems: list[str]) -> None:
    """A misspelt field would silently fall back to its default: name it instead."""
    names = ", ".join(k for k in known if k != "profile")
    for key in raw:
        if key not in known:
            problems.append(f"{where}: unknown field {key!r} (fields: {names})")


class _Reader:
    """Typed field access that records a problem instead of raising."""

    def __init__(self, raw: dict[str, Any], where: str, problems: list[str], required: tuple[str, ...] = ()):
        self.raw, self.where, self.problems, self.required = raw, where, problems, required

    def get(self, key: str, typ: type, default: Any) -> Any:
        if key not in self.raw:
            if default is None and typ is not int:
                return None
            if key in self.required:
                self.problems.append(f"{self.where}: field '{key}' is missing")
            return default
        value = self.raw[key]
        ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
        if not ok:
            self.problems.append(f"{self.where}: field '{key}' must be {_TYPE_NAMES.get(typ, typ.__name__)}"
                                 f" (got {value!r})")
            return default
        return value


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list"}


def board_config(profile: TableProfile) -> dict[str, Any]:
    """The board configuration the firmware reads, in the contract's exact shape."""
    channels: list[dict[str, Any]] = []
    for c in sorted(profile.channels, key=lambda c: c.ch):
        d: dict[str, Any] = {
            "ch": c.ch, "name": c.name, "kind": c.kind, "index": c.index, "gpio": c.gpio,
            "pull": c.pull, "active": c.active, "mode": c.mode, "debounce_us": c.debounce_us,
        }
        if c.kind in ("goal", "pocket"):
            d["colour"] = c.colour
        if c.colour and c.mux is not None:
            d["mux"] = c.mux
        channels.append(d)
    cfg: dict[str, Any] = {
        "profile": profile.id,
        "version": profile.version,
        "fw_min": profile.fw_min,
        "scan_ms": profile.scan_ms,
        "heartbeat_ms": profile.heartbeat_ms,
        "colours": list(profile.colours),
        "channels": channels,
    }
    if profile.i2c is not None:
        # Extra key (the contract's shape plus this): where the colour sensors are wired.
        cfg["i2c"] = {"sda": profile.i2c.sda, "scl": profile.i2c.scl, "freq": profile.i2c.freq,
                      "mux": profile.i2c.mux}
    if profile.colour is not None:
        col = profile.colour
        cfg["colour"] = {
            "cycles": col.cycles, "gain": col.gain, "delay_us": col.delay_us,
            # [ch, class (1-based in colours), r, g, b, clear, min_clear, max_dist]
            "refs": [[f.ch, profile.colours.index(f.ball) + 1, f.r, f.g, f.b, f.clear, f.min_clear,
                      f.max_dist] for f in col.refs],
        }
    return cfg


def board_config_json(profile: TableProfile) -> str:
    """board_config as compact, stable JSON text (one line, trailing newline)."""
    return json.dumps(board_config(profile), separators=(",", ":")) + "\n"
