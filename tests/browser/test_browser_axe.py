"""Every page checked by axe-core (vendored under tests/vendor/axe-core, 4.14.1): the TV of each
game, the overview, the referee panel (with its set-up form), a table's history and a match's
score sheet, in chromium, with a match under way; no violation allowed. Each page also asks for
nothing the server does not have (the favicon)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from screen_checks import AXE, axe_violations, describe, feed, panel_url, shown, sim_events, tv_url
from test_browser import LivePub, _page

pytestmark = pytest.mark.browser

TABLES = {"1": ("golf", "en"), "2": ("kegle", "da"), "3": ("carom", "nl")}


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LivePub]:
    live = LivePub(str(tmp_path_factory.mktemp("axe") / "pub.db"), [*TABLES, "4"])
    for table, (game, lang) in TABLES.items():
        live.call(live.pub.set_lang, table, lang)
        feed(live, table, sim_events(game, seed=1)[:25])
    feed(live, "4", sim_events("carom", seed=2))  # a match played out: its sheet
    yield live
    live.close()



def _open(ctx: Any, url: str, width: int, height: int) -> tuple[Any, list[str]]:
    page = _page(ctx, width, height)
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(url)
    return page, missing


def _clean(page: Any, missing: list[str]) -> None:
    page.wait_for_timeout(300)  # the favicon's request, late images
    found = axe_violations(page)
    assert found == [], describe(found)
    assert missing == [], f"requests that failed: {missing}"


@pytest.mark.parametrize("table", list(TABLES))
def test_the_tv_has_no_accessibility_violations(ctx: Any, pub: LivePub, table: str) -> None:
    page, missing = _open(ctx, tv_url(pub, table), 1920, 1080)
    shown(page, pub, table)
    page.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
    _clean(page, missing)


def test_the_overview_has_no_accessibility_violations(ctx: Any, pub: LivePub) -> None:
    page, missing = _open(ctx, f"{pub.url}/", 1920, 1080)
    page.wait_for_function("document.querySelectorAll('.card .told').length === 4")
    _clean(page, missing)


@pytest.mark.parametrize("table", list(TABLES))
def test_the_referee_panel_has_no_accessibility_violations(ctx: Any, pub: LivePub, table: str) -> None:
    page, missing = _open(ctx, panel_url(pub, table), 390, 844)
    shown(page, pub, table, "ready")
    page.locator("#setup summary").click()  # the set-up form open: every input labelled
    page.locator("#shots summary").click()
    _clean(page, missing)


def test_the_history_the_score_sheet_and_the_rulings_have_no_accessibility_violations(
        ctx: Any, pub: LivePub) -> None:
    page, missing = _open(ctx, f"{pub.url}/history/4", 1280, 800)
    page.wait_for_selector("h1")
    _clean(page, missing)
    match = pub.call(lambda: pub.pub.table("4").match.id)  # type: ignore[union-attr]
    for path in (f"/sheet/{match}", f"/match/{match}/rulings"):
        sheet, missing = _open(ctx, pub.url + path, 1280, 800)
        sheet.wait_for_selector("h1")
        _clean(sheet, missing)


#: JavaScript, the start of each probe's body: ``seen(el)``, what stands behind an element (the
#: background of it and each ancestor, the page's first), its text's colour and its opacity
#: over all of them; ``_contrast`` reads it
_SEEN_JS = """
    const rgba = (c) => (c.match(/[\\d.]+/g) || []).map(Number).concat([1]).slice(0, 4);
    const seen = (el) => {
        const layers = [];
        let alpha = 1;
        for (let e = el; e; e = e.parentElement) {
            const s = getComputedStyle(e);
            alpha *= Number(s.opacity);
            layers.push(rgba(s.backgroundColor));
        }
        return {layers: layers.reverse(), ink: rgba(getComputedStyle(el).color), alpha};
    };
"""

_SEEN = """(ms) => {""" + _SEEN_JS + """
    const clock = document.querySelector('.clock');
    clock.className = 'clock over';
    clock.textContent = '-0:05';
    for (const a of clock.getAnimations()) { a.pause(); a.currentTime = ms; }
    return {...seen(clock), animations: clock.getAnimations().length};
}"""


def _over(under: list[float], top: list[float]) -> list[float]:
    a = top[3]
    return [top[i] * a + under[i] * (1 - a) for i in range(3)]


def _luminance(rgb: list[float]) -> float:
    lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(seen: dict[str, Any]) -> float:
    ground = [255.0, 255.0, 255.0]
    for layer in seen["layers"]:
        ground = _over(ground, layer)
    ink = _over(ground, [*seen["ink"][:3], seen["ink"][3] * seen["alpha"]])
    hi, lo = sorted((_luminance(ink) + 0.05, _luminance(ground) + 0.05), reverse=True)
    return hi / lo


@pytest.mark.parametrize("step_ms", [0, 250, 500, 750])
def test_a_turn_clock_run_over_stays_readable_at_every_step_of_its_blink(
        ctx: Any, pub: LivePub, step_ms: int) -> None:
    """A turn clock past its time blinks; each moment of the blink (held still, as a glance at the
    TV catches it) keeps the clock's text at WCAG AA contrast (4.5:1) on what is behind it. (axe
    passes a faded text: it does not count the element's opacity.)"""
    page, _missing = _open(ctx, tv_url(pub, "1"), 1920, 1080)
    shown(page, pub, "1")
    seen = page.evaluate(_SEEN, step_ms)
    assert seen["animations"] == 1, "the clock run over no longer blinks"
    ratio = _contrast(seen)
    assert ratio >= 4.5, f"{step_ms} ms into the blink the clock's contrast is {ratio:.2f}"


