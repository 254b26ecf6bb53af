"""The serial link over a real pty, with the test playing the device's side of the wire."""

from __future__ import annotations

import asyncio

import pytest
from helpers.link_reader import read_link
from helpers.pty_device import Pty

from tablesense.link import Link, LinkError, LinkStatus
from tablesense.link.frame import (
    F_ACTIVE,
    F_REPLAY,
    EventFrame,
    HeartbeatFrame,
    HelloFrame,
    PongFrame,
    encode_frame,
)


def ev(seq: int, ch: int = 3, flags: int = F_ACTIVE) -> bytes:
    return encode_frame(EventFrame(seq, ch, flags, 1_000_000 + seq))


HELLO = encode_frame(HelloFrame(0xFFFFFF, 1_000_000, 16, 0, 0, 0, 0, "0.1.0", "golf"))


@pytest.fixture
def compressed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's device lives seconds in milliseconds: let its times run ahead of the host's."""
    from tablesense.link import clock

    monkeypatch.setattr(clock, "AHEAD_US", 3600 * 10**6)


async def take(link: Link, n_frames: int, device, timeout: float = 5.0) -> tuple[list, list[LinkStatus]]:  # type: ignore[no-untyped-def]
    return await read_link(link, lambda frames, _: len(frames) == n_frames, timeout, device)


async def test_link_asks_hello_and_survives_garbage_and_corrupt_frames(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)
    corrupt = bytearray(ev(2))
    corrupt[6] ^= 0x40

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            assert await pty.command() == "!hello"
            pty.send(HELLO, ev(0), b"\x00MicroPython boot noise\r\n\x00", ev(1), bytes(corrupt), ev(2), ev(3))

    frames, statuses = await take(link, 4, device)
    assert [f.seq for f in frames] == [0, 1, 2, 3]
    bad = [s for s in statuses if s.kind == "bad_frames"]
    assert bad and "CRC mismatch" in " ".join(s.text for s in bad)
    assert link.stats.bad_frames == 1  # the corrupted copy of frame 2
    text = [s for s in statuses if s.kind == "board_text"]  # the noise is text between frames, said as such
    assert text and "MicroPython boot noise" in text[0].text


async def test_a_gap_is_replayed_on_request_and_duplicates_dropped(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            assert await pty.command() == "!hello"
            pty.send(HELLO, ev(0), ev(1), ev(4), ev(5))  # 2 and 3 lost on the wire
        elif s.kind == "replay":
            assert await pty.command() == "!replay 2"
            pty.send(*(ev(q, flags=F_ACTIVE | F_REPLAY) for q in range(0, 6)), ev(6))

    frames, statuses = await take(link, 7, device)
    assert [f.seq for f in frames] == list(range(7))
    # 4 and 5 came intact before the replay: those are kept, their replayed copies dropped
    assert [bool(f.flags & F_REPLAY) for f in frames] == [False, False, True, True, False, False, False]
    assert "gap: expected seq 2, got 4" in [s.text for s in statuses if s.kind == "gap"]
    assert link.seq_stats.duplicates == 4 and link.seq_stats.lost == 0


async def test_replay_range_gone_is_reported_as_lost_and_the_rest_replayed(pty: Pty) -> None:
    """ERROR 3 says the oldest frame kept: what is missing before it is lost (exactly that
    range, once), and the partial replay from it fills the rest of the gap."""
    from tablesense.link.frame import ErrorFrame

    link = Link(pty.port, from_seq=0, reconnect=False)

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(HELLO, ev(0), ev(900))
        elif s.kind == "replay":
            assert await pty.command() == "!replay 1"
            pty.send(
                encode_frame(ErrorFrame(900, 3, "replay 1: oldest kept is 389; replaying from it")),
                *(ev(q, flags=F_ACTIVE | F_REPLAY) for q in range(389, 901)),
                ev(901),
            )

    frames, statuses = await take(link, 2 + 901 - 389, device)
    assert [f.seq for f in frames] == [0, *range(389, 902)]
    texts = [str(s) for s in statuses]
    assert any("device error 3: replay 1: oldest kept is 389" in t for t in texts), texts
    lost = [s for s in statuses if s.kind == "lost"]
    assert [s.text.split(":")[0] for s in lost] == ["lost 388 frames (seq 1..388)"], texts
    assert lost[0].data == {"from": 1, "to": 388, "count": 388}
    assert link.seq_stats.lost == 388 and [s.kind for s in statuses].count("replay") == 1


async def test_a_port_that_cannot_be_opened_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    link = Link(str(tmp_path / "ttyUSB7"), reconnect=False)
    with pytest.raises(LinkError, match=r"cannot open .*ttyUSB7: .*No such file or directory"):
        async for _ in link.items():
            pass


async def test_commands_must_be_one_ascii_line(pty: Pty) -> None:
    link = Link(pty.port)
    for bad in ("!ping 1\n!hello", "\x03", "!profile k\u00e9gle"):
        with pytest.raises(ValueError, match="one line of printable ASCII"):
            await link.send(bad)


async def test_a_noisy_line_is_reported_once_a_second_not_per_chunk(pty: Pty) -> None:
    link = Link(pty.port, from_seq=0, reconnect=False)

    async def noise() -> None:  # 40 separate bursts the link reads one by one
        for _ in range(40):
            pty.send(b"\xaa\x55noise\x00")
            await asyncio.sleep(0.01)
        pty.send(ev(0))

    tasks = []

    async def device(s: LinkStatus) -> None:
        if s.kind == "connected":
            await pty.command()
            pty.send(HELLO)
            tasks.append(asyncio.create_task(noise()))

    frames, statuses = await take(link, 1, device)
    assert [f.seq for f in frames] == [0]
    bad = [s for s in statuses if s.kind == "bad_frames"]
    assert 1 <= len(bad) <= 2 and link.stats.bad_frames == 40


async def test_table_events_resync_pins_from_the_hello_after_a_loss(pty: Pty, compressed_time: None) -> None:
    """Frames the device no longer holds are lost; the next HELLO's levels still tell the pin fell."""
    from tablesense.link import table_events
    from tablesense.link.frame import ErrorFrame

    kegle_hello = HelloFrame(0xFFFFFF, 1000, 16, 0, 0, 0, 0, "0.1.0", "kegle")
    statuses: list[str] = []
    got = []

    async def device() -> None:
        assert await pty.command() == "!hello"
        pty.send(encode_frame(kegle_hello), encode_frame(EventFrame(0, 6, F_ACTIVE, 2_000_000)))
        # table_items skips status frames while link.seq.waiting: let the HELLO's baseline
        # reach the translator before the gap opens
        await asyncio.sleep(0.2)
        pty.send(encode_frame(EventFrame(700, 11, F_ACTIVE, 5_000_000)))  # 1..699 never came
        assert await pty.command() == "!replay 1"
        pty.send(encode_frame(ErrorFrame(700, 3, "replay 1: oldest kept is 700; replaying from it")))
        assert await pty.command() == "!hello"  # asked by table_events after the loss
        levels = 1 << 8  # pin 1 (ch 6) is up again, pin 3 (ch 8) is down
        pty.send(encode_frame(HelloFrame(700, 6_000_000, 16, levels, 0, 0, 0, "0.1.0", "kegle")))
        pty.send(encode_frame(HeartbeatFrame(700, 7_000_000, 0, 0, 0)))

    async def run() -> None:
        async for e in table_events(
            pty.port, "kegle", from_seq=0, reconnect=False, on_status=statuses.append
        ):
            got.append(e.to_dict())
            if len(got) == 4:
                return

    task = asyncio.create_task(device())
    await asyncio.wait_for(run(), 5)
    await task
    assert got == [
        {"t": 2.0, "type": "pin", "pin": 1, "state": "down"},
        {"t": 4.0, "type": "rest"},
        {"t": 6.0, "type": "pin", "pin": 1, "state": "up", "late": True},
        {"t": 6.0, "type": "pin", "pin": 3, "state": "down", "late": True},
    ]
    assert any(s.kind == "lost" for s in statuses)


