"""What a pub installs: tablesense with its base dependencies runs every command of the pub
(the link, the match log, the scoreboard with its QR code, the sheet, the league, flashing),
and a command that needs the camera or the simulator says in one line which extra to
install, exits 2 and does nothing else.

Most tests make a fresh virtual environment (once, a second), install this checkout in it as ``pip
install -e .`` does (without writing into the checkout, which a second copy of the suite may
be reading) beside only the base dependencies of pyproject.toml, and run its ``tablesense``
program. The fast ones check the same boundary in the full environment: no module of the
pub's room imports OpenCV, numpy or pymunk when it is imported."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from helpers.ports import free_port
from hypothesis import given
from hypothesis import strategies as st
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from paths import ROOT

from tablesense.command_line.extras import PARTS, missing_line

HOST = ROOT / "host"

#: what only the camera and the simulator may import
OPTIONAL = ("cv2", "numpy", "pymunk")

#: the rooms that may import them: the simulator and the camera
ROOMS = ("tablesense.sim", "tablesense.vision")

#: imports the modules named in argv[1] one by one and prints, as JSON, which of them brought
#: in which optional module, and the ones that failed to import
PROBE = """
import importlib, json, sys
optional, brought, failed = sys.argv[2].split(","), [], {}
for name in sys.argv[1].split(","):
    before = {m for m in optional if m in sys.modules}
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
    brought += [f"{name} -> {m}" for m in optional if m in sys.modules and m not in before]
print(json.dumps({"brought": brought, "failed": failed,
                  "imported": sum(1 for m in sys.modules if m.startswith("tablesense."))}))
