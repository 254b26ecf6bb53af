"""The frame codec and the streaming decoder: round trips, bad input, and a hypothesis fuzz."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablesense.errors import BadFrame
from tablesense.link.frame import (
    MAX_WIRE,
    T_MAX,
    ColourFrame,
    CountFrame,
    ErrorFrame,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    ReadingFrame,
    StreamDecoder,
    cobs_decode,
    cobs_encode,
    decode_frame,
    encode_frame,
)

seqs = st.integers(0, 0xFFFFFF)
u8 = st.integers(0, 255)
t48 = st.integers(0, T_MAX)
u32 = st.integers(0, 0xFFFFFFFF)
u16 = st.integers(0, 0xFFFF)
text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20)
frames = st.one_of(
    st.builds(EventFrame, seqs, u8, st.integers(0, 15), t48),
    st.builds(CountFrame, seqs, u8, u8, t48),
    st.builds(ReadingFrame, seqs, u8, u8, t48),
    st.builds(HelloFrame, seqs, t48, u8, u32, u32, u32, u32, text, text, text, text,
              st.none(), st.just(""), st.none(), st.none(), st.none()),
    st.builds(HelloFrame, seqs, t48, u8, u32, u32, u32, u32, text, text, text, text, u8,
              st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=120), st.none() | u32,
              st.none(), st.none()),
    # firmware 0.5: the boot before's tag and last seq after the boot tag, the longest texts
    st.builds(HelloFrame, seqs, t48, u8, u32, u32, u32, u32,
              *(st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=n, max_size=n)
                for n in (16, 32, 16, 16)), u8,
              st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=120), u32, u32, seqs),
    st.builds(HeartbeatFrame, seqs, t48, u16, u16, u16, st.none(), st.none()),
    st.builds(HeartbeatFrame, seqs, t48, u16, u16, u16, t48, st.none() | u32),
    st.builds(PongFrame, seqs, u16),
    st.builds(ErrorFrame, seqs, u8, text),
    st.builds(ColourFrame, seqs, u8, u8, u8, u16, u16, u16, u16),
)


@given(st.binary(max_size=700))
def test_cobs_round_trip_never_has_a_zero(data: bytes) -> None:
    enc = cobs_encode(data)
    assert b"\0" not in enc
    assert cobs_decode(enc) == data


@given(frames)
def test_every_frame_round_trips(frame) -> None:  # type: ignore[no-untyped-def]
    wire = encode_frame(frame)
    assert decode_frame(wire) == frame
    assert b"\0" not in wire[:-1]


def test_out_of_range_fields_are_refused_with_the_field_named() -> None:
    with pytest.raises(BadFrame, match="48 bits"):
        encode_frame(EventFrame(0, 0, 0, 2**48))
    with pytest.raises(BadFrame, match="24 bits"):
        encode_frame(EventFrame(2**24, 0, 0, 0))


def test_decoder_reports_where_and_why() -> None:
    good = encode_frame(EventFrame(5, 3, 1, 1000))
    dec = StreamDecoder()
    bad = bytearray(good)
    bad[5] ^= 1
    got = dec.feed(bytes(bad) + good)
    assert got == [EventFrame(5, 3, 1, 1000)]
    assert dec.bad == 1
    assert "CRC mismatch" in str(dec.errors[0]) and "at byte 0" in str(dec.errors[0])


def test_frame_after_garbage_without_delimiter_is_recovered() -> None:
    frame = EventFrame(1, 2, 1, 99)
    dec = StreamDecoder()
    got = dec.feed(b"\x95\xfe\x81 v1.24 on unix; >>> " + encode_frame(frame))
    assert got == [frame]
    assert dec.bad == 1 and "garbage" in dec.errors[0].reason


def test_endless_garbage_is_bounded_and_reported() -> None:
    dec = StreamDecoder()
    for _ in range(100):
        assert dec.feed(b"\x95" * 1000) == []
    assert dec.pending <= MAX_WIRE
    frame = EventFrame(1, 2, 1, 99)
    assert dec.feed(encode_frame(frame)) == [frame]
    assert dec.bad == 1 and "100000 bytes of garbage" in dec.errors[0].reason


def test_byte_at_a_time_feeding_gives_the_same_frames() -> None:
    fs = [EventFrame(i, i % 16, i & 1, 1000 * i) for i in range(50)]
    data = b"".join(encode_frame(f) for f in fs)
    dec = StreamDecoder()
    got = []
    for i in range(len(data)):
        got += dec.feed(data[i : i + 1])
    assert got == fs and dec.bad == 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(frames, st.binary(max_size=40), st.booleans(), st.integers(0, 300), u8), max_size=12),
    st.lists(st.integers(1, 64), max_size=20),
)
def test_fuzz_garbage_between_and_inside_frames(items, cuts) -> None:  # type: ignore[no-untyped-def]
    """Random bytes never crash the decoder; corrupted frames never come out; intact ones all do."""
    stream = bytearray()
    intact = []
    for frame, garbage, corrupt, where, xor in items:
        stream += garbage
        wire = bytearray(encode_frame(frame))
        if corrupt and xor:
            wire[where % (len(wire) - 1)] ^= xor  # never the delimiter
        else:
            intact.append(frame)
        stream += wire
    dec = StreamDecoder()
    got = []
    pos = 0
    for c in [*cuts, len(stream)]:
        got += dec.feed(bytes(stream[pos : pos + c]))
        pos += c
    got += dec.feed(bytes(stream[pos:]))
    # every intact frame comes out, in order
    it = iter(got)
    assert all(any(g == f for g in it) for f in intact), (intact, got)
    # nothing else comes out: a corrupted frame or garbage never decodes as a frame
    assert len(got) == len(intact), (intact, got)


@settings(max_examples=500)
@given(
    st.one_of(
        st.builds(lambda f: encode_frame(f)[:-1], frames),
        st.binary(min_size=15, max_size=15).map(lambda b: b.replace(b"\0", b"\1")),
    )
)
def test_fast_path_agrees_with_the_reference_decoder(chunk: bytes) -> None:
    """The inlined record decoder gives what COBS decode + decode_payload give, errors included."""
    from tablesense.link.frame import _decode_fast, decode_payload

    try:
        want = decode_payload(cobs_decode(chunk))
    except BadFrame:
        want = None
    try:
        got = _decode_fast(chunk)
    except BadFrame:
        got = None
    assert got == want and type(got) is type(want)


def test_a_hello_from_firmware_before_0_2_decodes_with_empty_micropython_and_chip() -> None:
    """Boards flashed before the HELLO carried the MicroPython version and the chip still
    connect: the two texts are simply absent at the end of the frame."""
    from tablesense.link import frame

    new = frame.encode_frame(frame.HelloFrame(5, 1000, 16, 0, 0, 0, 0, "0.1.0", "golf", "", ""))
    old_payload = frame.cobs_decode(new[:-1])[:-2 - 2]  # without the two empty texts and the CRC
    from binascii import crc_hqx

    old_payload += crc_hqx(old_payload, 0xFFFF).to_bytes(2, "little")
    got = frame.decode_frame(frame.cobs_encode(old_payload))
    assert (got.fw_version, got.profile_id, got.mp_version, got.chip) == ("0.1.0", "golf", "", "")


def test_a_hello_names_the_micropython_version_and_chip_of_the_board() -> None:
    from tablesense.link import frame

    f = frame.HelloFrame(5, 1000, 16, 0, 0, 0, 0, "0.2.0", "golf", "1.26.1", "esp32")
    assert frame.decode_frame(frame.encode_frame(f)) == f


def test_a_boot_tag_ends_the_hello_and_heartbeat_of_firmware_0_4_and_older_ones_have_none() -> None:
    from tablesense.link import frame

    hello = frame.HelloFrame(5, 1000, 16, 0, 0, 0, 0, "0.4.0", "golf", "1.26.1", "esp32", 1, "", 0xA1B2C3D4)
    beat = frame.HeartbeatFrame(5, 2000, 0, 0, 0, 1900, 0xA1B2C3D4)
    for f in (hello, beat):
        payload = frame.encode_payload(f)
        assert payload[-6:-2] == bytes.fromhex("d4c3b2a1")  # u32 LE, then the CRC
        assert frame.decode_frame(frame.encode_frame(f)) == f
    for old in (hello._replace(boot_tag=None), beat._replace(boot_tag=None)):
        assert frame.decode_frame(frame.encode_frame(old)).boot_tag is None
    from binascii import crc_hqx

    why = r"bytes after crash|heartbeat body is 21 bytes, expected 12, 18 or 22"
    for f in (hello, beat):  # three bytes of a tag: no frame of any firmware
        cut = frame.encode_payload(f)[:-3]
        cut += crc_hqx(cut, 0xFFFF).to_bytes(2, "little")
        with pytest.raises(BadFrame, match=why):
            frame.decode_frame(frame.cobs_encode(cut))


# --- text between frames: the ESP32's boot ROM, ESP-IDF's log lines ---------------------

#: What the ESP32's ROM prints on UART0 at 115200 baud at every reset, before MicroPython
#: runs (nothing in the firmware can silence it).
ROM_BOOT = (b"ets Jul 29 2019 12:21:46\r\n\r\nrst:0xc (SW_CPU_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)\r\n"
            b"configsip: 0, SPIWP:0xee\r\nclk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,"
            b"wp_drv:0x00\r\nmode:DIO, clock div:2\r\nload:0x3fff0030,len:4728\r\n"
            b"load:0x40078000,len:14888\r\nload:0x40080400,len:3368\r\nentry 0x400805cc\r\n")
#: ESP-IDF's error line for a pulse counter on an input-only pin, as the legacy driver logs it
IDF_LINE = b"E (523) gpio: gpio_pullup_en(78): GPIO number error (input-only pad has no internal PU)\r\n"


def test_the_boot_rom_text_before_the_first_hello_is_text_not_a_bad_frame() -> None:
    hello = HelloFrame(0xFFFFFF, 120_000, 3, 0, 0, 0, 0, "0.3.0", "golf", "1.26.1", "esp32", 2, "")
    dec = StreamDecoder()
    got = dec.feed(ROM_BOOT + encode_frame(hello))
    assert got == [hello] and dec.bad == 0
    assert dec.text_bytes == len(ROM_BOOT)
    assert dec.texts[0] == "ets Jul 29 2019 12:21:46" and dec.texts[-1] == "entry 0x400805cc"
    assert dec.text_lines == 9


@settings(max_examples=200, deadline=None)
@given(
    st.lists(frames, min_size=1, max_size=6),
    st.lists(st.one_of(st.just(IDF_LINE), st.just(ROM_BOOT),
                       st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=600)
                       .map(lambda t: t.encode("ascii"))), min_size=1, max_size=6),
    st.lists(st.integers(1, 300), max_size=20),
)
def test_text_between_frames_never_costs_a_frame_in_any_chunking(fs, texts, cuts) -> None:  # type: ignore[no-untyped-def]
    """Any printable text before any frame, read in any pieces: every frame comes out, no
    bad frame is counted, every byte of text is counted as text."""
    stream = bytearray()
    for i, f in enumerate(fs):
        stream += texts[i % len(texts)] + encode_frame(f)
    dec = StreamDecoder()
    got = []
    pos = 0
    for c in [*cuts, len(stream)]:
        got += dec.feed(bytes(stream[pos : pos + c]))
        pos += c
    assert got == fs
    assert dec.bad == 0, dec.errors
    assert dec.text_bytes == sum(len(texts[i % len(texts)]) for i in range(len(fs)))


def test_an_idf_error_line_between_two_events_is_kept_as_a_line() -> None:
    a, b = EventFrame(1, 11, 1, 1000), EventFrame(2, 11, 0, 6000)
    dec = StreamDecoder()
    assert dec.feed(encode_frame(a) + IDF_LINE + encode_frame(b)) == [a, b]
    assert dec.bad == 0
    assert dec.texts == [IDF_LINE.decode().strip()]


def test_a_colour_frame_decodes_with_its_counts() -> None:
    f = ColourFrame(41, 1, 3, 2, 2560, 1400, 600, 560)
    wire = encode_frame(f)
    assert decode_frame(wire) == f and f.usable
    assert [round(x) for x in f.chroma()] == [547, 234, 219]
    assert StreamDecoder().feed(encode_frame(EventFrame(0, 0, 1, 5)) + wire) == [EventFrame(0, 0, 1, 5), f]


# --- runs of records, decoded at once ----------------------------------------------------

records = st.one_of(
    st.builds(EventFrame, seqs, u8, st.integers(0, 15), t48),
    st.builds(CountFrame, seqs, u8, u8, t48),
    st.builds(ReadingFrame, seqs, u8, u8, t48),
)


def _cobs_reference(data: bytes) -> bytes:
    """COBS decoding as the paper gives it, byte by byte: the oracle for the C decoder."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data) or 0 in data[i + 1 : i + code]:
            raise BadFrame("not COBS")
        out += data[i + 1 : i + code]
        i += code
        if i < len(data) and code < 255:
            out.append(0)
    return bytes(out)


