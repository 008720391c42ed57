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
composed into MIME (today :func:`judge.mailout.compose`).

How the text is read:

* paragraphs are separated by blank lines; each line stays a line, indented
  as in the text;
* a run of two or more lines that each have a gap of two spaces or more
  inside them is a table when there are columns of blanks (two or more
  wide) down every line of the run that take in every such gap: each
  stretch between those blank columns is a column of the table, aligned
  left, right or centred as its cells are in the text. A run whose gaps do
  not line up is shown preformatted (monospace, lines kept);
* the first line of a paragraph written in capitals ("SUPPLY CENTRES (18 to
  win)", "UNITS") is a heading.

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

import re
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["Picture", "png_size", "render"]

#: Lines of the HTML source are broken at spaces to stay within this (RFC
#: 2045 6.7's 76 characters, so the part goes 7bit).
WIDTH = 76

_FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
_MONO = "font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace"
_GAP = re.compile(r"\S( {2,})(?=\S)")
_LETTERS = re.compile(r"[^\W\d_]")
#: An inline picture is shown at most this wide (CSS px); narrower screens
#: scale it down (max-width:100%).
PICTURE_WIDTH = 680


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
class _Pre:
    lines: list[str]


@dataclass(frozen=True)
class _Line:
    text: str
    heading: bool = False


_Item = _Table | _Pre | _Line


def _gapped(line: str) -> bool:
    """Whether ``line`` has a gap of two spaces or more inside it."""
    return _GAP.search(line) is not None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _table(lines: Sequence[str]) -> _Table | None:
    """``lines`` as a table, when blank columns two or more wide run down
    every line and take in every gap of two spaces inside a line."""
    width = max(len(x) for x in lines)
    start = min(_indent(x) for x in lines)
    padded = [x.ljust(width) for x in lines]
    blank = [all(p[c] == " " for p in padded) for c in range(width)]
    cuts: list[tuple[int, int]] = []  # blank runs [s, e) inside the content
    c = start
    while c < width:
        if blank[c]:
            s = c
            while c < width and blank[c]:
                c += 1
            if c < width and c - s >= 2:
                cuts.append((s, c))
        else:
            c += 1
    if not cuts:
        return None
    for x in lines:
        for m in _GAP.finditer(x):
            s, e = m.start(1), m.end(1)
            if not any(s < ce and cs < e for cs, ce in cuts):
                return None
    spans = [(start, cuts[0][0])]
    spans += [(cuts[i][1], cuts[i + 1][0]) for i in range(len(cuts) - 1)]
    spans.append((cuts[-1][1], width))
    rows = [[p[s:e].strip() for s, e in spans] for p in padded]
    align = []
    for j, (s, e) in enumerate(spans):
        cells = [(p[s:e], r[j]) for p, r in zip(padded, rows, strict=True) if r[j]]
        lefts = {len(seg) - len(seg.lstrip(" ")) for seg, _ in cells}
        rights = {len(seg) - len(seg.rstrip(" ")) for seg, _ in cells}
        if lefts == {0} or len(cells) < 2:
            align.append("left")
        elif len(rights) == 1:
            align.append("right")
        else:
            align.append("center")
    return _Table(rows, align, start)


def _heading(line: str) -> bool:
    """A line written in capitals (what is in parentheses aside):
    "SUPPLY CENTRES (18 to win)", "UNITS"."""
    if not line or line[0] == " ":
        return False
    outside = re.sub(r"\([^)]*\)", "", line)
    letters = _LETTERS.findall(outside)
    return len(letters) >= 3 and all(ch.isupper() for ch in letters)


def _items(block: Sequence[str]) -> Iterator[_Item]:
    """The lines, tables and preformatted runs of one paragraph."""
    i = 0
    while i < len(block):
        j = i
        while j < len(block) and _gapped(block[j]):
            j += 1
        table = _table(block[i:j]) if j - i >= 2 else None
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


def _esc(text: str) -> str:
    """``text`` escaped for HTML, in ASCII (character references)."""
    return escape(text, quote=True).encode("ascii", "xmlcharrefreplace").decode("ascii")


