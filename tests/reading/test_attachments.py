"""Parts the sender did not knowingly attach never make a readable mail
unreadable (judge.mail.mailin.incidental): the body is read and the
acknowledgement names what was left aside. A real attached document under
``limits.attachments = refuse`` is still refused: the notice names the part,
says what to do, under one "Re:". Through the real Maildir pipeline."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from email.message import EmailMessage

import pytest

from judge.mail.mailin import parse_mail
from tests.reading.conftest import Table, address

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _base(t: Table, subject: str = "orders") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = address("Russia")
    msg["To"] = t.judge.config.address
    msg["Subject"] = subject
    t.sent += 1
    msg["Message-ID"] = f"<a{t.sent}@players.example>"
    return msg


def _orders(t: Table) -> str:
    return f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev - Bla\n"


def outlook_logo(t: Table) -> EmailMessage:
    """Outlook: the body in multipart/alternative, the signature's logo beside
    it in multipart/related with a Content-ID."""
    msg = _base(t)
    msg.set_content(_orders(t) + "\nAnna\n")
    msg.add_alternative(f"<html><body><p>{_orders(t)}</p><img src='cid:logo001'>"
                        "</body></html>", subtype="html")
    parts = msg.get_payload()
    assert isinstance(parts, list)
    html = parts[1]
    assert isinstance(html, EmailMessage)
    html.add_related(PNG, maintype="image", subtype="png", cid="<logo001>", filename="image001.png")
    return msg


def _mixed(t: Table, *parts: EmailMessage) -> EmailMessage:
    msg = _base(t)
    msg.set_content(_orders(t))
    msg.make_mixed()
    for part in parts:
        msg.attach(part)
    return msg


def _part(data: bytes | str, ctype: str, filename: str = "", inline: bool = False) -> EmailMessage:
    part = EmailMessage()
    maintype, subtype = ctype.split("/")
    if isinstance(data, str):
        part.set_content(data, subtype=subtype)
        if maintype != "text":
            part.replace_header("Content-Type", ctype)
    else:
        part.set_content(data, maintype=maintype, subtype=subtype)
    if filename:
        part.add_header("Content-Disposition", "inline" if inline else "attachment",
                        filename=filename)
    return part


def winmail(t: Table) -> EmailMessage:
    return _mixed(t, _part(b"\x78\x9f\x3e\x22" + bytes(40), "application/ms-tnef", "winmail.dat"))


def public_key(t: Table) -> EmailMessage:
    key = ("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZk0AAA==\n"
           "-----END PGP PUBLIC KEY BLOCK-----\n")
    return _mixed(t, _part(key.encode(), "application/pgp-keys", "OpenPGP_0x1A2B3C4D.asc"))


def vcard(t: Table) -> EmailMessage:
    card = "BEGIN:VCARD\nVERSION:3.0\nFN:Anna Smith\nEND:VCARD\n"
    return _mixed(t, _part(card, "text/x-vcard", "anna.vcf"))


def judge_forward(t: Table) -> EmailMessage:
    """A forward of the judge's report that keeps its JSON and its map."""
    view = json.dumps({"game": "g1", "phase": "S1901M", "units": []}).encode()
    return _mixed(t, _part(view, "application/json", "g1-Russia.json"),
                  _part(PNG, "image/png", "g1-S1901M.png"))


def gateway_footer(t: Table) -> EmailMessage:
    """A mail gateway's disclaimer added as a second inline text part."""
    footer = EmailMessage()
    footer.set_content("This message and any attachments are confidential. If you are not "
                       "the intended recipient, please delete it.\n")
    footer.add_header("Content-Disposition", "inline")
    return _mixed(t, footer)


def _attached_mail() -> EmailMessage:
    """A mail attached whole (message/rfc822: Outlook's and Thunderbird's
    "forward as attachment"), itself holding order lines."""
    inner = EmailMessage()
    inner["From"] = "anna@players.example"
    inner["Subject"] = "my orders"
    inner.set_content("A Mos - Sev\nF Sev - Rum\n")
    part = EmailMessage()
    part.set_content(inner)
    return part


def attached_mail(t: Table) -> EmailMessage:
    return _mixed(t, _attached_mail())


