"""What the HTML alternative costs per mail: composing one real report and
one real acknowledgement with it and without it.

A classic game is played by mail in a temporary home (CREATE, seven JOINs,
START, some orders, the GM's PROCESS) on the Maildir transports; the last
turn report to France (text, JSON view, PNG map) and the acknowledgement of
France's orders are read back from what the judge sent and turned into the
mail the judge queues (:class:`judge.mail.mailout.OutgoingMail`). Each is then
composed ``--n`` times as the judge queues it (the mail itself and its kept
copy, :func:`judge.service.kept_copy`), with ``html`` off and on,
alternating; printed: the median time of each, their ratio, and the sizes.

Usage::

    python bench/mail_html.py [--n 300]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from email.message import EmailMessage, Message
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.maildir import open_post  # noqa: E402
from bench.support.post import CLASSIC_POWERS, GM_ADDR, address_of, start  # noqa: E402
from judge.mail import mailhtml  # noqa: E402
from judge.mail.mailout import Attachment, OutgoingMail, compose  # noqa: E402
from judge.service import kept_copy  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402


def _payload(part: Message) -> bytes:
    """An attachment's decoded bytes (a leaf part decodes to bytes)."""
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return data


def _outgoing(msg: EmailMessage, auto: str) -> OutgoingMail:
    """The mail the judge queued for ``msg`` (what it sent, read back)."""
    body = msg.get_body(("plain",))
    assert body is not None
    attachments = tuple(
        Attachment(str(p.get_filename()), p.get_content_type(), _payload(p))
        for p in msg.walk() if p.get_filename())
    return OutgoingMail(
        message_id=str(msg["Message-ID"]), from_addr=str(msg["From"]), to_addr=str(msg["To"]),
        subject=str(msg["Subject"]), body=str(body.get_content()), auto_submitted=auto,
        in_reply_to=str(msg["In-Reply-To"] or ""), date=str(msg["Date"]),
        attachments=attachments)


def real_mails() -> tuple[OutgoingMail, OutgoingMail]:
    """A classic turn report to France and the acknowledgement of its orders."""
    set_kdf_cost(2**8)
    with tempfile.TemporaryDirectory() as tmp:
        posts = open_post(Path(tmp))
        post = next(posts)
        tokens = start(post, "classic", list(CLASSIC_POWERS))
        post.send(address_of("France"),
                  f"SIGNON g1 France {tokens['France']}\nA Par - Bur\nA Mar S A Par - Bur\n"
                  "F Bre - Mao\n")
        post.send(GM_ADDR, f"SIGNON g1 GM {tokens['GM']}\nPROCESS\n")
        sent = post.sent()
        report = [m for m in sent if m["To"] == address_of("France")
                  and "report for" in str(m["Subject"])][-1]
        ack = [m for m in sent if m["To"] == address_of("France")
               and str(m["Subject"]).startswith("Re:")][-1]
        mails = _outgoing(report, "auto-generated"), _outgoing(ack, "auto-replied")
        for _ in posts:
            pass
    return mails


def queued(mail: OutgoingMail) -> int:
    """Compose ``mail`` as the judge queues it (the mail and its kept copy)."""
    return len(compose(mail)) + len(compose(kept_copy(mail)))


def measure(mail: OutgoingMail, n: int) -> tuple[float, float, int, int]:
    plain, html = replace(mail, html=False), replace(mail, html=True)
    times: dict[bool, list[float]] = {False: [], True: []}
    for i in range(n):
        for which in ((False, True) if i % 2 else (True, False)):
            one = html if which else plain
            t0 = time.perf_counter()
            queued(one)
            times[which].append(time.perf_counter() - t0)
    return (statistics.median(times[False]), statistics.median(times[True]),
            len(compose(plain)), len(compose(html)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    report, ack = real_mails()
    png = sum(len(a.data) for a in report.attachments if a.content_type == "image/png")
    assert png, "the report carries no map"
    for label, mail in (("turn report (text, JSON, PNG map)", report),
                        ("acknowledgement (text only)", ack)):
        before, after, size_before, size_after = measure(mail, args.n)
        html = len(mailhtml.render(mail.body))
        print(f"{label}:")
        print(f"  queued (mail + kept copy): {before * 1e6:7.0f} us without HTML, "
              f"{after * 1e6:7.0f} us with: ratio {after / before:.2f}")
        print(f"  size: {size_before} bytes without HTML, {size_after} with "
              f"(+{size_after - size_before}, the HTML part {html} bytes; "
              f"text {len(mail.body.encode())} bytes): ratio {size_after / size_before:.2f}")


if __name__ == "__main__":
    main()