@settings(max_examples=500)
@given(st.one_of(st.binary(min_size=1, max_size=600),
                 st.binary(min_size=1, max_size=600).map(lambda b: b.replace(b"\0", b"\xff")),
                 st.binary(max_size=600).map(cobs_encode)))
def test_cobs_decode_agrees_with_the_reference_on_any_bytes(data: bytes) -> None:
    """The C decoder (the ``cobs`` package) takes what the byte-by-byte definition takes,
    gives what it gives, and refuses what it refuses (as a BadFrame naming COBS)."""
    try:
        want = _cobs_reference(data)
    except BadFrame:
        want = None
    try:
        got = cobs_decode(data)
    except BadFrame as exc:
        assert "COBS" in str(exc)
        got = None
    assert got == want


def _damage(wire: bytes, how: int, where: int, xor: int) -> bytes:
    """One frame's wire bytes damaged: a byte flipped (its delimiter never), one dropped,
    one inserted inside it, or its first code byte turned into 0xFF (a block that crosses
    into the next chunk)."""
    b = bytearray(wire)
    i = where % (len(b) - 1)
    if how == 0:
        b[i] ^= xor or 1
    elif how == 1:
        del b[i]
    elif how == 2:  # inside it (at 0, or a copy of the byte before it: garbage before a frame)
        i = max(i, 1)
        v = xor or 1
        b.insert(i, v if v != b[i - 1] else v % 255 + 1)
    else:
        b[0] = 0xFF
    return bytes(b)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(records, st.integers(0, 9).map(lambda x: x == 7), st.integers(0, 3),
                          st.integers(0, 20), u8),
                min_size=12, max_size=80))
