"""What reading a mail costs as it grows: every stage of the body side is
linear in the mail's size (DESIGN.md, "Mail pipeline", step 3).

Reply mails of 1, 2, 4, 8 and 16 times a base size are decoded with
:func:`judge.mail.mailin.parse_mail`, each replying to one of the judge's own
reports of the same multiple (its text known, as the service finds it in
the outbox): a few order lines, a sign-off, then the report quoted back in
the shapes the clients use in turn (prefixed; Android Gmail's wrap at 76
columns, the continuation without ">"; unprefixed and re-wrapped at 72;
HTML-only with a quoting blockquote, a Gmail "indent more" and hidden
text). Printed per multiple: the median time per mail and the time per
kilobyte against the base size's (ratio near 1: linear; a quadratic stage
would double it at each step), and against the same mails read without the
report's text (no In-Reply-To match: what recognising the quote costs).

Usage::

    python bench/reading_cost.py [--rounds 7] [--base 40] [--json]
"""

from __future__ import annotations

import argparse
import html
import json
import statistics
import sys
import textwrap
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.mail.mailin import Limits, parse_mail

PROVINCES = ("Mos", "War", "Sev", "Ukr", "Gal", "Bud", "Vie", "Tri", "Ser", "Rum", "Bul",
             "Con", "Ank", "Smy", "Arm", "Syr", "Bla", "Aeg", "Ion", "Gre")


def report(lines: int) -> str:
    """A report-shaped text of ``lines`` lines: prose, headings and orders."""
    out = ["Diplomacy, S1901M: report for Russia", ""]
    for i in range(lines):
        a, b = PROVINCES[i % len(PROVINCES)], PROVINCES[(i * 7 + 3) % len(PROVINCES)]
        if i % 5 == 0:
            out.append(f"Orders are due from: Austria, England, France, Germany, Italy and "
                       f"Turkey, who have {i} units between them on the board today.")
        elif i % 5 == 1:
            out.append(f"Orders held for Russia, turn {i}:")
        else:
            out.append(f"  A {a} - {b}")
    return "\n".join(out) + "\n"


def gmail_wrap(lines: list[str], width: int) -> list[str]:
    out = []
    for line in lines:
        parts = textwrap.wrap("> " + line, width, break_on_hyphens=False) or [">"]
        out.append(parts[0])
        out.extend(textwrap.wrap(" ".join(parts[1:]), width, break_on_hyphens=False))
    return out


def reply(text: str, shape: int) -> bytes:
    lines = text.rstrip("\n").split("\n")
    own = ["SIGNON g1 Russia abcdefghjk23", "A Mos \u2013 Ukr", "F Sev - Bla", "",
           "Kind regards,", "Anna | Hold Fast Logistics", "", "On Sun, 1 Mar 2026, Judge "
           "<judge@localhost> wrote:"]
    msg = EmailMessage()
    msg["From"] = "russia@players.example"
    msg["To"] = "judge@localhost"
    msg["Subject"] = "Re: [g1] report"
    msg["Message-ID"] = f"<bench{shape}@players.example>"
    msg["In-Reply-To"] = "<report@localhost>"
    if shape == 0:
        msg.set_content("\n".join([*own, *("> " + x for x in lines)]) + "\n")
    elif shape == 1:
        msg.set_content("\n".join([*own, *gmail_wrap(lines, 76)]) + "\n")
    elif shape == 2:
        wrapped = [w for x in lines for w in textwrap.wrap(x, 72) or [""]]
        msg.set_content("\n".join([*own, *wrapped]) + "\n")
    else:
        mine = "".join(f"<div>{html.escape(x)}</div>" for x in own[:3])
        quoted = "<br>".join(html.escape(x) for x in lines)
        msg.set_content(f"<html><body><blockquote style='margin:0 0 0 40px;border:none'>{mine}"
                        f"</blockquote><div style='display:none'>{quoted}</div>"
                        f"<blockquote type='cite'>{quoted}</blockquote></body></html>",
                        subtype="html")
    return bytes(msg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--base", type=int, default=40, help="report lines at 1x")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    limits = Limits(max_bytes=50_000_000, max_lines=1_000_000)
    rows = []
    base_per_kb = 0.0
    for mult in (1, 2, 4, 8, 16):
        text = report(args.base * mult)
        mails = [reply(text, shape) for shape in range(4)]

        def known(_addr: str, _ids: object, text: str = text) -> list[str]:
            return [text]

        times = []
        plain = []
        size = sum(len(m) for m in mails)
        for _ in range(args.rounds):
            start = time.perf_counter()
            for raw in mails:
                mail = parse_mail(raw, limits, sent=known)
                assert mail.refuse is None and "A Mos \u2013 Ukr" in mail.lines, mail.lines[:5]
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            for raw in mails:
                parse_mail(raw, limits)
            plain.append(time.perf_counter() - start)
        median = statistics.median(times)
        per_kb = median / (size / 1024)
        base_per_kb = base_per_kb or per_kb
        rows.append({"multiple": mult, "bytes": size, "median_ms": round(median * 1e3, 3),
                     "us_per_kb": round(per_kb * 1e6, 2),
                     "ratio_per_kb": round(per_kb / base_per_kb, 2),
                     "vs_unknown": round(median / statistics.median(plain), 2)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("four reply shapes per multiple, the judge's report quoted back (median of "
          f"{args.rounds} rounds)")
    for r in rows:
        print(f"  x{r['multiple']:<3} {r['bytes']:>9} bytes  {r['median_ms']:>9.2f} ms  "
              f"{r['us_per_kb']:>8.1f} us/KB  ratio to x1 per KB: {r['ratio_per_kb']:.2f}  "
              f"x{r['vs_unknown']:.2f} the time without the report's text")


if __name__ == "__main__":
    main()
