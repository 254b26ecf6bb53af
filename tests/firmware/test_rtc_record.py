# RTC memory keeps the running boot's tag and its last seq assigned (firmware 0.5): a reset
# keeps it, and the next boot says it in every HELLO, also the seqs of frames the boot before
# stamped and never sent; a power-on has none to say. Writing it allocates nothing, once a
# drain, not once an event.
import fwtest  # first: puts firmware/ on sys.path
import os

import hal_virtual
import link
import rtc_record
from fwtest import channel, eq, feed


def _stamped_not_sent(fw, n):
    """n edges drained and kept (seqs assigned), none written to the line."""
    feed(fw, [{"t_us": 10000 + 5000 * i, "ch": 0, "level": (i + 1) & 1} for i in range(n)])
    for _ in range(20 + 5 * n):
        fw.hal.set_clock(fw.hal.now + 1000)
        fw.step()  # no flush(): the frames wait behind the send cursor
    eq(fw.next_seq, n, "seqs assigned")
    eq(fw.sink.take(), [], "nothing sent")


def _reset(fw):
    """The board resets (its RTC memory kept): a new boot of the firmware on the same board."""
    b = fw.board
    fw2 = link.Firmware(fw.hal, inp=None)
    fw2.sink = fw.sink
    fw2.feed_path = fw.feed_path
    fw2.use_board(b)
    return fw2


def _hello(fw):
    fw.hello()
    return [f for f in fwtest.sent(fw) if f["type"] == 4][-1]


def test_a_reset_keeps_the_last_seq_stamped_though_never_sent():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    _stamped_not_sent(fw, 7)
    fw2 = _reset(fw)
    h = _hello(fw2)
    eq(h["prev_tag"], bytes(fw.tag), "the boot before's tag")
    eq(h["prev_seq"], 6, "its last seq assigned: 0..6 stamped, none sent")
    eq(h["tag"], bytes(fw2.tag), "then this boot's own tag, before it")
    eq(h["tag"] != h["prev_tag"], True, "another boot, another tag")
    h2 = _hello(fw2)
    eq((h2["prev_tag"], h2["prev_seq"]), (h["prev_tag"], 6), "every HELLO of the boot says it")


def test_a_boot_that_assigned_nothing_is_said_as_such():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    fw2 = _reset(fw)
    h = _hello(fw2)
    eq(h["prev_tag"], bytes(fw.tag), "the boot before's tag")
    eq(h["prev_seq"], 0xFFFFFF, "no seq assigned (as a HELLO's seq before the first frame)")


def test_after_two_resets_the_hello_says_the_boot_just_before():
    fw = fwtest.firmware(fwtest.board([channel(0)]))
    _stamped_not_sent(fw, 3)
    fw2 = _reset(fw)
    _stamped_not_sent(fw2, 5)
    h = _hello(_reset(fw2))
    eq((h["prev_tag"], h["prev_seq"]), (bytes(fw2.tag), 4), "the second boot's, not the first's")


def test_a_power_on_has_no_boot_before_to_say():
    fw = fwtest.firmware(fwtest.board([channel(0)]))  # a new board: its RTC memory empty
    h = _hello(fw)
    eq((h["prev_tag"], h["prev_seq"]), (None, None), "no prev fields: the HELLO ends after the tag")
    eq(h["tag"], bytes(fw.tag), "the tag still last but those")


def test_garbage_in_rtc_memory_is_no_boot_before():
    rec = rtc_record.Keeper(None, bytearray(b"\x01\x02\x03\x04"))
    rec.write(41)
    good = bytes(rec.buf)
    eq(bytes(rtc_record.previous(good)), b"\x01\x02\x03\x04\x29\x00\x00", "a record read back")
    for bad in (b"", None, good[:-1], good[:5] + b"\x00" + good[6:], b"\xff" * 12):
        eq(rtc_record.previous(bad), None, "not a record: %r" % (bad,))


def test_the_record_is_written_once_a_drain_not_once_an_event():
    fw = fwtest.firmware(fwtest.board([channel(c) for c in range(8)]))
    writes = [0]
    store = fw.rtc.store

    def counted(buf):
        writes[0] += 1
        store(buf)

    fw.rtc.store = counted
    feed(fw, [{"t_us": 5000 + c, "ch": c, "level": 1} for c in range(8)])  # 8 edges within 8 us
    for _ in range(10):
        fw.hal.set_clock(fw.hal.now + 1000)
        fw.step()
    eq(fw.next_seq, 8, "8 frames stamped")
    eq(writes[0], 1, "one write for the drain that stamped them")


def test_writing_the_record_to_its_file_allocates_nothing():
    path = "%s/tablesense-rtc-%s" % (os.getenv("TMPDIR") or "/tmp", "".join("%02x" % b for b in os.urandom(4)))
    fwtest._made.append(path)
    hal = hal_virtual.Hal()
    hal.board.rtc_path = path
    rec = rtc_record.Keeper(hal, bytearray(4))
    rec.write(0xFFFFFF)  # the first write opens the file (at boot)

    def burst():
        for s in range(100):
            rec.write(s)

    fwtest.locked(burst)
    eq(bytes(rtc_record.previous(hal.rtc_read())), b"\x00\x00\x00\x00\x63\x00\x00", "the last write read back")
    hal.board.rtc_file.close()


def test_the_file_is_kept_across_a_process_that_ends():
    path = "%s/tablesense-rtc-%s" % (os.getenv("TMPDIR") or "/tmp", "".join("%02x" % b for b in os.urandom(4)))
    fwtest._made.append(path)
    a = hal_virtual.Hal()
    a.board.rtc_path = path
    fw = link.Firmware(a, inp=None)
    fw.rtc.write(1234)
    a.board.rtc_file.close()
    b = hal_virtual.Hal()  # the next process: a reset, the file kept
    b.board.rtc_path = path
    eq(bytes(link.Firmware(b, inp=None).prev), bytes(fw.tag) + b"\xd2\x04\x00", "tag and seq 1234")


fwtest.run(fwtest.tests_of(globals()))
