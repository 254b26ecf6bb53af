"""Referee access in a real browser: the QR code on the pub's paired TV only, never on a public
screen; a page reached through a foreign host name (DNS rebinding) gets nothing."""

from __future__ import annotations

from typing import Any

import pytest
from browser_launch import ARGS, CHROMIUM
from test_browser import LivePub

from tablesense.web.guard import tv_code

pytestmark = pytest.mark.browser


def _code(live: LivePub, table: str = "1") -> str:
    return tv_code(live.pub.table(table).token)


def test_the_pubs_tv_shows_the_qr_code_and_a_guests_browser_does_not(browser: Any, live: LivePub) -> None:
    tv_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        tv = tv_ctx.new_page()
        tv.goto(f"{live.url}/table/1?tv={_code(live)}")  # once, on the TV behind the bar
        tv.wait_for_selector(".qr img")
        tv.wait_for_function("document.querySelector('.qr img').naturalWidth > 0")
        assert "tv=" not in tv.url  # the code leaves the address bar
        tv.reload()  # a restart of the TV keeps its pairing (a cookie)
        tv.wait_for_function("document.querySelector('.qr img')?.naturalWidth > 0")
        assert live.pub.table("1").token not in tv.content()  # in the image only

        guest = guest_ctx.new_page()  # a guest on the pub's Wi-Fi opens the same scoreboard
        guest.goto(f"{live.url}/table/1")
        guest.wait_for_selector(".nomatch")
        guest.wait_for_selector("body[data-pairing='none']")  # the host said: not the pub's TV
        assert guest.locator(".qr").count() == 0
        status = guest.evaluate("async (u) => (await fetch(u)).status", "/api/table/1/qr.svg")
        assert status == 403
        other = guest.evaluate("async (u) => (await fetch(u)).status", "/api/table/1/qr.svg?qr=0")
        assert other == 403
        html = guest.content()
        assert live.pub.table("1").token not in html and _code(live) not in html

        tv2 = tv_ctx.new_page()  # the paired TV shows no QR code for a table it was not paired with
        tv2.goto(f"{live.url}/table/2")
        tv2.wait_for_selector("body[data-pairing='none']")
        assert tv2.locator(".qr").count() == 0
    finally:
        tv_ctx.close()
        guest_ctx.close()


def test_a_wrong_tv_code_shows_the_scoreboard_without_the_qr_code(browser: Any, live: LivePub) -> None:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{live.url}/table/1?tv={_code(live, '2')}")  # table 2's code on table 1
        page.wait_for_selector(".notice.pairing")
        assert "tv=" not in page.url
        assert page.locator(".qr").count() == 0
        assert page.evaluate("async (u) => (await fetch(u)).status", "/api/table/1/qr.svg") == 403
    finally:
        ctx.close()


def test_qr_0_hides_the_code_on_a_paired_tv_too(browser: Any, live: LivePub) -> None:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(f"{live.url}/table/1?tv={_code(live)}&qr=0")
        page.wait_for_selector(".nomatch")
        page.wait_for_function("async () => (await fetch('/api/table/1/tv').then(r => r.json())).paired")
        assert page.locator(".qr").count() == 0  # paired, and still hidden
        assert page.url.endswith("/table/1?qr=0")
    finally:
        ctx.close()


def test_a_page_reached_through_a_foreign_name_gets_nothing(playwright: Any, live: LivePub) -> None:
    """DNS rebinding: evil.example resolves to this host, its page is served by the attacker first."""
    port = live.url.rsplit(":", 1)[1]
    rules = "--host-resolver-rules=MAP evil.example 127.0.0.1, MAP localhost 127.0.0.1"
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, rules])
    try:
        ctx = b.new_context()
        page = ctx.new_page()
        reply = page.goto(f"http://evil.example:{port}/table/1")
        assert reply is not None and reply.status == 421
        token = live.pub.table("1").token  # even a page that somehow knows the token
        status = page.evaluate(
            """async ([token]) => (await fetch("/api/table/1/setup", {method: "POST",
                 headers: {"Content-Type": "application/json", "X-Tablesense-Token": token},
                 body: JSON.stringify({game: "golf", players: {p1: "E", p2: "M"}})})).status""",
            [token],
        )
        assert status == 421
        assert page.evaluate("async () => (await fetch('/api/table/1')).status") == 421
        assert live.call(live.pub.snapshot, "1")["match"] is None
        ok = ctx.new_page()  # the same machine by its own name: served
        assert ok.goto(f"http://localhost:{port}/table/1").status == 200
        ok.wait_for_selector(".nomatch")
        ctx.close()
    finally:
        b.close()
