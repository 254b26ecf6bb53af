"""The season soak's small disk (tests/soak/disk.py) fills when the process on it writes at
the same moment: the disk ends full, the fill does not fail, and freeing it gives the space
back. Needs root to mount a tmpfs (skipped with one line otherwise)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from soak.disk import FILLER, Disk


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs as root)")
    d = Disk(tmp_path / "disk", 1)
    if not d.mount().startswith("tmpfs"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", str(d.path)], check=False)


@pytest.mark.parametrize("took", [1, 5_000, 70_000, 300_000])
@pytest.mark.parametrize("leave", [0, 4096, 65536])
def test_a_disk_filled_while_its_database_writes_ends_full_and_frees(disk: Disk, leave: int, took: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    looked = disk.free_bytes

    def look_then_other_writes() -> int:  # the pub writes ``took`` bytes just after the filler looked
        free = looked()
        (disk.path / "pub.db-wal").write_bytes(b"w" * min(took, free))
        return free

    monkeypatch.setattr(disk, "free_bytes", look_then_other_writes)
    disk.fill(leave)
    monkeypatch.undo()
    assert disk.free_bytes() <= leave  # full as planned, or fuller: never a failed fill
    with pytest.raises(OSError):
        (disk.path / "more").write_bytes(b"x" * (leave + 8192))
    disk.free()
    assert not (disk.path / FILLER).exists() and disk.free_bytes() > 512 * 1024
