"""The kept copy of a handled mail (judge.mail.redact.redact_raw): the direct path
for one plain text part masks what the email package's path masks."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest

from judge.mail import redact

TOKEN = "k3xw9q2mzr7t4vhp"


def _mail(body: str, *, subject: str = "orders", cte: str | None = None,
          ctype: str | None = 'text/plain; charset="utf-8"', eol: str = "\n") -> bytes:
    head = ["From: Anna <anna@example.org>", "To: judge@example.org", f"Subject: {subject}",
            "Message-ID: <a1@example.org>", "MIME-Version: 1.0"]
    if ctype is not None:
        head.append(f"Content-Type: {ctype}")
    if cte is not None:
        head.append(f"Content-Transfer-Encoding: {cte}")
    text = eol.join(head) + eol + eol + body.replace("\n", eol)
    return text.encode("utf-8")


def _read(raw: bytes) -> tuple[str, str]:
    msg = message_from_bytes(raw, policy=default_policy)
    assert isinstance(msg, EmailMessage)
    part = msg.get_body(("plain",))
    assert part is not None
    text = str(part.get_content()).replace("\r\n", "\n")
    return str(msg["Subject"]), redact.fold(text).rstrip("\n")


CASES = [
    (f"SIGNON g1 France {TOKEN}\nORDERS\nA PAR - BUR\nEND\n", {}),
    (f"signon g1 France {TOKEN}\nSTATUS\n", {"cte": "7bit", "ctype": "text/plain"}),
    (f"ＳＩＧＮＯＮ g1 France {TOKEN}\nPRESS TO ALL\nGrüße\nEND\n", {"cte": "8bit"}),
    (f"SIGNON g1 France {TOKEN}\nA PAR H\n", {"eol": "\r\n", "ctype": None}),
    (f"my token is: {TOKEN}.\nthanks\n", {"cte": "8bit", "ctype": "text/plain; charset=us-ascii"}),
    ("STATUS g1\nno token here\n", {}),
]


@pytest.mark.parametrize(("body", "kw"), CASES)
def test_the_direct_path_masks_as_the_email_package_does(body: str, kw: dict[str, str]) -> None:
    raw = _mail(body, **kw)
    direct = redact._redact_plain(raw)
    assert direct is not None
    assert TOKEN not in direct.decode("utf-8")
    assert _read(direct) == _read(redact._redact_mime(raw))
    if TOKEN not in body:
        assert direct == raw  # nothing to mask: kept as it came
    head = raw.split(b"\n\n" if kw.get("eol") != "\r\n" else b"\r\n\r\n", 1)[0]
    assert direct.startswith(head)  # the headers stay as they came


@pytest.mark.parametrize("raw", [
    _mail(f"SIGNON g1 France {TOKEN}\n", cte="quoted-printable"),
    _mail(f"SIGNON g1 France {TOKEN}\n", ctype="text/html"),
    _mail(f"SIGNON g1 France {TOKEN}\n", ctype="text/plain; charset=iso-8859-1"),
    _mail("STATUS\n", subject=f"SIGNON g1 France {TOKEN}"),
    _mail("STATUS\n", subject="=?utf-8?q?orders?="),
    _mail(f"SIGNON g1 France {TOKEN}\nGrüße\n", cte=None),  # 7bit by default: not so
    b"no header block at all",
])
def test_other_mail_takes_the_email_package_path(raw: bytes) -> None:
    assert redact._redact_plain(raw) is None
    assert TOKEN not in redact.redact_raw(raw).decode("utf-8", "replace")