def _wrap(text: str, out: list[str], width: int = WIDTH) -> None:
    """Append ``text`` (HTML without preformatted white space) to ``out`` in
    lines of at most ``width`` characters, broken at spaces (a line break
    is a space to HTML); a longer word stays whole."""
    while len(text) > width:
        cut = text.rfind(" ", 1, width + 1)
        if cut <= 0:
            cut = text.find(" ", width + 1)
            if cut <= 0:
                break
        out.append(text[:cut])
        text = text[cut + 1 :]
    out.append(text)


def _pad(indent: int) -> str:
    # An indent of n spaces, in a proportional font: half an em a space.
    return f"padding-left:{indent / 2:g}em;" if indent else ""


def _write_line(item: _Line, out: list[str]) -> None:
    ind = _indent(item.text)
    if item.heading:
        out.append(f'<div style="font-weight:bold;margin:0 0 2px;{_pad(ind)}">')
    else:
        out.append(f'<div style="margin:0;{_pad(ind)}">')
    _wrap(_esc(item.text.strip()), out)
    out.append("</div>")


def _write_table(item: _Table, out: list[str]) -> None:
    margin = f"0 0 4px {item.indent / 2:g}em" if item.indent else "0 0 4px"
    out.append('<table cellpadding="0" cellspacing="0" border="0"')
    out.append(f' style="border-collapse:collapse;margin:{margin}">')
    last = len(item.align) - 1
    for row in item.rows:
        out.append("<tr>")
        for j, cell in enumerate(row):
            right = "0" if j == last else "14px"
            out.append(f'<td align="{item.align[j]}" style="padding:2px {right} 2px 0;'
                       f"border-bottom:1px solid #8c8c8c;")
            out.append(f'vertical-align:top;text-align:{item.align[j]}">')
            _wrap(_esc(cell), out)
            out.append("</td>")
        out.append("</tr>")
    out.append("</table>")


def _write_pre(item: _Pre, out: list[str]) -> None:
    out.append(f'<div style="{_MONO};font-size:13px;white-space:pre-wrap;margin:0 0 4px">')
    # Preformatted: the lines go as they are (a line break here is one
    # in the text too), joined by line breaks of the source.
    body = "\n".join(_esc(x) for x in item.lines)
    out.append(body + "</div>")


def _write_picture(pic: Picture, out: list[str]) -> None:
    shown = min(pic.width, PICTURE_WIDTH) if pic.width > 0 else PICTURE_WIDTH
    out.append('<div style="margin:0 0 14px">')
    out.append(f'<img src="cid:{_esc(pic.cid)}" alt="{_esc(pic.filename)}"')
    out.append(f' width="{shown}" style="display:block;width:{shown}px;max-width:100%;')
    out.append('height:auto;border:0">')
    out.append("</div>")


_HEAD = (
    "<!DOCTYPE html>\n"
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    '<meta name="color-scheme" content="light dark">\n'
    '<meta name="supported-color-schemes" content="light dark">\n'
    "</head>\n"
    '<body style="margin:0;padding:0">\n'
    f'<div style="max-width:720px;margin:0 auto;padding:12px;{_FONT};\n'
    'font-size:15px;line-height:1.45;overflow-wrap:anywhere;word-break:break-word">'
)
_TAIL = "</div>\n</body></html>\n"


def render(text: str, pictures: Sequence[Picture] = ()) -> str:
    """The HTML alternative of the mail text ``text``, with ``pictures``
    shown after its first paragraph (a report's heading). Pure: the same
    text and pictures give the same HTML."""
    out: list[str] = [_HEAD]
    for n, block in enumerate(_paragraphs(text)):
        out.append('<div style="margin:0 0 14px">')
        for item in _items(block):
            if isinstance(item, _Table):
                _write_table(item, out)
            elif isinstance(item, _Pre):
                _write_pre(item, out)
            else:
                _write_line(item, out)
        out.append("</div>")
        if n == 0:
            for pic in pictures:
                _write_picture(pic, out)
    if not text.strip():
        for pic in pictures:
            _write_picture(pic, out)
    return "\n".join(out) + "\n" + _TAIL
