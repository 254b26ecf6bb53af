"""Shell completion written from the parser, run in real bash and zsh."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tablesense.cli import main
from tablesense.texts import LANGS


def _script(shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["completion", shell]) == 0
    path = tmp_path / f"tablesense.{shell}"
    path.write_text(capsys.readouterr().out)
    return path


BASH_CASES = [
    (["tablesense", "le"], ["league"]),
    (["tablesense", "league", "st"], ["standings"]),
    (["tablesense", "league", "standings", "Najaar", "--d"], ["--db"]),  # options after the action
    (["tablesense", "run", "--lang", ""], list(LANGS)),
    (["tablesense", "run", "--profile", ""], ["carom", "golf", "kegle"]),
    (["tablesense", "demo", "--game", "ca"], ["carom"]),
    (["tablesense", "completion", "b"], ["bash"]),
    (["tablesense", "help", "lea"], ["league"]),
    (["tablesense", "run", "--se"], ["--serial"]),
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_actions_options_and_choices(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    script = _script("bash", tmp_path, capsys)
    (tmp_path / "match.jsonl").write_text("")
    calls = ['comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _tablesense; '
             'echo "${COMPREPLY[*]}"; }']
    cases = [*BASH_CASES, (["tablesense", "replay", "mat"], ["match.jsonl"])]
    calls += ["comp " + " ".join(f"'{w}'" for w in words) for words, _ in cases]
    done = subprocess.run(["bash", "-c", f"source {script}\n" + "\n".join(calls)], capture_output=True,
                          text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    got = done.stdout.splitlines()
    for (words, want), line in zip(cases, got, strict=True):
        assert sorted(line.split()) == sorted(want), (words, line)
    assert "--port" not in done.stdout  # old spellings are not offered


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh (apt-get install zsh)")
def test_zsh_completes_the_same_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compadd and _files exist only inside zsh's completion widget; the stand-ins print what the
    script hands them (zsh then filters by what is typed)."""
    script = _script("zsh", tmp_path, capsys)
    assert subprocess.run(["zsh", "-n", str(script)], timeout=30).returncode == 0
    stand_ins = ('compadd() { [[ $1 == -f ]] && shift; shift; print -r -- "$*"; }\n'
                 '_files() { print -r -- "@files"; }\n'
                 'comp() { words=("$@"); CURRENT=${#words}; PREFIX=${words[-1]}; _tablesense; }\n')
    cases = [(["tablesense", "league", "st"], {"standings", "moyennes", "--db"}),
             (["tablesense", "run", "--lang", ""], set(LANGS)),
             (["tablesense", "replay", ""], {"--json", "@files"})]
    calls = ["comp " + " ".join(f"'{w}'" for w in words) + "; print -- ---" for words, _ in cases]
    done = subprocess.run(["zsh", "-c", f"source {script}\n{stand_ins}" + "\n".join(calls)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    outputs = done.stdout.split("---\n")
    for (words, want), out in zip(cases, outputs, strict=False):
        assert want <= set(out.split()), (words, out)


def test_an_unknown_shell_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["completion", "fish"])
    assert done.value.code == 2 and capsys.readouterr().err.count("\n") == 1
