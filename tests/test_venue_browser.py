"""The café's dashboard in a real headless browser (Debian's chromium, driven by
selenium): two simulated tables play recorded games while the page is open, and the
page shows both live, then the finished games with their winners. The screenshot is
kept in out/venue-dashboard.png to be looked at."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.cli.venue import _exports
from companion.venue.dashboard import Dashboard
from companion.venue.settings import Broker
from companion.venue.web import DashboardServer
from venue_helpers import browser, play_table, status_msg, wait_for  # noqa: F401 - browser: a fixture

DATA = Path(__file__).parent / "data"
OUT = Path(__file__).resolve().parent.parent / "out"

def test_the_dashboard_shows_two_tables_live_in_a_browser(mosquitto, tmp_path, browser):
    from selenium.webdriver.common.by import By

    dashboard = Dashboard(Broker.parse(mosquitto.url), "browser-cafe", client_id="dash-browser").connect()
    server = DashboardServer(dashboard, ("127.0.0.1", 0), _exports("browser-cafe"), title="The Corner Café")
    server.serve_in_thread()
    try:
        wait_for(dashboard.connected.is_set, what="the dashboard's connection")
        browser.get(server.url())
        assert "No table has reported yet" in browser.find_element(By.TAG_NAME, "body").text
        halfway = threading.Event()
        pubs = {}

        def table(trace, name, stop_after=None):
            def started(pub):
                pubs[name] = pub
            runner, pub = play_table(DATA / f"{trace}.trace", mosquitto.url, name, str(tmp_path / f"{name}.db"),
                                     venue="browser-cafe", started=started)

        threads = [threading.Thread(target=table, args=a) for a in
                   (("sugar-heist-family", "table-1"), ("sugarrr-family", "table-2"))]
        for t in threads:
            t.start()
        # live: the page follows the tables while they play (its cards' event numbers grow)
        seen = set()

        def growing():
            for card in browser.find_elements(By.CSS_SELECTOR, "section.table"):
                seen.add((card.get_attribute("data-table"), card.get_attribute("data-seq")))
            return len({s for t, s in seen if t == "table-1"}) >= 3 and len({s for t, s in seen if t == "table-2"}) >= 3

        wait_for(growing, timeout=60, every=0.05, what="the page following both tables")
        OUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUT / "venue-dashboard-live.png"))  # mid-game: whose turn, the clocks
        for t in threads:
            t.join()
        last = {n: p.outbox.next_seq() - 1 for n, p in pubs.items()}

        def shown():
            cards = {c.get_attribute("data-table"): c for c in browser.find_elements(By.CSS_SELECTOR, "section.table")}
            return set(cards) == {"table-1", "table-2"} and all(
                cards[n].get_attribute("data-seq") == str(last[n]) for n in last) and \
                "Mum" in browser.find_element(By.ID, "finished").text

        wait_for(shown, timeout=60, what="both tables' last events and results on the page")
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "The Corner Café" in text
        assert "Sugar Heist" in text and "Sugarrr!" in text
        for name in ("Mum", "Leo", "Maya", "Dad"):
            assert name in text
        finished = browser.find_element(By.ID, "finished").text
        assert "table-2 · Sugarrr!: Mum won" in finished
        assert "table-1 · Sugar Heist:" in finished
        assert "Sugarrr! · finished · closed" in text  # closed by its host: no alarm
        assert "Needs help" not in text
        OUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUT / "venue-dashboard.png"))
        csv_text = browser.execute_script(
            "return fetch('history.csv').then(r => r.text())")
        assert csv_text.splitlines()[0].startswith("table,game_id,date,game,seat,player,score")
        assert sum(1 for line in csv_text.splitlines() if line.startswith("table-2,")) == 4
    finally:
        server.stop()
        dashboard.close()


def test_the_page_fits_a_phone(mosquitto, browser):
    """A phone's width: one column of tables, nothing wider than the screen."""
    from selenium.webdriver.common.by import By

    dashboard = Dashboard(None, "phone")
    import json

    for n in (1, 2):
        dashboard.handle(f"sugar/phone/tables/table-{n}/status", json.dumps(status_msg(
            f"table-{n}", "phone", seq=3, turn_of="Ben", turn=4, phase="play",
            clocks={"turn": 70.0, "game": 300.0, "left": None, "limit": 60.0},
            devices={"scanner": {"status": "disconnected", "detail": "unplugged"}},
            last={"verdict": "rejected", "text": "Apricots 9 does not match Pineapple 5: play a Pineapple or a 5."},
            prompt="Ben: scan more cards for column 1, or tap Done.")).encode())
    server = DashboardServer(dashboard, ("127.0.0.1", 0), password="s3cret sugar")
    server.serve_in_thread()
    try:
        browser.set_window_size(390, 844)
        browser.get(server.url().replace("http://", "http://host:s3cret%20sugar@"))
        browser.get(server.url().replace("http://", "http://host:s3cret%20sugar@"))
        wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "section.table")) == 2, what="two cards")
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "Needs help: reader unplugged (scanner)" in text
        assert "Needs help: turn over its limit" in text
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390
        OUT.mkdir(exist_ok=True)
        browser.save_screenshot(str(OUT / "venue-dashboard-phone.png"))
    finally:
        server.stop()


def test_a_password_is_asked_for(tmp_path):
    import urllib.error
    import urllib.request

    server = DashboardServer(Dashboard(None, "cafe"), ("127.0.0.1", 0), password="pw")
    server.serve_in_thread()
    try:
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url() + "state.json")
        assert err.value.code == 401
        import base64

        ok = urllib.request.Request(server.url() + "state.json",
                                    headers={"Authorization": "Basic " + base64.b64encode(b"any:pw").decode()})
        assert urllib.request.urlopen(ok).status == 200
    finally:
        server.stop()


def test_an_address_the_dashboard_does_not_have_is_not_found():
    import urllib.error
    import urllib.request

    server = DashboardServer(Dashboard(None, "cafe"), ("127.0.0.1", 0))
    server.serve_in_thread()
    try:
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url() + "no-such-page")
        assert err.value.code == 404 and err.value.read() == b"not found\n"
        assert urllib.request.urlopen(server.url() + "state.json").status == 200
    finally:
        server.stop()


def test_a_head_request_gets_the_headers_a_get_would_and_no_body():
    """``curl -I`` or a link checker: the page's headers, the same status as GET, no body
    (it was 501, "unsupported method")."""
    import urllib.error
    import urllib.request

    server = DashboardServer(Dashboard(None, "cafe"), ("127.0.0.1", 0))
    server.serve_in_thread()
    try:
        for path in ("", "state.json", "events"):
            head = urllib.request.urlopen(urllib.request.Request(server.url() + path, method="HEAD"), timeout=5)
            assert head.status == 200 and head.read() == b""
        page = urllib.request.urlopen(server.url(), timeout=5)
        head = urllib.request.urlopen(urllib.request.Request(server.url(), method="HEAD"), timeout=5)
        assert head.headers["Content-Length"] == page.headers["Content-Length"] != "0"
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(server.url() + "no-such-page", method="HEAD"), timeout=5)
        assert err.value.code == 404
    finally:
        server.stop()
