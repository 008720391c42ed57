"""The HTML alternative of a mail, made from its text.

Every mail the judge sends is multipart/alternative: the text/plain part is
the canonical one (what the grammar quotes and the tests read), and the
text/html part shows the same text for the mail clients that set text/plain
in a proportional font (Gmail, most phones), where the columns of a report's
tables would fall apart.

The HTML is made from the rendered text, not from templates of its own: the
text's layout says where its tables are, so one converter serves the reports
of every game, the acknowledgements and the notices, and the two parts can
never drift apart, nor can the HTML say anything the text does not (every
word of the HTML's text is a word of the text part, in the same order; the
one addition is an inline picture, the one the mail carries as a part
anyway). Being a pure function of the text, it can run wherever the text is
composed into MIME (today :func:`judge.mail.mailout.compose`).

How the text is read:

* paragraphs are separated by blank lines; each line stays a line, indented
  as in the text;
* a run of two or more lines that each have a gap of two spaces or more
  inside them is a table when there are columns of blanks (two or more
  wide) down every line of the run that take in every such gap: each
  stretch between those blank columns is a column of the table, aligned
  left, right or centred as its cells are in the text. A run whose gaps do
  not line up is lines (its gaps are spacing, not columns);
* the first line of a paragraph written in capitals ("SUPPLY CENTRES (18 to
  win)", "UNITS") is a heading;
* what a player may have typed to cost the judge is bounded: a table is at
  most :data:`TABLE_WIDTH` wide with fewer than :data:`TABLE_COLUMNS`
  columns, a paragraph over :data:`PRE_PARAGRAPH` characters or a text over
  :data:`PRE_TEXT` is shown preformatted, and so is the whole text when its
  layout would pass :data:`RATIO` times its size. Every step is linear in
  the text (bench/hostile.py times each at N and 10N).

What it writes, for the clients people use: inline CSS only (Gmail drops a
``<style>`` element in some cases), no script, no external resource (a
picture is referred to by ``cid:``, a part of the same mail), no colour
(so a client's dark mode shows it in its own colours; table rules are a grey
that reads on both), tables that wrap their cells and a body no wider than
the screen (readable at a phone's 390 px). The source is ASCII (other
characters as character references) in lines of at most 76 characters
where the text allows, so it travels as 7bit.
"""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape
from itertools import accumulate

__all__ = ["Picture", "png_size", "render"]

#: Lines of the HTML source are broken at spaces to stay within this (RFC
#: 2045 6.7's 76 characters, so the part goes 7bit).
WIDTH = 76

_FONT = "font-family:-apple-system,Roboto,Helvetica,Arial,sans-serif"
_GAP = re.compile(r"\S( {2,})(?=\S)")
_WORD = re.compile(r"\S+")
_BLANKS = re.compile(rb" +")
_LETTERS = re.compile(r"[^\W\d_]")
#: An inline picture is shown at most this wide (CSS px); narrower screens
#: scale it down (max-width:100%).
PICTURE_WIDTH = 680
#: A table is at most this many characters wide and has fewer columns than
#: this (a report's widest is under 80 and 8): wider or more finely cut
#: lines are a player's own spacing, shown as lines.
TABLE_WIDTH = 240
TABLE_COLUMNS = 24
#: A paragraph longer than this many characters, or a text longer than
#: :data:`PRE_TEXT`, is shown preformatted (as the text part, in a fixed
#: font): no report has one, and long free text (a press) is not read for
#: tables at all.
PRE_PARAGRAPH = 8_000
PRE_TEXT = 64_000
#: The HTML (without its fixed head and pictures) is at most this many times
#: the characters of the text; a text whose layout would take more (a
#: hand-typed table of one-letter cells) is shown preformatted instead, so
#: the HTML part is never more than a small constant times the text part.
RATIO = 6


