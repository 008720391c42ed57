"""Putting a mail in a local Maildir inbox, and finding mail put in the wrong
place (the folder itself rather than its ``new/``), where nothing reads it.

A Maildir is read from ``new/`` and ``cur/``; a delivery is written under
``tmp/`` and renamed into ``new/`` (one rename: a reader never sees half a
mail). :func:`deliver` does that through :class:`mailbox.Maildir`.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

#: Files a mail server or client keeps at the top of a Maildir (Dovecot,
#: Courier, the Maildir++ marker): never a mail dropped there.
_SERVER_FILES = ("dovecot", "maildirfolder", "subscriptions", "courier")


def stray_files(folder: Path) -> list[Path]:
    """Files lying in the Maildir ``folder`` itself (not in ``new/``,
    ``cur/`` or ``tmp/``): mail dropped in the wrong place, which no reader
    of the Maildir ever sees. Hidden files and a server's own are left out."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".")
                  and not p.name.lower().startswith(_SERVER_FILES))


def stray_notice(folder: Path, strays: list[Path]) -> str:
    """One sentence naming the stray files and where they belong."""
    names = ", ".join(p.name for p in strays[:3]) + (", ..." if len(strays) > 3 else "")
    return (f"{len(strays)} file(s) lie in {folder} itself ({names}) and are never read: "
            f"a mail goes into {folder / 'new'} (`judge mail FILE` puts it there)")


class NotAMail(ValueError):
    """The text given to :func:`as_mail` cannot be delivered as a mail."""


def as_mail(raw: bytes, sender: str | None, to: str, now: datetime | None = None) -> bytes:
    """The bytes to deliver: ``raw`` as it is when it is a mail (it has a
    From header), else, with ``sender``, a mail from ``sender`` to ``to``
    whose body is ``raw`` (its first line, a command, is the Subject).
    Raises :class:`NotAMail` for text without a From header and no
    ``sender``, or a mail without a body."""
    if sender is None:
        head = email.message_from_bytes(raw, policy=email.policy.default)
        if not head["From"]:
            raise NotAMail("it has no From header: give --from ADDRESS to send the text "
                           "as the body of a mail from ADDRESS")
        return raw
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        raise NotAMail("it is empty: write the commands, one a line")
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = text.strip().splitlines()[0][:60]
    msg["Date"] = format_datetime(now or datetime.now(UTC))
    msg["Message-ID"] = make_msgid("mail", sender.rpartition("@")[2] or "localhost")
    msg.set_content(text)
    return msg.as_bytes(policy=email.policy.SMTP)


def deliver(folder: Path, raw: bytes) -> Path:
    """Deliver ``raw`` into the Maildir ``folder`` (created if missing):
    written under ``tmp/``, then renamed into ``new/``. Returns its path."""
    box = mailbox.Maildir(str(folder), factory=None, create=True)
    key = box.add(raw)
    return folder / "new" / key


class StrayWatch:
    """Says once (per set of files) that mail lies in the Maildir folder
    itself: ``check`` returns the notice when the stray files changed since
    the last call and some remain, else ``None``."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.seen: frozenset[str] = frozenset()

    def check(self) -> str | None:
        if self.folder is None:
            return None
        strays = stray_files(self.folder)
        names = frozenset(p.name for p in strays)
        changed, self.seen = names != self.seen, names
        return stray_notice(self.folder, strays) if strays and changed else None


def inbox_folder(mail_in: dict[str, object], home: Path) -> Path | None:
    """The local Maildir the judge reads (``None`` for IMAP)."""
    if mail_in.get("transport") != "maildir":
        return None
    path = Path(str(mail_in.get("path", "mail/in")))
    return path if path.is_absolute() else home / path
