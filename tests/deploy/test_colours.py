"""Learning colours (tablesense.deploy.colours) and the profile's colour settings: pure logic."""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace

import pytest

from tablesense.deploy import colours as C
from tablesense.link.frame import C_PRESENT, C_SATURATED, C_VALID, ColourFrame, StreamDecoder, encode_frame
from tablesense.table.profile import ColourRef, ProfileError, load_profile, profile_from_dict

SET = load_profile("golf").colour
assert SET is not None


def _samples(ch: int, rgb: tuple[int, int, int], n: int = 12, noise: float = 0.02, seed: int = 1):
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        r, g, b = (max(0, round(v * (1 + rnd.gauss(0, noise)))) for v in rgb)
        out.append(ColourFrame(i, ch, C_PRESENT | C_VALID, 0, r + g + b, r, g, b))
    return out


def test_colour_frames_come_out_of_the_links_decoder_among_the_others() -> None:
    from tablesense.link.frame import PongFrame

    other = encode_frame(PongFrame(1, 5))
    data = other + encode_frame(ColourFrame(7, 1, 3, 2, 2560, 1400, 600, 560)) + other
    dec = StreamDecoder()
    got = dec.feed(data[:10]) + dec.feed(data[10:])
    assert got == [PongFrame(1, 5), ColourFrame(7, 1, 3, 2, 2560, 1400, 600, 560), PongFrame(1, 5)]
    assert dec.bad == 0


def test_a_ball_learns_a_reference_with_its_spread() -> None:
    ball = C.summarise(0, "p1", _samples(0, (1400, 600, 560)), SET)
    ref = C.reference(ball, dark_clear=100)
    assert (abs(ref.r - 547) < 10, abs(ref.g - 234) < 10) == (True, True)
    assert C.MIN_DIST <= ref.max_dist < 150 and 100 < ref.min_clear < ref.clear


@pytest.mark.parametrize(("rgb", "status", "why"), [
    ((20, 10, 10), 3, "too dark"),
    ((3000, 1000, 500), 3 | C_SATURATED, "saturates the sensor"),
    ((1400, 600, 560), 2, "complete integrations"),
    ((1400, 600, 560), 0, "no colour sensor answers"),
])
def test_a_ball_that_cannot_be_learned_says_why_in_one_line(rgb, status, why) -> None:
    s = [x._replace(status=status) for x in _samples(0, rgb)]
    with pytest.raises(C.LearnError, match=why) as e:
        C.summarise(0, "p1", s, SET)
    assert "\n" not in str(e.value)


def test_two_balls_alike_are_refused_and_distinct_ones_pass() -> None:
    a = C.reference(C.summarise(0, "p1", _samples(0, (1400, 600, 560)), SET))
    b = C.reference(C.summarise(0, "p2", _samples(0, (1380, 610, 570), seed=2), SET))
    with pytest.raises(C.LearnError, match="goal_A: the p1 and p2 balls look alike"):
        C.check_separation([a, b], {0: "goal_A"})
    y = C.reference(C.summarise(0, "p2", _samples(0, (1100, 1000, 400)), SET))
    C.check_separation([a, y, replace(a, ch=1), replace(b, ch=2)])  # other sensors are not compared


def test_the_empty_sensor_must_be_darker_than_a_ball() -> None:
    ball = C.summarise(0, "white", _samples(0, (300, 300, 300)), SET)
    with pytest.raises(C.LearnError, match="shade it from the room light"):
        C.check_dark(ball, dark_clear=800)


def test_learned_references_replace_the_block_and_keep_the_file() -> None:
    text = open("hardware/profiles/golf.toml").read()
    refs = [ColourRef(0, "p1", 600, 220, 180, 2000, 700, 50)]
    new = C.write_refs(text, refs, "learned today")
    assert new.count(C.BEGIN) == 1 and "learned today" in new and new.startswith(text[:200])
    assert C.write_refs(new, refs, "learned today") == new
    prof = profile_from_dict(tomllib.loads(new))
    assert prof.colour is not None and prof.colour.refs == tuple(refs)
    with pytest.raises(C.LearnError, match="outside the learned-colours block"):
        C.write_refs(new + "\n[[colour.ref]]\nch = 1\n", refs, "x")


def _golf_raw(**colour) -> dict:
    raw = tomllib.loads(open("hardware/profiles/golf.toml").read())
    raw["colour"].update(colour)
    return raw


@pytest.mark.parametrize(("change", "text"), [
    ({"delay_us": 10_000}, "shorter than two integrations"),
    ({"delay_us": 40_000}, "the host waits 50 ms"),
    ({"gain": 8}, "field 'gain' 8 must be one of 1, 4, 16, 60"),
    ({"cycles": 300}, "must be 1..256"),
    ({"ref": [{"ch": 2, "ball": "p3", "r": 1, "g": 1, "b": 1, "clear": 9999, "min_clear": 1, "max_dist": 9}]},
     "channel 2 has no colour sensor"),
])
def test_colour_settings_are_checked(change, text) -> None:
    with pytest.raises(ProfileError, match=text):
        profile_from_dict(_golf_raw(**change))


def test_overlapping_references_and_shared_mux_ports_are_refused() -> None:
    raw = _golf_raw()
    raw["colour"]["ref"][1].update(r=560, g=240, b=200)
    with pytest.raises(ProfileError, match="the p1 and p2 references overlap"):
        profile_from_dict(raw)
    raw = _golf_raw()
    raw["channels"][1]["mux"] = 0
    with pytest.raises(ProfileError, match="port 0 is already channel 0"):
        profile_from_dict(raw)
    raw = _golf_raw()
    del raw["i2c"]["mux"]
    with pytest.raises(ProfileError, match="every TCS34725 answers at 0x29"):
        profile_from_dict(raw)


def test_the_host_waits_for_the_reading_the_profile_asks_for() -> None:
    from tablesense.link.translate import COLOUR_WAIT_US
    from tablesense.table.validate import COLOUR_READ_SLACK_US

    for pid in ("golf", "kegle"):
        col = load_profile(pid).colour
        assert col is not None and col.delay_us + COLOUR_READ_SLACK_US <= COLOUR_WAIT_US
