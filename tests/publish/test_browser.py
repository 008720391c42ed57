"""A real browser opens the published site: headless Chromium (Debian's
package ``chromium``; ``.ci/run`` installs it when it runs as root) loads
every page over HTTP from a server that records each request, so a page
that asks for a file the site lacks fails the test; then it takes a
screenshot of a game page at a phone's width.

Then a site of every kind of game (played by mail; one finished, in a
league) is opened at 1280 and 390 px: the index, a game page of each kind,
a turn page and the league's page. Each is measured (nothing wider than the
window: the document's scroll width is the viewport's) and shot. A headless
window is never narrower than 500 px, so each page is loaded into a frame
of the exact width, in a harness page the test server makes (the site has
no script; the harness's reads the frame's layout).

Without Chromium the test is skipped with a loud reason outside CI (the
summary line says CHROMIUM MISSING), and fails under CI=true."""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import os
import re
import shutil
import struct
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bench.support.maildir import open_post
from judge.commands import league as league_commands
from judge.site import publish
from judge.site import publish_text as say
from judge.store import set_kdf_cost
from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR, token_in
from tests.publish.conftest import address_of, play, start
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


HARNESS = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>html, body {{ margin: 0; }}
iframe {{ border: 0; display: block; }}</style></head>
<body><iframe id="page" width="{width}" height="{height}" src="{src}"></iframe>
<script>
const frame = document.getElementById("page");
frame.addEventListener("load", () => {{
  const doc = frame.contentDocument, root = doc.documentElement, win = frame.contentWindow;
  const wide = [...doc.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > root.clientWidth + 0.5 && !e.closest(".scroll"))
    .slice(0, 8).map(e => e.tagName + "." + e.className + " right " +
                     Math.round(e.getBoundingClientRect().right));
  document.body.dataset.probe = JSON.stringify({{
    scroll: root.scrollWidth, client: root.clientWidth, inner: win.innerWidth,
    height: root.scrollHeight, wide: wide, text: doc.body.innerText,
    scrolling: [...doc.querySelectorAll(".scroll")].filter(e => e.scrollWidth > e.clientWidth)
      .map(e => getComputedStyle(e).overflowX + " " +
                getComputedStyle(e).backgroundImage.includes("radial-gradient"))}});
}});
</script></body></html>
"""
"""The harness: the page at ``src`` in a frame ``width`` px wide; once it
has loaded, what the test reads of its layout goes into ``data-probe``."""


class _Recorder(SimpleHTTPRequestHandler):
    """Serves the site; every request and its status go into ``served``.
    ``/__harness?page=P&width=W&height=H`` is the harness around page P."""

    served: list[tuple[str, int]]

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path != "/__harness":
            super().do_GET()
            return
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        body = HARNESS.format(width=int(q["width"]), height=int(q["height"]),
                              src=html.escape("/" + q["page"])).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.served.append((self.path, int(code) if str(code).isdigit() else 0))

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, list[tuple[str, int]]]]:
    yield from _serve(tmp_path / "site")


def _serve(site: Path) -> Iterator[tuple[str, Path, list[tuple[str, int]]]]:
    site.mkdir(exist_ok=True)
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


# --------------------------------------------------------------------------- every kind, two widths

WIDTHS = (1280, 390)
KINDS = {  # game name: (kind, roles, options, random steps played by mail)
    "spring": ("classic", list(CLASSIC_POWERS), "", 0),
    "zhanguo": ("warring_states", ["Qin", "Chu", "Zhao", "Wei", "Han", "Yan", "Qi"], "", 0),
    "three": ("three_kingdoms", [f"Player{i}" for i in range(1, 7)], "", 8),
    "alliances": ("conflict_of_alliances", ["Lianheng", "Alliance"], "", 6),
    "kingdoms": ("kingdom_wars", list("ABCDEF"), "", 6),
    "tactics": ("conquest_tactics", ["South", "North"], "", 14),
}


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A site of a game of each kind, played a little by mail, and a classic
    game that ended (max_year=1901) in the league "autumn"; served over HTTP."""
    set_kdf_cost(2**8)
    tmp = tmp_path_factory.mktemp("kinds")
    opened = open_post(tmp, seed=bytes([3]) * 32)  # the same games on every run
    post = next(opened)
    post.judge.config = dataclasses.replace(post.judge.config, creates_per_day=20)
    for name, (kind, roles, options, steps) in KINDS.items():
        tokens = start(post, kind, roles, options, game=name)
        if kind == "classic":
            post.send(GM_ADDR, f"SIGNON {name} GM {tokens['GM']}\nSET orders_in all\n")
            post.send(address_of("France"),
                      f"SIGNON {name} France {tokens['France']}\nA Par - Bur\nF Bre - Mid\n")
            post.send(GM_ADDR, f"SIGNON {name} GM {tokens['GM']}\nPROCESS\n")
            post.send(address_of("Italy"), f"SIGNON {name} Italy {tokens['Italy']}\nA Ven H\n")
        elif kind == "warring_states":
            post.send(GM_ADDR, f"SIGNON {name} GM {tokens['GM']}\nPROCESS\n")
        play(post, tokens, steps, game=name)
    with post.judge.store.atomic():
        league_commands.create_league(post.judge, "autumn", "draw-size", GM_ADDR)
    post.send(GM_ADDR, "CREATE short classic max_year=1901\n")
    gm_token = token_in(post, GM_ADDR)
    with post.judge.store.atomic():
        league_commands.add_game(post.judge, "autumn", "short", "forming")
    for power in CLASSIC_POWERS:
        post.send(address_of(power), f"JOIN short {power}\n")
    post.send(GM_ADDR, f"SIGNON short GM {gm_token}\nSTART\n")
    for _ in range(6):
        row = post.judge.store.game("short")
        if row is not None and row["status"] == "finished":
            break
        post.send(GM_ADDR, f"SIGNON short GM {gm_token}\nPROCESS\n")
    post.clock.advance(hours=2)
    served = _serve(tmp / "site")
    base, site, _ = next(served)
    publish.publish(post.judge, site, draw=publish.default_draw())
    yield base, site
    for rest in (served, opened):
        next(rest, None)


