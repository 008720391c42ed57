"""The HTML part of the judge's reports in a real browser (headless Chromium,
as tests/publish/test_browser.py runs it): a classic turn report with its
results, and a Conflict of Alliances report (a card game's tables), both
sent by the judge through the Maildir transport after a game played by
mail. Each HTML part is written to a file with its ``cid:`` pictures
resolved to the files of their parts, then loaded at a phone's width
(390 px) and a desktop's (1280 px):

* nothing runs wider than the screen (the page's scroll width is the
  viewport's);
* the report's tables are HTML tables whose columns line up (the cells of
  one column share their left edge) and hold the rows of the text;
* the map is shown (its natural width is more than 0) and fits the screen.

A measuring script is added to the copy the browser loads (the mail itself
has none); it writes what it found into the page, which ``--dump-dom``
prints. Screenshots of both widths are left beside the page, to look at.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import TypedDict

import pytest

from bench.support.maildir import open_post
from judge.mail import mailhtml
from judge.store import set_kdf_cost
from tests.core.conftest import Post
from tests.core.helpers import CLASSIC_POWERS, GM_ADDR
from tests.mail.htmlview import html_page
from tests.publish.conftest import address_of, start
from tests.publish.test_browser import _run, chromium

pytestmark = pytest.mark.browser

WIDTHS = (390, 1280)


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    set_kdf_cost(2**8)
    yield from open_post(tmp_path)

MEASURE = """<script>
window.addEventListener('load', function () {
  var r = {vw: window.innerWidth, sw: document.documentElement.scrollWidth,
           bw: document.body.scrollWidth, tables: [], images: []};
  document.querySelectorAll('table').forEach(function (t) {
    var cols = {}, widths = [];
    Array.prototype.forEach.call(t.rows, function (row) {
      widths.push(row.cells.length);
      Array.prototype.forEach.call(row.cells, function (c, j) {
        (cols[j] = cols[j] || []).push(Math.round(c.getBoundingClientRect().left));
      });
    });
    r.tables.push({rows: t.rows.length, cells: widths, cols: cols,
                   first: t.rows[0].cells[0].textContent.trim(),
                   right: t.getBoundingClientRect().right});
  });
  document.querySelectorAll('img').forEach(function (i) {
    var b = i.getBoundingClientRect();
    r.images.push({natural: i.naturalWidth, width: b.width, right: b.right});
  });
  parent.postMessage(JSON.stringify(r), '*');
});
</script>"""

class MeasuredTable(TypedDict):
    """One table as MEASURE reports it (pixels)."""

    rows: int
    cells: list[int]  # the cells of each row
    cols: dict[str, list[int]]  # by column index: each row's cell's left edge
    first: str  # the text of the first cell
    right: float


class MeasuredImage(TypedDict):
    natural: int
    width: float
    right: float


class Measured(TypedDict):
    """What MEASURE reports of the page (pixels)."""

    vw: int  # the viewport's width
    sw: int  # the document's scroll width
    bw: int  # the body's scroll width
    tables: list[MeasuredTable]
    images: list[MeasuredImage]


FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="page.html" style="border:0;display:block;width:{width}px;height:{height}px">
</iframe>
<script>
window.addEventListener('message', function (e) {{
  var out = document.createElement('div');
  out.id = 'measured';
  out.style.display = 'none';
  out.textContent = e.data;
  document.body.appendChild(out);
}});
</script></body></html>"""


def _frame(page: Path, width: int, height: int) -> Path:
    """A page holding ``page`` in a frame ``width`` px wide: the frame is
    its viewport (a headless Chromium window is never narrower than 500 px)."""
    outer = page.with_name(f"frame-{width}.html")
    outer.write_text(FRAME.format(width=width, height=height), encoding="utf-8")
    return outer


