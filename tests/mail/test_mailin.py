"""Units of judge.mail.mailin: format=flowed, transfer encodings, charsets, HTML,
quote and signature stripping, the never-answer filters (RFC 3834), limits,
and the Maildir transport."""

from __future__ import annotations

import base64
import hashlib
import os
import quopri
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.mail.mailin import (
    IncomingMail,
    Limits,
    MaildirInbound,
    clean_body,
    html_to_text,
    parse_mail,
    unflow,
)

HEAD = (
    "Return-Path: <marie@example.fr>\n"
    "From: Marie Dupont <marie@example.fr>\n"
    "To: judge@pbem.example.net\n"
    "Subject: test\n"
    "Message-ID: <unit@example.fr>\n"
    "MIME-Version: 1.0\n"
)


def mail(body: str | bytes, headers: str = "", head: str = HEAD) -> IncomingMail:
    """parse_mail of a mail with the usual headers plus ``headers``."""
    raw = (head + headers + "\n").encode() + (body.encode() if isinstance(body, str) else body)
    return parse_mail(raw)


def text(m: IncomingMail) -> list[str]:
    return [line for line in m.lines if line]


# --------------------------------------------------------------------------- format=flowed


class TestFlowed:
    """RFC 3676."""

    def test_soft_breaks_join(self) -> None:
        # 4.1: a line ending in a space is flowed into the next one.
        assert unflow("Hello \nworld\nnext") == "Hello world\nnext"

    def test_delsp_deletes_the_soft_space(self) -> None:
        # 4.2: with DelSp=yes the trailing space was added by the sender.
        assert unflow("Germ \nany", delsp=True) == "Germany"
        assert unflow("Germ \nany", delsp=False) == "Germ any"

    def test_space_stuffing_removed(self) -> None:
        # 4.4: a leading space is stuffing.
        assert unflow(" From Paris\n >not quoted") == "From Paris\n>not quoted"

    def test_quote_depth(self) -> None:
        # 4.5: quoted flowed lines join within their depth; a depth change ends them.
        assert unflow("> a \n> b\n>> c \nd") == "> a b\n>> c \nd"

    def test_signature_separator_is_fixed(self) -> None:
        # 4.3: "-- " is never a flowed line.
        assert unflow("text\n-- \nsig") == "text\n-- \nsig"

    def test_trailing_flowed_line_at_end(self) -> None:
        assert unflow("dangling ") == "dangling "

    def test_through_parse_mail(self) -> None:
        m = mail(
            "PRESS TO England\nWe could form an alliance  \nagainst Germ \nany.\nENDPRESS\n",
            "Content-Type: text/plain; charset=us-ascii; format=flowed; delsp=yes\n",
        )
        assert text(m) == [
            "PRESS TO England",
            "We could form an alliance against Germany.",
            "ENDPRESS",
        ]

    def test_not_flowed_without_the_parameter(self) -> None:
        m = mail("a \nb\n", "Content-Type: text/plain; charset=us-ascii\n")
        assert text(m) == ["a", "b"]


# --------------------------------------------------------------------------- transfer encodings


class TestTransferEncodings:
    def test_quoted_printable_soft_breaks(self) -> None:
        line = "x" * 150 + " = y"
        body = quopri.encodestring(line.encode()).decode()
        assert "=\n" in body  # it really was soft-broken
        m = mail(body, "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n")
        assert text(m) == [line]

    def test_base64(self) -> None:
        body = base64.encodebytes("SIGNON corpus France frtoken-7Q2x\r\nété\r\n".encode())
        m = mail(
            body,
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n",
        )
        assert text(m) == ["SIGNON corpus France frtoken-7Q2x", "été"]

    def test_broken_base64_does_not_raise(self) -> None:
        m = mail("!!!not base64@@@\n", "Content-Transfer-Encoding: base64\n")
        assert m.refuse is None or m.refuse == "no readable text"

    def test_8bit_without_charset_is_tried_as_utf8(self) -> None:
        m = mail("déjà\n".encode(), "Content-Type: text/plain\n")
        assert text(m) == ["déjà"]


# --------------------------------------------------------------------------- charsets