def _probe(browser: str, profile: Path, base: str, page: str, width: int) -> dict[str, object]:
    url = f"{base}/__harness?page={page}&width={width}&height=900"
    got = _run(browser, profile, f"--window-size={max(width, 500)},900", "--hide-scrollbars",
               "--virtual-time-budget=5000", "--dump-dom", url)
    assert got.returncode == 0, got.stderr[-2000:]
    found = re.search(r'data-probe="([^"]*)"', got.stdout)
    assert found, f"{page} at {width} px: the page did not load ({got.stdout[-500:]})"
    probe: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return probe


def _shoot(browser: str, profile: Path, base: str, page: str, width: int, height: int,
           out: Path) -> None:
    url = f"{base}/__harness?page={page}&width={width}&height={height}"
    got = _run(browser, profile, f"--window-size={width},{height}", "--hide-scrollbars",
               "--virtual-time-budget=5000", f"--screenshot={out}", url)
    assert got.returncode == 0, got.stderr[-2000:]
    raw = out.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", raw[16:24]) == (width, height)
    assert len(raw) > 10_000, f"the screenshot of {page} looks blank"


def _pages(site: Path) -> dict[str, str]:
    """The pages to look at: what each is."""
    pages = {"index.html": "the index", "leagues/autumn.html": "the league",
             "games/short/index.html": "a finished game", "games/spring/1.html": "a turn"}
    pages.update({f"games/{name}/index.html": kind for name, (kind, *_) in KINDS.items()})
    for page in pages:
        assert (site / page).is_file(), page
    return pages


