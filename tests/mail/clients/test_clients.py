"""Every mail client, read the way a careful person reads its mail.

Each case of the corpus (cases.yaml, built by shapes.py) is an order mail in
the shape one client produces: its MIME structure, charset, transfer
encoding, quoting, signature and footer. The mail answers a mail the judge
really sent in this game (the turn report, or the acknowledgement of a first
set of orders: ``quotes``), and quotes it the way that client quotes.

It goes through the whole judge on the Maildir transports: a classic game
``clients`` is started with all seven powers seated, the case's power at
the case's sender address; the mail is dropped into the judge's incoming
Maildir and read by one judge cycle; the acknowledgement is read from the
outgoing Maildir. Then:

* the orders on file for the power are exactly ``orders``, and the
  acknowledgement shows each of them read from this mail;
* every line of ``unread`` is listed in the acknowledgement as not read, and
  the only other lines listed are the SIGNON, the orders and the case's own
  ``footer`` lines (which a client adds after a marker, and the judge may
  list as not read or leave out); in particular no line of the judge's own
  quoted mail and no line of a quote header is read as anything;
* nothing is refused but the case's ``refused`` lines (malformed orders,
  refused with a correction);
* the seat has sent its orders and is ready, unless a line was refused (then
  the phase waits for the seat to mend it);
* every part named in ``aside`` (a logo, winmail.dat, a key, the judge's own
  attachments in a forward) is named in the acknowledgement as set aside.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from bench.support.maildir import open_post
from judge.game import adjudicator as adj
from judge.game import registry
from judge.store import hash_token
from tests.core.conftest import Post
from tests.mail.clients.reply import Judged, Player, Reply
from tests.mail.clients.shapes import CASES

MANIFEST: dict[str, dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases.yaml").read_text(encoding="utf-8"))
GAME = "clients"
JUDGE = "judge@pbem.example.net"
#: Each power's token (the SIGNON line of every case carries its power's).
TOKENS = {power: f"{power[:3].lower()}-tok-4fq9x2" for power in
          ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")}
#: The first orders of a power whose case answers an acknowledgement: a
#: whole set, none of them what the case then orders, so that a line of the
#: quoted acknowledgement read as an order shows in the orders on file.
FIRST_ORDERS = {
    "Austria": ["A Vie - Tyr", "A Bud - Rum", "F Tri - Adr"],
    "England": ["F Lon - Eng", "F Edi - Nth", "A Lvp - Wal"],
    "France": ["A Par - Pic", "A Mar - Pie", "F Bre - Eng"],
    "Germany": ["A Ber - Pru", "A Mun - Boh", "F Kie - Hol"],
    "Italy": ["A Ven - Pie", "A Rom - Tus", "F Nap - Tys"],
    "Russia": ["A Mos - Stp", "A War - Sil", "F Sev - Rum", "F StP/sc - Fin"],
    "Turkey": ["A Smy - Syr", "A Con - Ank", "F Ank - Arm"],
}
#: The subject prefixes of the corpus's mails, before the report's subject
#: (a reply to an acknowledgement carries two: the client's, and the
#: acknowledgement's own "Re:").
PREFIXES = ("Re:", "RE:", "Fwd:", "AW:", "Aw:", "SV:", "R:", "YNT:", "RE :", "答复:", "回复:")
KEYS = ("client", "locale", "shape", "power", "sender", "name", "quotes", "orders",
        "unread", "footer", "refused", "aside", "charset", "note")


@dataclass
class Ack:
    """An acknowledgement, read: its numbered rows and its refused lines."""

    text: str
    rows: list[tuple[str, str]]
    """(line as the judge quotes it, what it made of it)."""
    errors: list[str]
    """The text of each refused line."""

    @classmethod
    def read(cls, text: str) -> Ack:
        rows: list[tuple[str, str]] = []
        lines = text.split("\n")
        for i, line in enumerate(lines[:-1]):
            m = re.match(r"^ {0,3}\d+  (.*)$", line)
            r = re.match(r"^ {8}-> (.*)$", lines[i + 1])
            if m and r:
                rows.append((m.group(1).strip(), r.group(1).strip()))
        errors = re.findall(r'^  line \d+: "(.*)"$', text, flags=re.M)
        return cls(text, rows, errors)


def prefix_of(raw: bytes, subject: str) -> str:
    """The client's reply prefix of a mail answering the judge's mail
    ``subject`` (``"AW:"``), the acknowledgement's own ``Re:`` taken off."""
    got = str(message_from_bytes(raw, policy=default)["Subject"])
    assert got.endswith(subject), (got, subject)
    head = got[: -len(subject)].strip()
    return head[: -len("Re:")].strip() if head.endswith(" Re:") else head