class TestCharsets:
    @pytest.mark.parametrize(
        ("charset", "words"),
        [
            ("iso-8859-1", "Très bien à l'été"),
            ("windows-1252", "“support” – 5 €"),
            ("koi8-r", "Москва"),
            ("gb2312", "河南 山东"),
            ("shift_jis", "東京"),
            ("utf-8", "中原 Ünïcödé"),
        ],
    )
    def test_declared_charset(self, charset: str, words: str) -> None:
        m = mail(words.encode(charset), f"Content-Type: text/plain; charset={charset}\n")
        assert text(m) == [words]

    def test_gb2312_label_holding_gbk(self) -> None:
        # Real mail labelled gb2312 often holds GBK-only characters.
        words = "镕"  # in GBK, not in GB 2312
        m = mail(words.encode("gbk"), "Content-Type: text/plain; charset=gb2312\n")
        assert text(m) == [words]

    def test_mislabelled_utf8_falls_back(self) -> None:
        m = mail("Déjà vu".encode("latin-1"), "Content-Type: text/plain; charset=utf-8\n")
        assert text(m) == ["Déjà vu"]

    @pytest.mark.parametrize("label", ["x-made-up", "base64", "rot13", "unknown-8bit", '""'])
    def test_unknown_or_non_text_charset(self, label: str) -> None:
        m = mail("naïve".encode(), f"Content-Type: text/plain; charset={label}\n")
        assert text(m) == ["naïve"]

    def test_rfc2231_charset_on_8bit_body(self) -> None:
        # email.message.get_payload() raises TypeError on this; we must not
        m = mail("€ ok\n".encode(), "Content-Type: text/plain; charset*=utf-8''%E2%82%AC\n")
        assert m.refuse is None and text(m) == ["€ ok"]

    def test_subject_rfc2047_mixed_charsets(self) -> None:
        m = mail(
            "x\n",
            head=HEAD.replace(
                "Subject: test",
                "Subject: =?UTF-8?Q?l=E2=80=99=C3=A9t=C3=A9?=\n =?ISO-8859-1?Q?_=E0?= Paris",
            ),
        )
        assert m.subject == "l’été à Paris"

    def test_subject_with_unknown_encoded_charset(self) -> None:
        m = mail("x\n", head=HEAD.replace("Subject: test", "Subject: =?x-bogus?Q?caf=C3=A9?="))
        assert m.subject == "café"

    def test_raw_utf8_headers(self) -> None:
        raw = HEAD.replace("Subject: test", "Subject: 外交 été").encode() + b"\nbody\n"
        assert parse_mail(raw).subject == "外交 été"

    def test_from_display_name_with_encoded_comma(self) -> None:
        head = HEAD.replace(
            "From: Marie Dupont <marie@example.fr>",
            "From: =?utf-8?q?Dupont=2C_Marie?= <Marie@Example.FR>",
        )
        m = mail("x\n", head=head)
        assert (m.from_name, m.from_addr) == ("Dupont, Marie", "marie@example.fr")


# --------------------------------------------------------------------------- HTML


