"""`drrag serve`'s page in a real headless browser: Debian's Chromium driven by Playwright
(never a downloaded browser), over a real server on the sample corpus's people and Heron
notes. The page asks for the token the server wants, streams the README's question's
answer with its proving sentence, and opens a source in place.

``DRRAG_PAGE_SCREENSHOT=docs/serve-page.png pytest tests/serve/test_page.py`` also saves
the screenshot docs/ shows."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from drrag_cli.config import Settings
from tests.serve.test_http import WAIT, Running

CHROMIUM = "/usr/bin/chromium"  # Debian's package; .ci/run installs it
# No background traffic: this machine's closed network refuses it, many connections at a time.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip
QUESTION = "In which city was the lead engineer of Project Heron born?"  # the README's
TOKEN = "page-token"


@pytest.fixture(scope="module")
def page_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    from drrag_cli.index.api import Index
    from drrag_cli.serve.service import Service

    sample = Path(__file__).resolve().parents[2] / "sample_corpus"
    base = tmp_path_factory.mktemp("page")
    shutil.copytree(sample / "people", base / "corpus" / "people")
    shutil.copytree(sample / "projects" / "heron", base / "corpus" / "heron")
    settings = Settings().replace({"index.path": str(base / "ix")})
    Index.build([base / "corpus"], settings)
    service = Service(settings)
    service.load()
    running = Running(service, token=TOKEN)
    yield running
    running.stop()


def test_the_page_needs_no_token_but_what_it_calls_does(page_server: Running) -> None:
    with httpx.Client(base_url=page_server.url, timeout=WAIT) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "default-src 'none'" in page.headers["content-security-policy"] and "<form id=\"ask\">" in page.text
        assert client.get("/status").status_code == 401
        assert client.post("/document", json={"source": "x"}).status_code == 401
        auth = {"Authorization": f"Bearer {TOKEN}"}
        r = client.post("/document", json={"source": "nowhere.md"}, headers=auth)
        assert r.status_code == 400 and "not a source in the index" in r.json()["error"]
        r = client.post("/document", json={"source": "nowhere.md", "lines": [1, "2"]}, headers=auth)
        assert r.status_code == 400 and r.json()["error"].startswith("field 'lines' of /document must be")


def test_a_browser_asks_sees_the_answer_and_opens_a_source(page_server: Running, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).is_file(), f"the page test needs {CHROMIUM}: apt-get install -y chromium (as .ci/run does)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 700})
            page.goto(page_server.url + "/")
            page.wait_for_selector("#token-row.shown", timeout=WAIT * 1000)  # /status answered 401
            page.fill("#token", TOKEN)
            page.dispatch_event("#token", "change")
            page.locator("#index", has_text="passages in").wait_for(timeout=WAIT * 1000)  # /status with the token
            page.fill("#question", QUESTION)
            page.click("#go")
            page.wait_for_selector("#sources li", timeout=WAIT * 1000)
            assert page.inner_text("#answer") == "Uppsala" and page.inner_text("#error") == ""
            assert "born in Uppsala" in page.inner_text("#proof")
            assert "read from the text" in page.inner_text("#how")
            page.click("#sources li:nth-child(2) a.source")
            page.wait_for_selector("#sources li:nth-child(2) .passage", timeout=WAIT * 1000)
            assert "Tobias was born in Uppsala" in page.inner_text("#sources li:nth-child(2) .passage")
            page.screenshot(path=os.environ.get("DRRAG_PAGE_SCREENSHOT") or str(tmp_path / "page.png"), full_page=True)
        finally:
            browser.close()
