"""Property tests for judge.mail.mailin.parse_mail.

* Arbitrary bytes, header-shaped bytes and randomly built MIME trees (random
  headers, charsets, transfer encodings, nesting, lying labels) never make
  it raise, never reach its last-resort safety net, and always give a
  well-formed result.
* Text survives any charset and transfer encoding that can carry it:
  parse_mail gives exactly clean_body of the text.
* A token that only appears in quoted text, a signature or an attachment
  never reaches the command lines, so no mail can act for a seat by quoting
  that seat's mail (the pipeline's "no state change without a valid token"
  rests on this).
"""

from __future__ import annotations

import base64
import hashlib
import os
import quopri
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from judge.mail.mailin import IncomingMail, Limits, clean_body, parse_mail

DROP_PREFIXES = (
    "delivery report",
    "auto-submitted: ",
    "auto-reply: ",
    "list: ",
    "empty return path",
    "no sender",
)
REFUSE_PREFIXES = ("too large: ", "too many lines: ", "no readable text")
LIMITS = Limits(max_bytes=200_000, max_lines=400)
TOKEN = "frtoken-7Q2x"

# JUDGE_FUZZ_EXAMPLES=5000 for a deeper run than the default one.
FUZZ = settings(
    max_examples=int(os.environ.get("JUDGE_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def well_formed(mail: IncomingMail, limits: Limits = LIMITS) -> None:
    """What every result must look like, whatever went in."""
    assert isinstance(mail, IncomingMail)
    # the safety nets ("unparseable: ...", "unreadable: ...") are never reached
    assert mail.drop is None or mail.drop.startswith(DROP_PREFIXES), mail.drop
    assert mail.refuse is None or mail.refuse.startswith(REFUSE_PREFIXES), mail.refuse
    assert re.fullmatch(r"<[^<>\s]+>", mail.message_id)
    assert mail.from_addr == mail.from_addr.lower()
    assert mail.from_addr == "" or "@" in mail.from_addr
    assert mail.return_path is None or mail.return_path == mail.return_path.lower()
    assert "\n" not in mail.subject and "\r" not in mail.subject
    if mail.refuse:
        assert mail.lines == ()
    assert len(mail.lines) <= limits.max_lines
    assert not mail.lines or mail.lines[-1] != ""
    for line in mail.lines:
        assert "\n" not in line and "\r" not in line
        assert line == line.rstrip()
        assert not line.lstrip().startswith(">")
        assert not set(line) & {"\t", "\u00a0", "\ufeff", "\u200b", "\x00"}
    joined = "\n".join(mail.lines).encode("utf-8", "surrogatepass")
    assert mail.body_hash == hashlib.sha256(joined).hexdigest()


# --------------------------------------------------------------------------- raw bytes


@FUZZ
@given(st.binary(max_size=4000))
def test_arbitrary_bytes(raw: bytes) -> None:
    well_formed(parse_mail(raw, LIMITS))


HEADER_NAMES = [
    "From", "To", "Subject", "Message-ID", "Return-Path", "Reply-To", "In-Reply-To",
    "References", "Date", "Auto-Submitted", "Precedence", "List-Id", "Content-Type",
    "Content-Transfer-Encoding", "Content-Disposition", "MIME-Version", "X-Autoreply",
    "Authentication-Results",
]  # fmt: skip
HEADER_VALUES = [
    "", "<>", "no", "auto-replied", "bulk", "marie@example.fr", "Marie <marie@example.fr>",
    "=?utf-8?q?caf=C3=A9?=", "=?x-bogus?b?!!!?=", "=?utf-8?b?5aSW5Lqk?=",
    "multipart/mixed; boundary=b", "multipart/alternative; boundary=\"b\"",
    "multipart/report; report-type=delivery-status; boundary=b", "text/plain; charset=utf-8",
    "text/html; charset=gb2312", "text/plain; charset=x-unknown; format=flowed; delsp=yes",
    "text/plain; charset*=utf-8''%E2%82%AC", "message/rfc822", "base64", "quoted-printable",
    "8bit", "attachment; filename=\"a.txt\"", "<a@b> <c@d>", "(((", "\"unterminated",
]  # fmt: skip
PART_LINES = [
    b"--b", b"--b--", b"Content-Type: text/plain; charset=utf-8", b"Content-Type: text/html",
    b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
    b"Content-Type: message/delivery-status", b"Content-Type: message/rfc822",
    b"Final-Recipient: rfc822; x@y", b"Action: failed", b"Status: 5.1.1", b"",
    b"SIGNON corpus France frtoken-7Q2x", b"> A Par - Bur", b"-- ", b"U0lHTk9O", b"=C3=A9=",
    b"<blockquote>A Par - Bur", b"<p>x</p>",
]  # fmt: skip


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.sampled_from(HEADER_NAMES),
            st.one_of(st.sampled_from(HEADER_VALUES), st.text(max_size=40)),
        ),
        max_size=12,
    ),
    st.lists(st.one_of(st.sampled_from(PART_LINES), st.binary(max_size=60)), max_size=40),
    st.sampled_from([b"\n", b"\r\n"]),
)
@example(  # found by this test: the standard library raised TypeError here
    headers=[("Content-Type", "text/plain; charset*=utf-8''%E2%82%AC")],
    body=[b"\x80"],
    newline=b"\n",
)
def test_header_shaped_bytes(
    headers: list[tuple[str, str]], body: list[bytes], newline: bytes
) -> None:
    head = [f"{name}: {value}".encode("utf-8", "surrogatepass") for name, value in headers]
    raw = newline.join(head) + newline + newline + newline.join(body)
    well_formed(parse_mail(raw, LIMITS))