class TestHtml:
    def test_blocks_and_breaks(self) -> None:
        html = '<div dir="ltr">A Par - Bur<div>F Bre - Mao</div>A Mar - Spa<br>END</div>'
        assert [x for x in html_to_text(html).split("\n") if x] == [
            "A Par - Bur",
            "F Bre - Mao",
            "A Mar - Spa",
            "END",
        ]

    def test_blockquote_dropped_even_nested(self) -> None:
        html = (
            "<p>keep</p><blockquote>A Par - Bur<blockquote>A Mar - Spa</blockquote>"
            "F Bre - Mao</blockquote><p>after</p>"
        )
        assert [x for x in html_to_text(html).split("\n") if x] == ["keep", "after"]

    def test_gmail_quote_block_dropped(self) -> None:
        html = (
            "<div>STATUS</div><div class='gmail_quote'><div class='gmail_attr'>On Mon, X "
            "wrote:</div><div>A Par - Bur</div></div><div>WAIT</div>"
        )
        assert [x for x in html_to_text(html).split("\n") if x] == ["STATUS", "WAIT"]

    def test_unclosed_blockquote_drops_the_rest(self) -> None:
        assert html_to_text("<p>a</p><blockquote>A Par - Bur").strip() == "a"

    def test_scripts_styles_head_and_entities(self) -> None:
        html = (
            "<html><head><title>T</title><style>p{}</style></head><body>"
            "<script>var x = 'A Lon - Wal';</script><p>Fish &amp; chips&nbsp;&#8211; &pound;5"
            " &lt;ok&gt;</p></body></html>"
        )
        assert html_to_text(html).strip() == "Fish & chips\u00a0– £5 <ok>"

    def test_whitespace_collapses_but_pre_keeps_lines(self) -> None:
        html = "<p>A   Par\n  -\tBur</p><pre>F Bre - Mao\nA Mar - Spa</pre>"
        assert [x for x in html_to_text(html).split("\n") if x] == [
            "A Par - Bur",
            "F Bre - Mao",
            "A Mar - Spa",
        ]

    def test_html_only_mail(self) -> None:
        m = mail(
            "<html><body><p>SIGNON corpus France frtoken-7Q2x<br>A Par - Bur</p>"
            "<blockquote type=cite>A Mar - Spa</blockquote></body></html>",
            "Content-Type: text/html; charset=utf-8\n",
        )
        assert text(m) == ["SIGNON corpus France frtoken-7Q2x", "A Par - Bur"]

    def test_plain_preferred_over_html(self) -> None:
        msg = EmailMessage()
        msg["From"] = "marie@example.fr"
        msg.set_content("from the plain part\n")
        msg.add_alternative("<p>from the html part</p>", subtype="html")
        m = parse_mail(msg.as_bytes())
        assert text(m) == ["from the plain part"]
        assert m.attachments == ()  # the other rendering is not an attachment

    def test_html_used_when_plain_is_an_attachment(self) -> None:
        msg = EmailMessage()
        msg["From"] = "marie@example.fr"
        msg.set_content("<p>html body</p>", subtype="html")
        msg.add_attachment("A Par - Bur\n", filename="orders.txt")
        m = parse_mail(msg.as_bytes())
        assert text(m) == ["html body"]
        assert m.attachments == ("orders.txt (text/plain, 12 bytes)",)


# --------------------------------------------------------------------------- clean_body


