"""judge.mail.mailout: composing (headers, threading, one recipient, long lines,
non-ASCII, attachments, determinism), the round trip compose -> parse_mail,
and the Maildir and stdout transports."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest

from judge.mail.mailin import parse_mail
from judge.mail.mailout import (
    AUTO_GENERATED,
    AUTO_REPLIED,
    SEPARATOR,
    Attachment,
    MaildirOutbound,
    OutgoingMail,
    PermanentFailure,
    StdoutOutbound,
    TemporaryFailure,
    compose,
    make_message_id,
    thread,
)

REPORT = OutgoingMail(
    message_id="<corpus.S1901M.France.3@pbem.example.net>",
    from_addr="Judge <judge@pbem.example.net>",
    to_addr="marie@example.fr",
    subject="corpus: S1901M orders for France",
    body="Orders accepted for France, spring 1901:\nA Par - Bur\nA Mar - Spa\nF Bre - Mao\n",
    auto_submitted=AUTO_GENERATED,
    date="Mon, 03 Jun 2024 09:00:00 +0000",
)


def parse(raw: bytes) -> EmailMessage:
    msg = message_from_bytes(raw, policy=default_policy)
    assert isinstance(msg, EmailMessage)
    return msg


def parsed(mail: OutgoingMail) -> EmailMessage:
    return parse(compose(mail))


def content(part: EmailMessage) -> str:
    """The text of a part as written (the parser keeps the CRLF line ends)."""
    return str(part.get_content()).replace("\r\n", "\n")


def header_block(raw: bytes) -> str:
    return raw.split(b"\r\n\r\n", 1)[0].decode("ascii")


# --------------------------------------------------------------------------- ids and threading


class TestIds:
    def test_make_message_id(self) -> None:
        assert make_message_id("pbem.example.net", "corpus.S1901M.France.3") == (
            "<corpus.S1901M.France.3@pbem.example.net>"
        )
        a, b = make_message_id("pbem.example.net"), make_message_id("pbem.example.net")
        assert a != b and re.fullmatch(r"<[0-9a-f]{32}@pbem\.example\.net>", a)

    @pytest.mark.parametrize("token", ["", "a b", "a..b", ".a", "a@b", "<a>", "é"])
    def test_bad_token(self, token: str) -> None:
        with pytest.raises(ValueError):
            make_message_id("pbem.example.net", token)

    @pytest.mark.parametrize("domain", ["", "a b", "-x.org", "x..org", "x.org>"])
    def test_bad_domain(self, domain: str) -> None:
        with pytest.raises(ValueError):
            make_message_id(domain, "t")

    def test_thread(self) -> None:
        # RFC 5322 3.6.4: References = parent's References + parent's Message-ID
        assert thread("<c@x>", ["<a@x>", "<b@x>"]) == ("<c@x>", ("<a@x>", "<b@x>", "<c@x>"))
        assert thread("<c@x>", []) == ("<c@x>", ("<c@x>",))

    def test_thread_drops_bad_and_repeated_ids(self) -> None:
        assert thread("<c@x>", ["junk", "<a@x>", "<a@x>", "<c@x>", "<no-at>"]) == (
            "<c@x>",
            ("<a@x>", "<c@x>"),
        )
        assert thread("not an id", ["<a@x>"]) == ("", ("<a@x>",))

    def test_thread_is_capped_keeping_the_root(self) -> None:
        refs = [f"<r{i}@x>" for i in range(40)]
        _, chain = thread("<last@x>", refs)
        assert len(chain) == 20 and chain[0] == "<r0@x>" and chain[-1] == "<last@x>"
        assert chain[1:] == (*refs[-18:], "<last@x>")


# --------------------------------------------------------------------------- compose


class TestCompose:
    def test_headers_of_a_report(self) -> None:
        msg = parsed(REPORT)
        assert msg["From"] == "Judge <judge@pbem.example.net>"
        assert msg["To"] == "marie@example.fr"
        assert msg["Subject"] == "corpus: S1901M orders for France"
        assert msg["Message-ID"] == "<corpus.S1901M.France.3@pbem.example.net>"
        assert msg["Date"] == "Mon, 03 Jun 2024 09:00:00 +0000"
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["X-Auto-Response-Suppress"] == "OOF, AutoReply"
        assert msg["MIME-Version"] == "1.0"
        assert msg.get_content_type() == "text/plain"
        assert msg.get_content_charset() == "utf-8"
        for absent in ("Cc", "Bcc", "Precedence", "In-Reply-To", "References", "Reply-To"):
            assert absent not in msg
        assert content(msg) == REPORT.body

    def test_reply_threading(self) -> None:
        irt, refs = thread(
            "<CAJp1mK8xw3T0s9=yq2F4nR7vD6bH5cL0aZ2eW1uQ3iO8gS9kAw@mail.gmail.com>",
            ["<corpus.S1901M.France.3@pbem.example.net>"],
        )
        reply = replace(
            REPORT,
            message_id="<corpus.ack.17@pbem.example.net>",
            auto_submitted=AUTO_REPLIED,
            in_reply_to=irt,
            references=refs,
        )
        raw = compose(reply)
        msg = parse(raw)
        assert msg["Auto-Submitted"] == "auto-replied"
        assert msg["In-Reply-To"] == irt
        assert str(msg["References"]).split() == list(refs)
        # ids are written as they are: never RFC 2047 encoded, one per line
        head = header_block(raw)
        assert "=?" not in head.split("Subject:")[0] + head.split("Auto-Submitted:")[0]
        assert "References: <corpus.S1901M.France.3@pbem.example.net>\r\n <CAJp" in head

    def test_long_ids_are_not_mangled(self) -> None:
        long_id = "<" + "a" * 120 + "@" + "b" * 40 + ".example>"
        raw = compose(replace(REPORT, in_reply_to=long_id, references=(long_id, "<x@y>")))
        head = header_block(raw)
        assert f"In-Reply-To: {long_id}\r\n" in head
        assert f"References: {long_id}\r\n <x@y>\r\n" in head
        assert parse_mail(raw).references == (long_id, "<x@y>")

    def test_malformed_thread_ids_are_left_out(self) -> None:
        msg = parsed(replace(REPORT, in_reply_to="garbage", references=("bad", "<ok@x>")))
        assert "In-Reply-To" not in msg
        assert msg["References"] == "<ok@x>"

    @pytest.mark.parametrize(
        "to",
        [
            "marie@example.fr, john@example.co.uk",
            "marie@example.fr john@example.co.uk",
            "",
            "marie",
            "Marie <marie@example.fr>, <john@example.co.uk>",
        ],
    )
    def test_exactly_one_recipient(self, to: str) -> None:
        with pytest.raises(ValueError):
            compose(replace(REPORT, to_addr=to))

    @pytest.mark.parametrize(
        "name", ["Cc", "bcc", "To", "From", "Sender", "Message-ID", "Resent-To", "Content-Type"]
    )
    def test_extra_headers_cannot_add_recipients_or_override(self, name: str) -> None:
        with pytest.raises(ValueError):
            compose(replace(REPORT, extra_headers=((name, "john@example.co.uk"),)))

    def test_extra_headers(self) -> None:
        msg = parsed(replace(REPORT, extra_headers=(("X-Judge-Game", "corpus"),)))
        assert msg["X-Judge-Game"] == "corpus"

    @pytest.mark.parametrize(
        "field",
        [
            {"extra_headers": (("X-Judge-Game", "corpus\r\nBcc: evil@x.org"),)},
            {"date": "Mon\nBcc: evil@x.org"},
            {"to_addr": "marie@example.fr\nBcc: evil@x.org"},
        ],
    )
    def test_header_injection_refused(self, field: dict[str, Any]) -> None:
        with pytest.raises(ValueError):
            compose(replace(REPORT, **field))

    def test_subject_newlines_are_folded_away(self) -> None:
        msg = parsed(replace(REPORT, subject="Re: orders\r\nBcc: evil@x.org"))
        assert msg["Subject"] == "Re: orders Bcc: evil@x.org" and "Bcc" not in msg

    def test_bad_message_id_and_auto_submitted(self) -> None:
        with pytest.raises(ValueError):
            compose(replace(REPORT, message_id="no-brackets@x"))
        with pytest.raises(ValueError):
            compose(replace(REPORT, auto_submitted="no"))

    def test_non_ascii_subject(self) -> None:
        subject = "Ordres pour l’été — 外交 " + "très long " * 10
        raw = compose(replace(REPORT, subject=subject))
        head = header_block(raw)
        assert head.isascii() and "=?utf-8?" in head
        assert all(len(line) <= 78 for line in head.split("\r\n"))
        assert parse_mail(raw).subject == " ".join(subject.split())

    def test_long_lines_never_exceed_998_octets(self) -> None:
        body = "x" * 5000 + "\n" + "é" * 3000 + "\nA Par - Bur\n"
        raw = compose(replace(REPORT, body=body))
        assert max(len(line) for line in raw.split(b"\r\n")) <= 998
        msg = parse(raw)
        assert msg["Content-Transfer-Encoding"] == "quoted-printable"
        assert content(msg) == body

    def test_short_ascii_is_7bit(self) -> None:
        assert parsed(REPORT)["Content-Transfer-Encoding"] == "7bit"

    def test_crlf_everywhere(self) -> None:
        raw = compose(replace(REPORT, body="a\nb\r\nc\rd"))
        assert b"\n" not in raw.replace(b"\r\n", b"")
        assert parse_mail(raw).lines == ("a", "b", "c", "d")

    def test_attachments(self) -> None:
        mail = replace(
            REPORT,
            attachments=(
                Attachment("report.json", "application/json", b'{"phase": "S1901M"}'),
                Attachment("map.txt", "text/plain", "ligne été\n".encode()),
            ),
        )
        msg = parsed(mail)
        assert msg.get_content_type() == "multipart/mixed"
        parts = [p for p in msg.iter_parts() if isinstance(p, EmailMessage)]
        assert [p.get_content_type() for p in parts] == [
            "text/plain",
            "application/json",
            "text/plain",
        ]
        assert content(parts[0]) == REPORT.body
        assert parts[1].get_filename() == "report.json"
        assert parts[1].get_content() == b'{"phase": "S1901M"}'
        assert parts[2].get_payload(decode=True) == "ligne été\n".encode()
        assert parse_mail(compose(mail)).attachments == (
            "report.json (application/json, 19 bytes)",
            f"map.txt (text/plain, {len('ligne été'.encode()) + 1} bytes)",
        )

    def test_bad_attachment_type(self) -> None:
        with pytest.raises(ValueError):
            compose(replace(REPORT, attachments=(Attachment("x", "json", b"{}"),)))

    def test_deterministic(self) -> None:
        mail = replace(REPORT, attachments=(Attachment("a.json", "application/json", b"{}"),))
        assert compose(mail) == compose(mail)
        other = replace(mail, body="different\n")
        assert compose(other) != compose(mail)

    def test_no_date_when_not_given(self) -> None:
        assert "Date" not in parsed(replace(REPORT, date=""))

    def test_envelope_from(self) -> None:
        assert REPORT.envelope_from == "judge@pbem.example.net"
        assert replace(REPORT, return_path="bounce@pbem.example.net").envelope_from == (
            "bounce@pbem.example.net"
        )

    def test_round_trip_through_parse_mail(self) -> None:
        body = (
            "SIGNON corpus France frtoken-7Q2x\nORDERS\nA Par - Bur\nEND\n\n"
            "PRESS TO England\nTrès bien — 中原之战。 " + "long " * 300 + "\nENDPRESS\n"
        )
        m = parse_mail(compose(replace(REPORT, body=body, subject="Résumé")))
        assert "\n".join(m.lines) == body.rstrip("\n").replace(" \n", "\n")
        assert m.subject == "Résumé"
        assert m.message_id == REPORT.message_id
        # our own mail, if it ever came back, is never answered
        assert m.drop == "auto-submitted: auto-generated"


# --------------------------------------------------------------------------- transports


class TestMaildirOutbound:
    def test_send_writes_one_file_in_new(self, tmp_path: Path) -> None:
        out = MaildirOutbound(tmp_path / "out")
        raw = compose(REPORT)
        out.send("judge@pbem.example.net", "marie@example.fr", raw)
        [name] = list((tmp_path / "out" / "new").iterdir())
        data = name.read_bytes()
        assert data.startswith(
            b"Return-Path: <judge@pbem.example.net>\nDelivered-To: marie@example.fr\n"
        )
        assert b"\r\n" not in data
        assert list((tmp_path / "out" / "tmp").iterdir()) == []
        m = parse_mail(data)
        assert m.message_id == REPORT.message_id and m.return_path == "judge@pbem.example.net"
        assert "\n".join(m.lines) == REPORT.body.rstrip("\n")

    def test_existing_directory(self, tmp_path: Path) -> None:
        MaildirOutbound(tmp_path).send("j@x.org", "marie@example.fr", compose(REPORT))
        assert len(list((tmp_path / "new").iterdir())) == 1

    @pytest.mark.parametrize("to", ["a@b.c, d@e.f", "", "Marie <marie@example.fr>"])
    def test_one_plain_recipient(self, tmp_path: Path, to: str) -> None:
        with pytest.raises(PermanentFailure):
            MaildirOutbound(tmp_path).send("j@x.org", to, compose(REPORT))

    def test_disk_trouble_is_temporary(self, tmp_path: Path) -> None:
        out = MaildirOutbound(tmp_path)
        (tmp_path / "tmp").rmdir()
        (tmp_path / "tmp").write_text("not a directory")
        with pytest.raises(TemporaryFailure):
            out.send("j@x.org", "marie@example.fr", compose(REPORT))


class TestStdoutOutbound:
    def test_send(self) -> None:
        stream = io.StringIO()
        out = StdoutOutbound(stream)
        out.send("judge@pbem.example.net", "marie@example.fr", compose(REPORT))
        out.send("judge@pbem.example.net", "john@example.co.uk", compose(REPORT))
        text = stream.getvalue()
        assert "\r" not in text
        blocks = text.split(SEPARATOR)
        assert blocks[0] == "" and len(blocks) == 3
        first = blocks[1]
        assert first.startswith(" mail from <judge@pbem.example.net> to <marie@example.fr>\n")
        assert "Message-ID: <corpus.S1901M.France.3@pbem.example.net>\n" in first
        assert "A Par - Bur\n" in first

    def test_bad_recipient(self) -> None:
        with pytest.raises(PermanentFailure):
            StdoutOutbound(io.StringIO()).send("j@x.org", "a@b.c d@e.f", b"x")

    def test_broken_stream_is_temporary(self) -> None:
        class Broken(io.StringIO):
            def write(self, s: str) -> int:
                raise OSError("pipe closed")

        with pytest.raises(TemporaryFailure):
            StdoutOutbound(Broken()).send("j@x.org", "marie@example.fr", b"x")


@pytest.mark.parametrize("body", [
    "hello\n", "a" * 200 + "\nnext", "Grüße, 你好\nline two\n", "trailing space \nx",
    "=equals= and tabs\t\n", "", "\r\nCR\rLF\n", ".\n.leading dot\nFrom here\n",
])
def test_plain_fast_path_gives_what_the_general_path_gives(
    body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """compose() writes a one-part ASCII-headed mail directly; read back, it is
    the same mail (headers and text) as the email package's composition."""
    import email
    import email.policy

    from judge.mail import mailout

    mail = replace(REPORT, body=body, in_reply_to="<q@w.example>",
                   references=("<r1@x.example>", "<q@w.example>"))
    assert mailout._compose_plain(mail) is not None
    fast = compose(mail)
    monkeypatch.setattr(mailout, "_compose_plain", lambda m: None)
    slow = compose(mail)
    pf = email.message_from_bytes(fast, policy=email.policy.default)
    ps = email.message_from_bytes(slow, policy=email.policy.default)
    assert sorted((k, str(v)) for k, v in pf.items()) == sorted(
        (k, str(v)) for k, v in ps.items())
    assert pf.get_content() == ps.get_content()
    assert all(len(line) <= 998 for line in fast.split(b"\r\n"))


