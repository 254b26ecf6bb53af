"""A small disk for a match log, that the soak fills and frees.

As root the soak mounts a tmpfs of a few MB for each database (``mount -t tmpfs -o
size=...``): filling it is writing a file that leaves a few KB (or nothing) free, freeing
it is deleting that file; SQLite meets a full file system exactly as on a real disk
(``database or disk is full``), its WAL included. Without the right to mount, the soak
falls back to ``RLIMIT_FSIZE`` (``prlimit`` on the running process): a file may not grow
past its size now, which SQLite reports as "disk I/O error" -- a cruder stand-in, said so
in the soak's figures (``Disk.method``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import subprocess
from pathlib import Path

FILLER = "filler.bin"
_NO_LIMIT = resource.RLIM_INFINITY


class Disk:
    def __init__(self, path: Path, size_mb: int) -> None:
        self.path = path
        self.size_mb = size_mb
        self.method = "none"
        self.full = False
        self.fills = 0
        self.pids: list[int] = []  # RLIMIT_FSIZE: the processes writing there
        self.was_mounted = False
        self.leave = 0

    def mount(self) -> str:
        self.path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size_mb}m,mode=0755", "tmpfs",
                                   str(self.path)], capture_output=True, text=True, timeout=10)
            if done.returncode == 0:
                self.method = f"tmpfs {self.size_mb} MB"
                return self.method
        self.method = "RLIMIT_FSIZE"
        return self.method

    @property
    def kept(self) -> Path:
        """Where the disk's files are once it is unmounted (the databases, for the checks)."""
        mounted = self.method.startswith("tmpfs") or self.was_mounted
        return self.path.parent / "disk-kept" if mounted else self.path

    def unmount(self) -> None:
        """Copy its files (all but the filler) beside it, then unmount it."""
        if self.method.startswith("tmpfs"):
            self.was_mounted = True
            with contextlib.suppress(OSError):
                shutil.copytree(self.path, self.kept, ignore=shutil.ignore_patterns(FILLER),
                                dirs_exist_ok=True)
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True, timeout=10)
            self.method = "tmpfs (unmounted)"

    def free_bytes(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    def fill(self, leave: int) -> None:
        """Leave ``leave`` bytes free (RLIMIT_FSIZE: every file stops where it is).

        The process on the disk writes while the filler does: should it take more than a page
        between the look at what is free and the filler's last write, that write meets a full
        disk. The disk is then full (fewer than ``leave`` bytes free: ``free_bytes`` tells how
        many), which is the fault, only harder. The filler writes without a buffer: through
        Python's, the bytes the full disk refused stayed in it and closing the file wrote them
        again and raised ENOSPC (the league's disk, seed 4141: the fault counted as not
        injected, and the disk was never freed until the next fault on it)."""
        self.fills += 1
        self.full = True
        self.leave = leave
        if self.method.startswith("tmpfs"):
            want = max(0, self.free_bytes() - leave)
            fd = os.open(self.path / FILLER, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                chunk = bytes(1 << 20)
                while want > 0:
                    try:
                        want -= os.write(fd, chunk[:min(want, len(chunk))])
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break  # full: another writer took the rest
            finally:
                os.close(fd)
            return
        if self.method == "RLIMIT_FSIZE":
            biggest = max((p.stat().st_size for p in self.path.glob("*") if p.is_file()), default=0)
            for pid in self.pids:
                with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                    resource.prlimit(pid, resource.RLIMIT_FSIZE, (biggest + leave, resource.RLIM_INFINITY))

    def track(self, pid: int) -> None:
        """The process writing there now (restarted): RLIMIT_FSIZE applies to it too."""
        self.pids = [pid]
        if self.full and self.method == "RLIMIT_FSIZE":
            self.fill(self.leave)

    def free(self) -> None:
        self.full = False
        with contextlib.suppress(OSError):
            (self.path / FILLER).unlink()
        if self.method == "RLIMIT_FSIZE":
            for pid in self.pids:
                with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                    resource.prlimit(pid, resource.RLIMIT_FSIZE, (_NO_LIMIT, _NO_LIMIT))
