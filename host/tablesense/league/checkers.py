"""Processes that check the league's match messages beside the service (``service``): a
match's replay is pure Python, so the threads of one process take turns at one core;
forked once when the service starts (the engines already imported), each child reads a
message from a pipe, runs ``run`` on it and writes back what it found.

- **Forked, not spawned**: a child costs no start-up (a fresh interpreter importing the
  engines takes 0.4 s of CPU), and it shares the parent's memory until it writes to it.
  The first children are forked by the thread calling ``Checkers.start`` before the
  service's threads start; a replacement (``call``) is forked by the check thread that
  needs it, while the other threads run. One fork at a time (``_FORKING``: ``gc.freeze``
  and ``unfreeze`` of two forks never interleave). Its garbage collector never sees the
  parent's objects (``gc.freeze``: no finaliser of the parent's, an SQLite connection,
  runs in the child), and it closes every inherited file but its two pipes (the league
  file, the sockets). A risk of a fork beside threads: a lock another thread holds at that
  moment stays held in the child (CPython resets its own: the import lock, the GIL); the
  child uses only ``run`` and its pipes. A child stuck on such a lock (or stopped) is known
  by its silence: one that has not begun its answer ``ANSWER_S`` seconds, and
  ``ANSWER_S_PER_MB`` more for each megabyte sent, after a call is killed and replaced like
  one that died (the limits are far above what the longest messages take on a slow machine:
  a 4 MB log is replayed in about a second here).
- **Never outlives the service**: the kernel kills a child when the *thread* that forked
  it ends (``prctl(PR_SET_PDEATHSIG)``, Linux): the first ones with the thread that called
  ``start`` (``league serve``'s main thread), a replacement with its check thread, which
  lives until the service stops; a service killed outright (``kill -9``) ends them all.
  Elsewhere a child ends when its request pipe reaches its end, which happens when the
  service is gone. ``close`` kills and reaps every child.
- **A child that dies** (killed, out of memory) or stops answering is replaced and its
  message given to the new one once; a message that kills two children, or that two leave
  unanswered, is said to be unreadable (``CheckerDied``) and listed, not tried for ever.
- **State the children keep** (``shared``: the competitions' members): sent to a child only
  when it changed since that child last had it, with the message that needs it.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import pickle
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable
from typing import Any

#: ``run(meta, raw, shared)`` in a child: meta a picklable tuple, raw the message's bytes,
#: shared the state last sent (None before any); its result must pickle
Run = Callable[[Any, bytes, Any], Any]

_HEAD = struct.Struct("<II")  # lengths of the pickled part and of the raw bytes that follow
_PR_SET_PDEATHSIG = 1
#: seconds a child may keep silent after a call before it is taken for stuck (and replaced),
#: plus this many for each megabyte of the messages sent (their replay's time)
ANSWER_S = 30.0
ANSWER_S_PER_MB = 10.0
_KEEP, _CALL = 0, 1
#: held from ``gc.freeze`` to ``gc.unfreeze`` around a fork: check threads replacing their
#: children at once would otherwise unfreeze while another forks
_FORKING = threading.Lock()


class CheckerDied(Exception):
    """A message that killed the child checking it twice (or the children cannot be started)."""


class CheckFault(Exception):
    """``run`` raised in a child: its account (type and text)."""


def default_count() -> int:
    """Children for this machine: one a core, two at least (a long log then never holds back
    the next match), four at most; none where forking a threaded process is not safe (off Linux:
    the service then checks in threads of its own)."""
    if not sys.platform.startswith("linux"):
        return 0
    return max(2, min(4, os.cpu_count() or 1))


class _Child:
    """One child and its two pipes; used by one thread at a time (``Checkers.call``'s caller)."""

    def __init__(self, pid: int, to_child: int, from_child: int) -> None:
        self.pid, self.to_child, self.from_child = pid, to_child, from_child
        self.shared_gen: int | None = None

    def kill(self) -> None:
        """Ends the child; its pipes end with it (a thread reading one gets its end)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def release(self) -> None:
        """Kill, reap, close the pipes: only by the thread that used it, or once none does."""
        self.kill()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        for fd in (self.to_child, self.from_child):
            with contextlib.suppress(OSError):
                os.close(fd)


class Checkers:
    """``count`` children running ``run``; ``call(slot, ...)`` from one thread per slot."""

    def __init__(self, run: Run, count: int, warm: Callable[[], None] | None = None) -> None:
        """``warm``: loads, before the first fork, what every child would load at its first
        call (the children share it)."""
        self.run, self.count, self.warm = run, count, warm
        self._children: list[_Child | None] = [None] * count
        self._lock = threading.Lock()  # the list of children (``close`` from another thread)
        self._closed = False

    def start(self) -> None:
        """Fork every child. Call it from a thread that lives as long as the service (the
        main thread: a child dies with the thread that forked it), before the service starts
        threads of its own. A child that cannot be
        forked now (no memory, no process left) is forked at its first message."""
        if self.warm is not None:
            self.warm()
        for slot in range(self.count):
            with contextlib.suppress(CheckerDied):
                self._fork(slot)

    def pids(self) -> list[int]:
        with self._lock:
            return [c.pid for c in self._children if c is not None]

    def call(self, slot: int, jobs: list[tuple[Any, bytes]], shared: tuple[int, Any]) -> list[Any]:
        """``run(meta, raw, shared[1])`` in child ``slot`` for each (meta, raw) of ``jobs``, in
        one exchange; ``shared[0]`` is the state's generation (sent again only when it
        changed). Each answer is ``run``'s result, or a ``CheckFault`` (``run`` raised) or a
        ``CheckerDied`` (the message killed two children) in its place. ``CheckerDied`` is
        raised when the service stops."""
        for attempt in (1, 2):
            child = self._children[slot] if not self._closed else None
            if child is None:
                child = self._fork(slot)
            try:
                if child.shared_gen != shared[0]:
                    _send(child.to_child, (_KEEP, shared[1]), b"")
                    child.shared_gen = shared[0]
                raw = b"".join(r for _, r in jobs)
                _send(child.to_child, (_CALL, [m for m, _ in jobs], [len(r) for _, r in jobs]), raw)
                _await_answer(child.from_child, ANSWER_S + ANSWER_S_PER_MB * len(raw) / 1e6)
                answers = _receive(child.from_child)[0]
            except (OSError, EOFError) as exc:
                with self._lock:
                    self._children[slot] = None
                child.release()
                if self._closed:
                    raise CheckerDied("the service is stopping") from None
                if attempt == 1:
                    continue
                if len(jobs) > 1:  # which one killed it: each alone
                    return [out for job in jobs for out in self.call(slot, [job], shared)]
                if isinstance(exc, _Silent):
                    return [CheckerDied(f"its checker process stopped answering twice ({exc})")]
                return [CheckerDied(f"its checker process died twice ({type(exc).__name__})")]
            return [out if ok else CheckFault(out) for ok, out in answers]
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Kill every child (a call waiting for one ends with ``CheckerDied``); ``release``
        once no thread calls any more."""
        with self._lock:  # a child in the list is not reaped yet: its pid is still its own
            self._closed = True
            for child in self._children:
                if child is not None:
                    child.kill()

    def release(self) -> None:
        """Reap every child and close its pipes (after ``close``, the callers' threads ended)."""
        with self._lock:
            children, self._children = self._children, [None] * self.count
        for child in children:
            if child is not None:
                child.release()

    def _fork(self, slot: int) -> _Child:
        if self._closed:
            raise CheckerDied("the service is stopping")
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        die = _die_with_parent()
        parent = os.getpid()
        with _FORKING:
            gc.freeze()  # the child's collector never visits the parent's objects
            try:
                pid = os.fork()
            except OSError as exc:
                gc.unfreeze()
                for fd in (down_r, down_w, up_r, up_w):
                    os.close(fd)
                raise CheckerDied(f"no checker process ({exc})") from None
            if pid == 0:  # the child: never returns
                code = 1
                try:
                    if die is not None:
                        die(signal.SIGKILL)
                    if os.getppid() != parent:  # the parent died before the prctl took hold
                        os._exit(1)
                    _child_main(self.run, down_r, up_w)
                    code = 0
                finally:
                    os._exit(code)
            gc.unfreeze()
        os.close(down_r)
        os.close(up_w)
        child = _Child(pid, down_w, up_r)
        with self._lock:
            if self._closed:
                child.release()
                raise CheckerDied("the service is stopping")
            self._children[slot] = child
        return child