async def test_socket_url_reconnects_after_the_peer_hangs_up_and_replays() -> None:
    """``socket://`` works like a serial port; a connection reset is an unplug: reconnect, resume."""
    kept = [ev(q) for q in range(10)]  # the device's replay buffer
    connections = 0

    async def device(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        first = connections == 1
        try:
            while line := await reader.readline():
                cmd = line.decode().strip()
                if cmd == "!hello":
                    last = 3 if first else 9  # frames 4..9 were "sent" while the cable was out
                    # its uptime after the stamps of the frames written before it, as on a board
                    hello = HelloFrame(last, 1_000_100, 16, 0, 0, 0, 0, "0.1.0", "golf")
                    writer.write(encode_frame(hello))
                    if first:
                        writer.write(b"".join(kept[:4]))
                        await writer.drain()
                        writer.close()  # the cable is pulled
                        return
                elif cmd.startswith("!replay "):
                    start = int(cmd.split()[1])
                    writer.write(b"".join(ev(q, flags=F_ACTIVE | F_REPLAY) for q in range(start, 10)))
                elif cmd.startswith("!ping "):  # the link confirms the seq the HELLO reported
                    writer.write(encode_frame(PongFrame(3 if first else 9, int(cmd.split()[1]))))
                await writer.drain()
        except ConnectionError:
            pass

    server = await asyncio.start_server(device, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    link = Link(f"socket://127.0.0.1:{port}", from_seq=0, backoff=(0.05, 0.2))

    async def nothing(s: LinkStatus) -> None:
        pass

    try:
        frames, statuses = await take(link, 10, nothing)
    finally:
        server.close()
    assert [f.seq for f in frames] == list(range(10))
    kinds = [s.kind for s in statuses]
    assert kinds[:2] == ["connected", "hello"] and "disconnected" in kinds and "reconnected" in kinds
    assert "replay" in kinds and link.seq_stats.lost == 0 and connections == 2
