# The boot tag (firmware 0.4): drawn once at boot, the same in every HELLO and HEARTBEAT of
# that boot, another one at the next boot; saying it allocates nothing.
import fwtest  # first: puts firmware/ on sys.path

import link
import wire
from fwtest import channel, eq


def _statuses(fw):
    """A HELLO, a HEARTBEAT, a second of the loop (its heartbeats), another HELLO."""
    fw.hello()
    fw.heartbeat()
    out = fwtest.sent(fw)
    for _ in range(1500):
        fw.hal.set_clock(fw.hal.now + 1000)
        fw.step()
        fw.flush()
    fw.hello()
    return out + fwtest.sent(fw)


def test_every_status_frame_of_a_boot_says_its_tag():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    frames = _statuses(fw)
    kinds = [f["type"] for f in frames]
    eq(kinds.count(wire.HELLO), 2, "two HELLOs")
    eq(kinds.count(wire.HEARTBEAT) >= 2, True, "heartbeats")
    tags = set(f["tag"] for f in frames)
    eq(tags, {bytes(fw.tag)}, "one tag, the boot's, in every HELLO and HEARTBEAT")
    eq(len(bytes(fw.tag)), wire.TAG, "its length")


def test_each_boot_draws_another_tag():
    tags = set()
    for _ in range(20):
        fw = fwtest.firmware(fwtest.board([channel(0)]))
        fw.hello()
        tags.add(fwtest.sent(fw)[0]["tag"])
    eq(len(tags), 20, "20 boots, 20 tags")


def test_without_urandom_the_tick_count_at_boot_tells_boots_apart():
    a = link.boot_tag(1234567, None)
    b = link.boot_tag(1234568, None)
    eq(bytes(a), bytes([0x87, 0xD6, 0x12, 0x00]), "ticks 1234567, little endian")
    eq(a != b, True, "another tick count, another tag")


def test_urandom_and_the_ticks_are_mixed():
    eq(bytes(link.boot_tag(0x01020304, lambda n: bytes([0xF0] * n))), bytes([0xF4, 0xF3, 0xF2, 0xF1]),
       "urandom's bytes xor the ticks")


def test_saying_the_tag_allocates_nothing():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    fw.hello()  # the first call of each: its bound methods and constants settled
    fw.heartbeat()
    fwtest.sent(fw)
    enc = fw.enc
    tag = fw.tag

    def hb():
        n = enc.heartbeat(7, 0, 5000, 0, 0, 0, 0, 4000, tag)
        fw.heartbeat()
        return n

    n = fwtest.locked(hb)
    eq(n, 30, "a 0.4 HEARTBEAT on the wire: 26-byte body + head, seq, crc, COBS, delimiter")
    frames = fwtest.sent(fw)
    eq(frames[-1]["tag"], bytes(tag), "the heartbeat made under the lock says the tag")


fwtest.run(fwtest.tests_of(globals()))