_STRIP = """([lit, ms]) => {
    // the last-shot strip lights up on a new shot and goes out 6 s later (tv.js showBanner):
    // the class changed as the page changes it, any transition held still `ms` into its course
    const strip = document.getElementById('lastshot');
    strip.classList.toggle('fresh', !lit);
    getComputedStyle(strip).backgroundColor;
    for (const a of strip.getAnimations({subtree: true})) a.finish();
    getComputedStyle(strip).backgroundColor;  // that state settled before the change
    strip.classList.toggle('fresh', lit);
    const moving = strip.getAnimations({subtree: true});
    for (const a of moving) { a.pause(); a.currentTime = ms; }
""" + _SEEN_JS + """
    return {parts: Object.fromEntries(['small', '#lastshot-text'].map(
                (q) => [q, seen(strip.querySelector(q))])),
            ground: getComputedStyle(strip).backgroundColor, animations: moving.length};
}"""


@pytest.mark.parametrize("lit", [True, False], ids=["lighting-up", "going-out"])
@pytest.mark.parametrize("step_ms", [0, 100, 200, 290])
def test_the_last_shot_strip_stays_readable_at_every_moment_of_its_flash(
        ctx: Any, pub: LivePub, lit: bool, step_ms: int) -> None:
    """A new last shot lights its strip up (dark text on light) and it goes out again 6 s later;
    each moment of that change (held still, as a glance at the TV or an axe check catches it)
    keeps the strip's label ("Last shot") and its text at 4.5:1 on the strip. Once the strip's
    background and colours faded separately: going out, the pale label stood on a still light
    strip (1.39:1), the failure axe saw once in a loaded run."""
    page, _missing = _open(ctx, tv_url(pub, "1"), 1920, 1080)
    shown(page, pub, "1")
    page.wait_for_selector("#lastshot small")
    # no shot comes now: once out, the page itself does not change the strip again
    page.wait_for_function("!document.getElementById('lastshot').classList.contains('fresh')",
                           timeout=10000)
    unlit = page.evaluate(_STRIP, [False, 10_000])["ground"]
    seen = page.evaluate(_STRIP, [lit, step_ms])
    if lit:
        assert seen["ground"] != unlit or step_ms == 0, "the strip no longer lights up on a new shot"
    for part, s in seen["parts"].items():
        ratio = _contrast(s)
        moment = f"{step_ms} ms into {'lighting up' if lit else 'going out'}"
        assert ratio >= 4.5, f"{moment} the strip's {part} is at {ratio:.2f}"
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => (await axe.run({include: [['#lastshot']]},
        {runOnly: ['color-contrast'], resultTypes: ['violations']})).violations.map(
        (v) => v.nodes.map((n) => n.target.join(' ') + ' :: ' + n.failureSummary))""")
    assert found == [], found


_HEADER = """() => {
    // the TV off its host: the class tv.js sets when its connection drops
    document.body.classList.add('offline');
""" + _SEEN_JS + """
    const shown = [...document.querySelectorAll('header h1 *, header .clock')]
        .filter((e) => e.textContent.trim() && e.children.length === 0);
    return shown.map((e) => [e.className || e.tagName, seen(e)]);
}"""


def test_the_tv_off_its_host_keeps_its_header_readable(ctx: Any, pub: LivePub) -> None:
    """A TV whose connection to the host drops marks its header as off; the table's name, its game
    and the clock stay at 4.5:1 or better on the header while it is. (It was faded to half its
    opacity, about 3.6:1, which axe does not see: it leaves opacity out.)"""
    page, _missing = _open(ctx, tv_url(pub, "1"), 1920, 1080)
    shown(page, pub, "1")
    parts = page.evaluate(_HEADER)
    assert parts, "the header shows no text"
    low = {name: round(_contrast(s), 2) for name, s in parts if _contrast(s) < 4.5}
    assert low == {}, f"off its host the header's text is under 4.5:1: {low}"
