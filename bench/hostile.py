"""What a hostile input costs, against an ordinary mail, at two sizes.

Each input of a stranger or a player trying to stall the judge is timed at a
size and at ten times that size, in the same run as an ordinary mail, so the
figures compare with each other on whatever machine runs them:

* mail inputs go through the real path: a judge in a temporary home on the
  Maildir transports (``judge init``'s defaults, a test clock), the raw mail
  delivered into ``mail/in/new`` and one ``Judge.cycle()`` timed (parse,
  token checks, the transaction, the reply's composition, filing the mail
  with its tokens masked, relaying the reply into ``mail/out``);
* game-line inputs go to the game's own reader, ``Game.parse`` (the line a
  seat's mail hands it), against an ordinary order line of that game;
* the steps that turn text into the judge's mail are timed on their own
  (the text part, the HTML part, a whole press mail, an attachment, a name
  fitted or wrapped in a picture), against an ordinary press of 1,000
  characters composed whole; for the HTML part, "largest reply" is the
  size of the HTML made from the larger input.

Printed per input: the two sizes, the time of each (median of ``--repeat``
runs), the time of the larger over the smaller (linear: about 10; quadratic:
about 100) and over the ordinary mail (or line) of the run, the largest reply
the judge queued and, for the too-large mail, the peak of Python's memory
(``tracemalloc``). A measurement whose smaller size already took more than
``--give-up`` seconds is not repeated at ten times the size.

Usage::

    python bench/hostile.py [--repeat 3] [--give-up 20] [--only NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge import config as cfg  # noqa: E402
from judge.game import registry  # noqa: E402
from judge.game.rng import Rng  # noqa: E402
from judge.mail import mailhtml, mailout  # noqa: E402
from judge.mail.mailout import Attachment, OutgoingMail  # noqa: E402
from judge.pictures import text as picture_text  # noqa: E402
from judge.service import Judge  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Home:
    """A judge home; every mail comes from a new stranger two hours after the
    last (a stranger is answered once an hour)."""

    path: Path
    clock: Clock
    judge: Judge
    count: int = 0

    @classmethod
    def make(cls, base: Path) -> Home:
        path = base / "home"
        cfg.init_home(path)
        clock = Clock()
        return cls(path, clock, Judge.open(path, now=clock))

    def raw(self, body: str, subject: str = "hello") -> bytes:
        """A plain UTF-8 mail written byte by byte as a hostile sender would
        (the email package would fold and re-encode a long Subject)."""
        self.count += 1
        head = (f"From: s{self.count}@strangers.example\r\n"
                f"To: {self.judge.config.address}\r\n"
                f"Subject: {subject}\r\n"
                f"Date: {format_datetime(self.clock.now)}\r\n"
                f"Message-ID: <b{self.count}@strangers.example>\r\n"
                "MIME-Version: 1.0\r\n"
                "Content-Type: text/plain; charset=utf-8\r\n"
                "Content-Transfer-Encoding: 8bit\r\n\r\n")
        return head.encode("utf-8") + body.replace("\n", "\r\n").encode("utf-8")

    def cycle(self, raw: bytes) -> tuple[float, int]:
        """Deliver ``raw``, run one cycle; (its seconds, the largest mail it sent)."""
        self.count += 1
        self.clock.now += timedelta(hours=2)
        name = f"{int(self.clock.now.timestamp())}.{self.count}.b"
        path = self.path / "mail" / "in" / "new" / name
        path.write_bytes(raw)
        out = self.path / "mail" / "out" / "new"
        before = set(out.iterdir()) if out.is_dir() else set()
        start = time.perf_counter()
        self.judge.cycle()
        took = time.perf_counter() - start
        sent = [p for p in out.iterdir() if p not in before] if out.is_dir() else []
        return took, max((p.stat().st_size for p in sent), default=0)


def _words(n: int) -> str:
    # 37 bytes a word, as in the report: 25,000 words make 925 KB.
    return " ".join(f"=?utf-8?q?attack_on_the_capital_{i % 10}?=" for i in range(n))


def _marks(n: int) -> str:
    # a run of combining marks of two classes (230 above, 220 below) in turn:
    # canonical ordering has to move every one past its neighbours.
    return "a" + "\u0301\u0316" * (n // 2)


#: name -> (what it is, smaller size, maker of the raw mail or the line)
MAIL_CASES: dict[str, tuple[str, int, Callable[[Home, int], bytes]]] = {
    "subject-encoded-words": (
        "Subject of N RFC 2047 encoded words", 1_000,
        lambda h, n: h.raw("HELP\n", subject=_words(n))),
    "combining-marks": (
        "HELP line of N chars of mixed-class combining marks", 2_400,
        lambda h, n: h.raw("HELP " + _marks(n) + "\n")),
    "long-subject": (
        "plain Subject of N chars, echoed in the reply", 100_000,
        lambda h, n: h.raw("HELP\n", subject=("attack " * (n // 7)).strip())),
    "help-topic": (
        "HELP topic of N chars, echoed in the reply", 190_000,
        lambda h, n: h.raw("HELP " + "x" * n + "\n")),
    "too-large": (
        "a mail of N bytes, over max_bytes", 2_800_000,
        lambda h, n: h.raw("HELP\n" + ("y" * 76 + "\n") * (n // 77))),
    "wrong-signons": (
        "N SIGNON lines with wrong tokens", 15,
        lambda h, n: h.raw("".join(f"SIGNON g{i} France abcdefghjkmn2345\n" for i in range(n))
                           + "HELP\n")),
}

#: name -> (what it is, game, smaller size, maker of the line, ordinary line)
LINE_CASES: dict[str, tuple[str, str, int, Callable[[int], str], str]] = {
    "tk-spaces": ("Three Kingdoms order line of N spaces", "three_kingdoms", 2_000,
                  lambda n: "A8" + " " * n + "H", "A8 H"),
    "kw-discard": ("Kingdom Wars DISCARD line of N chars", "kingdom_wars", 2_000,
                   lambda n: "DISCARD " + "Attack S7 " * (n // 10), "DISCARD Attack S7"),
    "ct-deck": ("Conquest Tactics deck list of N chars (2 Spear; ...)", "conquest_tactics", 1_600,
                lambda n: "DECK mine: " + "2 Spear; " * (n // 9), "DECK mine: 2 Spear"),
}


_PRESS_LINE = "Привет, Восток: поддержи меня в следующем раунде торгов. Yes?"


def _press(n: int) -> str:
    """A press mail's text of about ``n`` characters, in lines of 60."""
    return "Press from North to East:\n\n" + "\n".join(
        [_PRESS_LINE] * max(n // (len(_PRESS_LINE) + 1), 1)) + "\n"


def _mail(body: str, attachments: tuple[Attachment, ...] = ()) -> OutgoingMail:
    return OutgoingMail(message_id="<bench@judge.example>", from_addr="judge@judge.example",
                        to_addr="east@players.example", subject="[g1] press from North",
                        body=body, auto_submitted="auto-generated", html=True,
                        attachments=attachments)


def _small_tables(n: int) -> str:
    return "\n\n".join(["a  b  c  d  e  f  g  h\ni  j  k  l  m  n  o  p"] * n)


#: name -> (what it is, smaller size, maker of the input, the step it goes
#: through). Each step that turns text into the judge's mail, on its own:
#: the ordinary input of the run is a press of 1,000 characters composed
#: whole (text and HTML parts).
COMPOSE_CASES: dict[str, tuple[str, int, Callable[[int], Any], Callable[[Any], Any]]] = {
    "text-part": ("text part of a press of N chars (quoted-printable)", 100_000, _press,
                  lambda body: mailout._text_part(body, "plain")),
    "html-wide-table": ("HTML part of N lines of 'a  ' * 2000 (a table typed by hand)", 200,
                        lambda n: "\n".join(["a  " * 2000] * n), mailhtml.render),
    "html-table-lines": ("HTML part of N lines of a table of 40 one-letter columns", 10_000,
                         lambda n: "\n".join(["a  " * 40] * n), mailhtml.render),
    "html-small-tables": ("HTML part of N two-line tables of one-letter cells", 100,
                          _small_tables, mailhtml.render),
    "html-misaligned": ("HTML part of N paragraphs of 500 gapped lines that are no table",
                        2, lambda n: "\n\n".join(["\n".join(
                            "a  b" if i % 2 else "abc  d" for i in range(500))] * n),
                        mailhtml.render),
    "html-long-line": ("HTML part of one line of N chars of words", 1_000_000,
                       lambda n: "word " * (n // 5), mailhtml.render),
    "compose-press": ("whole mail (text and HTML) of a press of N chars", 100_000,
                      lambda n: _mail(_press(n)), mailout.compose),
    "attachment": ("whole mail with a picture of N bytes attached", 2_000_000,
                   lambda n: _mail("Report\n", (Attachment("map.png", "image/png",
                                                             b"\x89PNG" + b"x" * n),)),
                   mailout.compose),
    "picture-fit": ("a name of N chars fitted into a picture's box", 10_000,
                    lambda n: "Kingdom " * (n // 8),
                    lambda text: picture_text.fit(text, 200.0, 13.0, True)),
    "picture-wrap": ("a text of N chars wrapped in a picture's box", 10_000,
                     lambda n: "Kingdom " * (n // 8),
                     lambda text: picture_text.wrap(text, 200.0, 13.0)),
}


def run_compose(name: str, repeat: int, give_up: float) -> dict[str, Any]:
    what, size, make, step = COMPOSE_CASES[name]

    def once(value: Any) -> float:
        picture_text.text_width.cache_clear()  # each measurement measures
        mailhtml._render.cache_clear()
        start = time.perf_counter()
        step(value)
        return time.perf_counter() - start

    ordinary = _mail(_press(1_000))
    row: dict[str, Any] = {"input": name, "what": what, "sizes": [size, size * 10],
                           "seconds": [], "reply_bytes": 0,
                           "ordinary": _median([once_compose(ordinary)
                                                for _ in range(max(repeat, 3))])}
    for n in (size, size * 10):
        value = make(n)
        times = []
        for _ in range(repeat):
            times.append(once(value))
            if times[-1] > give_up:
                break
        row["seconds"].append(_median(times))
        if isinstance(value, str) and step is mailhtml.render:
            row["reply_bytes"] = max(row["reply_bytes"], len(mailhtml.render(value)))
        if row["seconds"][-1] > give_up:
            break
    return row


def once_compose(mail: OutgoingMail) -> float:
    start = time.perf_counter()
    mailout.compose(mail)
    return time.perf_counter() - start


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def run_mail(name: str, repeat: int, give_up: float, base: Path) -> dict[str, Any]:
    what, size, make = MAIL_CASES[name]
    folder = Path(tempfile.mkdtemp(dir=base))
    home = Home.make(folder)
    try:
        home.cycle(home.raw("HELP\n"))  # warm-up: templates, first writes
        ordinary = [home.cycle(home.raw("HELP\n"))[0] for _ in range(max(repeat, 3))]
        row: dict[str, Any] = {"input": name, "what": what, "sizes": [size, size * 10],
                               "seconds": [], "reply_bytes": 0,
                               "ordinary": _median(ordinary)}
        for n in (size, size * 10):
            times = []
            for _ in range(repeat):
                raw = make(home, n)
                took, sent = home.cycle(raw)
                times.append(took)
                row["reply_bytes"] = max(row["reply_bytes"], sent)
                if took > give_up:
                    break
            row["seconds"].append(_median(times))
            if row["seconds"][-1] > give_up:
                break
        if name == "too-large":
            raw = make(home, size * 10)
            tracemalloc.start()
            home.cycle(raw)
            row["peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
        return row
    finally:
        home.judge.close()
        shutil.rmtree(folder, ignore_errors=True)


def run_line(name: str, repeat: int, give_up: float) -> dict[str, Any]:
    what, game_id, size, make, plain = LINE_CASES[name]
    game = registry.get(game_id)
    options: dict[str, Any] = dict(game.playthrough_options)
    if game_id == "conquest_tactics":
        options["decks"] = "submitted"  # deck lists are read before the match
    state = game.setup(options, Rng(b"\x07" * 32))
    role = game.roles(state)[0]

    def once(line: str) -> float:
        start = time.perf_counter()
        # refusing the line is what a hostile one should get
        with contextlib.suppress(Exception):
            game.parse(state, role, line)
        return time.perf_counter() - start

    row: dict[str, Any] = {"input": name, "what": what, "sizes": [size, size * 10],
                           "seconds": [], "ordinary": _median([once(plain)
                                                               for _ in range(repeat * 5)])}
    for n in (size, size * 10):
        line = make(n)
        times = []
        for _ in range(repeat):
            times.append(once(line))
            if times[-1] > give_up:
                break
        row["seconds"].append(_median(times))
        if row["seconds"][-1] > give_up:
            break
    return row


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| input | N | time at N | time at 10N | 10N / N | 10N / ordinary | largest reply |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        t = r["seconds"]
        small = f"{t[0] * 1000:.1f} ms"
        if len(t) > 1:
            big, ratio = f"{t[1] * 1000:.1f} ms", f"{t[1] / t[0]:.1f}x"
            over = f"{t[1] / r['ordinary']:.1f}x"
        else:
            big, ratio, over = "not run (N took too long)", "-", "-"
        reply = f"{r['reply_bytes'] / 1000:.1f} KB" if r.get("reply_bytes") else "-"
        if "peak_mb" in r:
            reply += f"; peak {r['peak_mb']:.0f} MB"
        out.append(f"| {r['what']} | {r['sizes'][0]:,} | {small} | {big} | {ratio} | {over} "
                   f"| {reply} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--give-up", type=float, default=20.0)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = args.only or [*MAIL_CASES, *LINE_CASES, *COMPOSE_CASES]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            if name in MAIL_CASES:
                rows.append(run_mail(name, args.repeat, args.give_up, Path(tmp)))
            elif name in COMPOSE_CASES:
                rows.append(run_compose(name, args.repeat, args.give_up))
            else:
                rows.append(run_line(name, args.repeat, args.give_up))
            print(f"{name}: {[round(s, 4) for s in rows[-1]['seconds']]}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
