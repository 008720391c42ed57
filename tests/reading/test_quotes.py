"""Quoted text recognised whatever the client: the judge's own mails quoted
back (judge.mail.quoted, through In-Reply-To), reply headers of the common
locales, an unprefixed line inside a quoted block; and the judge's own
report and acknowledgement lines never start a command. Through the real
Maildir pipeline."""

from __future__ import annotations

import html
import textwrap
from collections.abc import Callable
from email.message import EmailMessage

import pytest

from judge.mail.mailin import clean_body
from tests.core.conftest import Post
from tests.reading.conftest import GAMES, NAME, Table, address

ATTRIBUTION = "On Sun, 1 Mar 2026 at 12:00, Judge <judge@localhost> wrote:"


def gmail_wrap(lines: list[str], width: int) -> list[str]:
    """Android Gmail: a quoted line longer than ``width`` goes on without ">"."""
    out = []
    for line in lines:
        quoted = "> " + line if line else ">"
        if len(quoted) <= width:
            out.append(quoted)
            continue
        head = textwrap.wrap(quoted, width, break_long_words=False, break_on_hyphens=False)
        out.append(head[0])
        out.extend(textwrap.wrap(" ".join(head[1:]), width, break_long_words=False,
                                 break_on_hyphens=False))
    return out


def rewrap(lines: list[str], width: int) -> list[str]:
    out = []
    for line in lines:
        indent = line[: len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent,
                                 break_long_words=False, break_on_hyphens=False) or [""])
    return out


def forms(text: str) -> dict[str, tuple[str, str]]:
    """A judge's text quoted as clients quote it: (subtype, body after the
    player's lines)."""
    lines = text.rstrip("\n").split("\n")
    blockquote = "<br>\n".join(html.escape(x).replace("  ", "&nbsp; ") for x in lines)
    return {
        "prefixed": ("plain", "\n".join(["> " + x if x else ">" for x in lines])),
        "unprefixed": ("plain", "\n".join(lines)),
        "gmail-wrap-72": ("plain", "\n".join(gmail_wrap(lines, 72))),
        "gmail-wrap-76": ("plain", "\n".join(gmail_wrap(lines, 76))),
        "unprefixed-wrap-72": ("plain", "\n".join(rewrap(lines, 72))),
        "unprefixed-wrap-76": ("plain", "\n".join(rewrap(lines, 76))),
        "html-quoted": ("html", '<div class="gmail_quote"><div class="gmail_attr">'
                                f"{html.escape(ATTRIBUTION)}</div><blockquote "
                                'class="gmail_quote" style="margin:0 0 0 .8ex;border-left:'
                                f'1px #ccc solid;padding-left:1ex">{blockquote}</blockquote>'
                                "</div>"),
        "html-unquoted": ("html", f"<div>{blockquote}</div>"),
    }


def reply(t: Table, role: str, to: EmailMessage, own: str, form: tuple[str, str]) -> bytes:
    subtype, quoted = form
    msg = EmailMessage()
    msg["From"] = address(role)
    msg["To"] = t.judge.config.address
    msg["Subject"] = f"Re: {to['Subject']}"
    t.sent += 1
    msg["Message-ID"] = f"<q{t.sent}@players.example>"
    msg["In-Reply-To"] = str(to["Message-ID"])
    msg["References"] = str(to["Message-ID"])
    if subtype == "plain":
        msg.set_content(f"{own}\n\n{ATTRIBUTION}\n{quoted}\n")
    else:
        mine = "".join(f"<div>{html.escape(x)}</div>" for x in own.split("\n"))
        msg.set_content(f"<html><body>{mine}<br>{quoted}</body></html>", subtype="html")
    return bytes(msg)


def _rows(ack: str) -> list[tuple[str, str]]:
    """(line, result) of each row of an acknowledgement."""
    lines = ack.split("\n")
    return [(lines[i].strip(), lines[i + 1].strip()[3:]) for i in range(len(lines) - 1)
            if lines[i + 1].startswith("        -> ")]


