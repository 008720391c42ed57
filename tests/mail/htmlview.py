"""A mail's HTML part as a page a browser can open: its ``cid:`` pictures
written beside it as files and referred to by name."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from bench.support.htmlpart import alternatives


def html_page(msg: EmailMessage, folder: Path, extra: str = "") -> Path:
    """Write the HTML part of ``msg`` to ``folder/page.html`` with each
    ``cid:`` reference turned into the file of the part it names (written
    into ``folder`` too), ``extra`` added at the end of the body; return
    the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (_text, html), = alternatives(msg)
    for n, part in enumerate(p for p in msg.walk() if p["Content-ID"]):
        cid = str(part["Content-ID"]).strip("<>")
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        name = f"part{n}-{part.get_filename() or 'picture'}"
        (folder / name).write_bytes(data)
        assert f"cid:{cid}" in html, cid
        html = html.replace(f"cid:{cid}", name)
    assert "cid:" not in html, "a cid: reference without its part"
    page = folder / "page.html"
    page.write_text(html.replace("</body>", extra + "</body>"), encoding="utf-8")
    return page
