"""The HTML alternative of the judge's mail (judge.mail.mailhtml) and how
judge.mail.mailout writes it: tables found by their column layout, the words of
the text and nothing else, pictures inline by Content-ID, the text/plain
part unchanged, the same bytes every time, and the kept copy redacted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest

from bench.support.htmlpart import alternatives, check_alternatives, html_images, html_words
from bench.support.maildir import open_post
from judge.mail import mailhtml, mailout
from judge.mail.mailout import AUTO_REPLIED, Attachment, OutgoingMail, compose
from judge.service import kept_copy
from tests.core.conftest import Post

CENTRES = """\
SUPPLY CENTRES (18 to win)
  Austria     3 centres,  3 units
  England     3 centres,  3 units
  Russia     12 centres, 12 units: builds 1
  Turkey      3 centres,  3 units
  Austria: Bud, Tri, Vie
  England: Edi, Lon, Lvp
"""

GRID = """\
The field, your edge (row 1) at the bottom:
           A          B          C
  2        .       S:BASE        .
  1     N:Foot-1      .          .
"""

RESULTS = """\
Austria:
  A Bud - Vie  [bounce]
  F Tri - Ven  [bounce]
  A Vie S A Bud - Gal  [void]
"""

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000002bc000001f40806000000") + b"x" * 40

REPORT = OutgoingMail(
    message_id="<r1@judge.example>", from_addr="Judge <judge@judge.example>",
    to_addr="france@players.example", subject="[g1] report for France: F1901M",
    body="g1: Diplomacy, report for France\nPhase: F1901M\n\n" + CENTRES + "\n" + RESULTS,
    auto_submitted="auto-generated", date="Mon, 03 Jun 2024 09:00:00 +0000",
    attachments=(Attachment("g1-France.json", "application/json", b'{"phase": "F1901M"}'),
                 Attachment("g1-F1901M.png", "image/png", PNG)),
    html=True,
)


def _tables(text: str) -> list[mailhtml._Table]:
    return [item for block in mailhtml._paragraphs(text) for item in mailhtml._items(block)
            if isinstance(item, mailhtml._Table)]


def parse(raw: bytes) -> EmailMessage:
    msg = message_from_bytes(raw, policy=default_policy)
    assert isinstance(msg, EmailMessage)
    return msg


# --------------------------------------------------------------------------- reading the text


def test_a_run_of_lines_in_columns_is_a_table_and_the_lines_after_it_are_not() -> None:
    (table,) = _tables(CENTRES)
    # "12 centres, 12 units" has one space where the others have two: the
    # column between is still blank in every line, so it still divides two.
    assert table.rows == [["Austria", "3 centres,", "3 units"],
                          ["England", "3 centres,", "3 units"],
                          ["Russia", "12 centres,", "12 units: builds 1"],
                          ["Turkey", "3 centres,", "3 units"]]
    assert table.align == ["left", "right", "left"]
    assert table.indent == 2
    html = mailhtml.render(CENTRES)
    assert html.count("<tr>") == 4 and html_words(html) == CENTRES.split()


def test_right_aligned_numbers_make_a_right_aligned_column() -> None:
    text = "  Austria     3 centres\n  Russia     12 centres\n  Turkey      3 centres\n"
    (table,) = _tables(text)
    assert table.rows == [["Austria", "3 centres"], ["Russia", "12 centres"],
                          ["Turkey", "3 centres"]]
    assert table.align == ["left", "right"]


def test_a_grid_with_centred_cells_is_a_table_with_centred_columns() -> None:
    (table,) = _tables(GRID)
    assert table.rows == [["", "A", "B", "C"], ["2", ".", "S:BASE", "."],
                          ["1", "N:Foot-1", ".", "."]]
    assert table.align[1:3] == ["center", "center"]


def test_lines_whose_gaps_do_not_line_up_are_lines() -> None:
    assert _tables(RESULTS) == []
    html = mailhtml.render(RESULTS)
    assert "<table" not in html and html_words(html) == RESULTS.split()


def test_a_line_in_capitals_opening_a_paragraph_is_a_heading() -> None:
    html = " ".join(mailhtml.render(
        "Intro line\n\nSUPPLY CENTRES (18 to win)\n  x\n\nNEXT PHASE: y\n").split())
    assert re.search(r"font-weight:bold[^>]*>\s*SUPPLY CENTRES \(18 to win\)", html)
    assert not re.search(r"font-weight:bold[^>]*>\s*(Intro|NEXT)", html)


# --------------------------------------------------------------------------- writing HTML


@pytest.mark.parametrize("text", [
    CENTRES, GRID, RESULTS, "", "one line", "A <card> & \"quotes\" 'here'\n",
    "Lyu Buwei (呂不韋) [lyu-buwei]\n  Text: é, ü, —, 你好\n",
    "x" * 200 + " " + "y " * 100, "tab\there\n\n\n\nafter blanks\r\nCRLF\rCR\n",
])
def test_the_html_shows_the_words_of_the_text_and_nothing_else(text: str) -> None:
    html = mailhtml.render(text)
    assert html_words(html) == text.split()
    assert html.isascii()
    long = [line for line in html.split("\n") if len(line) > mailhtml.WIDTH]
    assert all(" " not in line.strip() for line in long), long  # only a word too long
    assert mailhtml.render(text) == html  # pure


def test_no_script_no_style_element_no_resource_from_elsewhere() -> None:
    html = mailhtml.render(REPORT.body, [mailhtml.Picture("p1.ab@judge", "g1-F1901M.png", 700)])
    assert not re.search(r"<(script|style|link|iframe|object)\b", html, re.IGNORECASE)
    assert not re.search(r"(https?:|//)\S", html.replace("http-equiv", ""))
    assert html_images(html) == ["cid:p1.ab@judge"]
    assert 'width="680"' in html and "max-width:100%" in html  # scaled down on a phone


# --------------------------------------------------------------------------- the MIME structure


def _tree(msg: EmailMessage, depth: int = 0) -> list[str]:
    out = [" " * depth + msg.get_content_type()]
    if msg.is_multipart():
        for part in msg.iter_parts():
            assert isinstance(part, EmailMessage)
            out += _tree(part, depth + 1)
    return out


def test_a_report_is_mixed_related_alternative_with_its_map_inline() -> None:
    msg = parse(compose(REPORT))
    assert _tree(msg) == ["multipart/mixed", " multipart/related", "  multipart/alternative",
                          "   text/plain", "   text/html", "  image/png",
                          " application/json"]
    check_alternatives(msg)
    (_text, html), = alternatives(msg)
    png = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    assert png.get_content_disposition() == "inline" and png.get_filename() == "g1-F1901M.png"
    assert png.get_payload(decode=True) == PNG
    assert html_images(html) == [f"cid:{str(png['Content-ID']).strip('<>')}"]
    assert 'width="680"' in html  # the PNG is 700 px wide
    part = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    assert part["Content-Transfer-Encoding"] == "7bit"  # ASCII in short lines
    assert [p.get_filename() for p in msg.iter_attachments()] == ["g1-France.json"]


def test_the_text_part_is_the_one_sent_without_html() -> None:
    plain = parse(compose(replace(REPORT, html=False)))
    with_html = parse(compose(REPORT))
    a, b = plain.get_body(("plain",)), with_html.get_body(("plain",))
    assert a is not None and b is not None
    assert a.get_payload() == b.get_payload() and a["Content-Transfer-Encoding"] == b[
        "Content-Transfer-Encoding"]


@pytest.mark.parametrize("attachments,tree", [
    ((), ["multipart/alternative", " text/plain", " text/html"]),
    ((Attachment("v.json", "application/json", b"{}"),),
     ["multipart/mixed", " multipart/alternative", "  text/plain", "  text/html",
      " application/json"]),
    ((Attachment("m.svg", "image/svg+xml", b"<svg/>"),),  # an SVG stays attached
     ["multipart/mixed", " multipart/alternative", "  text/plain", "  text/html",
      " image/svg+xml"]),
    ((Attachment("m.png", "image/png", PNG),),
     ["multipart/related", " multipart/alternative", "  text/plain", "  text/html",
      " image/png"]),
])
def test_the_structure_has_only_the_levels_it_needs(
        attachments: tuple[Attachment, ...], tree: list[str]) -> None:
    msg = parse(compose(replace(REPORT, attachments=attachments)))
    assert _tree(msg) == tree
    check_alternatives(msg)


@pytest.mark.parametrize("subject", ["[g1] report for France: F1901M",
                                     "[g1] rapport für Frankreich: Grüße"])
def test_direct_and_general_paths_give_the_same_mail(
        subject: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A subject in plain ASCII takes the direct path, another the email
    package's headers; the parts read back the same either way, and the
    bytes are the same every time (a retry sends the mail that was queued)."""
    mail = replace(REPORT, subject=subject, body=REPORT.body + "Grüße, 你好\n")
    fast = compose(mail)
    assert compose(mail) == fast
    monkeypatch.setattr(mailout, "_compose_plain", lambda m: None)
    slow = compose(mail)
    pf, ps = parse(fast), parse(slow)
    assert str(pf["Subject"]) == str(ps["Subject"]) == subject

    def parts(msg: EmailMessage) -> list[tuple[str, str | None, object]]:
        return [(p.get_content_type(), p.get_filename(), p.get_payload(decode=True))
                for p in msg.walk() if not p.is_multipart()]

    assert parts(pf) == parts(ps) and _tree(pf) == _tree(ps)
    assert all(len(line) <= 998 for line in fast.split(b"\r\n"))
    check_alternatives(pf)


