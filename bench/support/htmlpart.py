"""Reading the HTML alternative of the judge's mail in tests.

Every mail the judge sends carries its text twice: text/plain (canonical)
and text/html (:mod:`judge.mail.mailhtml`). :func:`check_alternatives` holds the
HTML to what the text says: the words of the HTML's text (tags, the head
and attribute values aside) are the words of the text part, in order. So a
test that searches a mail's text part for what it must not hold covers the
HTML part too: a word in the HTML that the text does not have fails here.
"""

from __future__ import annotations

from email.message import EmailMessage
from html.parser import HTMLParser


class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.skip = 0
        self.images: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag in ("head", "style", "script", "title"):
            self.skip += 1
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("head", "style", "script", "title"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.words += data.split()


def html_words(html: str) -> list[str]:
    """The words an HTML document shows (its body's text)."""
    parser = _Words()
    parser.feed(html)
    parser.close()
    return parser.words


def html_images(html: str) -> list[str]:
    """The ``src`` of every ``<img>`` of an HTML document."""
    parser = _Words()
    parser.feed(html)
    parser.close()
    return parser.images


def html_tags(html: str) -> set[str]:
    parser = _Words()
    parser.feed(html)
    parser.close()
    return parser.tags


def alternatives(msg: EmailMessage) -> list[tuple[str, str]]:
    """``(text, html)`` of every multipart/alternative in ``msg``."""
    out: list[tuple[str, str]] = []
    for part in msg.walk():
        if part.get_content_type() != "multipart/alternative":
            continue
        assert isinstance(part, EmailMessage)
        kinds = {p.get_content_type(): p for p in part.iter_parts()}
        plain, html = kinds.get("text/plain"), kinds.get("text/html")
        assert plain is not None and html is not None, "an alternative without both parts"
        assert isinstance(plain, EmailMessage) and isinstance(html, EmailMessage)
        out.append((str(plain.get_content()), str(html.get_content())))
    return out


def check_alternatives(msg: EmailMessage) -> None:
    """Every HTML part of ``msg`` shows the words of its text part, in
    order, and nothing else; its pictures are parts of the mail
    (``cid:``), never fetched from elsewhere, and it has no script or
    style element."""
    cids = {str(p["Content-ID"]).strip("<>") for p in msg.walk() if p["Content-ID"]}
    for text, html in alternatives(msg):
        assert html_words(html) == text.split(), "the HTML part says what the text does not"
        for src in html_images(html):
            assert src.startswith("cid:") and src[4:] in cids, src
        assert not html_tags(html) & {"script", "style", "link", "iframe", "object"}
