"""``tablesense sim`` takes an edges file with a header line, and its profile from it; from a
pipe too; a match log is named as one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from paths import ROOT

from tablesense.cli import main
from tablesense.commands.sim import EdgeFileError, header_profile, read_edges
from tablesense.table.profile import load_profile


@pytest.mark.parametrize("path", ["tests/scenarios/golf_goal_edges.jsonl", "examples/golf-edges.jsonl"])
def test_a_header_line_is_read_as_the_header_not_refused_as_an_edge(path: str) -> None:
    edges = read_edges(str(ROOT / path), load_profile(header_profile(str(ROOT / path))))
    assert header_profile(str(ROOT / path)) == "golf"
    assert edges and all("t_us" in e for e in edges)
    assert [e["level"] for e in edges if "level" in e] == [1, 0, 1, 0]


def test_without_a_header_or_profile_it_says_to_give_one(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    bare = tmp_path / "edges.jsonl"
    bare.write_text('{"t_us": 1000, "ch": 1, "level": 1}\n')
    with pytest.raises(EdgeFileError):
        header_profile(str(bare))
    assert main(["sim", str(bare)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names no profile" in err and "--profile ID" in err


def test_a_header_anywhere_but_first_is_a_bad_edge(tmp_path: Path) -> None:
    edges = tmp_path / "edges.jsonl"
    edges.write_text('{"t_us": 1000, "ch": 1, "level": 1}\n{"game": "golf"}\n')
    with pytest.raises(EdgeFileError, match="line 2"):
        read_edges(str(edges), load_profile("golf"))


def _pipe_of(text: str) -> tuple[str, int]:
    """A pipe that gives ``text`` once, by the name bash's ``<(cat edges.jsonl)`` gives it
    (/dev/fd/N), and its descriptor to close."""
    read, write = os.pipe()
    os.write(write, text.encode())  # a few bytes: the pipe holds them
    os.close(write)
    return f"/dev/fd/{read}", read


def test_an_edges_file_from_a_pipe_is_read_once_header_and_edges_alike(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The header and the edges come from one read: a pipe has nothing left for a second one
    (it said "holds no edges"). The bad channel on line 2 shows the edges were read."""
    path, fd = _pipe_of('{"game": "golf"}\n{"t_us": 1000, "ch": 99, "level": 1}\n')
    try:
        assert main(["sim", path]) == 2
    finally:
        os.close(fd)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2: channel 99 is not in the profile" in err, err


def test_a_match_log_given_to_sim_is_named_and_sent_to_replay(capsys: pytest.CaptureFixture[str]) -> None:
    log = str(ROOT / "examples" / "golf-match.jsonl")
    assert main(["sim", log]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a match log" in err and f"tablesense replay {log}" in err, err