def test_the_content_id_does_not_depend_on_the_message_id() -> None:
    """Two homes sending the same report to the same seat send the same
    parts (the privacy comparison reads them); only the headers naming the
    mail differ."""
    a = parse(compose(REPORT))
    b = parse(compose(replace(REPORT, message_id="<other@judge.example>")))
    assert alternatives(a) == alternatives(b)


# --------------------------------------------------------------------------- the kept copy


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path)


def test_the_kept_copy_masks_the_token_in_both_parts(post: Post) -> None:
    judge = post.judge
    token = "k7w9mzq2x4d8f6g3"
    body = (f"You have a seat in g1. Your secret token is: {token}\n"
            f"Keep it private. Sign your mails with SIGNON g1 North {token}.\n")
    judge.outbox().queue("north@players.example", "Re: join", body, "reply",
                     in_reply_to="<j1@players.example>")
    judge.relay()
    (sent,) = post.new()
    (text, html), = alternatives(sent)
    assert token in text and token in html  # the player gets it
    row = judge.store.outbox("sent")[-1]
    kept = parse(row["raw"])
    (ktext, khtml), = alternatives(kept)
    assert token not in ktext and token not in khtml and "********" in khtml
    check_alternatives(kept)
    mail = OutgoingMail(message_id="<k@j.example>", from_addr="j@j.example",
                        to_addr="n@p.example", subject="s", body=body,
                        auto_submitted=AUTO_REPLIED, html=True)
    assert token.encode() not in compose(kept_copy(mail))