class TestCleanBody:
    def test_quoted_lines_dropped(self) -> None:
        assert clean_body("A Par - Bur\n> A Mar - Spa\n  >> F Bre - Mao\nEND") == [
            "A Par - Bur",
            "END",
        ]

    def test_attribution_before_quote_dropped(self) -> None:
        body = "STATUS\n\nOn Mon, 3 Jun 2024 at 11:00, Judge <j@x.org> wrote:\n\n> A Par - Bur\n"
        assert clean_body(body) == ["STATUS"]

    @pytest.mark.parametrize(
        "attribution",
        [
            "Le lun. 3 juin 2024 à 11:00, Judge <j@x.org> a écrit :",
            "Am 03.06.2024 um 11:00 schrieb Judge <j@x.org>:",
            "El lun, 3 jun 2024 a las 11:00, Judge (<j@x.org>) escribió:",
            "2024年6月3日 11:00，Judge <j@x.org> 写道：",
        ],
    )
    def test_localised_attributions(self, attribution: str) -> None:
        assert clean_body(f"WAIT\n{attribution}\n> A Par - Bur") == ["WAIT"]

    def test_wrapped_attribution(self) -> None:
        body = "WAIT\n\nOn Mon, 3 Jun 2024 at 11:00, Judge <j@x.org>\nwrote:\n\n> F Lon - Nth\n"
        assert clean_body(body) == ["WAIT"]

    def test_attribution_like_line_kept_when_no_quote_follows(self) -> None:
        body = "PRESS TO England\nAs the Kaiser wrote:\nnever trust the Tsar.\nENDPRESS"
        assert clean_body(body) == body.split("\n")

    def test_attribution_at_the_very_end_dropped(self) -> None:
        # an HTML body whose <blockquote> was removed leaves the attribution last
        assert clean_body("WAIT\nOn 03/06/2024 11:00, Judge wrote:") == ["WAIT"]

    @pytest.mark.parametrize("sep", ["-- ", "--"])
    def test_signature(self, sep: str) -> None:
        assert clean_body(f"STATUS\n{sep}\nJohn | A Lon - Wal") == ["STATUS"]

    def test_dashes_inside_a_line_are_not_a_signature(self) -> None:
        assert clean_body("A Par -- Bur\n --\nx") == ["A Par -- Bur", " --", "x"]

    @pytest.mark.parametrize(
        "trailer",
        [
            "Sent from my iPhone",
            "Sent from my Android device with K-9 Mail. Please excuse my brevity.",
            "Get Outlook for iOS<https://aka.ms/o0ukef>",
            "Get Outlook for Android",
            "Envoyé de mon iPhone",
            "Von meinem iPhone gesendet",
            "Sent from Mail for Windows",
            "Sent with Proton Mail secure email.",
        ],
    )
    def test_phone_trailers(self, trailer: str) -> None:
        assert clean_body(f"STATUS\n\n{trailer}\n\n> A Par - Bur\nA Mar - Spa") == ["STATUS"]

    def test_outlook_original_message(self) -> None:
        body = (
            "F Lon - Eng\n\n-----Original Message-----\nFrom: Judge\nSent: Monday\n"
            "To: john\nSubject: x\n\nF Lon - Nth\n"
        )
        assert clean_body(body) == ["F Lon - Eng"]

    def test_outlook_header_block_with_rule(self) -> None:
        body = (
            "STATUS\n________________________________\nFrom: Judge <j@x.org>\n"
            "Sent: Monday, June 3, 2024 11:00 AM\nTo: john@example.co.uk\nSubject: x\n\n"
            "A Lvp - Yor\n"
        )
        assert clean_body(body) == ["STATUS"]

    def test_french_outlook_header_block(self) -> None:
        body = "STATUS\n\nDe : Judge <j@x.org>\nEnvoyé : lundi 3 juin 2024 11:00\nÀ : marie\n"
        body += "Objet : x\n\nA Par - Bur\n"
        assert clean_body(body) == ["STATUS"]

    def test_lone_from_line_is_not_a_header_block(self) -> None:
        body = "PRESS TO ALL\nFrom: the desk of the Sultan\nPeace.\nENDPRESS"
        assert clean_body(body) == body.split("\n")

    @pytest.mark.parametrize(
        "marker",
        [
            "---------- Forwarded message ---------",
            "-------- Original Message --------",
            "-------- Message transféré --------",
            "Begin forwarded message:",
        ],
    )
    def test_forward_markers(self, marker: str) -> None:
        assert clean_body(f"STATUS\n\n{marker}\nFrom: x\nORDERS\nA Par - Bur\nEND") == ["STATUS"]

    def test_whitespace_normalised(self) -> None:
        body = "\ufeffSIGNON\tcorpus\u00a0France  \r\nA Mar\u200b - Spa\u3000\rEND\u2028x\x00y"
        assert clean_body(body) == ["SIGNON corpus France", "A Mar - Spa", "END", "xy"]

    def test_nfc(self) -> None:
        assert clean_body("Zhe\u0301jia\u0304ng") == ["Zhéjiāng"]

    def test_blank_lines_inside_kept_trailing_dropped(self) -> None:
        assert clean_body("\nSTATUS\n\n\nWAIT\n\n \n") == ["", "STATUS", "", "", "WAIT"]

    def test_indentation_kept(self) -> None:
        assert clean_body("PRESS TO ALL\n   indented\nENDPRESS") == [
            "PRESS TO ALL",
            "   indented",
            "ENDPRESS",
        ]

    def test_end_is_not_interpreted(self) -> None:
        assert clean_body("ORDERS\nA Par - Bur\nEND\nCheers\nA Mar - Spa") == [
            "ORDERS",
            "A Par - Bur",
            "END",
            "Cheers",
            "A Mar - Spa",
        ]

    def test_inline_pgp_clear_signature(self) -> None:
        # RFC 4880 section 7: armor header, dash-escaped lines, signature block
        body = (
            "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nSTATUS\n- --- dashes\n"
            "-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0=\n-----END PGP SIGNATURE-----\n"
            "WAIT"
        )
        assert clean_body(body) == ["STATUS", "--- dashes", "WAIT"]

    def test_quoted_pgp_block_is_just_quoted(self) -> None:
        body = "STATUS\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n>\n> A Par - Bur"
        assert clean_body(body) == ["STATUS"]

    def test_empty(self) -> None:
        assert clean_body("") == []
        assert clean_body("\n\n  \n") == []