#: The fast tier quotes the reports of classic, Conflict of Alliances and
#: Conquest Tactics; the others (the same quoting, longer to set up) under slow.
SLOW_QUOTES = {"warring_states", "three_kingdoms", "kingdom_wars"}


@pytest.mark.parametrize("game_id", [
    pytest.param(g, marks=pytest.mark.slow) if g in SLOW_QUOTES else g for g in GAMES])
def test_a_quoted_copy_of_the_judges_mail_yields_no_command(
        tables: Callable[[str], Table], game_id: str) -> None:
    """Each game: the seat's report and an acknowledgement of its mail (the
    acknowledgement's rows quote commands and orders), quoted back in every
    form, below nothing but a SIGNON: no command runs, nothing is refused,
    nothing changes."""
    t = tables(game_id)
    role = t.roles[0]
    report = next(m for m in reversed(t.mails_to(role)) if "report" in str(m["Subject"]))
    t.send(role, f"{t.signon(role)}\nSTATUS\nHISTORY\nWAIT\nNOWAIT\n")
    ack = next(m for m in reversed(t.mails_to(role)) if "was read as follows" in Post.text(m))
    for kind, judged in (("report", report), ("ack", ack)):
        for name, form in forms(Post.text(judged)).items():
            before = t.judge.store.last_action(NAME)
            t.deliver(reply(t, role, judged, t.signon(role), form))
            text = t.ack_text(role)
            rows = _rows(text)
            assert "Every line was accepted." in text, (kind, name, text)
            assert rows[0][1].startswith("signed on"), (kind, name, text)
            assert all(r.startswith("not read") for _, r in rows[1:]), (kind, name, text)
            assert t.judge.store.last_action(NAME) == before, (kind, name)


def test_orders_below_a_leaked_heading_are_read(tables: Callable[[str], Table]) -> None:
    """"Orders are due from: ..." and "Orders held for ...:" (the judge's
    own lines, here not recognised as a quote: no In-Reply-To) never open an
    ORDERS block that would swallow the order below them."""
    t = tables("classic")
    t.send("France", f"{t.signon('France')}\nOrders are due from: Austria, England, France\n"
                     "Orders held for France, S1901M:\nA Mar - Spa\n")
    text = t.ack_text("France")
    assert "Every line was accepted." in text, text
    assert [a.text for a in t.table().held("France")] == ["A Mar - Spa"]
    assert "Orders are due from: Austria, England, France\n        -> not read" in text


def test_orders_with_a_sentence_for_a_phase_are_refused_on_their_line(
        tables: Callable[[str], Table]) -> None:
    t = tables("classic")
    t.send("France", f"{t.signon('France')}\nORDERS for spring\nA Mar - Spa\nEND\n")
    text = t.ack_text("France")
    assert 'line 2: "ORDERS for spring"' in text
    assert "ORDERS takes a phase or nothing" in text
    assert [a.text for a in t.table().held("France")] == ["A Mar - Spa"]


def test_a_retyped_order_and_pasted_held_orders_are_orders(tables: Callable[[str], Table]) -> None:
    """A line of the judge's mail that the player retyped on its own, or the
    orders the judge listed as held pasted back, are the player's orders."""
    t = tables("classic")
    t.send("Russia", f"{t.signon('Russia')}\nA Mos - Ukr\nF Sev - Bla\n")
    ack = next(m for m in reversed(t.mails_to("Russia")) if "was read as follows" in Post.text(m))
    own = f"{t.signon('Russia')}\nORDERS\nA Mos - Ukr\nF Sev - Bla\nEND"
    t.deliver(reply(t, "Russia", ack, own, forms(Post.text(ack))["prefixed"]))
    assert {a.text for a in t.table().held("Russia")} == {"A Mos - Ukr", "F Sev - Bla"}
    t.deliver(reply(t, "Russia", ack, f"{t.signon('Russia')}\nORDERS\nA Mos - Ukr\nEND",
                    forms(Post.text(ack))["unprefixed"]))
    assert [a.text for a in t.table().held("Russia")] == ["A Mos - Ukr"]


