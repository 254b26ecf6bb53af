"""One whole match of each game, from the set-up on the referee panel to its end, as the
simulator plays it (the firmware's events through the pub, one by one; the referee's calls as
the panel sends them): at every shot the TV (1920 x 1080), the overview and the panel (390 x
844) agree with the match state: the names, the scores, who is at the table, the last shot.
Screenshots of the start, the middle and the end of each go to docs/screenshots/ with
TABLESENSE_SCREENSHOTS=1 (``out``); without it none is taken (fifteen full-HD pictures no one
looked at)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import feed, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAIN = {"golf": "frames_won", "kegle": "points", "carom": "caroms"}
LANG = {"golf": "en", "kegle": "da", "carom": "nl"}

TV_READ = """() => ({
  names: [...document.querySelectorAll('.player h2')].map((e) => e.textContent),
  scores: [...document.querySelectorAll('.player .big')].map((e) => e.textContent),
  at: [...document.querySelectorAll('.player.at')].map((e) => e.dataset.player),
  told: document.getElementById('lastshot-text')?.textContent ?? '',
  final: document.querySelector('.final')?.textContent ?? '',
  cut: [...document.querySelectorAll('.player h2, #lastshot-text')].some((e) =>
    e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1),
})"""
PANEL_READ = """() => ({
  names: [...document.querySelectorAll('.who .pname')].map((e) =>
    [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('')),
  scores: [...document.querySelectorAll('.who .main b')].map((e) => e.textContent),
  at: [...document.querySelectorAll('.who.at')].map((e) => e.dataset.player),
  told: document.getElementById('last-shot')?.lastChild?.textContent?.trim() ?? '',
})"""
OVERVIEW_READ = """(table) => {
  const card = document.querySelector(`.card[data-table='${table}']`);
  return {
    names: [...card.querySelectorAll('.pname')].map((e) => e.textContent),
    scores: [...card.querySelectorAll('.n')].map((e) => e.firstChild.textContent),
    at: [...card.querySelectorAll('.prow.at')].map((e) => e.dataset.player),
    told: card.querySelector('.told').textContent,
  };
}"""


SHOTS = os.environ.get("TABLESENSE_SCREENSHOTS") == "1"


def _shoot(page: Any, path: Path) -> None:
    """A screenshot for docs/screenshots/, when they are being made."""
    if SHOTS:
        page.screenshot(path=str(path))


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LivePub]:
    pub = LivePub(str(tmp_path / "pub.db"), ["1", "2", "3"])
    yield pub
    pub.close()



def _set_up_on_the_panel(panel: Any, live: LivePub, game: str, players: dict[str, str], lang: str) -> None:
    """The referee starts the match as a referee does: the language menu, the game, the names."""
    panel.select_option("#lang", lang)
    panel.wait_for_function(f"document.documentElement.lang === '{lang}'")
    panel.locator(f"input[name=game][value={game}]").check(force=True)
    panel.fill("#f-p1", players["p1"])
    panel.fill("#f-p2", players["p2"])
    if game == "kegle":
        panel.fill("#f-distance", "20")
    if game == "carom":
        panel.fill("#f-t1", "3")
        panel.fill("#f-t2", "3")
    panel.locator("#start-match").click()
    panel.wait_for_function("document.querySelector('#now .pname') !== null")


def _check(live: LivePub, table: str, game: str, names: dict[str, str], tv: Any, panel: Any,
           overview: Any) -> dict[str, Any]:
    shown(tv, live, table)
    shown(panel, live, table, "ready")
    snap = live.call(live.pub.snapshot, table)
    total = sum(live.call(lambda t=t: live.pub.table(t).version) for t in live.pub.tables)
    overview.wait_for_function(f"Number(document.body.dataset.shown) >= {total}")
    state, view = snap["state"], snap["view"]
    over = state["finished"]
    want_names = [names["p1"], names["p2"]]
    want_scores = [str(state[MAIN[game]]["p1"]), str(state[MAIN[game]]["p2"])]
    want_at = [] if over else [state["at_table"]]
    told = view["last_shot"]
    seen_tv = tv.evaluate(TV_READ)
    seen_panel = panel.evaluate(PANEL_READ)
    seen_all = overview.evaluate(OVERVIEW_READ, table)
    where = f"{game} after event {snap['match']['events']}"
    assert seen_tv["names"] == want_names and not seen_tv["cut"], where
    assert seen_tv["scores"] == want_scores, where
    assert seen_tv["at"] == want_at, where
    assert [n.strip() for n in seen_panel["names"]] == want_names, where
    assert seen_panel["scores"] == want_scores and seen_panel["at"] == want_at, where
    assert [n.strip() for n in seen_all["names"]] == want_names, where
    assert seen_all["scores"] == want_scores and seen_all["at"] == want_at, where
    if over:
        winner = names.get(state["winner"], "")
        assert winner in seen_tv["final"] and winner in seen_all["told"], where
    elif told:
        assert seen_tv["told"] == told and seen_all["told"] == told and seen_panel["told"] == told, where
    return snap


@pytest.mark.parametrize("game,table", [("golf", "1"), ("kegle", "2"), ("carom", "3")])
def test_a_whole_match_agrees_on_the_tv_the_overview_and_the_panel_at_every_shot(
        ctx: Any, live: LivePub, out: Path, game: str, table: str) -> None:
    events = sim_events(game, seed=0)
    names = dict(events[0].players)  # type: ignore[attr-defined]
    lang = LANG[game]
    panel = _page(ctx, 390, 844)
    panel.goto(panel_url(live, table))
    panel.wait_for_selector("body[data-ready]")
    _set_up_on_the_panel(panel, live, game, names, lang)
    setup = live.call(live.pub.snapshot, table)["match"]["setup"]
    assert setup["game"] == game and setup["players"] == names
    tv = _page(ctx, 1920, 1080)
    tv.goto(tv_url(live, table))
    overview = _page(ctx, 1920, 1080)
    overview.goto(f"{live.url}/")
    overview.wait_for_selector(f".card[data-table='{table}']")
    _check(live, table, game, names, tv, panel, overview)
    _shoot(tv, out / f"walk-{game}-start.png")
    rests = [i for i, e in enumerate(events) if e.type == "rest"]
    middle = rests[len(rests) // 2]
    checked = 0
    for i, event in enumerate(events[1:], start=1):
        feed(live, table, [event])
        if event.type == "rest" or i == len(events) - 1:
            _check(live, table, game, names, tv, panel, overview)
            checked += 1
        if i == middle:
            _shoot(tv, out / f"walk-{game}-middle.png")
            _shoot(panel, out / f"walk-{game}-referee-middle.png")
    snap = _check(live, table, game, names, tv, panel, overview)
    assert snap["state"]["finished"] and checked >= len(rests)
    _shoot(tv, out / f"walk-{game}-end.png")
    _shoot(panel, out / f"walk-{game}-referee-end.png")