# --------------------------------------------------------------------------- filters (RFC 3834)


class TestFilters:
    @pytest.mark.parametrize(
        ("headers", "reason"),
        [
            ("Auto-Submitted: auto-replied\n", "auto-submitted: auto-replied"),
            ("Auto-Submitted: auto-generated\n", "auto-submitted: auto-generated"),
            ("Auto-Submitted: Auto-Replied (vacation)\n", "auto-submitted: auto-replied"),
            ("Auto-Submitted: auto-notified; owner-email=x@y\n", "auto-submitted: auto-notified"),
            ("Auto-Submitted:\n", "auto-submitted: (empty)"),
            ("X-Autoreply: yes\n", "auto-reply: X-Autoreply"),
            ("X-Autorespond: x\n", "auto-reply: X-Autorespond"),
            ("X-Autogenerated: Reply\n", "auto-reply: X-Autogenerated"),
            ("Precedence: auto_reply\n", "auto-reply: Precedence: auto_reply"),
            ("X-MS-Exchange-Inbox-Rules-Loop: a@b.c\n", "auto-reply: X-MS-Exchange-Inbox-"),
            ("List-Id: <l.example.org>\n", "list: List-Id"),
            ("List-Post: <mailto:l@example.org>\n", "list: List-Post"),
            ("List-Unsubscribe: <https://x>\n", "list: List-Unsubscribe"),
            ("List-Help: <mailto:l@example.org>\n", "list: List-Help"),
            ("Mailing-List: list l@example.org\n", "list: Mailing-List"),
            ("Precedence: bulk\n", "list: Precedence: bulk"),
            ("Precedence: junk\n", "list: Precedence: junk"),
            ("Precedence: LIST\n", "list: Precedence: list"),
        ],
    )
    def test_drop_reasons(self, headers: str, reason: str) -> None:
        m = mail("SIGNON corpus France frtoken-7Q2x\n", headers)
        assert m.drop is not None and m.drop.startswith(reason)
        assert text(m) == ["SIGNON corpus France frtoken-7Q2x"]  # still decoded, for the log

    @pytest.mark.parametrize(
        "headers",
        [
            "Auto-Submitted: no\n",
            "Auto-Submitted: No (a person wrote this)\n",
            "X-Auto-Response-Suppress: All\n",
            "X-Autoreply: no\n",
            "Precedence: first-class\n",
            "",
        ],
    )
    def test_processed(self, headers: str) -> None:
        assert mail("STATUS\n", headers).drop is None

    @pytest.mark.parametrize(
        "subject",
        ["Automatic reply: x", "Out of Office: x", "Auto-Reply: x", "Réponse automatique : x"],
    )
    def test_responder_subjects(self, subject: str) -> None:
        m = mail("x\n", head=HEAD.replace("Subject: test", f"Subject: {subject}"))
        assert m.drop == "auto-reply: Subject"

    def test_ordinary_subject_mentioning_an_office(self) -> None:
        m = mail("x\n", head=HEAD.replace("Subject: test", "Subject: Re: out of office?"))
        assert m.drop is None

    def test_empty_return_path(self) -> None:
        m = mail(
            "STATUS\n", head=HEAD.replace("Return-Path: <marie@example.fr>", "Return-Path: <>")
        )
        assert (m.return_path, m.drop) == ("", "empty return path")

    def test_return_path_absent_is_not_empty(self) -> None:
        m = mail("STATUS\n", head=HEAD.replace("Return-Path: <marie@example.fr>\n", ""))
        assert (m.return_path, m.drop) == (None, None)

    def test_no_from(self) -> None:
        m = mail("STATUS\n", head=HEAD.replace("From: Marie Dupont <marie@example.fr>\n", ""))
        assert (m.from_addr, m.drop) == ("", "no sender")

    def test_unparseable_from(self) -> None:
        head = HEAD.replace("From: Marie Dupont <marie@example.fr>", "From: Marie Dupont")
        m = mail("STATUS\n", head=head)
        assert (m.from_addr, m.drop) == ("", "no sender: From unparseable")

    def test_report_wins_over_auto_submitted(self) -> None:
        m = mail(
            "x\n",
            "Auto-Submitted: auto-replied\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\n",
            head=HEAD.replace("marie@example.fr", "MAILER-DAEMON@example.fr"),
        )
        assert m.drop == "delivery report"

    def test_postmaster_plain_bounce(self) -> None:
        head = HEAD.replace("Marie Dupont <marie@example.fr>", "postmaster@example.fr")
        head = head.replace("Subject: test", "Subject: Undeliverable: orders")
        assert mail("550 no such user\n", head=head).drop == "delivery report"

    def test_postmaster_writing_normally_is_not_a_bounce(self) -> None:
        head = HEAD.replace("Marie Dupont <marie@example.fr>", "postmaster@example.fr")
        head = head.replace("Subject: test", "Subject: your server")
        assert mail("Hello\n", head=head).drop is None