def test_someone_elses_mail_is_not_known(tables: Callable[[str], Table]) -> None:
    """Only the judge's mails to the sender's own address are looked up."""
    t = tables("classic")
    assert t.judge.sent_texts(address("Russia"), [str(m["Message-ID"])
                                                  for m in t.mails_to("France")]) == []
    mine = [str(m["Message-ID"]) for m in t.mails_to("Russia")]
    assert t.judge.sent_texts(address("Russia"), mine)


KNOWN = ("Orders are due from: Austria, England, France, Germany, Italy, Russia and Turkey.\n"
         "\nOrders held for Russia, S1901M:\n  A Mos - Ukr\n  F Sev - Bla\n")


@pytest.mark.parametrize(("lines", "kept"), [
    # Android Gmail: the quoted line goes on without ">".
    (["A War - Gal", "", ATTRIBUTION, "> Orders are due from: Austria, England, France, Germany,"
      " Italy, Russia and", "Turkey.", ">"], ["A War - Gal"]),
    # pasted back without marks, re-wrapped
    (["Orders are due from: Austria, England, France, Germany, Italy,", "Russia and Turkey.",
      "", "A War - Gal"], ["A War - Gal"]),
    # the held orders pasted back, and one line retyped
    (["A Mos - Ukr", "F Sev - Bla"], ["A Mos - Ukr", "F Sev - Bla"]),
    (["F Sev - Bla"], ["F Sev - Bla"]),
    # the heading with them: a quote
    (["A War - Gal", "Orders held for Russia, S1901M:", "A Mos - Ukr", "F Sev - Bla"],
     ["A War - Gal"]),
])
def test_runs_of_the_known_text(lines: list[str], kept: list[str]) -> None:
    assert [x for x in clean_body("\n".join(lines), [KNOWN]) if x] == kept


def test_an_unprefixed_line_inside_a_quoted_block_without_the_known_text() -> None:
    body = ["A War - Gal", "", ATTRIBUTION,
            "> Orders are due from: Austria, England, France, Germany, Italy, Russia and",
            "Turkey.", "> ", "> Orders held for Russia, S1901M:"]
    assert [x for x in clean_body("\n".join(body)) if x] == ["A War - Gal"]
    # an answer between two short quoted questions is the writer's
    body = ["> Which way?", "A War - Gal", "> And the fleet?", "F Sev - Bla"]
    assert [x for x in clean_body("\n".join(body)) if x] == ["A War - Gal", "F Sev - Bla"]


