"""What a player's text costs the judge's own mail, by real mail: a press
typed as a table of thousands of cells, a press that would make a mail
larger than mail servers take, characters no reader can see.

What shows the HTML part is bounded is its size against the text part and
what :func:`judge.mail.mailhtml._table` was given or gave back (never a timing;
bench/hostile.py times the steps at N and 10N)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from email.message import EmailMessage
from typing import Any

import pytest

import judge.mail.mailhtml
from judge.mail import mailhtml
from judge.mail.visible import format_characters, visible
from tests.core.conftest import Post
from tests.core.helpers import start_sealed
from tests.hostile.support import mails_to, one_cycle, raw_mail

EAST = "east@players.example"
NORTH = "north@players.example"


def _parts(msg: EmailMessage) -> tuple[str, str]:
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    assert text is not None and html is not None
    return str(text.get_content()), str(html.get_content())


def _encoded(msg: EmailMessage, subtype: str) -> int:
    """Bytes of the part of ``subtype`` as it travels (encoded)."""
    part = msg.get_body((subtype,))
    assert part is not None
    return len(str(part.get_payload()))


# --------------------------------------------------------------------------- the HTML part


def test_a_press_typed_as_a_table_of_thousands_of_cells_stays_linear_and_small(
        post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue: 20 lines of ``"a  " * 2000`` made one cycle take 19.3 s (the
    search for a table's columns tried every gap against every blank run),
    and a 117 KB press became a 3,481 KB mail. Now a line that wide is
    never read as a table, and the HTML part is the text shown
    preformatted, about as large as the text part."""
    seats = start_sealed(post)
    post.new()
    tables: list[Any] = []
    real = judge.mail.mailhtml._table

    def spy(lines: Sequence[str]) -> Any:
        found = real(lines)
        tables.append((max(len(x) for x in lines), found))
        return found

    monkeypatch.setattr(judge.mail.mailhtml, "_table", spy)
    mailhtml._render.cache_clear()
    body = "\n".join(["a  " * 2000] * 20)
    one_cycle(post, raw_mail(NORTH, f"{seats.signon('North')}\nPRESS TO East\n{body}\n"
                                    "ENDPRESS\n"))
    got = mails_to(post.new(), EAST)
    assert len(got) == 1
    text, html = _parts(got[0])
    assert "a  a  a" in text
    assert "<pre " in html and "<table" not in html  # shown as typed, no table of 40,000 cells
    assert _encoded(got[0], "html") < 1.2 * _encoded(got[0], "plain") + 2_000
    post.text(got[0])  # the HTML says what the text says, word for word
    # Two such lines (under PRE_PARAGRAPH) are looked at, and no table is made.
    mailhtml.render("\n".join(["a  " * 1000] * 2))
    wide = [found for width, found in tables if width > mailhtml.TABLE_WIDTH]
    assert wide and all(found is None for found in wide)


def test_a_press_of_many_small_tables_is_bounded_by_the_ratio(post: Post) -> None:
    """Blank-line-separated two-line tables of one-letter cells, each within
    the table bounds: each cell would cost ~100 bytes of markup for 3 bytes
    of text. The whole HTML part goes preformatted instead of passing
    mailhtml.RATIO times the text."""
    seats = start_sealed(post)
    post.new()
    para = "a  b  c  d  e  f  g  h\ni  j  k  l  m  n  o  p"
    body = "\n\n".join([para] * 250)  # 750 lines, under max_lines
    post.send(NORTH, f"{seats.signon('North')}\nPRESS TO East\n{body}\nENDPRESS\n")
    got = mails_to(post.new(), EAST)
    text, html = _parts(got[0])
    assert len(html) <= mailhtml.RATIO * len(text) + 3_000
    assert "<pre " in html
    post.text(got[0])