# --------------------------------------------------------------------------- header facts


class TestHeaders:
    def test_fields(self) -> None:
        head = HEAD + (
            "Reply-To: Other <Other@Example.org>\n"
            "Date: Mon, 3 Jun 2024 10:13:55 +0200\n"
            "In-Reply-To: <a@b> (comment)\n"
            "References: <r1@b>\n <r2@b>\n\t<a@b>\n"
            "Authentication-Results: mx;\n\tdkim=pass;\n\tspf=pass\n"
            "Authentication-Results: other; dmarc=fail\n"
        )
        m = parse_mail(f"{head}\nSTATUS\n".encode())
        assert m.message_id == "<unit@example.fr>"
        assert (m.from_addr, m.from_name, m.reply_to) == (
            "marie@example.fr",
            "Marie Dupont",
            "other@example.org",
        )
        assert m.return_path == "marie@example.fr"
        assert m.date == "Mon, 3 Jun 2024 10:13:55 +0200"
        assert m.in_reply_to == "<a@b>"
        assert m.references == ("<r1@b>", "<r2@b>", "<a@b>")
        assert m.auth_results == ("mx;\tdkim=pass;\tspf=pass", "other; dmarc=fail")

    def test_missing_message_id_is_derived_from_the_bytes(self) -> None:
        raw = HEAD.replace("Message-ID: <unit@example.fr>\n", "").encode() + b"\nSTATUS\n"
        m = parse_mail(raw)
        assert m.message_id == f"<{hashlib.sha256(raw).hexdigest()}@judge.invalid>"
        assert parse_mail(raw).message_id == m.message_id

    def test_message_id_without_brackets(self) -> None:
        m = mail("x\n", head=HEAD.replace("<unit@example.fr>", "bare@example.fr"))
        assert m.message_id == "<bare@example.fr>"

    def test_body_hash(self) -> None:
        m = mail("A Par - Bur\n\nEND\n\n")
        assert m.lines == ("A Par - Bur", "", "END")
        assert m.body_hash == hashlib.sha256(b"A Par - Bur\n\nEND").hexdigest()
        # the same text under another transfer encoding has the same hash
        other = mail(
            base64.encodebytes(b"A Par - Bur\r\n\r\nEND\r\n").decode(),
            "Content-Transfer-Encoding: base64\n",
        )
        assert other.body_hash == m.body_hash

    def test_multipart_attachments_listed_and_rfc822_not_entered(self) -> None:
        inner = EmailMessage()
        inner["From"] = "judge@pbem.example.net"
        inner.set_content("ORDERS\nA Par - Bur\nEND\n")
        outer = EmailMessage()
        outer["From"] = "marie@example.fr"
        outer.set_content("STATUS\n")
        outer.add_attachment(b"\x89PNG....", maintype="image", subtype="png", filename="map.png")
        outer.add_attachment(inner)
        m = parse_mail(outer.as_bytes())
        assert text(m) == ["STATUS"]
        assert m.attachments[0] == "map.png (image/png, 8 bytes)"
        assert m.attachments[1].startswith("(unnamed) (message/rfc822, ")

    def test_no_readable_text(self) -> None:
        msg = EmailMessage()
        msg["From"] = "marie@example.fr"
        msg.set_content(b"%PDF-1.7", maintype="application", subtype="pdf", filename="x.pdf")
        m = parse_mail(msg.as_bytes())
        assert (m.refuse, m.lines) == ("no readable text", ())