def test_a_long_subject_is_folded_at_a_space_and_reads_back_whole() -> None:
    """A long subject with brackets and parentheses was folded right after
    ``Subject:``, so it read back with a leading space (and replies as
    ``Re:  [g1]...``)."""
    subject = ("[g1] your decision (Dusk): turn 1: window 2 (depth 2) on Coral's counter "
               "and a long tail")
    mail = OutgoingMail(message_id="<f1@judge.example>", from_addr="judge@judge.example",
                        to_addr="dusk@players.example", subject=subject, body="hi\n",
                        auto_submitted="auto-generated",
                        attachments=(Attachment("v.json", "application/json", b"{}"),))
    raw = compose(mail)
    head = raw.split(b"\r\n\r\n")[0].decode()
    assert "Subject: [g1] your decision" in head
    assert all(len(line) <= 78 for line in head.split("\r\n"))
    msg = message_from_bytes(raw, policy=default_policy)
    assert msg["Subject"] == subject


@pytest.mark.parametrize("body", ["hello\n", "a" * 200 + "\nnext", "Grüße, 你好\nline two\n", ""])
@pytest.mark.parametrize("data", [b"{}", b'{"a": 1}' * 50, bytes(range(256)) * 3])
def test_a_mail_with_attachments_is_written_byte_for_byte_as_the_email_package_writes_it(
    body: str, data: bytes
) -> None:
    """A report with its view attached takes the direct path too; its bytes are
    those of the email package's composition (boundary, part headers, base64),
    but for quoted-printable text, which the direct path wraps at 76
    characters (RFC 2045 6.7) where the package wraps at 78: that text reads
    back the same."""
    from judge.mail import mailout

    mail = replace(REPORT, body=body, in_reply_to="<q@w.example>", attachments=(
        Attachment("g1-S1901M.json", "application/json", data),
        Attachment("map.png", "image/png", data[::-1]),
    ))
    fast = mailout._compose_plain(mail)
    assert fast is not None
    slow = mailout._compose_general(mail)
    assert compose(mail) == fast
    if b"quoted-printable" not in fast:
        assert fast == slow
    pf, ps = message_from_bytes(fast, policy=default_policy), message_from_bytes(
        slow, policy=default_policy)
    assert list(pf.items()) == list(ps.items())
    def parts(msg: EmailMessage) -> list[tuple[str, str | None, object]]:
        return [(p.get_content_type(), p.get_filename(), p.get_content())
                for p in msg.walk() if not p.is_multipart()]

    assert isinstance(pf, EmailMessage) and isinstance(ps, EmailMessage)
    assert len(parts(pf)) == 3 and parts(pf) == parts(ps)
    assert all(len(line) <= 78 for line in fast.split(b"\r\n"))
    # A file name the direct path does not write takes the general path.
    odd = replace(mail, attachments=(Attachment("a b.json", "application/json", data),))
    assert mailout._compose_plain(odd) is None
    assert compose(odd) == mailout._compose_general(odd)