def _die_with_parent() -> Callable[[int], None] | None:
    """``prctl(PR_SET_PDEATHSIG, sig)`` (Linux), looked up before the fork."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda sig: prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)


def _child_main(run: Run, rfd: int, wfd: int) -> None:
    """A child's life: each request answered in order, until its pipe ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the service's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)  # the parent's event loop's, closed below
    _close_all_but(rfd, wfd)
    shared: Any = None
    while True:
        try:
            head, raws = _receive(rfd)
        except EOFError:
            return
        if head[0] == _KEEP:
            shared = head[1]
            continue
        _, metas, lengths = head
        answers: list[tuple[bool, Any]] = []
        at = 0
        for meta, n in zip(metas, lengths, strict=True):
            raw, at = raws[at:at + n], at + n
            try:
                answers.append((True, run(meta, raw, shared)))
            except Exception as exc:  # the league's own fault: said, the child goes on
                answers.append((False, f"{type(exc).__name__}: {str(exc)[:100]}"))
        _send(wfd, answers, b"")


def _close_all_but(*keep: int) -> None:
    try:
        fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


#: raw bytes up to this long go in the same write as the frame's head (one system call)
_ONE_WRITE = 1 << 16


def _send(fd: int, obj: Any, raw: bytes) -> None:
    head = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    if len(raw) <= _ONE_WRITE:
        _write_all(fd, b"".join((_HEAD.pack(len(head), len(raw)), head, raw)))
        return
    _write_all(fd, _HEAD.pack(len(head), len(raw)) + head)
    _write_all(fd, raw)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class _Silent(TimeoutError):
    """A child that has not begun its answer in time (stuck, or stopped)."""


def _await_answer(fd: int, seconds: float) -> None:
    """Returns once the child's answer (or the end of its pipe) can be read; ``_Silent`` after
    ``seconds`` of silence."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if not poller.poll(int(seconds * 1000)):
        raise _Silent(f"no answer in {seconds:.0f} s")


def _receive(fd: int) -> tuple[Any, bytes]:
    """(the pickled part, the raw bytes) of the next frame; ``EOFError`` at the pipe's end."""
    n_head, n_raw = _HEAD.unpack(_read_exact(fd, _HEAD.size))
    if n_raw <= _ONE_WRITE:  # one read for both
        body = _read_exact(fd, n_head + n_raw)
        return pickle.loads(memoryview(body)[:n_head]), body[n_head:]
    obj = pickle.loads(_read_exact(fd, n_head))
    return obj, _read_exact(fd, n_raw)


def _read_exact(fd: int, n: int) -> bytes:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = os.readv(fd, [view[got:]])
        if k == 0:
            raise EOFError
        got += k
    return bytes(buf)