def test_a_run_decoded_at_once_gives_what_frame_by_frame_gives(items) -> None:  # type: ignore[no-untyped-def]
    """Record frames, some damaged in every way the line can: the run decoder takes the
    16-byte chunks that end in a delimiter, from the first on, and gives exactly the
    frames that decoding each alone gives, when they are all intact records (and at least
    _RUN_MIN of them); otherwise it declines. A run of intact records it always takes."""
    from tablesense.link.frame import _RUN_MIN, _records, decode_payload

    wires = [_damage(encode_frame(f), how, where, xor) if bad else encode_frame(f)
             for f, bad, how, where, xor in items]
    buf = b"".join(wires)
    k = len(buf) >> 4
    got = _records(buf, 0, k)
    lead = 0  # 16-byte spans ending in a delimiter, from the start
    while lead < k and buf[16 * lead + 15] == 0:
        lead += 1
    spans = [buf[16 * i : 16 * i + 15] for i in range(lead)]
    want: list | None = None
    if lead >= _RUN_MIN and all(0 not in c for c in spans):
        try:
            want = [decode_frame(c) for c in spans]
        except BadFrame:
            want = None
        if want is not None and not all(isinstance(f, (EventFrame, CountFrame, ReadingFrame)) for f in want):
            want = None
    assert got == want
    if got is not None:  # each is what its own payload says
        assert got == [decode_payload(cobs_decode(c)) for c in spans]
    if not any(bad for _, bad, *_ in items):
        assert got == [f for f, *_ in items]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.one_of(st.lists(records, max_size=3), st.lists(records, min_size=12, max_size=40)),
                       frames, st.integers(0, 2), st.integers(0, 3),
                       st.integers(0, 20), u8,
                       st.one_of(st.binary(min_size=1, max_size=30), st.just(IDF_LINE))),
             min_size=1, max_size=6),
    st.lists(st.integers(1, 3000), max_size=8),
)
def test_any_chunking_gives_the_same_frames_errors_and_text(items, cuts) -> None:  # type: ignore[no-untyped-def]
    """Runs of records, each followed by another frame, damaged or not, or by garbage or
    text and a frame, read in big pieces (runs decoded at once) or a byte at a time (chunk
    by chunk): the same frames come out, the same bad frames are counted at the same
    offsets, the same text is kept; every intact frame comes out and nothing else does."""
    stream = bytearray()
    intact = []
    for run_of, f, fate, how, where, xor, junk in items:  # fate: 1 damaged, 2 junk before f
        intact += run_of
        stream += b"".join(encode_frame(r) for r in run_of)
        if fate == 2:
            stream += junk
        if fate == 1:
            stream += _damage(encode_frame(f), how, where, xor)
        else:
            intact.append(f)
            stream += encode_frame(f)

    def run(pieces: list[int]) -> tuple[list, StreamDecoder]:
        dec = StreamDecoder(keep_errors=10_000)
        got = []
        pos = 0
        for c in pieces:
            got += dec.feed(bytes(stream[pos : pos + c]))
            pos += c
        got += dec.feed(bytes(stream[pos:]))
        return got, dec

    big, a = run(cuts)
    small, b = run([1] * len(stream))
    assert big == small
    assert (a.bad, a.errors, a.text_bytes, a.texts) == (b.bad, b.errors, b.text_bytes, b.texts)
    it = iter(big)
    assert all(any(g == f for g in it) for f in intact), (intact, big)
    if not any(fate == 2 for _, _, fate, *_ in items):
        assert len(big) == len(intact)  # a damaged frame never comes out as one


