"""A real browser opens the published site: headless Chromium (Debian's
package ``chromium``; ``.ci/run`` installs it when it runs as root) loads
every page over HTTP from a server that records each request, so a page
that asks for a file the site lacks fails the test; then it takes a
screenshot of a game page at a phone's width.

Without Chromium the test is skipped with a loud reason outside CI (the
summary line says CHROMIUM MISSING), and fails under CI=true."""

from __future__ import annotations

import functools
import os
import shutil
import struct
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from judge import publish
from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR
from tests.publish.conftest import address_of, start
from tests.publish.test_site import gm

pytestmark = pytest.mark.browser

PHONE = (412, 915)


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    message = ("CHROMIUM MISSING: the browser test did not run "
               "(apt-get install chromium; .ci/run does it as root)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class _Recorder(SimpleHTTPRequestHandler):
    """Serves the site; every request and its status go into ``served``."""

    served: list[tuple[str, int]]

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.served.append((self.path, int(code) if str(code).isdigit() else 0))

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, list[tuple[str, int]]]]:
    site = tmp_path / "site"
    site.mkdir()
    served: list[tuple[str, int]] = []
    handler = type("Handler", (_Recorder,), {"served": served})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0),
                                functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", site, served
    finally:
        httpd.shutdown()
        httpd.server_close()


def _run(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, check=False)


def test_chromium_opens_every_page_and_shoots_a_game_page(
        post: Post, server: tuple[str, Path, list[tuple[str, int]]], tmp_path: Path) -> None:
    browser = chromium()
    base, site, served = server
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    post.send(address_of("France"), f"SIGNON g1 France {tokens['France']}\nA Par - Bur\n")
    post.send(GM_ADDR, f"{gm(tokens)}\nPROCESS\n")
    publish.publish(post.judge, site, draw=publish.default_draw())
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    assert len(pages) == 4
    for page in pages:
        got = _run(browser, tmp_path / "profile", "--dump-dom", f"{base}/{page}")
        assert got.returncode == 0, got.stderr[-2000:]
        assert "</main>" in got.stdout and "<h1>" in got.stdout, page
    asked = {path for path, _ in served}
    assert {"/style.css", "/games/g1/0.svg", "/games/g1/1.svg"} <= asked
    assert [(p, c) for p, c in served if not 200 <= c < 400] == []  # 304: cached
    shot = tmp_path / "game.png"
    got = _run(browser, tmp_path / "profile", f"--window-size={PHONE[0]},{PHONE[1]}",
               "--hide-scrollbars", f"--screenshot={shot}", f"{base}/games/g1/index.html")
    assert got.returncode == 0, got.stderr[-2000:]
    raw = shot.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", raw[16:24]) == PHONE
    assert len(raw) > 10_000, "the screenshot looks blank"
