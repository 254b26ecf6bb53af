"""No page shows a word of another language's table: each game's TV, referee panel (its set-up
form open) and the overview, in Dutch and in Danish, read in chromium, against the English and
the other language's strings that differ from the page's own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from screen_checks import feed, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

from tablesense.store import LANGS
from tablesense.web.pages import strings

pytestmark = pytest.mark.browser

TABLES = {f"{g}-{lang}": (g, lang) for g in ("golf", "kegle", "carom") for lang in LANGS if lang != "en"}


def foreign_words(lang: str) -> list[str]:
    """Words of the other tables that this language's table does not share: each string's
    literal parts of at least six letters, when no string of ``lang`` holds them."""
    own = " ".join(strings(lang).values()).lower()
    words: set[str] = set()
    for other in LANGS:
        if other == lang:
            continue
        for key, text in strings(other).items():
            if key.startswith(("lang.", "corner.", "profile.")) or text == strings(lang).get(key):
                continue
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" :·—()-,.!?")
                if len(re.sub(r"[^A-Za-zÀ-ÿ]", "", part)) >= 6 and part.lower() not in own:
                    words.add(part)
    return sorted(words)


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("langs") / "pub.db"), list(TABLES))
    for table, (game, lang) in TABLES.items():
        live.call(live.pub.set_lang, table, lang)
        feed(live, table, sim_events(game, seed=3)[:30])
    yield live
    live.close()



def _foreign(text: str, lang: str) -> list[str]:
    return [w for w in foreign_words(lang) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def test_the_check_finds_an_english_word_on_a_dutch_page() -> None:
    assert "Frames won" in foreign_words("nl") and _foreign("Tafel 1 · Frames won", "nl") == ["Frames won"]
    assert _foreign("Tafel 1 · Gewonnen spellen", "nl") == []


@pytest.mark.parametrize("table", list(TABLES))
def test_no_page_shows_a_word_of_another_language(ctx: Any, pub: LivePub, table: str) -> None:
    _game, lang = TABLES[table]
    tv = _page(ctx, 1920, 1080)
    tv.goto(tv_url(pub, table))
    shown(tv, pub, table)
    text = tv.inner_text("body")
    assert _foreign(text, lang) == [], f"the TV of {table}"
    panel = _page(ctx, 390, 844)
    panel.goto(panel_url(pub, table))
    shown(panel, pub, table, "ready")
    panel.locator("#setup summary").click()
    panel.locator("#shots summary").click()
    panel.locator("details.more summary").click()
    text = panel.inner_text("body").replace("English", "").replace("Dansk", "").replace("Nederlands", "")
    assert _foreign(text, lang) == [], f"the panel of {table}"


def test_the_overview_shows_each_card_in_its_own_language_only(ctx: Any, pub: LivePub) -> None:
    page = _page(ctx, 1920, 1080)
    page.goto(f"{pub.url}/?lang=da")
    page.wait_for_function(f"document.querySelectorAll('.card .told').length === {len(TABLES)}")
    assert page.evaluate("document.documentElement.lang") == "da"
    for table, (_game, lang) in TABLES.items():
        text = page.inner_text(f".card[data-table='{table}']")
        assert _foreign(text, lang) == [], f"the overview's card of {table}"
