"""Byte-exact MIME for the client corpus.

The standard library's generator re-folds headers, picks its own transfer
encodings and boundaries; a mail client does not do it its way. These small
builders write what a client writes: the body in the charset and transfer
encoding the builder names, the boundaries it names, the parts in its order.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field

#: Python's codec for each MIME charset label a builder may use.
CODECS = {
    "us-ascii": "ascii",
    "utf-8": "utf-8",
    "iso-8859-1": "latin-1",
    "windows-1252": "cp1252",
    "koi8-r": "koi8_r",
    "gb2312": "gb2312",
    "gbk": "gbk",
    "iso-2022-jp": "iso2022_jp",
    "windows-1251": "cp1251",
    "iso-8859-2": "iso-8859-2",
    "ks_c_5601-1987": "cp949",
    "windows-1254": "cp1254",
}


@dataclass
class Part:
    """One MIME entity: its header lines (as written) and its encoded body."""

    headers: list[tuple[str, str]]
    body: bytes
    children: list[Part] = field(default_factory=list)
    boundary: str = ""

    def render(self) -> bytes:
        head = "".join(f"{k}: {v}\n" for k, v in self.headers).encode("ascii")
        if not self.children:
            return head + b"\n" + self.body
        out = [head, b"\n", self.body]
        for child in self.children:
            out += [b"--", self.boundary.encode(), b"\n", child.render(), b"\n"]
        out += [b"--", self.boundary.encode(), b"--\n"]
        return b"".join(out)


def encode_body(data: bytes, cte: str) -> bytes:
    """``data`` in the transfer encoding ``cte`` (lines end in LF)."""
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        # binascii's encoder: 76-column lines with "=" soft breaks, "=" and
        # 8-bit bytes as =XX, a space or tab before a line end as =20/=09.
        out = binascii.b2a_qp(data, istext=True, header=False)
        return out if out.endswith(b"\n") else out + b"\n"
    if cte in ("7bit", "8bit"):
        return data if data.endswith(b"\n") else data + b"\n"
    raise ValueError(cte)


def text(content: str, subtype: str = "plain", charset: str = "utf-8", cte: str = "7bit",
         params: str = "", extra: list[tuple[str, str]] | None = None,
         ctype_first: bool = True) -> Part:
    """A text part: ``content`` (LF line ends) in ``charset``, transfer-encoded.
    ``params`` is appended to the Content-Type (``; format=flowed``)."""
    data = content.encode(CODECS[charset])
    if cte == "7bit" and any(b > 127 for b in data):
        raise ValueError("8-bit data in a 7bit part")
    ctype = f"text/{subtype}; charset=\"{charset}\"{params}"
    headers = [("Content-Type", ctype), ("Content-Transfer-Encoding", cte)]
    if not ctype_first:
        headers.reverse()
    return Part([*headers, *(extra or [])], encode_body(data, cte))


def binary(data: bytes, ctype: str, filename: str = "", disposition: str = "attachment",
           cid: str = "", extra: list[tuple[str, str]] | None = None) -> Part:
    """A base64 part (an image, a key, winmail.dat ...)."""
    headers = [("Content-Type", f'{ctype}; name="{filename}"' if filename else ctype)]
    if filename:
        headers.append(("Content-Description", filename))
    if disposition:
        headers.append(("Content-Disposition",
                        f'{disposition}; filename="{filename}"' if filename else disposition))
    if cid:
        headers.append(("Content-ID", f"<{cid}>"))
    headers.append(("Content-Transfer-Encoding", "base64"))
    return Part([*headers, *(extra or [])], base64.encodebytes(data))


def multipart(subtype: str, boundary: str, *parts: Part, params: str = "",
              preamble: str = "") -> Part:
    head = [("Content-Type", f'multipart/{subtype};\n\tboundary="{boundary}"{params}')]
    body = (preamble + "\n").encode() if preamble else b""
    return Part(head, body, list(parts), boundary)


def message(headers: list[tuple[str, str]], root: Part, mime_version: str = "1.0") -> bytes:
    """The whole mail: the message headers, then the root part's own."""
    lines = [*headers, ("MIME-Version", mime_version)]
    root = Part([*lines, *root.headers], root.body, root.children, root.boundary)
    return root.render()


def word(value: str, charset: str = "utf-8", encoding: str = "B") -> str:
    """``value`` as RFC 2047 encoded-words (B or Q), as clients put a
    non-ASCII display name or subject in a header."""
    raw = value.encode(CODECS[charset])
    if encoding == "B":
        return f"=?{charset}?B?{base64.b64encode(raw).decode()}?="
    q = "".join(chr(b) if (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122) else
                "_" if b == 32 else f"={b:02X}" for b in raw)
    return f"=?{charset}?Q?{q}?="


def flow(content: str, width: int = 72, delsp: bool = False) -> str:
    """``content`` as format=flowed (RFC 3676): every line longer than
    ``width`` is soft-broken at spaces (a trailing space marks the break; with
    ``delsp`` one more space is added, which the reader deletes). Quoted lines
    keep their ``>`` marks on every piece; a line starting with a space,
    ``From `` or ``>`` inside the text is space-stuffed."""
    out: list[str] = []
    for line in content.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        marks, rest = line[:depth], line[depth:]
        if depth and rest.startswith(" "):
            rest = rest[1:]
        if not rest:
            out.append(marks)  # an empty line ends a paragraph: no trailing space
            continue
        lead = marks + " " if depth else ""
        if not depth and rest.startswith((" ", "From ", ">")):
            lead = " "  # space-stuffing (RFC 3676 section 4.4)
        indent = rest[: len(rest) - len(rest.lstrip(" "))]
        words = rest[len(indent):].split(" ")
        pieces: list[str] = []
        current = indent + words[0]
        for w in words[1:]:
            if len(lead) + len(current) + 1 + len(w) > width and current.strip():
                pieces.append(current + " " + (" " if delsp else ""))
                current = w
            else:
                current = f"{current} {w}"
        pieces.append(current)
        out += [lead + p for p in pieces]
    return "\n".join(out)


def html_escape(line: str) -> str:
    return (line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))
