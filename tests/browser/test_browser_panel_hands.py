"""The keglebillard panel's "pin referee's hands" button in chromium, in each language: a pin the
pin referee knocked over, which the table took for a shot, is no shot once the referee taps it
(kegle.shot, seed 7.7, 6.4); after a shot that moved a ball the call is refused with the reason.
The table's sensors are the test (``LivePub.submit``); the referee only taps, on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser import LivePub
from test_browser_panel import Referee

pytestmark = [pytest.mark.browser]

#: the button and the words the panel shows after it, in each language
HANDS = {
    "en": ("Pin referee's hands: no shot", "pin referee's hands"),
    "nl": ("Handen van de kegelzetter: geen stoot", "handen van de kegelzetter"),
    "da": ("Keglerejserens hænder: intet stød", "keglerejserens hænder"),
}


LIVE_TABLES = ("1",)  # the pub's tables (tests/browser/conftest.py: live)


@pytest.mark.parametrize("lang", list(HANDS))
def test_the_pin_referees_hands_take_back_what_the_table_took_for_a_shot(
    ctx: Any, live: LivePub, lang: str
) -> None:
    label, ruling = HANDS[lang]
    ref = Referee(ctx, live)
    ref.start(lang, "Keglebillard", "Mette", "Lars", distance="20")
    ref.tap(ref.page.locator("button.start:has-text('Mette')"))
    hands = ref.button(label)
    box = hands.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, "in reach on the phone, below the big call"
    # the pin referee sets the pins and knocks pin 3 over: the table sees a pin fall and a rest
    ref.sensors({"type": "pin", "pin": 3, "state": "down"}, {"type": "rest"})
    assert ref.state()["points"]["p1"] == 2, "the table took it for Mette's shot"
    ref.tap(hands)
    state = ref.state()
    assert state["points"] == {"p1": 0, "p2": 0} and state["at_table"] == "p1", "no shot; her turn stays"
    assert state["rulings"][-1]["rule"] == "kegle.shot" and ruling in state["rulings"][-1]["text"].lower()
    assert label in ref.page.inner_text("#status")
    # a real shot: the red ball off a cushion, pin 1 down; the hands cannot take it back
    ref.sensors({"type": "pin", "pin": 3, "state": "up"}, {"type": "cushion", "cushion": 1, "ball": "red"},
                {"type": "pin", "pin": 1, "state": "down"}, {"type": "rest"})
    points = ref.state()["points"]["p1"]
    assert points == 2
    hands.click()
    ref.page.wait_for_selector("#status.error")
    assert "moved a ball" in ref.page.inner_text("#status")
    assert ref.state()["points"]["p1"] == points
    assert not ref.errors