@dataclass(frozen=True)
class Picture:
    """A picture shown inline: the Content-ID (without ``<>``) of the part
    that carries it, its file name (the ``alt`` text) and its natural width
    in pixels (0 when unknown)."""

    cid: str
    filename: str
    width: int = 0


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (from its IHDR chunk); ``(0, 0)`` for
    anything else."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return 0, 0
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


# --------------------------------------------------------------------------- reading the text


@dataclass(frozen=True)
class _Table:
    rows: list[list[str]]
    align: list[str]
    indent: int


@dataclass(frozen=True)
class _Line:
    text: str
    heading: bool = False


_Item = _Table | _Line


def _gapped(line: str) -> bool:
    """Whether ``line`` has a gap of two spaces or more inside it."""
    return _GAP.search(line) is not None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _table(lines: Sequence[str]) -> _Table | None:
    """``lines`` as a table, when columns blank in every line run down
    through the gaps of two spaces or more: each such run of blank columns
    that some line's gap takes in divides two columns of the table, and
    every gap of every line must fall on one (so "3 centres,  3 units" and
    "12 centres, 12 units" still make one table: the column between them
    is blank in both, and a gap in the first).

    Linear in the characters of ``lines``: a table is never wider than
    :data:`TABLE_WIDTH` nor has more than :data:`TABLE_COLUMNS` columns (no
    report's is; lines wider or more finely divided are lines), and which
    blank runs take in a gap, and which gaps fall on a cut, are counted
    with running sums over the columns, not by trying every pair."""
    width = max(len(x) for x in lines)
    if width > TABLE_WIDTH:
        return None
    start = min(_indent(x) for x in lines)
    gaps = [(m.start(1), m.end(1)) for x in lines for m in _GAP.finditer(x)]
    used = bytearray(b" " * width)  # the columns where some line has a character
    gapped = [0] * (width + 1)  # how many gaps start (+1) and end (-1) at a column
    for x in lines:
        for m in _WORD.finditer(x):
            used[m.start() : m.end()] = b"x" * (m.end() - m.start())
    for gs, ge in gaps:
        gapped[gs] += 1
        gapped[ge] -= 1
    in_gap = list(accumulate(gapped))  # gaps over each column
    in_gap_sum = [0, *accumulate(1 if n > 0 else 0 for n in in_gap)]
    cuts = [(m.start(), m.end()) for m in _BLANKS.finditer(used, start)
            if m.end() < width and in_gap_sum[m.end()] > in_gap_sum[m.start()]]
    if not cuts or len(cuts) >= TABLE_COLUMNS:
        return None
    on_cut = [0] * (width + 1)
    for cs, ce in cuts:
        on_cut[cs] += 1
        on_cut[ce] -= 1
    cut_sum = [0, *accumulate(1 if n > 0 else 0 for n in accumulate(on_cut))]
    if not all(cut_sum[ge] > cut_sum[gs] for gs, ge in gaps):
        return None
    padded = [x.ljust(width) for x in lines]
    spans = [(start, cuts[0][0])]
    spans += [(cuts[i][1], cuts[i + 1][0]) for i in range(len(cuts) - 1)]
    spans.append((cuts[-1][1], width))
    rows = [[p[s:e].strip() for s, e in spans] for p in padded]
    return _Table(rows, [_alignment(padded, s, e) for s, e in spans], start)


def _alignment(padded: Sequence[str], s: int, e: int) -> str:
    """How the cells of the column ``[s, e)`` line up in the text: their
    left ends together, else their right, else their middles (a grid's
    centred cells); left when none does."""
    cells = [(len(seg) - len(seg.lstrip(" ")), len(seg.strip())) for p in padded
             if (seg := p[s:e]).strip()]
    if len({lead for lead, _ in cells}) <= 1:
        return "left"
    if len({lead + size for lead, size in cells}) == 1:
        return "right"
    middles = [2 * lead + size for lead, size in cells]
    return "center" if max(middles) - min(middles) <= 2 else "left"