def norm(line: str) -> str:
    """A line as compared: spaces folded, compatibility forms folded (the
    judge may quote a full-width "！" back as "!")."""
    return " ".join(unicodedata.normalize("NFKC", line).split())


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path, bytes(range(32)))


def judged(msg: EmailMessage) -> Judged:
    attachments = []
    for part in msg.walk():  # every named part: attached, or inline with a Content-ID
        if part.is_multipart() or not part.get_filename():
            continue
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        attachments.append((str(part.get_filename()), part.get_content_type(), data))
    refs = tuple(str(msg.get("References", "")).split())
    return Judged(text=Post.text(msg), message_id=str(msg["Message-ID"]),
                  subject=str(msg["Subject"]), date=parsedate_to_datetime(str(msg["Date"])),
                  sender=JUDGE, references=refs, attachments=tuple(attachments))


def start(post: Post, power: str, address: str) -> None:
    """The game ``clients``: classic, every power seated, ``power`` at ``address``."""
    judge = post.judge
    judge.config.address = JUDGE
    game = registry.get("classic")
    with judge.store.atomic():
        judge.create_game(GAME, "classic", {}, "gm@pbem.example.net")
        roles = game.roles(adj.start(game, {o.name: o.default for o in game.options},
                                     bytes(32)).table.state)
        for role in roles:
            at = address if role == power else f"{role.lower()}@seats.example"
            judge.store.add_seat(GAME, at, hash_token(TOKENS[role]), wanted=role)
        judge.start(GAME)
    judge.relay()


def mail_to(post: Post, address: str, in_reply_to: str | None = None) -> EmailMessage:
    found = [m for m in post.new() if m["To"] == address
             and (in_reply_to is None or m["In-Reply-To"] == in_reply_to)]
    assert len(found) == 1, [str(m["Subject"]) for m in found]
    return found[0]


def first_ack(post: Post, player: Player, report: Judged) -> Judged:
    """The player answers the report with a first set of orders (a plain
    mail); the judge's acknowledgement of it."""
    body = "\n".join([player.signon, *FIRST_ORDERS[player.power]]) + "\n"
    raw = post.raw(player.address, body, subject=f"Re: {report.subject}",
                   message_id=f"<first.{player.power.lower()}@seats.example>",
                   headers={"In-Reply-To": report.message_id, "References": report.message_id})
    post.deliver(raw)
    post.judge.cycle()
    ack = mail_to(post, player.address, f"<first.{player.power.lower()}@seats.example>")
    read = Ack.read(Post.text(ack))
    assert not read.errors and read.rows, read.text
    return judged(ack)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_client_mail_is_read_as_its_writer_meant(post: Post, name: str) -> None:
    case = MANIFEST[name]
    power, address = case["power"], case["sender"]
    player = Player(GAME, power, TOKENS[power], address, case["name"])
    start(post, power, address)
    report = answered = judged(mail_to(post, address))
    post.clock.advance(hours=1)
    if case["quotes"] == "ack":
        answered = first_ack(post, player, answered)
        post.clock.advance(hours=2)
    domain = address.split("@")[1]
    reply = Reply(answered, player, post.clock.now, f"<{name}.7731@{domain}>")
    raw = CASES[name](reply)
    post.deliver(raw)
    post.judge.cycle()

    sent = mail_to(post, address, reply.message_id)
    ack = Ack.read(Post.text(sent))
    # one "Re:" whatever the client's prefixes ("AW: Re:", "答复: Re:")
    assert prefix_of(raw, report.subject) in PREFIXES, name
    assert str(sent["Subject"]) == f"Re: {report.subject}", str(sent["Subject"])
    table = post.judge.table(GAME)
    held = sorted(a.text for a in table.held(power))
    assert held == sorted(case["orders"]), \
        f"orders on file {held}, expected {sorted(case['orders'])}:\n{ack.text}"

    unread = [norm(x) for x in case.get("unread") or []]
    footer = {norm(x) for x in case.get("footer") or []}
    refused = [norm(x) for x in case.get("refused") or []]
    not_read = [norm(text) for text, result in ack.rows if "not read" in result.lower()]
    for line in unread:
        assert line in not_read, f"{line!r} is not listed as not read:\n{ack.text}"
    assert sorted(norm(e) for e in ack.errors) == sorted(refused), ack.text
    # every order on file was read from this mail (none left over from before)
    accepted = sorted(norm(result[3:]) for _, result in ack.rows if result.startswith("ok:"))
    assert accepted == sorted(norm(x) for x in case["orders"]), ack.text
    ordered = {norm(t) for t, result in ack.rows if result.startswith("ok:")}
    for text, result in ack.rows:
        t = norm(text)
        if t in ordered or t.upper().startswith(("SIGNON ", "ORDERS")) or t.upper() == "END":
            continue
        assert t in unread or t in footer or t in refused, \
            f"line {text!r} was read ({result}):\n{ack.text}"
    quoted = {norm(x) for x in answered.lines if x.strip()}
    wanted = {norm(x) for x in case["orders"]}
    read_quoted = [t for t, result in ack.rows if norm(t) in quoted
                   and not (result.startswith("ok:") and norm(result[3:]) in wanted)]
    assert not read_quoted, f"the judge's own lines were read: {read_quoted}\n{ack.text}"

    assert power in table.submitted, ack.text
    if refused:
        # a refused order line holds the phase for the seat to mend it
        assert power in table.unready, ack.text
        assert "did you mean" in ack.text.lower(), ack.text
    else:
        assert power not in table.unready, ack.text
    for part in case.get("aside") or []:
        assert part in ack.text, f"{part} is not named as set aside:\n{ack.text}"
        if part.startswith(f"{GAME}-"):  # the judge's own attachment, forwarded
            said = next(x for x in ack.text.splitlines() if x.startswith(f"  {part} ("))
            assert "the judge's own" in said and "logo" not in said, said