"""


def pub_modules() -> list[str]:
    """Every module of the package outside the simulator's and the camera's rooms (but
    ``__main__``, which runs the command line when imported)."""
    names = []
    for path in sorted((HOST / "tablesense").rglob("*.py")):
        if path.name == "__main__.py":
            continue
        parts = list(path.relative_to(HOST).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not any(name == r or name.startswith(r + ".") for r in ROOMS):
            names.append(name)
    return names


def probe(python: str, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([python, "-c", PROBE, ",".join(pub_modules()), ",".join(OPTIONAL)], env=env,
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TABLESENSE_MICROPYTHON")}
    return {**env, "PYTHONPATH": str(HOST), **extra}


def test_no_module_of_the_pub_imports_the_camera_or_the_simulator() -> None:
    """Every module outside tablesense.sim and tablesense.vision (every command's module
    included: its --help must answer without the extras) imports none of OpenCV, numpy,
    pymunk; here, where they are installed, importing one would show in sys.modules."""
    found = probe(sys.executable, _env())
    assert found["failed"] == {}
    assert found["imported"] > 100  # the probe did import the package
    assert found["brought"] == [], "imported at import time by the pub's room: " + ", ".join(found["brought"])


@given(st.lists(st.sampled_from(sorted(PARTS)), min_size=1, unique=True))
def test_the_missing_line_names_each_missing_part_and_the_extras_that_install_them(parts: list[str]) -> None:
    line = missing_line("tablesense x", parts)
    assert line is not None and "\n" not in line and line.startswith("tablesense x: needs the ")
    extras = sorted({PARTS[p][1] for p in parts})
    assert f"[{','.join(extras)}]" in line
    assert all(PARTS[p][0] in line for p in parts)
    assert ("extras (" in line) == (len(extras) > 1)


# -- a real environment with the base dependencies only -----------------------------------------------------


def base_distributions() -> dict[str, metadata.Distribution]:
    """The distributions pyproject.toml's base dependencies need, theirs included, as installed
    here (no extra of theirs, none of tablesense's extras)."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    found: dict[str, metadata.Distribution] = {}
    todo = [Requirement(d) for d in deps]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name not in found:
            found[name] = metadata.distribution(req.name)
            todo += [Requirement(r) for r in found[name].requires or []]
    return found


def _script(bindir: Path, python: Path, name: str, target: str) -> None:
    module, _, func = target.partition(":")
    path = bindir / name
    path.write_text(f"#!{python}\nimport sys\nfrom {module} import {func}\n"
                    f"if __name__ == '__main__':\n    sys.exit({func}())\n", encoding="utf-8")
    path.chmod(0o755)


@pytest.fixture(scope="module")
def pub_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Python of a fresh virtual environment where tablesense is installed as ``pip install
    -e .`` installs it (a .pth naming host/, its metadata, the ``tablesense`` program) beside its
    base dependencies and none of the extras. The dependencies are the distributions installed
    here, linked in with their programs, rather than fetched again: no network, a second."""
    venv = tmp_path_factory.mktemp("pub") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True, timeout=60).stdout.strip())
    for dist in base_distributions().values():
        tops = {Path(f).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops - {"__pycache__"}:
            source = Path(dist.locate_file(top))
            if source.exists() and not (site / top).exists():
                (site / top).symlink_to(source)
        for entry in dist.entry_points.select(group="console_scripts"):
            _script(venv / "bin", python, entry.name, entry.value)
    (site / "__editable__.tablesense.pth").write_text(f"{HOST}\n", encoding="utf-8")
    info = site / "tablesense-0.1.0.dist-info"
    info.mkdir()
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: tablesense\nVersion: {meta['version']}\n"
                                   + "".join(f"Requires-Dist: {d}\n" for d in meta["dependencies"]),
                                   encoding="utf-8")
    for name, target in meta["scripts"].items():
        _script(venv / "bin", python, name, target)
    return str(python)


def _pub_env(python: str) -> dict[str, str]:
    """The pub's own environment first on the PATH, no micropython on it (the unix port is the
    sim extra's), and nothing of this one's on the Python path."""
    path = [str(Path(python).parent)] + [d for d in os.environ.get("PATH", "").split(os.pathsep)
                                         if d and not (Path(d) / "micropython").exists()]
    env = {k: v for k, v in _env().items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PATH": os.pathsep.join(path)}


def tablesense(python: str, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(python).parent / "tablesense"), *argv], env=_pub_env(python), cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_the_pub_environment_has_none_of_the_extras(pub_python: str) -> None:
    """The ground the other tests stand on: the extras really are missing here."""
    done = subprocess.run([pub_python, "-c", "import importlib.util as u, json; "
                           f"print(json.dumps([m for m in {list(OPTIONAL)!r} if u.find_spec(m)]))"],
                          env=_pub_env(pub_python), capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == []
    assert not (Path(pub_python).parent / "micropython").exists()


def test_every_module_of_the_pub_imports_with_the_base_dependencies(pub_python: str) -> None:
    found = probe(pub_python, _pub_env(pub_python))
    assert found["failed"] == {}, found["failed"]


def _commands() -> list[list[str]]:
    from tablesense.cli import COMMANDS

    return [[name] for name in COMMANDS] + [["camera", a] for a in ("calibrate", "watch", "film")]


def test_the_pubs_program_answers_run_help_without_the_extras(pub_python: str) -> None:
    done = tablesense(pub_python, "run", "--help")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "--serial" in done.stdout and "--camera" in done.stdout


@pytest.mark.slow  # 18 commands' help, a program start each
def test_every_commands_help_answers_without_the_extras(pub_python: str) -> None:
    for argv in _commands():
        done = tablesense(pub_python, *argv, "--help")
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr)
        assert f"tablesense {' '.join(argv)}" in done.stdout, argv


#: command line -> the extras it names when they are missing
NEEDS_AN_EXTRA = [
    (["demo", "--game", "golf", "--direct", "--speed", "0", "--print"], "sim"),
    (["demo", "--game", "kegle", "--speed", "0", "--print"], "sim"),
    (["sim", "examples/golf-edges.jsonl", "--fast"], "sim"),
    (["camera", "calibrate", "--camera", "table.png", "--profile", "carom"], "camera"),
    (["camera", "watch", "--camera", "shots.avi", "--profile", "carom"], "camera"),
    (["camera", "film", "--out", "{tmp}/rally", "--shots", "1"], "camera,sim"),
    (["run", "--serial", "socket://127.0.0.1:9", "--profile", "carom", "--camera", "0", "--http", "{port}",
      "--db", "{tmp}/pub.db"], "camera"),
    (["bench", "sim_speed"], "sim"),  # a benchmark asks for what it times (link_decode: nothing)
    (["bench", "camera_anchor"], "camera"),
]


@pytest.mark.parametrize(("argv", "extras"), NEEDS_AN_EXTRA, ids=[" ".join(a[:3]) for a, _ in NEEDS_AN_EXTRA])
def test_a_command_that_needs_an_extra_says_which_in_one_line_and_does_nothing(
        pub_python: str, tmp_path: Path, argv: list[str], extras: str) -> None:
    argv = [a.format(tmp=tmp_path, port=free_port()) for a in argv]
    done = tablesense(pub_python, *argv)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    prog = "tablesense " + " ".join(argv[:2] if argv[0] == "camera" else argv[:1])
    names = extras.split(",")
    said = f"the {names[0]} extra" if len(names) == 1 else f"the {' and '.join(names)} extras"
    assert lines[0].startswith(f"{prog}: needs {said} ("), lines[0]
    assert lines[0].endswith(f"{pub_python} -m pip install -e '.[{extras}]'"), lines[0]
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no film folder, no match log


@pytest.mark.parametrize("argv", [["replay", "examples/golf-match.jsonl"],
                                  ["replay", "examples/golf-match.jsonl", "--json", "--lang", "da"],
                                  ["sheet", "examples/club/1-ann-bob.jsonl", "--lang", "nl"]], ids=" ".join)
def test_replay_and_the_sheet_print_the_same_as_with_every_extra(pub_python: str, argv: list[str]) -> None:
    pub = tablesense(pub_python, *argv)
    full = subprocess.run([sys.executable, "-m", "tablesense", *argv], env=_env(), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert pub.returncode == 0 and pub.stderr == "", pub.stderr
    assert full.returncode == 0 and pub.stdout == full.stdout and len(pub.stdout) > 500


def test_flash_builds_the_firmware_with_the_base_mpy_cross(pub_python: str, tmp_path: Path) -> None:
    done = tablesense(pub_python, "flash", "--serial", str(tmp_path / "ttyUSB9"), "--profile", "golf",
                      "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "mpy-cross -march=xtensawin" in done.stdout and "plan for" in done.stdout


def test_the_league_keeps_a_competition_without_the_extras(pub_python: str, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    made = tablesense(pub_python, "league", "create", "Najaar 2026", "--profile", "kampioen", "--db", db)
    assert made.returncode == 0, made.stderr
    listed = tablesense(pub_python, "league", "list", "--db", db)
    assert listed.returncode == 0 and "Najaar 2026" in listed.stdout, listed.stderr


@pytest.fixture
def pub_server(pub_python: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, Path]]:
    """``tablesense run`` of one carom table (its board not there yet: --wait) in the pub environment."""
    port = free_port()
    out = tmp_path / "run.out"
    with out.open("w") as sink:
        proc = subprocess.Popen([str(Path(pub_python).parent / "tablesense"), "run",
                                 "--serial", "socket://127.0.0.1:9",
                                 "--profile", "carom", "--http", f"127.0.0.1:{port}",
                                 "--db", str(tmp_path / "pub.db"), "--wait"],
                                env=_pub_env(pub_python), cwd=ROOT, stdout=sink, stderr=subprocess.PIPE,
                                text=True)
    try:
        yield proc, f"http://127.0.0.1:{port}", out
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def test_the_pub_serves_its_scoreboard_and_the_referee_qr_code_without_the_extras(
        pub_server: tuple[subprocess.Popen[str], str, Path]) -> None:
    proc, url, out = pub_server
    tv = None
    deadline = time.monotonic() + 120
    while tv is None and time.monotonic() < deadline and proc.poll() is None:
        tv = re.search(r"the pub's TV of table 1: (\S+\?tv=(\w+))", out.read_text())
        time.sleep(0.2)
    assert tv is not None, (proc.poll(), out.read_text())
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(tv.group(1), timeout=60) as page:
        assert page.status == 200
    pair = urllib.request.Request(f"{url}/api/table/1/tv", data=json.dumps({"code": tv.group(2)}).encode(),
                                  headers={"Content-Type": "application/json"}, method="POST")
    with browser.open(pair, timeout=60) as paired:  # this "TV" is now the pub's TV of table 1
        assert paired.status == 200
    with browser.open(f"{url}/api/table/1/qr.svg", timeout=60) as qr:
        assert qr.status == 200 and qr.headers["Content-Type"] == "image/svg+xml"
        assert b"<svg" in qr.read()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_a_benchmark_of_the_link_or_the_replay_asks_for_no_extra() -> None:
    from tablesense.commands.bench import parts_of

    bench = ROOT / "bench"
    assert parts_of(bench / "link_decode.py") == () and parts_of(bench / "replay_speed.py") == ()
    assert "pymunk" in parts_of(bench / "sim_speed.py") and "cv2" in parts_of(bench / "camera_fps.py")
    assert "micropython" in parts_of(bench / "season_soak.py")  # the soak's boards run the firmware