def _heading(line: str) -> bool:
    """A line written in capitals (what is in parentheses aside):
    "SUPPLY CENTRES (18 to win)", "UNITS"."""
    if not line[:2].isupper():
        return False  # the first two letters at least (and no indent)
    outside = re.sub(r"\([^)]*\)", "", line)
    letters = _LETTERS.findall(outside)
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


#: A run of gapped lines that is no table is tried again without its first
#: line (a line above a table, with a gap of its own), at most this many
#: times; then its lines are lines. (Trying every later start would cost
#: the square of the run.)
RETRIES = 3


def _items(block: Sequence[str]) -> Iterator[_Item]:
    """The lines, tables and preformatted runs of one paragraph."""
    i = 0
    tried = 0  # starts tried in the current run of gapped lines
    end = -1  # where the current run ends
    while i < len(block):
        if i >= end:
            end = i
            while end < len(block) and _gapped(block[end]):
                end += 1
            tried = 0
        j = end
        table = None
        if j - i >= 2 and tried <= RETRIES:
            table = _table(block[i:j])
            tried += 1
        if table is not None:
            yield table
            i = j
            continue
        yield _Line(block[i], heading=i == 0 and _heading(block[i]))
        i += 1


def _paragraphs(text: str) -> Iterator[list[str]]:
    block: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip().expandtabs(8)
        if line:
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


# --------------------------------------------------------------------------- writing HTML


_SPECIAL = re.compile(r"[&<>\"'\x80-\U0010ffff]")


def _esc(text: str) -> str:
    """``text`` escaped for HTML, in ASCII (character references)."""
    if _SPECIAL.search(text) is None:
        return text
    return escape(text, quote=True).encode("ascii", "xmlcharrefreplace").decode("ascii")


def _wrap(text: str, out: list[str], width: int = WIDTH) -> None:
    """Append ``text`` (HTML: text or a tag) to ``out`` in lines of at most
    ``width`` characters, broken at spaces (a line break is a space to HTML,
    between attributes and inside a style alike); a longer word stays
    whole. Linear: the text is walked by index, never cut down copy by
    copy."""
    if len(text) <= width:
        out.append(text)
        return
    at, end = 0, len(text)
    while end - at > width:
        cut = text.rfind(" ", at + 1, at + width + 1)
        if cut <= at:
            cut = text.find(" ", at + width + 1)
            if cut <= at:
                break
        out.append(text[at:cut])
        at = cut + 1
    out.append(text[at:])


def _pad(indent: int) -> str:
    # An indent of n spaces, in a proportional font: half an em a space.
    return f' style="padding-left:{indent / 2:g}em"' if indent else ""


def _element(start: str, text: str, end: str, out: list[str]) -> None:
    """``start`` + ``text`` + ``end`` on one line when it fits, else each
    on lines of its own (white space at the edges of a block or a cell is
    not shown), the text broken at spaces."""
    if len(start) + len(text) + len(end) <= WIDTH:
        out.append(start + text + end)
        return
    _wrap(start, out)
    _wrap(text, out)
    out.append(end)


def _write_line(item: _Line, out: list[str]) -> None:
    if item.heading:
        _element('<div style="font-weight:bold;margin:0 0 2px">', _esc(item.text), "</div>",
                 out)
    else:
        _element(f"<div{_pad(_indent(item.text))}>", _esc(item.text.strip()), "</div>", out)


#: A table cell: rules in a grey that reads on a light and a dark background.
_TD = '<td valign="top"{align} style="padding:2px {right} 2px 0;border-bottom:1px solid #999">'


def _write_table(item: _Table, out: list[str]) -> None:
    margin = f"0 0 4px {item.indent / 2:g}em" if item.indent else "0 0 4px"
    _wrap('<table cellpadding="0" cellspacing="0" border="0" '
          f'style="border-collapse:collapse;margin:{margin}">', out)
    last = len(item.align) - 1
    for row in item.rows:
        out.append("<tr>")
        for j, cell in enumerate(row):
            align = "" if item.align[j] == "left" else f' align="{item.align[j]}"'
            right = "0" if j == last else "12px"
            _element(_TD.format(align=align, right=right), _esc(cell), "</td>", out)
        out.append("</tr>")
    out.append("</table>")