HEADER_BLOCKS = {
    "english-outlook": ["From: Judge <judge@localhost>", "Sent: Sunday, March 1, 2026 12:00 PM",
                        "To: Anna <anna@example.org>", "Subject: [g1] report"],
    "old-hotmail": ["Date: Sun, 1 Mar 2026 12:00:00 +0000", "Subject: [g1] report",
                    "From: judge@localhost", "To: anna@example.org"],
    "german": ["Von: Judge <judge@localhost>", "Gesendet: Sonntag, 1. März 2026 12:00",
               "An: anna@example.org", "Betreff: [g1] report"],
    "french": ["De : Judge <judge@localhost>", "Envoyé : dimanche 1 mars 2026 12:00",
               "À : anna@example.org", "Objet : [g1] report"],
    "spanish": ["De: Judge <judge@localhost>", "Enviado el: domingo, 1 de marzo de 2026 12:00",
                "Para: anna@example.org", "Asunto: [g1] report"],
    "italian": ["Da: Judge <judge@localhost>", "Inviato: domenica 1 marzo 2026 12:00",
                "A: anna@example.org", "Oggetto: [g1] report"],
    "portuguese": ["De: Judge <judge@localhost>", "Enviado: domingo, 1 de março de 2026 12:00",
                   "Para: anna@example.org", "Assunto: [g1] report"],
    "dutch": ["Van: Judge <judge@localhost>", "Verzonden: zondag 1 maart 2026 12:00",
              "Aan: anna@example.org", "Onderwerp: [g1] report"],
    "russian": ["От: Judge <judge@localhost>", "Отправлено: 1 марта 2026 г. 12:00",
                "Кому: anna@example.org", "Тема: [g1] report"],
    "polish": ["Od: Judge <judge@localhost>", "Wysłano: niedziela, 1 marca 2026 12:00",
               "Do: anna@example.org", "Temat: [g1] report"],
    "swedish": ["Från: Judge <judge@localhost>", "Skickat: den 1 mars 2026 12:00",
                "Till: anna@example.org", "Ämne: [g1] report"],
    "norwegian-danish": ["Fra: Judge <judge@localhost>", "Sendt: 1. mars 2026 12:00",
                         "Til: anna@example.org", "Emne: [g1] report"],
    "japanese": ["差出人: Judge <judge@localhost>", "送信日時: 2026年3月1日 12:00",
                 "宛先: anna@example.org", "件名: [g1] report"],
    "chinese": ["发件人: Judge <judge@localhost>", "发送时间: 2026年3月1日 12:00",
                "收件人: anna@example.org", "主题: [g1] report"],
    "chinese-fullwidth": ["发件人：Judge <judge@localhost>", "发送时间：2026年3月1日 12:00",
                          "收件人：anna@example.org", "主题：[g1] report"],
    "turkish": ["Kimden: Judge <judge@localhost>", "Gönderildi: 1 Mart 2026 Pazar 12:00",
                "Kime: anna@example.org", "Konu: [g1] report"],
    "czech": ["Od: Judge <judge@localhost>", "Odesláno: neděle 1. března 2026 12:00",
              "Komu: anna@example.org", "Předmět: [g1] report"],
    "hungarian": ["Feladó: Judge <judge@localhost>", "Elküldve: 2026. március 1. 12:00",
                  "Címzett: anna@example.org", "Tárgy: [g1] report"],
    "traditional-chinese": ["寄件者: Judge <judge@localhost>", "寄件日期: 2026年3月1日 12:00",
                            "收件者: anna@example.org", "主旨: [g1] report"],
}


HEADER_BLOCKS["lotus-notes"] = ['-----"Judge" <judge@localhost> wrote: -----', "",
                                "To: anna@example.org", "From: Judge <judge@localhost>",
                                "Date: 01/03/2026 12:00", "Subject: [g1] report"]


@pytest.mark.parametrize("locale", sorted(HEADER_BLOCKS))
def test_reply_header_blocks_of_the_common_locales(locale: str) -> None:
    rule = [] if locale == "lotus-notes" else ["________________________________"]
    body = ["A War - Gal", "", *rule, *HEADER_BLOCKS[locale], "",
            "Orders are due from: Austria, England", "A Ber - Kie"]
    assert [x for x in clean_body("\n".join(body)) if x] == ["A War - Gal"]


@pytest.mark.parametrize("attribution", [
    "W dniu nd., 1.03.2026 o 13:00 <judge@localhost> napisał(a):",
    "вс, 1 мар. 2026 г. в 12:00, Judge <judge@localhost>:",
    "2026年3月1日(日) 12:00 Judge <judge@localhost>:",
    "Judge <judge@localhost> 于2026年3月1日周日 12:00写道：",
    "Den sön 1 mars 2026 kl 12:00 skrev Judge <judge@localhost>:",
    "Em dom., 1 de mar. de 2026 às 12:00, Judge <judge@localhost> escreveu:",
    "Il giorno dom 1 mar 2026 alle ore 12:00 Judge <judge@localhost> ha scritto:",
])
def test_attributions_of_the_common_locales(attribution: str) -> None:
    body = ["A War - Gal", "", attribution, "> Orders held for Russia, S1901M:", ">   A Mos - Ukr"]
    assert [x for x in clean_body("\n".join(body)) if x] == ["A War - Gal"]