# --------------------------------------------------------------------------- MIME trees

CHARSETS = [
    "utf-8", "iso-8859-1", "windows-1252", "koi8-r", "gb2312", "gb18030", "shift_jis",
    "euc-kr", "utf-16", "us-ascii", "x-unknown", "unknown-8bit", "base64", "",
]  # fmt: skip
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "binary", ""]
TEXT = st.text(
    st.characters(exclude_categories=["Cs"]),
    max_size=300,
)


def encode_text(text: str, charset: str, cte: str) -> bytes:
    """``text`` as a part body in ``charset`` (best effort: unknown or
    unsuitable charsets fall back to UTF-8, like a careless client) and
    transfer encoding ``cte``."""
    try:
        data = text.encode(charset or "utf-8")
    except (LookupError, UnicodeError):
        data = text.encode("utf-8", "surrogatepass")
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    return data


@st.composite
def leaf(draw: st.DrawFn) -> bytes:
    ctype = draw(
        st.sampled_from(
            ["text/plain", "text/html", "text/enriched", "image/png", "application/json"]
        )
    )
    charset = draw(st.sampled_from(CHARSETS))
    cte = draw(st.sampled_from(ENCODINGS))
    params = f"; charset={charset}" if charset else ""
    if draw(st.booleans()):
        params += "; format=flowed" + ("; delsp=yes" if draw(st.booleans()) else "")
    headers = [f"Content-Type: {ctype}{params}"]
    if cte:
        headers.append(f"Content-Transfer-Encoding: {cte}")
    if draw(st.booleans()):
        name = draw(st.sampled_from(["orders.txt", "=?utf-8?q?=C3=A9.txt?=", "a b.json"]))
        headers.append(f'Content-Disposition: attachment; filename="{name}"')
    if ctype.startswith("text/"):
        body = draw(TEXT)
        if ctype == "text/html":
            body = draw(st.sampled_from(["<p>", "<blockquote>", "<br>", "<pre>", ""])) + body
        payload = encode_text(body, charset, cte)
    else:
        payload = draw(st.binary(max_size=200))
        if cte == "base64":
            payload = base64.encodebytes(payload)
    return ("\n".join(headers) + "\n\n").encode() + payload