@pytest.mark.parametrize("prefix", PREFIXES)
def test_refusal_notice_has_one_re(post: Post, prefix: str) -> None:
    """A mail refused whole (a document attached: nothing in it is read)
    is answered under one "Re:", whatever the client put before the
    subject: its own prefix over the report's subject, or over the "Re:"
    of an earlier reply."""
    address = "lena@seats.example"
    start(post, "Germany", address)
    report = judged(mail_to(post, address))
    for k, subject in enumerate((f"{prefix} {report.subject}", f"{prefix} Re: {report.subject}")):
        raw = post.raw(address, f"SIGNON {GAME} Germany {TOKENS['Germany']}\nA Ber - Kie\n",
                       subject=subject, message_id=f"<refused.{k}@seats.example>")
        msg = message_from_bytes(raw, policy=default)
        assert isinstance(msg, EmailMessage)
        msg.add_attachment(b"PK\x03\x04 orders", maintype="application",
                           subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
                           filename="orders.docx")
        post.deliver(msg.as_bytes(policy=default.clone(linesep="\r\n")))
        post.judge.cycle()
        notice = mail_to(post, address, f"<refused.{k}@seats.example>")
        assert "orders.docx" in Post.text(notice), Post.text(notice)
        assert str(notice["Subject"]) == f"Re: {report.subject}", str(notice["Subject"])
    assert "Germany" not in post.judge.table(GAME).submitted


def test_the_corpus_is_whole() -> None:
    """Every case has a builder and every builder a case; each orders two to
    four units from its seat; the shapes the corpus is for are all there."""
    assert set(MANIFEST) == set(CASES)
    assert len(MANIFEST) >= 30
    for name, case in MANIFEST.items():
        assert set(case) <= set(KEYS), (name, set(case) - set(KEYS))
        assert case["quotes"] in ("report", "ack"), name
        assert 2 <= len(case["orders"]) <= 4, name
        if case["quotes"] == "ack":
            # the whole set again, so that no first order survives unseen
            units = len(FIRST_ORDERS[case["power"]])
            assert len(case["orders"]) == units, name
    locales = {case["locale"] for case in MANIFEST.values()}
    assert {"en", "de", "fr", "es", "ru", "pl", "sv", "ja", "zh"} <= locales
    charsets = " ".join(case["charset"] for case in MANIFEST.values())
    for charset in ("utf-8", "iso-8859-1", "windows-1252", "koi8-r", "gb2312", "gbk",
                    "iso-2022-jp", "base64", "quoted-printable"):
        assert charset in charsets, charset