# --------------------------------------------------------------------------- limits


class TestLimits:
    def test_max_bytes_boundary(self) -> None:
        raw = (HEAD + "\nSTATUS\n").encode()
        assert parse_mail(raw, Limits(max_bytes=len(raw))).refuse is None
        over = parse_mail(raw, Limits(max_bytes=len(raw) - 1))
        assert over.refuse == f"too large: {len(raw)} bytes"
        assert over.lines == () and over.from_addr == "marie@example.fr"

    def test_too_large_auto_reply_is_still_dropped(self) -> None:
        raw = (HEAD + "Auto-Submitted: auto-replied\n\n" + "x" * 100).encode()
        m = parse_mail(raw, Limits(max_bytes=50))
        assert m.drop == "auto-submitted: auto-replied" and m.refuse is not None

    def test_max_lines_boundary(self) -> None:
        body = "\n".join(["STATUS"] * 10) + "\n"
        assert len(mail(body).lines) == 10
        raw = (HEAD + "\n" + body).encode()
        assert parse_mail(raw, Limits(max_lines=10)).refuse is None
        over = parse_mail(raw, Limits(max_lines=9))
        assert (over.refuse, over.lines) == ("too many lines: 10", ())

    def test_quoted_lines_do_not_count(self) -> None:
        body = "STATUS\n" + "> quoted\n" * 50
        raw = (HEAD + "\n" + body).encode()
        assert parse_mail(raw, Limits(max_lines=1)).lines == ("STATUS",)

    def test_long_line_kept_whole_up_to_max_line_chars(self) -> None:
        line = "A" * Limits().max_line_chars
        assert mail(line + "\n").lines == (line,)
        raw = (HEAD + "\nSTATUS\n" + line + "A\n").encode()
        over = parse_mail(raw)
        assert over.lines == ()
        assert over.refuse == ("line 2 has 10,001 characters, and a line may have 10,000 "
                               "(limits.max_line_chars)")

    def test_deep_nesting_does_not_raise(self) -> None:
        depth = 200
        head = HEAD + "Content-Type: multipart/mixed; boundary=b0\n"
        parts = "".join(
            f"--b{i}\nContent-Type: multipart/mixed; boundary=b{i + 1}\n\n" for i in range(depth)
        )
        raw = (head + "\n" + parts + f"--b{depth}\nContent-Type: text/plain\n\nSTATUS\n").encode()
        m = parse_mail(raw)
        assert m.drop is None
        assert m.refuse in (None, "no readable text") or m.refuse.startswith("unreadable")


# --------------------------------------------------------------------------- Maildir transport


def deliver(root: Path, name: str, raw: bytes, sub: str = "new") -> Path:
    """Deliver like an MDA: write in tmp/, rename into new/ (or cur/)."""
    tmp = root / "tmp" / name
    tmp.write_bytes(raw)
    target = root / sub / name
    os.rename(tmp, target)
    return target


