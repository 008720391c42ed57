"""What a client builder works from: the judge's mail the player answers
(its text as sent, ids, date, attachments) and the player's seat; and the
ways the clients quote it (prefixed, wrapped, under a header block).

The quoted text is always the judge's own mail from the game the test
plays, so that the test exercises quote recognition on the text the judge
really sent, never on a copy that could drift from it."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from tests.mail.clients.mime import html_escape, word


@dataclass(frozen=True)
class Judged:
    """One mail the judge sent to the player."""

    text: str
    """Its text/plain part, as decoded."""
    message_id: str
    subject: str
    date: datetime
    sender: str
    """The judge's address (its From carries no display name)."""
    references: tuple[str, ...] = ()
    attachments: tuple[tuple[str, str, bytes], ...] = ()
    """(filename, content type, bytes) of each attachment it carried."""

    @property
    def lines(self) -> list[str]:
        return self.text.rstrip("\n").split("\n")


@dataclass(frozen=True)
class Player:
    game: str
    power: str
    token: str
    address: str
    name: str

    @property
    def signon(self) -> str:
        return f"SIGNON {self.game} {self.power} {self.token}"

    @property
    def mailbox(self) -> str:
        """As a quoted header block shows it."""
        return f"{self.name} <{self.address}>"

    @property
    def from_header(self) -> str:
        """As the From header carries it (RFC 2047 for a name that is not ASCII)."""
        name = self.name if self.name.isascii() else word(self.name, "utf-8", "Q")
        return f"{name} <{self.address}>"


@dataclass(frozen=True)
class Reply:
    """The player's answer to ``judged``, sent at ``date`` with ``message_id``."""

    judged: Judged
    player: Player
    date: datetime
    message_id: str

    def headers(self, subject: str | None = None, sender: str | None = None,
                date: str | None = None, mailer: list[tuple[str, str]] | None = None,
                thread: bool = True) -> list[tuple[str, str]]:
        """The usual header lines of a reply (From, To, Subject, Date,
        Message-ID, In-Reply-To, References), then the client's own."""
        out = [
            ("From", sender or self.player.from_header),
            ("To", self.judged.sender),
            ("Subject", subject if subject is not None else f"Re: {self.judged.subject}"),
            ("Date", date or self.date.strftime("%a, %d %b %Y %H:%M:%S +0000")),
            ("Message-ID", self.message_id),
        ]
        if thread:
            refs = " ".join((*self.judged.references, self.judged.message_id))
            out += [("In-Reply-To", self.judged.message_id), ("References", refs)]
        return out + (mailer or [])

    @property
    def when(self) -> datetime:
        """When the judge's mail was sent (what attributions name)."""
        return self.judged.date


# --------------------------------------------------------------------------- quoting


def prefixed(text: str, mark: str = "> ", empty: str = ">") -> str:
    """Every line behind ``mark`` (a blank line gets ``empty``), as Gmail,
    Apple Mail and Thunderbird quote a plain-text mail."""
    return "\n".join(mark + line if line.strip() else empty
                     for line in text.rstrip("\n").split("\n"))


def wrapped_prefix(text: str, width: int = 76, mark: str = "> ") -> str:
    """Gmail for Android: ``> `` before each line of the original, and a line
    that gets longer than ``width`` broken at its last space, the rest going
    on a line of its own *without* the mark."""
    out: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        if not line.strip():
            out.append(">")
            continue
        full = mark + line
        if len(full) <= width:
            out.append(full)
            continue
        cut = full.rfind(" ", 0, width + 1)
        out += [full[:cut], full[cut + 1:]]
    return "\n".join(out)


def rewrapped(text: str, width: int = 76, mark: str = "> ") -> str:
    """A client that re-wraps the quote (old Outlook Express style, some
    webmails): long lines broken at ``width`` and every piece marked."""
    out: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        if not line.strip():
            out.append(mark.rstrip())
            continue
        indent = line[: len(line) - len(line.lstrip())]
        pieces = textwrap.wrap(line.strip(), width - len(mark) - len(indent)) or [""]
        out += [mark + indent + p for p in pieces]
    return "\n".join(out)


def html_lines(text: str, sep: str = "<br>\n") -> str:
    """The judge's plain text as a client puts it into the HTML of a reply
    (one ``<br>`` per line, runs of spaces kept as ``&nbsp;``)."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        body = html_escape(line)
        lead = len(body) - len(body.lstrip(" "))
        out.append("&nbsp;" * lead + body.lstrip(" ").replace("  ", " &nbsp;"))
    return sep.join(out)


def html_divs(text: str) -> str:
    """The judge's text as one ``<div>`` a line (``<div><br></div>`` for a
    blank one), as Gmail, Yahoo and Windows Mail lay out a quoted mail."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        body = html_escape(line)
        lead = len(body) - len(body.lstrip(" "))
        body = "&nbsp;" * lead + body.lstrip(" ").replace("  ", " &nbsp;")
        out.append(f"<div>{body or '<br>'}</div>")
    return "\n".join(out)


# --------------------------------------------------------------------------- dates

EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December")


def twelve_hour(when: datetime) -> str:
    """``1:05 PM``."""
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"


def local(when: datetime, hours: int) -> datetime:
    """The time as a client in a zone ``hours`` off UTC shows it."""
    return when + timedelta(hours=hours)


Builder = Callable[[Reply], bytes]
