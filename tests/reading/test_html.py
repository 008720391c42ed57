"""The HTML-only path: Gmail's "indent more" keeps the writer's lines, the
quote blocks of Gmail, Apple Mail, Thunderbird, Outlook and old Hotmail are
cut, hidden text is not read. Through the real Maildir pipeline."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage

import pytest

from judge.mail.mailin import html_to_text
from tests.reading.conftest import Table, address

REPORT = ("Orders are due from: Austria, England, France<br>Orders held for Russia, S1901M:<br>"
          "&nbsp;&nbsp;A Ber - Kie<br>")


def shapes(signon: str) -> dict[str, str]:
    mine = f"<div>{signon}</div><div>A Mos &ndash; Ukr</div>"
    return {
        "gmail-indent-more": (
            f"<div dir='ltr'><div>{signon}</div><blockquote style='margin:0 0 0 40px;"
            "border:none;padding:0px'><div>A Mos - Ukr</div><div>F Sev - Bla</div></blockquote>"
            "</div>"),
        "gmail-reply": (
            f"<div dir='ltr'>{mine}<div>F Sev - Bla</div></div><br><div class='gmail_quote'>"
            "<div dir='ltr' class='gmail_attr'>On Sun, 1 Mar 2026 at 12:00, Judge &lt;judge@"
            "localhost&gt; wrote:<br></div><blockquote class='gmail_quote' style='margin:0px 0px"
            f" 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex'>{REPORT}"
            "</blockquote></div>"),
        "apple-mail": (
            f"<body>{mine}<div>F Sev - Bla</div><div><br><blockquote type='cite'><div>On 1 Mar "
            f"2026, at 12:00, Judge wrote:</div><br><div>{REPORT}</div></blockquote></div></body>"),
        "thunderbird": (
            f"<body>{mine}<p>F Sev - Bla</p><div class='moz-cite-prefix'>On 01/03/2026 12:00, "
            "Judge wrote:<br></div><blockquote type='cite' cite='mid:x@localhost'>"
            f"{REPORT}</blockquote></body>"),
        "outlook-web": (
            f"<div>{mine}<div>F Sev - Bla</div></div><hr style='display:inline-block;"
            "width:98%' tabindex='-1'><div id='divRplyFwdMsg' dir='ltr'><font face='Calibri'>"
            "<b>From:</b> Judge &lt;judge@localhost&gt;<br><b>Sent:</b> Sunday, March 1, 2026 "
            "12:00 PM<br><b>To:</b> anna@example.org<br><b>Subject:</b> [g1] report</font>"
            f"<div>&nbsp;</div></div><div>{REPORT}</div>"),
        "outlook-desktop": (
            f"<div class='WordSection1'><p class='MsoNormal'>{signon}</p><p class='MsoNormal'>"
            "A Mos &#8211; Ukr<o:p></o:p></p><p class='MsoNormal'>F Sev - Bla</p><div><div "
            "style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'><p "
            "class='MsoNormal'><b>From:</b> Judge &lt;judge@localhost&gt;<br><b>Sent:</b> "
            "Sunday, March 1, 2026 12:00<br><b>To:</b> anna@example.org<br><b>Subject:</b> "
            f"[g1] report</p></div></div><p class='MsoNormal'>{REPORT}</p></div>"),
        "old-hotmail": (
            f"<div>{mine}<div>F Sev - Bla</div><hr id='stopSpelling'>Date: Sun, 1 Mar 2026 "
            "12:00:00 +0000<br>Subject: [g1] report<br>From: judge@localhost<br>To: "
            f"anna@example.org<br><br>{REPORT}</div>"),
        "hidden-text": (
            f"{mine}<div>F Sev - Bla</div><div style='display: none'>A Ber - Kie</div>"
            "<span style='mso-hide:all'>A Mun - Ruh</span><div hidden>A Kie - Hol</div>"),
    }


@pytest.mark.parametrize("shape", sorted(shapes("")))
def test_html_only_mail(tables: Callable[[str], Table], shape: str) -> None:
    t = tables("classic")
    msg = EmailMessage()
    msg["From"] = address("Russia")
    msg["To"] = t.judge.config.address
    msg["Subject"] = "Re: [g1] report"
    msg["Message-ID"] = f"<h.{shape}@players.example>"
    msg.set_content(f"<html><body>{shapes(t.signon('Russia'))[shape]}</body></html>",
                    subtype="html")
    t.deliver(bytes(msg))
    text = t.ack_text("Russia")
    assert "Every line was accepted." in text, text
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    for leaked in ("A Ber - Kie", "Orders are due", "A Mun - Ruh", "A Kie - Hol"):
        assert leaked not in text.split("was read as follows:", 1)[1].split("Every line", 1)[0]


def test_html_to_text_is_one_pass() -> None:
    """Deep nesting and many hidden elements: every element is seen once."""
    html = "<div style='display:none'>" * 5000 + "x" + "</div>" * 5000 + "<p>A Mos - Ukr</p>"
    assert html_to_text(html).strip() == "A Mos - Ukr"
    assert html_to_text("<blockquote>" * 3000 + "A Ber - Kie" + "</blockquote>" * 3000) == ""