REPORT = ("Diplomacy, S1901M: report for Russia\n\nOrders are due from: Austria, England, France,"
          " Germany, Italy, Russia and Turkey.\nOrder each of your units:\n  A Mos\n  A War\n"
          "  F Sev\n  F StP/sc\n\nSupply centres: Mos, Sev, StP, War (4)\nUnits: A Mos, A War, "
          "F Sev, F StP/sc\nThe deadline of S1901M is Tue 03 Mar 2026 12:00 UTC.\n")
OUTLOOK_BLOCK = ["________________________________", "From: Judge <judge@localhost>",
                 "Sent: Sunday, March 1, 2026 12:00 PM", "To: Anna <anna@example.org>",
                 "Subject: [g1] report for Russia: S1901M"]


def test_orders_typed_inside_the_unprefixed_original_are_read() -> None:
    """Outlook does not prefix the original; a player who answers inside it
    is read when the original is the judge's own mail (its lines known)."""
    report = REPORT.rstrip("\n").split("\n")
    cut = report.index("Order each of your units:") + 1
    body = ["", *OUTLOOK_BLOCK, "", *report[:cut], "", "A Mos - Ukr", "F Sev - Bla", "",
            *report[cut:]]
    assert [x for x in clean_body("\n".join(body), [REPORT]) if x] == ["A Mos - Ukr",
                                                                      "F Sev - Bla"]
    # typed right under a long line of the original, with no blank line
    body = ["", *OUTLOOK_BLOCK, "", *report[:3], "A Mos - Ukr", *report[3:]]
    assert [x for x in clean_body("\n".join(body), [REPORT]) if x] == ["A Mos - Ukr"]
    # Without the judge's text, the block and all below it go, as before.
    assert [x for x in clean_body("\n".join(body)) if x] == []


def test_a_nested_older_mail_below_the_judges_is_not_read() -> None:
    """A thread: the judge's mail, and below it (another header block) the
    player's own older orders: those are never read again."""
    report = REPORT.rstrip("\n").split("\n")
    body = ["A War - Gal", "", *OUTLOOK_BLOCK, "", *report, "", *OUTLOOK_BLOCK[:1],
            "From: Anna <anna@example.org>", "Sent: Saturday, February 28, 2026 9:00 AM",
            "To: judge@localhost", "Subject: orders", "", "A Mos - Sev", "F Sev - Rum"]
    assert [x for x in clean_body("\n".join(body), [REPORT]) if x] == ["A War - Gal"]


def test_the_judges_text_mixed_with_too_much_else_is_cut_whole() -> None:
    body = ["A War - Gal", "", *OUTLOOK_BLOCK, "", "Orders are due from: Austria, England,",
            "France, Germany, Italy, Russia and Turkey.", "lorem", "ipsum", "dolor"]
    assert [x for x in clean_body("\n".join(body), [REPORT]) if x] == ["A War - Gal"]


def test_a_choice_copied_from_the_request_is_the_players() -> None:
    """A long line the judge offered as a choice, copied on its own (or two
    choices pasted together), is the player's answer, not a quote."""
    request = ("Now: a negation window.\nYour choices include:\n"
               "  NEGATE BY See Through WITH Stealing Sheep S4\n  PASS\n")
    line = "NEGATE BY See Through WITH Stealing Sheep S4"
    assert clean_body(line, [request]) == [line]
    assert clean_body(f"{line}\nPASS", [request]) == [line, "PASS"]
    assert clean_body(f"Your choices include:\n{line}", [request]) == []