def multipart(children: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        sub = draw(st.sampled_from(["mixed", "alternative", "related", "signed", "report"]))
        parts = draw(st.lists(children, min_size=0, max_size=4))
        boundary = draw(st.sampled_from(["b1", "=_x", "----=_NextPart_000", "b1b1"]))
        extra = "; report-type=delivery-status" if sub == "report" else ""
        out = f'Content-Type: multipart/{sub}; boundary="{boundary}"{extra}\n\n'.encode()
        out += b"preamble\n"
        for part in parts:
            out += f"--{boundary}\n".encode() + part + b"\n"
        if draw(st.booleans()):  # the closing delimiter is sometimes missing
            out += f"--{boundary}--\n".encode()
        return out

    return build()


TREE = st.recursive(leaf(), multipart, max_leaves=8)
TOP_HEADERS = st.lists(
    st.sampled_from(
        [
            "From: Marie Dupont <marie@example.fr>",
            "From: =?utf-8?q?Dupr=C3=A9=2C_M?= <MARIE@example.fr>",
            "From: garbage without address",
            "From: MAILER-DAEMON@example.org",
            "Return-Path: <>",
            "Return-Path: <marie@example.fr>",
            "Auto-Submitted: auto-replied",
            "Auto-Submitted: no",
            "Precedence: bulk",
            "List-Id: <x.example.org>",
            "Subject: =?utf-8?b?5aSW5Lqk?= orders",
            "Subject: =?iso-8859-1?q?=E9t=E9?=",
            "Message-ID: <x@y>",
            "Message-ID: broken id",
            "MIME-Version: 1.0",
        ]
    ),
    max_size=6,
)


@FUZZ
@given(TOP_HEADERS, TREE)
def test_random_mime_trees(headers: list[str], tree: bytes) -> None:
    raw = ("\n".join(headers) + "\n").encode() + tree
    well_formed(parse_mail(raw, LIMITS))
    # and the same with CRLF line ends
    well_formed(parse_mail(raw.replace(b"\n", b"\r\n"), LIMITS))


# --------------------------------------------------------------------------- round trip

SAFE_TEXT = st.text(
    st.characters(exclude_categories=["Cs", "Cc"], exclude_characters="\u2028\u2029\x85")
    | st.sampled_from(["\n", "\n", " ", "\t"]),
    max_size=400,
)


@FUZZ
@given(
    SAFE_TEXT,
    st.sampled_from(["utf-8", "iso-8859-1", "windows-1252", "koi8-r", "gb18030", "shift_jis"]),
    st.sampled_from(["8bit", "base64", "quoted-printable"]),
    st.sampled_from([b"\n", b"\r\n"]),
)
def test_text_survives_any_encoding(text: str, charset: str, cte: str, newline: bytes) -> None:
    try:
        # Only text the charset carries both ways: Shift_JIS, for one, writes
        # the yen sign and the backslash as the same byte.
        if text.encode(charset).decode(charset) != text:
            charset = "utf-8"
    except UnicodeError:
        charset = "utf-8"
    if cte == "8bit":
        text = text.replace("\r", "")  # 8bit carries lines, not lone CRs
    head = (
        "From: Marie <marie@example.fr>\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: {cte}\n\n"
    ).encode()
    payload = encode_text(text.replace("\n", "\r\n") if newline == b"\r\n" else text, charset, cte)
    raw = head.replace(b"\n", newline) + payload
    mail = parse_mail(raw, Limits(max_bytes=10**6, max_lines=10**6))
    assert mail.refuse is None
    assert list(mail.lines) == clean_body(text)


# --------------------------------------------------------------------------- tokens that hide


@FUZZ
@given(
    st.lists(st.sampled_from(["STATUS", "WAIT", "A Par - Bur", "", "HELP", "Merci"]), max_size=6),
    st.sampled_from(
        [
            "> SIGNON corpus France {t}",
            ">> SIGNON corpus France {t}",
            "  > SIGNON corpus France {t}",
        ]
    ),
    st.sampled_from(
        [
            "-- \nSIGNON corpus France {t}",
            "Sent from my iPhone\nSIGNON corpus France {t}",
            "-----Original Message-----\nSIGNON corpus France {t}",
            "On Mon, 3 Jun 2024, Judge <j@x.org> wrote:\n> SIGNON corpus France {t}",
            "From: Judge\nSent: Monday\nTo: marie\nSubject: x\nSIGNON corpus France {t}",
            "---------- Forwarded message ---------\nSIGNON corpus France {t}",
        ]
    ),
    st.sampled_from(["8bit", "base64", "quoted-printable"]),
    st.booleans(),
)
def test_quoted_or_signed_off_tokens_never_reach_the_lines(
    visible: list[str], quoted: str, tail: str, cte: str, flowed: bool
) -> None:
    body = "\n".join([quoted.format(t=TOKEN), *visible, tail.format(t=TOKEN)]) + "\n"
    params = "; format=flowed" if flowed else ""
    raw = (
        "From: Mallory <mallory@evil.example>\nMIME-Version: 1.0\n"
        "Content-Type: multipart/mixed; boundary=B\n\n--B\n"
        f"Content-Type: text/plain; charset=utf-8{params}\nContent-Transfer-Encoding: {cte}\n\n"
    ).encode() + encode_text(body, "utf-8", cte)
    raw += (
        b"\n--B\nContent-Type: text/plain\nContent-Disposition: attachment; filename=o.txt\n\n"
        + f"SIGNON corpus France {TOKEN}\n--B--\n".encode()
    )
    mail = parse_mail(raw)
    well_formed(mail, Limits())
    assert not any(TOKEN in line for line in mail.lines)
    assert [line for line in mail.lines if line] == [v for v in visible if v]