def _rewired(payload: bytes) -> bytes:
    """A payload (without its CRC) on the wire: CRC, COBS, delimiter."""
    from binascii import crc_hqx

    return cobs_encode(payload + crc_hqx(payload, 0xFFFF).to_bytes(2, "little")) + b"\0"


def test_a_cobs_chain_across_a_delimiter_is_no_run_of_records() -> None:
    """Twelve intact payloads COBS-encoded as one block, cut into twelve 15-byte chunks
    with a delimiter after each: joined, they decode to twelve payloads with valid CRCs,
    but no chunk is a frame on its own (its code bytes point into the next): nothing
    comes out, each chunk is a bad frame."""
    from binascii import crc_hqx

    from tablesense.link.frame import _RUN_MIN, _records, encode_payload

    n = 12
    assert n >= _RUN_MIN  # one read of them goes the run's way first
    payloads = [encode_payload(EventFrame(i, 3, 1, 1000 * i + 7)) for i in range(n)]
    joined = b"\x55".join(payloads)  # a non-zero byte where each chunk's closing zero would be
    enc = cobs_encode(joined)
    assert len(enc) == 15 * n
    assert crc_hqx(payloads[0][:12], 0xFFFF) == int.from_bytes(payloads[0][12:], "little")
    wire = b"".join(enc[i : i + 15] + b"\0" for i in range(0, 15 * n, 15))
    assert _records(wire, 0, n) is None
    dec = StreamDecoder()
    assert dec.feed(wire) == []
    assert dec.bad == n