@pytest.mark.parametrize("width", WIDTHS)
def test_every_kind_of_page_fits_the_window_and_shows_the_deadline(
        every_kind: tuple[str, Path], tmp_path: Path, width: int) -> None:
    browser = chromium()
    base, site = every_kind
    shots = Path(os.environ.get("JUDGE_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    for page, what in _pages(site).items():
        probe = _probe(browser, tmp_path / "profile", base, page, width)
        assert (probe["inner"], probe["client"]) == (width, width), (page, probe["inner"])
        # Nothing cut off: no part of the page is wider than the window.
        assert probe["scroll"] == width, f"{what} ({page}) at {width} px: {probe['wide']}"
        # A table wider than its box scrolls in it, a shadow on the side with more.
        scrolling = probe["scrolling"]
        assert isinstance(scrolling, list)
        assert all(s == "auto true" for s in scrolling), (page, scrolling)
        text = str(probe["text"])
        if page.startswith("games/") and "short" not in page:
            # "Deadline: Tue 3 Mar 2026, 12:00 UTC, in 28 hours" (or passed, "20 minutes ago")
            assert re.search(r"Deadline( passed)?: \w{3} \d+ \w{3} \d{4}, \d\d:\d\d UTC,? "
                             r"\(?(in \d+ (minute|hour|day)s?|\d+ (minute|hour|day)s? ago)",
                             text), (page, text[:600])
        height = int(str(probe["height"]))
        _shoot(browser, tmp_path / "profile", base, page, width, min(height, 6000),
               shots / f"{page.replace('/', '-')[:-5]}-{width}.png")
    index = (site / "index.html").read_text()
    assert index.count("<time ") == len(KINDS)  # every running game's deadline


def test_the_pages_say_what_players_know(every_kind: tuple[str, Path]) -> None:
    _, site = every_kind
    spring = (site / "games/spring/index.html").read_text()
    assert "Now: Fall 1901, movement" in spring
    assert "Orders in from: Italy. Still due from: Austria, England, France" in spring
    assert '<a href="1.svg">full-size map</a>' in spring
    short = (site / "games/short/index.html").read_text()
    # The game ended at the end of 1901 (max_year), its winter skipped: no 1902 anywhere.
    assert "The final position, after Fall 1901, movement" in short
    assert "The game is over after Fall 1901, movement" in short
    assert "1902" not in short
    final = (site / "games/short/2.svg").read_text()
    assert "Final position, after Fall 1901, movement" in final and "1902" not in final
    assert "phase finished" not in short and "Deadline" not in short
    league = (site / "leagues/autumn.html").read_text()
    # Nobody ordered before the GM processed each phase: never on time, not "100%".
    assert "<th>On time</th>" in league
    assert league.count('<td data-label="On time">0.0%</td>') == len(CLASSIC_POWERS)
    tactics = (site / "games/tactics/index.html").read_text()
    assert '<table class="field">' in tactics
    assert not re.search(r"\b[SN]:[A-Z][a-z]", tactics)  # no N:MaIm0 codes
    assert re.search(r'<td class="side-(south|north)"><span class="who">(South|North)</span> '
                     r"[A-Z][a-z]+", tactics)


def test_a_table_wider_than_a_phone_scrolls_in_its_box_with_a_shadow(
        every_kind: tuple[str, Path], tmp_path: Path) -> None:
    browser = chromium()
    base, site = every_kind
    row = "  " + "  ".join(f"Column{i} Long-Heading-{i}" for i in range(8))
    report = say.report_html(f"A WIDE TABLE\n{row}\n{row}\n")
    page = site / "wide-test.html"  # a test page with the site's style sheet, not a site page
    page.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                    '<link rel="stylesheet" href="style.css"></head><body><main class="game">'
                    f"<section>{report}</section></main></body></html>", encoding="utf-8")
    probe = _probe(browser, tmp_path / "profile", base, "wide-test.html", 390)
    assert probe["scroll"] == 390, probe["wide"]  # the page itself does not scroll sideways
    assert probe["scrolling"] == ["auto true"]  # its table does, in a box with the shadows