def _write_picture(pic: Picture, out: list[str]) -> None:
    shown = min(pic.width, PICTURE_WIDTH) if pic.width > 0 else PICTURE_WIDTH
    _wrap(f'<div style="margin:0 0 14px"><img src="cid:{_esc(pic.cid)}" '
          f'alt="{_esc(pic.filename)}" width="{shown}" style="display:block;'
          f'width:{shown}px;max-width:100%;height:auto;border:0"></div>', out)


_HEAD = (
    "<!DOCTYPE html>\n"
    '<html><head><meta charset="utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    '<meta name="color-scheme" content="light dark">\n'
    '<meta name="supported-color-schemes" content="light dark">\n'
    "</head>\n"
    '<body style="margin:0;padding:0">\n'
    '<div style="max-width:720px;margin:0 auto;padding:12px;font-size:15px;\n'
    f"{_FONT};\nline-height:1.45;"
    'overflow-wrap:anywhere;word-break:break-word">'
)
_TAIL = "</div>\n</body></html>\n"


def _write_pre(text: str, out: list[str]) -> None:
    """``text`` as it is, in a fixed font, wrapped by the client where the
    screen is narrower (``pre-wrap``); the source keeps the text's lines."""
    out.append('<pre style="margin:0 0 14px;white-space:pre-wrap;overflow-wrap:anywhere;'
               'font-family:Menlo,Consolas,monospace;font-size:13px">'
               + _esc(text.replace("\r\n", "\n").replace("\r", "\n").strip("\n"))
               + "</pre>")


def render(text: str, pictures: Sequence[Picture] = ()) -> str:
    """The HTML alternative of the mail text ``text``, with ``pictures``
    shown after its first paragraph (a report's heading). Pure: the same
    text and pictures give the same HTML, and the last few are kept, so
    that a press to twenty seats (and each mail's kept copy) is laid out
    once."""
    return _render(text, tuple(pictures))


@functools.lru_cache(maxsize=4)
def _render(text: str, pictures: tuple[Picture, ...]) -> str:
    """:func:`render`.

    Linear in ``text``, and never more than :data:`RATIO` times it beyond
    the fixed head and the pictures: a paragraph over
    :data:`PRE_PARAGRAPH`, a text over :data:`PRE_TEXT`, or a layout that
    would pass the ratio is written preformatted."""
    out: list[str] = [_HEAD]
    if len(text) > PRE_TEXT:
        for pic in pictures:
            _write_picture(pic, out)
        _write_pre(text, out)
        return "\n".join(out) + "\n" + _TAIL
    for n, block in enumerate(_paragraphs(text)):
        if sum(len(x) for x in block) > PRE_PARAGRAPH:
            _write_pre("\n".join(block), out)
        else:
            out.append('<div style="margin:0 0 14px">')
            for item in _items(block):
                if isinstance(item, _Table):
                    _write_table(item, out)
                else:
                    _write_line(item, out)
            out.append("</div>")
        if n == 0:
            for pic in pictures:
                _write_picture(pic, out)
    if not text.strip():
        for pic in pictures:
            _write_picture(pic, out)
    body = sum(len(x) + 1 for x in out[1:]) - sum(len(x) + 1 for x in _pictures_html(pictures))
    if body > RATIO * len(text) + 1_000:
        out = [_HEAD]
        for pic in pictures:
            _write_picture(pic, out)
        _write_pre(text, out)
    return "\n".join(out) + "\n" + _TAIL


def _pictures_html(pictures: Sequence[Picture]) -> list[str]:
    out: list[str] = []
    for pic in pictures:
        _write_picture(pic, out)
    return out