@pytest.mark.parametrize(
    ("odd", "want", "reason"),
    [
        (encode_frame(ErrorFrame(9, 4, "no chip")), ErrorFrame(9, 4, "no chip"), None),
        (_rewired(bytes([0x21, 5, 0, 0, 3, 1, 7, 0, 0, 0, 0, 0])), None, "protocol version 2"),
        (_rewired(bytes([0x19, 5, 0, 0, 3, 1, 7, 0, 0, 0, 0, 0])), None, "unknown frame type 0x9"),
    ],
    ids=["error frame", "version 2", "unknown type"],
)
def test_a_fifteen_byte_frame_that_is_no_record_inside_a_run(odd: bytes, want, reason) -> None:  # type: ignore[no-untyped-def]
    """A run of events with a 15-byte frame in the middle that is not a record: an ERROR
    with a 7-letter text comes out as itself, a record of another protocol version or an
    unknown type is a bad frame saying so; every event around it comes out."""
    assert len(odd) == 16
    events = [EventFrame(i, i % 16, i & 1, 5000 + i) for i in range(12)]
    wire = b"".join(encode_frame(e) for e in events[:6]) + odd + b"".join(encode_frame(e) for e in events[6:])
    dec = StreamDecoder()
    got = dec.feed(wire)
    assert got == events[:6] + ([want] if want else []) + events[6:]
    assert dec.bad == (1 if reason else 0)
    if reason:
        assert reason in dec.errors[0].reason and dec.errors[0].offset == 6 * 16
