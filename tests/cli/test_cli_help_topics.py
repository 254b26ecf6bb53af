"""``tablesense help TOPIC`` prints the docs' pages; the package ships them; a clean install."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.cli import main


def test_help_lists_every_page_of_the_docs_with_its_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    out = capsys.readouterr().out
    for page in (ROOT / "docs").glob("*.md"):
        assert f"  {page.stem} " in out
    assert "Competitions: tablesense league" in out


def test_help_topic_prints_the_page_by_name_or_a_unique_beginning(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "cli"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert main(["help", "leag"]) == 0
    assert capsys.readouterr().out.startswith("# Competitions: `tablesense league`")


@pytest.mark.parametrize(("topic", "said"), [
    ("snooker", "no help topic 'snooker'; topics: camera, carom, cli,"),
    ("c", "'c' could be camera, carom, cli"),
])
def test_an_unknown_or_ambiguous_topic_is_one_line(topic: str, said: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", topic]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


@pytest.mark.slow
def test_the_built_package_ships_the_docs_and_builds_without_deprecation_banners(tmp_path: Path) -> None:
    """A real build of the wheel, as `pip install .` makes it (pip fetches setuptools>=77 from PyPI
    into its build environment: this test needs the network)."""
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path),
                           str(ROOT)], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    log = done.stdout + done.stderr
    banner = [ln for ln in log.splitlines() if "eprecat" in ln]
    assert banner == [], banner
    wheel = next(tmp_path.glob("tablesense-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"tablesense/docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= names