class TestMaildirInbound:
    def test_creates_the_folder(self, tmp_path: Path) -> None:
        MaildirInbound(tmp_path / "in")
        assert all((tmp_path / "in" / d).is_dir() for d in ("new", "cur", "tmp"))

    def test_fetch_done_and_refetch(self, tmp_path: Path) -> None:
        box = MaildirInbound(tmp_path)
        deliver(tmp_path, "1717400001.M1P1.host", b"From: a@b.c\n\none\n")
        deliver(tmp_path, "1717400002.M1P1.host:2,S", b"From: a@b.c\n\ntwo\n", sub="cur")
        deliver(tmp_path, "1717400000.M5P1.host", b"From: a@b.c\n\nzero\n")
        (tmp_path / "tmp" / "1717400009.M1P1.host").write_bytes(b"half delivered")

        first = list(box.fetch())
        assert [k for k, _ in first] == [
            "1717400000.M5P1.host",
            "1717400001.M1P1.host",
            "1717400002.M1P1.host",
        ]
        assert first[1][1] == b"From: a@b.c\n\none\n"

        # a crash before done(): everything comes again, with the same keys
        assert list(box.fetch()) == first

        box.done("1717400000.M5P1.host", ok=True)
        box.done("1717400002.M1P1.host", ok=False)
        assert [k for k, _ in box.fetch()] == ["1717400001.M1P1.host"]
        assert os.listdir(tmp_path / ".Processed" / "cur") == ["1717400000.M5P1.host:2,S"]
        assert os.listdir(tmp_path / ".Failed" / "cur") == ["1717400002.M1P1.host:2,S"]
        assert (tmp_path / ".Processed" / "maildirfolder").exists()

        # a second done() for a moved message does nothing; an unknown key is an error
        box.done("1717400000.M5P1.host", ok=True)
        with pytest.raises(KeyError):
            box.done("no-such-key", ok=True)

    def test_key_survives_a_move_to_cur(self, tmp_path: Path) -> None:
        box = MaildirInbound(tmp_path)
        path = deliver(tmp_path, "1717400001.M1P1.host", b"From: a@b.c\n\none\n")
        [(key, _)] = list(box.fetch())
        # another mail client marks it read: new/ -> cur/ with flags
        os.rename(path, tmp_path / "cur" / f"{path.name}:2,S")
        assert [k for k, _ in box.fetch()] == [key]
        box.done(key, ok=True)
        assert list(box.fetch()) == []

    def test_done_during_iteration(self, tmp_path: Path) -> None:
        box = MaildirInbound(tmp_path)
        for i in range(5):
            deliver(tmp_path, f"171740000{i}.M1P1.host", f"From: a@b.c\n\n{i}\n".encode())
        seen = []
        for key, _ in box.fetch():
            seen.append(key)
            box.done(key, ok=True)
        assert len(seen) == 5 and list(box.fetch()) == []

    def test_vanished_message_is_skipped(self, tmp_path: Path) -> None:
        box = MaildirInbound(tmp_path)
        deliver(tmp_path, "1717400001.M1P1.host", b"From: a@b.c\n\none\n")
        b = deliver(tmp_path, "1717400002.M1P1.host", b"From: a@b.c\n\ntwo\n")
        it = box.fetch()
        assert next(it)[0] == "1717400001.M1P1.host"
        b.unlink()  # another reader took it meanwhile
        assert list(it) == []


def test_a_poll_lists_the_maildir_once_whatever_its_size(tmp_path: Path) -> None:
    """The Maildir transport listed and stat'ed all of new/ and cur/ for every
    mail it moved, so a backlog cost O(n^2): now a poll lists the folder once
    and moves each mail by the path it found it at."""
    from judge.mail.mailin import MaildirInbound

    box = MaildirInbound(tmp_path / "in")
    for i in range(50):
        (tmp_path / "in" / "new" / f"{1000 + i}.M{i}.test").write_bytes(
            b"From: a@b.example\r\nSubject: x\r\n\r\nHELP\r\n")
    listed = 0
    real = box._new_files

    def counting() -> list[tuple[tuple[int, int, int, str], str, Path]]:
        nonlocal listed
        listed += 1
        return real()

    box._new_files = counting  # type: ignore[method-assign]  # counted in place of the box's
    for key, _raw in box.fetch():
        box.done(key, ok=True)
    assert listed == 1
    assert len(list((tmp_path / "in" / ".Processed" / "cur").iterdir())) == 50
    assert list((tmp_path / "in" / "new").iterdir()) == []