def _measure(browser: str, page: Path, width: int, profile: Path) -> Measured:
    got = _run(browser, profile, f"--window-size={max(width, 500)},900", "--hide-scrollbars",
               "--virtual-time-budget=5000", "--dump-dom", _frame(page, width, 900).as_uri())
    assert got.returncode == 0, got.stderr[-2000:]
    found = re.search(r'<div id="measured" style="display: none;">(.*?)</div>', got.stdout)
    assert found, got.stdout[-2000:]
    result: Measured = json.loads(found.group(1).replace("&amp;", "&")
                                           .replace("&lt;", "<").replace("&gt;", ">"))
    return result


def _shoot(browser: str, page: Path, width: int, shot: Path, profile: Path) -> None:
    got = _run(browser, profile, f"--window-size={max(width, 500)},2400", "--hide-scrollbars",
               "--virtual-time-budget=5000", f"--screenshot={shot}",
               _frame(page, width, 2400).as_uri())
    assert got.returncode == 0, got.stderr[-2000:]
    raw = shot.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", raw[16:24]) == (max(width, 500), 2400)


def _check(msg: EmailMessage, folder: Path, table_rows: int, first_cells: set[str]) -> None:
    """Load ``msg``'s HTML part at both widths; its tables must line up and
    one of them have at least ``table_rows`` rows and a first column
    holding ``first_cells``."""
    browser = chromium()
    page = html_page(msg, folder, extra=MEASURE)
    for width in WIDTHS:
        m = _measure(browser, page, width, folder / "profile")
        assert m["vw"] == width, m
        assert m["sw"] == width and m["bw"] <= width, f"{width} px: wider than the screen: {m}"
        tables = m["tables"]
        assert isinstance(tables, list) and tables
        for t in tables:
            assert len(set(t["cells"])) == 1, f"rows of unequal length: {t}"
            for j, lefts in t["cols"].items():
                assert len(set(lefts)) == 1, f"{width} px: column {j} is not aligned: {t}"
            assert t["right"] <= width
        assert any(t["rows"] >= table_rows for t in tables), tables
        assert first_cells <= {t["first"] for t in tables}, tables
        images = m["images"]
        assert isinstance(images, list) and len(images) == 1, images
        (img,) = images
        assert img["natural"] > 0 and 0 < img["width"] <= width and img["right"] <= width, img
        assert img["width"] == min(img["natural"], mailhtml.PICTURE_WIDTH, width - 24)
        _shoot(browser, page, width, folder / f"shot-{width}.png", folder / "profile")


def _last_report(post: Post, to: str) -> EmailMessage:
    reports = [m for m in post.sent() if m["To"] == to and "report for" in str(m["Subject"])]
    assert reports, f"no report to {to}"
    return reports[-1]


def test_a_classic_turn_report_reads_at_a_phone_and_a_desktop_width(
        post: Post, tmp_path: Path) -> None:
    tokens = start(post, "classic", list(CLASSIC_POWERS))
    post.send(address_of("France"),
              f"SIGNON g1 France {tokens['France']}\nA Par - Bur\nA Mar S A Par - Bur\n")
    post.send(address_of("Germany"), f"SIGNON g1 Germany {tokens['Germany']}\nA Mun - Bur\n")
    post.send(GM_ADDR, f"SIGNON g1 GM {tokens['GM']}\nPROCESS\n")
    msg = _last_report(post, address_of("France"))
    text = post.text(msg)
    assert "SPRING 1901 MOVEMENT RESULTS" in text and "A Par - Bur" in text
    _check(msg, tmp_path / "classic", 7, {"Austria"})


def test_a_card_game_report_reads_at_a_phone_and_a_desktop_width(
        post: Post, tmp_path: Path) -> None:
    start(post, "conflict_of_alliances", ["Lianheng", "Alliance"])
    msg = _last_report(post, address_of("Lianheng"))
    text = post.text(msg)
    assert "The board (city first" in text and "Diplomacy track" in text
    _check(msg, tmp_path / "coa", 20, {"Longxi", "Qi"})