def test_gapped_lines_that_are_no_table_are_tried_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A paragraph of 1,300 lines, each with a gap, whose gaps never line up
    (7.8 KB, under PRE_PARAGRAPH): every later start of the run was tried
    as a table again, 1,300 tries of up to 1,300 lines (33 s for this one
    paragraph). Now a run is tried from at most RETRIES + 1 starts."""
    calls: list[int] = []
    real = judge.mail.mailhtml._table

    def spy(lines: Sequence[str]) -> Any:
        calls.append(len(lines))
        return real(lines)

    monkeypatch.setattr(judge.mail.mailhtml, "_table", spy)
    mailhtml._render.cache_clear()
    text = "\n".join("a  b" if i % 2 else "abc  d" for i in range(1_300))
    html = mailhtml.render(text)
    assert len(calls) <= mailhtml.RETRIES + 1 and sum(calls) <= 4 * 1_300
    assert "<table" not in html  # lines, shown as lines
    assert html.count("<div>a  b</div>") == html.count("<div>abc  d</div>") == 650


def test_a_report_keeps_its_tables(post: Post) -> None:
    """The bounds leave the judge's own layout alone: a STATUS reply still
    has its HTML tables where it had them."""
    seats = start_sealed(post)
    post.new()
    post.send(NORTH, f"{seats.signon('North')}\nSTATUS\n")
    got = mails_to(post.new(), NORTH)
    _text, html = _parts(got[0])
    assert "<pre " not in html


def _reference_cuts(lines: list[str]) -> bool:
    """The old, quadratic test of whether ``lines`` make a table, kept to
    hold the linear one to the same answers."""
    gap = re.compile(r"\S( {2,})(?=\S)")
    width = max(len(x) for x in lines)
    start = min(len(x) - len(x.lstrip(" ")) for x in lines)
    gaps = [(m.start(1), m.end(1)) for x in lines for m in gap.finditer(x)]
    used = bytearray(b" " * width)
    for x in lines:
        for m in re.finditer(r"\S+", x):
            used[m.start():m.end()] = b"x" * (m.end() - m.start())
    cuts = [(m.start(), m.end()) for m in re.finditer(rb" +", used[start:])]
    cuts = [(a + start, b + start) for a, b in cuts]
    cuts = [(a, b) for a, b in cuts
            if b < width and any(gs < b and a < ge for gs, ge in gaps)]
    return bool(cuts) and all(any(gs < ce and cs < ge for cs, ce in cuts) for gs, ge in gaps)


def test_the_linear_column_search_answers_as_the_old_one() -> None:
    rng = random.Random(36)
    words = ["a", "bb", "ccc", "12", "Paris", "-"]
    for _ in range(3_000):
        lines = []
        for _ in range(rng.randint(2, 5)):
            parts = [rng.choice(words) for _ in range(rng.randint(2, 5))]
            line = " " * rng.choice([0, 0, 2])
            for p in parts:
                line += p + " " * rng.choice([1, 2, 2, 3, 5])
            lines.append(line.rstrip())
        if not all(mailhtml._gapped(x) for x in lines):
            continue
        assert (mailhtml._table(lines) is not None) == _reference_cuts(lines), lines


# --------------------------------------------------------------------------- the size limit


def test_a_press_that_would_pass_max_out_bytes_is_refused_naming_the_limit(
        post: Post) -> None:
    """A 2 MB press made a 60 MB mail to every recipient: over what servers
    take, bounced, the seat marked as bouncing. Now the press is refused
    whole, with a reply that names the limit; nothing goes, nothing counts."""
    seats = start_sealed(post)
    post.new()
    post.judge.config.max_out_bytes = 300_000
    line = "Привет, Восток: поддержи меня в следующем раунде торгов. " * 4
    body = "\n".join([line] * 500)  # 116,000 characters, 214 KB of UTF-8
    post.send(NORTH, f"{seats.signon('North')}\nPRESS TO East\n{body}\nENDPRESS\n")
    mails = post.new()
    assert mails_to(mails, EAST) == []
    reply = post.text(mails_to(mails, NORTH)[0])
    assert "limits.max_out_bytes" in reply and "at most 300,000 bytes" in reply
    assert post.judge.store.used("press", "g1/north", "2000-01-01", "2100-01-01") == 0
    post.send(NORTH, f"{seats.signon('North')}\nPRESS TO East\n"
                     + "\n".join([line] * 50) + "\nENDPRESS\n")
    assert len(mails_to(post.new(), EAST)) == 1  # a tenth of it goes


def test_max_out_bytes_defaults_under_common_server_limits(post: Post) -> None:
    assert post.judge.config.max_out_bytes == 10_000_000  # Gmail takes 25 MB, many 10 MB


# --------------------------------------------------------------------------- invisible text

#: Unicode's format characters (general category Cf) as of Unicode 14
#: (Python 3.11's database), listed by hand: every one is dropped from
#: what a player writes, but the two joiners where a script needs them.
CF_UNICODE_14 = frozenset([
    0x00AD, *range(0x0600, 0x0606), 0x061C, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x180E,
    *range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065),
    *range(0x2066, 0x2070), 0xFEFF, *range(0xFFF9, 0xFFFC), 0x110BD, 0x110CD,
    *range(0x13430, 0x13439), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B), 0xE0001,
    *range(0xE0020, 0xE0080),
])
#: Added by Unicode 15 (Egyptian hieroglyph format controls), in a newer Python.
CF_UNICODE_15 = frozenset(range(0x13439, 0x13440))


def test_the_format_characters_are_the_listed_ones() -> None:
    found = format_characters()
    assert found >= CF_UNICODE_14 and found - CF_UNICODE_14 <= CF_UNICODE_15


@pytest.mark.parametrize("cp", sorted(CF_UNICODE_14 - {0x200C, 0x200D}))
def test_every_format_character_is_dropped(cp: int) -> None:
    assert visible(f"Paris{chr(cp)}Lyon\u0628{chr(cp)}\u0628") == "ParisLyon\u0628\u0628"


def test_joiners_stay_only_where_a_script_needs_them() -> None:
    persian = "می\u200cخواهم"  # ZWNJ of a Persian prefix
    conjunct = "क्\u200dष"  # Devanagari half form
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # an emoji ZWJ sequence
    assert visible(persian) == persian
    assert visible(conjunct) == conjunct
    assert visible(family) == family
    assert visible("Fr\u200dance") == "France"
    assert visible("A\u200c\u200c\u200dB") == "AB"
    assert visible("\u200d\U0001F468") == "\U0001F468"  # nothing to join at the start
    assert visible("می\u200c\u200cخواهم") == persian  # a run keeps one


def test_invisible_characters_do_not_reach_other_players(post: Post) -> None:
    """Tag characters (U+E0000 to U+E007F) spelled a hidden message that
    reached the other players in both parts; only bidi controls went."""
    seats = start_sealed(post)
    post.new()
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "attack north")
    press = (f"Let us{hidden} be friends\u200b.\u202e evil\u2066 \u2060x\u00ad\u2064y\n"
             "می\u200cخواهم \U0001F468\u200d\U0001F469 Fr\u200dance")
    post.send(NORTH, f"{seats.signon('North')}\nPRESS TO East\n{press}\nENDPRESS\n",
              subject=f"Hello{hidden}\u200e")
    mails = post.new()
    text, html = _parts(mails_to(mails, EAST)[0])
    assert "Let us be friends. evil xy" in text and "France" in text
    assert "می\u200cخواهم" in text and "\U0001F468\u200d\U0001F469" in text
    for part in (text, html):
        leftovers = {ch for ch in part if ord(ch) in format_characters()} - {"\u200c", "\u200d"}
        assert not leftovers, sorted(hex(ord(c)) for c in leftovers)
    assert "&#917" not in html  # no tag character as a character reference either
    ack = mails_to(mails, NORTH)[0]
    assert ack["Subject"] == "Re: Hello"
