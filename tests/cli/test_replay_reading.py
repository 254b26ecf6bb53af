"""``tablesense replay --json`` reads a log in chunks of bytes (``replay.counted_lines``,
``replay.scan_chunks``, ``Replay.feed_chunks``) rather than line by line: the same lines with the
same numbers, the same undo count, the same match and errors, whatever the bytes (line ends,
blank lines, text that is not UTF-8, a character cut between two chunks, no newline at the end)."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from tablesense.commands.replay import _reader
from tablesense.replay import (
    Replay,
    _may_void,
    _undo_lines,
    counted_lines,
    effective_stream,
    scan_chunks,
    scan_log,
)

PIECES = [b'{"t": 1, "type": "rest"}', b"\n", b"\r", b"\r\n", b" ", b"\t", b"\xff", "é€".encode(),
          b'"undo"', b'{"t": 2, "type": "call", "call": "undo"}', b"\x0b", "\u2028".encode(),
          b'undo"', b'"', b"undo", b'"und']


def _chunked(data: bytes, size: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(1, 9))
def test_the_lines_read_in_chunks_are_the_lines_read_one_by_one(pieces: list[bytes], size: int) -> None:
    data = b"".join(pieces)
    lines = _reader(io.BytesIO(data))
    want = [(n, text) for n, text in effective_stream(lines)]
    got = [(n, text) for n, text in counted_lines(_chunked(data, size)) if not text.isspace()]
    assert got == want
    scan = scan_chunks(_chunked(data, size))
    assert scan == scan_log(lines())


EVENTS = [b'{"t": 0.0, "type": "setup", "game": "golf", "players": {"p1": "Ann", "p2": "Bob"}}',
          b'{"t": 1.0, "type": "goal", "goal": "A"}', b'{"t": 1.5, "type": "cushion", "cushion": 2}',
          b'{"t": 2.0, "type": "rest"}', b'{"t": 0.5, "type": "rest"}',
          b'{"t": 3.0, "type": "call", "call": "undo"}',
          b'{"t": 3.5, "type": "goal", "goal": "C"}', b'{"t": 4, "type": "goal", "goal": "B", "ball": "p2"}',
          b"\n", b"\r\n", b"  ", b"\xff", "\u00e9".encode()]


@given(st.lists(st.sampled_from(EVENTS), max_size=80), st.integers(1, 200))
def test_a_log_replayed_a_chunk_at_a_time_is_the_log_replayed_line_by_line(pieces: list[bytes],
                                                                            size: int) -> None:
    data = b"\n".join(pieces)
    by_chunk = Replay(history=64).feed_chunks(_chunked(data, size), guard=True)
    by_line = Replay(history=64).feed_counted(counted_lines([data]), guard=True)
    assert [str(e) for e in by_chunk.errors] == [str(e) for e in by_line.errors]
    assert by_chunk.to_json() == by_line.to_json()
    assert by_chunk.events == by_line.events


def test_a_log_with_a_void_record_is_scanned_line_by_line() -> None:
    data = (b'{"t": 0, "type": "setup", "game": "golf"}\n'
            b'{"t": 1, "type": "call", "call": "void", "seqs": [1]}\n')
    assert scan_chunks(_chunked(data, 7)) is None
    undo = data.replace(b"void", b"undo")
    assert scan_chunks([undo]) == scan_log(_reader(io.BytesIO(undo))())


SCANNED = [b'"undo"', b'undo"', b"undo", b'"und', b'o"', b'"', b"\n", b"d", b"x", b'"void"', b"void", b'"vo',
           b'id"', b"v"]


@given(st.lists(st.sampled_from(SCANNED), max_size=40))
def test_the_scan_finds_undo_lines_and_void_records_as_a_plain_search_does(pieces: list[bytes]) -> None:
    # the scan's searches (a word without its quotes first, one pass for the undos) say what a plain
    # search of each line says: lines holding "undo" (once each), and whether "void" is anywhere
    data = b"".join(pieces)
    assert _undo_lines(data) == sum(b'"undo"' in line for line in data.split(b"\n"))
    assert _may_void(data) == (b'"void"' in data)
