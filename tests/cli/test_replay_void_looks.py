"""``replay._may_void`` looks at a chunk's first letters "v" one by one (each found by ``memchr``)
before it searches for the word: whether it looks at all of them or searches after a few
(``VOID_LOOKS``), it says what a plain search for ``"void"`` says."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablesense import replay

PIECES = [b'"void"', b"void", b'"vo', b'id"', b"v", b'"v', b'"', b"vv", b"x", b"\n", b'"balls_moving"',
          b'{"t": 1.0, "type": "rest"}']


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(1, 6))
@example([b"v"] * 70 + [b'"void"'], replay.VOID_LOOKS)
@example([b'"void"'], 1)
@example([b"v", b'"void"'], 1)
def test_looking_at_each_v_says_what_a_plain_search_says(pieces: list[bytes], looks: int) -> None:
    data = b"".join(pieces)
    kept = replay.VOID_LOOKS
    try:
        for limit in (looks, kept):
            replay.VOID_LOOKS = limit
            assert replay._may_void(data) == (b'"void"' in data), (limit, data)
    finally:
        replay.VOID_LOOKS = kept