SHAPES: dict[str, tuple[Callable[[Table], EmailMessage], list[str]]] = {
    "outlook-logo": (outlook_logo, ["image001.png (image/png", "a picture shown in the mail"]),
    "winmail-dat": (winmail, ["winmail.dat (application/ms-tnef", "winmail.dat"]),
    "public-key": (public_key, ["OpenPGP_0x1A2B3C4D.asc (application/pgp-keys",
                                "the sender's public key"]),
    "vcard": (vcard, ["anna.vcf (text/x-vcard", "a contact card"]),
    "judge-forward": (judge_forward, ["g1-Russia.json (application/json",
                                      "the judge's own report data",
                                      "g1-S1901M.png (image/png"]),
    "gateway-footer": (gateway_footer, ["(unnamed) (text/plain", "a second text part"]),
    "attached-mail": (attached_mail, ["(unnamed) (message/rfc822",
                                      "a mail attached to this one (forwarded as an attachment)"
                                      ": not opened"]),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_incidental_parts_are_left_aside(tables: Callable[[str], Table], shape: str) -> None:
    t = tables("classic")
    assert t.judge.config.attachments == "refuse"  # the default
    build, named = SHAPES[shape]
    raw = bytes(build(t))
    assert parse_mail(raw).aside  # the decoder saw the part
    t.deliver(raw)
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text, text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    aside = text.split("Left aside, not read", 1)[1]
    for words in named:
        assert words in aside, (words, aside)
    assert "confidential" not in text.split("Left aside", 1)[0]  # the footer was not read
    if shape == "outlook-logo":  # the HTML rendering of the body is no attachment
        assert "text/html" not in aside


def test_a_signed_mail_is_read_and_its_signature_named(tables: Callable[[str], Table]) -> None:
    t = tables("classic")
    msg = _base(t)
    body = EmailMessage()
    body.set_content(_orders(t))
    sig = _part(b"-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n",
                "application/pgp-signature", "signature.asc")
    msg.set_type("multipart/signed")
    msg.set_param("protocol", "application/pgp-signature")
    msg.set_payload([body, sig])
    t.deliver(bytes(msg))
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text
    assert "signature.asc (application/pgp-signature" in text.split("Left aside", 1)[1]


def test_a_real_document_is_refused_with_which_part_and_what_to_do(
        tables: Callable[[str], Table]) -> None:
    t = tables("classic")
    msg = _base(t, subject="RE: [g1] report for Russia: S1901M")
    msg.set_content(_orders(t))
    msg.add_attachment(b"%PDF-1.4\n%orders\n", maintype="application", subtype="pdf",
                       filename="orders.pdf")
    # A signature's logo beside the document: incidental, not named.
    logo = _part(PNG, "image/png", "image001.png", inline=True)
    msg.attach(logo)
    t.deliver(bytes(msg))
    notice = t.last_to("Russia")
    assert notice["Subject"] == "Re: [g1] report for Russia: S1901M"
    text = t.post.text(notice)
    assert "Your mail was not read" in text
    assert "orders.pdf (application/pdf" in text
    assert "image001.png" not in text
    assert "without the attachment" in text
    assert t.table().held("Russia") == []


def test_with_attachments_ignored_a_document_is_named_and_the_body_read(
        tables: Callable[[str], Table]) -> None:
    t = tables("classic")
    t.judge.config = dataclasses.replace(t.judge.config, attachments="ignore")
    msg = _base(t)
    msg.set_content(_orders(t))
    msg.add_attachment(b"%PDF-1.4\n", maintype="application", subtype="pdf",
                       filename="orders.pdf")
    t.deliver(bytes(msg))
    text = t.ack_text("Russia")
    assert "Not read (orders go in the body of the mail): orders.pdf" in text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}


@pytest.mark.parametrize("subject", [
    "RE: [g1] report", "Re: RE: [g1] report", "AW: Re: [g1] report", "SV: [g1] report",
    "Antw: [g1] report", "Odp: [g1] report", "YNT: Re: [g1] report", "回复：[g1] report",
    "答复: [g1] report", "RE[2]: [g1] report", "Fwd: RE: [g1] report", "VS: [g1] report",
])
def test_one_re_before_the_subject(subject: str) -> None:
    from judge.grammar import reply_subject

    assert reply_subject(subject) == "Re: [g1] report"


@pytest.mark.parametrize("body", ["", None])
def test_an_attached_mail_alone_is_refused_and_named(
        tables: Callable[[str], Table], body: str | None) -> None:
    """A mail whose only content is a mail attached to it (an empty body,
    or none at all) is refused: the notice names the attached mail and
    says to write the commands in the mail itself; its order lines are not
    read."""
    t = tables("classic")
    msg = _base(t, subject="Fwd: my orders")
    if body is not None:
        msg.set_content(body)
    msg.make_mixed()
    msg.attach(_attached_mail())
    t.deliver(bytes(msg))
    notice = t.last_to("Russia")
    assert notice["Subject"] == "Re: my orders"
    text = t.post.text(notice)
    assert "Your mail was not read" in text, text
    if body is None:  # no text part at all
        assert "its only content is a mail attached to it (message/rfc822)" in text, text
        assert "plain text in the body of a mail" in text, text
    else:
        assert "the mail attached to it is not opened: (unnamed) (message/rfc822" in text, text
        assert "in the body of the mail itself" in text, text
    assert t.table().held("Russia") == []
