"""The outbox's mail as a transaction queues it, and its composition after
the commit.

A transaction that queues a mail (a reply, a report, a notice) writes what
the mail is made of as the outbox row's ``spec``: the fields of its
:class:`~judge.mail.mailout.OutgoingMail` (Message-ID and Date fixed then, the
text rendered), its attachments, and for each picture the view it draws
and how (a :class:`Drawn`). The MIME message (``raw``), the pictures in it
and the copy kept once the mail has left (``kept``, tokens masked) are made
after the commit, from the spec alone (:func:`compose_queued`): by the
relay, before it claims what is due. So a mail's write transaction holds
the lock for the game's change and the queue rows, not for drawing maps
and writing two MIME compositions (DESIGN.md, "How a mail is handled").

Composition is deterministic (:func:`judge.mail.mailout.compose` and
:func:`judge.game.draw.picture` give the same bytes for the same inputs): a
row composed after a crash, or by another process, is the very mail that
was queued, under its Message-ID. A row is composed once (``raw`` is
written only where it is still empty, and the spec, which holds the text
with any token in clear, is dropped with that write).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import email
import email.policy
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from judge import mailconfig, reports
from judge.config import Config
from judge.game import draw as by_id
from judge.game import scheduler
from judge.mail import redact
from judge.mail.mailout import Attachment, OutgoingMail, check, check_type, compose, make_message_id
from judge.store import Store, is_fault

log = logging.getLogger("judge")

#: The version of the spec's layout (written in each spec): 2 for a turn
#: report's spec (its text is rendered from its data, :func:`spec_of`), 1
#: for the others. A judge that knows only 1 refuses a report's spec (it
#: would send its empty text), and this one reads both.
SPEC_VERSION = 1
REPORT_SPEC_VERSION = 2


@dataclass(frozen=True)
class Drawn:
    """A picture attached to a mail, drawn when the mail is composed: the
    picture of ``view`` (a view of game ``game``, as the JSON bytes of the
    report's view attachment hold it) in format ``fmt`` (see
    :func:`judge.game.draw.picture`)."""

    filename: str
    content_type: str
    game: str
    fmt: str
    view: bytes

    def draw(self) -> Attachment:
        data = by_id.picture(self.game, json.loads(self.view), fmt=self.fmt)
        return Attachment(self.filename, self.content_type, data)


#: An attachment as a transaction queues it: made already, or to be drawn.
Part = Attachment | Drawn


def kept_copy(mail: OutgoingMail) -> OutgoingMail:
    """What the outbox keeps of ``mail`` once it has left (for
    ``judge.keep_sent_days``): its headers and text with every token masked,
    its attachments named, not kept (a report's view can be rebuilt from the
    log)."""
    body = redact.mask_secrets_text(mail.body)
    if mail.attachments:
        body = body.rstrip("\n") + "\n\n" + "\n".join(
            f"[attachment {a.filename} ({len(a.data)} bytes): not kept]"
            for a in mail.attachments) + "\n"
    return dataclasses.replace(mail, body=body, attachments=())


# --------------------------------------------------------------------------- the spec

_FIELDS = tuple(f.name for f in dataclasses.fields(OutgoingMail) if f.name != "attachments")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def spec_of(mail: OutgoingMail, parts: Sequence[Part],
            report: dict[str, Any] | None = None) -> str:
    """The spec of ``mail`` (its attachments ``parts``, in order; those of
    ``mail`` itself are not read), as the outbox stores it: JSON text.
    A drawn picture's view that is also one of the attachments (the
    report's JSON view) is stored once. With ``report`` (a turn report's
    data), the mail's text is rendered from it and from the view in the
    first of ``parts`` (:func:`judge.reports.turn_report`) when the mail is
    composed."""
    for part in parts:
        check_type(part.content_type)
    if report is not None and (mail.body or not parts or not isinstance(parts[0], Attachment)):
        raise ValueError("a report's mail has no text of its own, and its view first")
    fields: dict[str, Any] = {name: getattr(mail, name) for name in _FIELDS}
    stored: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, Attachment):
            stored.append({"filename": part.filename, "content_type": part.content_type,
                           "data": _b64(part.data)})
            continue
        item: dict[str, Any] = {"filename": part.filename, "content_type": part.content_type,
                                "draw": part.game, "fmt": part.fmt}
        same = next((i for i, p in enumerate(parts) if isinstance(p, Attachment)
                     and p.data == part.view), None)
        if same is not None:
            item["view_of"] = same
        else:
            item["view"] = _b64(part.view)
        stored.append(item)
    spec: dict[str, Any] = {"v": SPEC_VERSION, "mail": fields, "parts": stored}
    if report is not None:
        spec["v"] = REPORT_SPEC_VERSION
        spec["report"] = report
    return json.dumps(spec, separators=(",", ":"))


def _decode(spec: str) -> tuple[OutgoingMail, list[Part]]:
    data = json.loads(spec)
    if data.get("v") not in (SPEC_VERSION, REPORT_SPEC_VERSION):
        raise ValueError(f"outbox spec version {data.get('v')!r} is not {SPEC_VERSION} "
                         f"or {REPORT_SPEC_VERSION}")
    fields = dict(data["mail"])
    fields["references"] = tuple(fields["references"])
    fields["extra_headers"] = tuple(tuple(pair) for pair in fields["extra_headers"])
    parts: list[Part] = []
    made: list[bytes] = []
    for item in data["parts"]:
        if "draw" not in item:
            raw = base64.b64decode(item["data"])
            made.append(raw)
            parts.append(Attachment(item["filename"], item["content_type"], raw))
            continue
        view = (made[item["view_of"]] if "view_of" in item else base64.b64decode(item["view"]))
        parts.append(Drawn(item["filename"], item["content_type"], item["draw"], item["fmt"],
                           view))
    if "report" in data:  # a turn report: its text from its data and its view
        fields["body"] = reports.turn_report(data["report"], json.loads(made[0]))
    return OutgoingMail(**fields), parts


def body_of(spec: str) -> str:
    """The text part of the mail ``spec`` describes (composed or not)."""
    data = json.loads(spec)
    if "report" in data:
        return _decode(spec)[0].body
    return str(data["mail"]["body"])


def sent_texts(store: Store, address: str, message_ids: Sequence[str]) -> list[str]:
    """The text parts of the judge's own mails among ``message_ids`` that
    went to ``address`` (read from the outbox, which keeps a sent mail as a
    redacted copy for ``judge.keep_sent_days``, and a mail not composed yet
    as its spec): what a reply from ``address`` may quote (:mod:`judge.mail.quoted`)."""
    texts = []
    for message_id in message_ids:
        row = store.mail_by_message_id(message_id)
        if row is None or row["to_addr"] != address:
            continue
        if row["raw"] is None and row["spec"] is not None:  # not composed yet
            texts.append(body_of(row["spec"]))
            continue
        with contextlib.suppress(Exception):  # a copy too broken to read: not known
            msg = email.message_from_bytes(bytes(row["raw"]), policy=email.policy.default)
            body = msg.get_body(("plain",)) if isinstance(msg, EmailMessage) else None
            content = body.get_content() if body is not None else None
            if isinstance(content, str):
                texts.append(content)
    return texts


def mail_of(spec: str) -> OutgoingMail:
    """The mail ``spec`` describes, its pictures drawn."""
    mail, parts = _decode(spec)
    made = tuple(p.draw() if isinstance(p, Drawn) else p for p in parts)
    return dataclasses.replace(mail, attachments=made)


def compose_spec(spec: str) -> tuple[bytes, bytes]:
    """The MIME message of the mail ``spec`` describes, and the copy the
    outbox keeps of it once it has left (:func:`kept_copy`)."""
    mail = mail_of(spec)
    return compose(mail), compose(kept_copy(mail))


# --------------------------------------------------------------------------- queueing


class Outbox:
    """The mail one unit of work queues (a mail's handling, a run of the
    clock, a command of the CLI), carried by its session
    (:attr:`judge.session.Workspace.outbox`): each mail is written as an
    outbox row, in the caller's transaction, the moment it is queued (so
    the rows keep the order they were decided in, and a rollback takes them
    back with everything else). :attr:`queued` lists their Message-IDs, so
    that the caller knows there is new mail for the relay."""

    def __init__(self, store: Store, config: Config, now: datetime) -> None:
        self.store = store
        self.config = config
        self.now = now
        #: The Message-IDs of the mails queued here, in order.
        self.queued: list[str] = []

    def queue(
        self,
        to_addr: str,
        subject: str,
        body: str,
        kind: str,
        game: str = "",
        in_reply_to: str = "",
        references: Sequence[str] = (),
        attachments: Sequence[Part] = (),
        decision: str = "",
        report: dict[str, Any] | None = None,
    ) -> str:
        """Queue one mail; returns its Message-ID, or ``""`` when it is a
        reply over ``limits.replies_per_hour`` for that address (not queued).
        ``decision`` names the decision a request asks for, so that a reply
        to it is bound to that decision. ``report``: the data of a turn
        report (:func:`judge.notify.report_of`; its view is the first of
        ``attachments``), whose text is the mail's body (``body`` is empty).

        What is queued is the mail's spec (:func:`spec_of`): its fields and
        attachments, pictures to be drawn (:class:`Drawn`) as the views they
        draw, a report's data. It is composed after the commit
        (:func:`compose_queued`); what could never be composed raises
        ValueError here."""
        now = self.now
        if (
            in_reply_to
            and self.store.replies_since(to_addr, scheduler.iso(now - timedelta(hours=1)),
                                         scheduler.iso(now))
            >= self.config.replies_per_hour
        ):
            log.warning("not answering %s: %d replies in the last hour (limits.replies_per_hour)",
                        to_addr, self.config.replies_per_hour)  # fmt: skip
            return ""
        message_id = make_message_id(self.config.domain)
        subject = redact.mask_secrets(subject)
        mail = OutgoingMail(
            message_id=message_id,
            from_addr=self.config.address,
            to_addr=to_addr,
            subject=subject,
            body=body,
            auto_submitted="auto-replied" if in_reply_to else "auto-generated",
            in_reply_to=in_reply_to,
            references=tuple(references),
            date=format_datetime(now),
            html=True,
        )
        check(mail)
        self.store.queue_mail(
            {
                "message_id": message_id,
                "to_addr": to_addr,
                "envelope_from": mailconfig.envelope_sender(self.config, message_id),
                "subject": subject,
                "in_reply_to": in_reply_to,
                "kind": kind,
                "game": game,
                "next_attempt": scheduler.iso(now),
                "created": scheduler.iso(now),
                "decision": decision,
                "spec": spec_of(mail, attachments, report),
            }
        )
        self.queued.append(message_id)
        return message_id

    def size(self, subject: str, body: str) -> int:
        """Bytes of the mail :meth:`queue` would send with ``subject`` and
        ``body`` and no attachment (its text and HTML parts): composed here,
        in the caller's transaction and budget, so that a mail over
        ``limits.max_out_bytes`` is refused before anything is queued.
        Linear in ``body`` (:mod:`judge.mail.mailhtml`)."""
        mail = OutgoingMail(
            message_id=make_message_id(self.config.domain, "size"),
            from_addr=self.config.address, to_addr=self.config.address,
            subject=redact.mask_secrets(subject), body=body, auto_submitted="auto-generated",
            date=format_datetime(self.now), html=True)
        return len(compose(mail)) + 200  # the transport's envelope lines, a longer To

    def may_answer(self, address: str, *, once_an_hour: bool = True) -> bool:
        """Whether a mail from ``address`` may be answered: always for a
        registered address (within ``replies_per_hour``); for an address no
        game knows, only while fewer than ``limits.strangers_per_hour``
        different strangers were answered in the last hour (a flood of
        forged senders earns no backscatter), and, with ``once_an_hour``,
        once an hour. Without it (the answer a stranger asked for by name:
        the code OBSERVE mails) the stranger still counts among the
        strangers of the hour. A yes counts as the stranger's answer of the
        hour."""
        if not address:
            return False
        if self.store.is_registered(address):
            return True
        now = self.now
        since, until = scheduler.iso(now - timedelta(hours=1)), scheduler.iso(now)
        counted = self.store.used("stranger", address, since, until) > 0
        if not counted and (self.store.users("stranger", since, until)
                            >= self.config.strangers_per_hour):
            log.warning("not answering %s: %d strangers answered in the last hour "
                        "(limits.strangers_per_hour)", address, self.config.strangers_per_hour)
            return False
        if once_an_hour and not self.store.allow(address, "stranger", until, since):
            log.warning("not answering %s: an address no game knows is answered once an "
                        "hour, and it was answered in the last hour", address)
            return False
        self.store.use("stranger", address, until)
        return True


# --------------------------------------------------------------------------- composing


def compose_queued(store: Store, ids: Sequence[int] | None = None, *,
                   fault: Callable[[str], None] | None = None) -> int:
    """Compose every queued outbox row not composed yet (only those of
    ``ids``, when given), one at a time: each is made outside any
    transaction and written by one short statement. Returns how many were
    written. A row that cannot be composed (a fault of the judge, which the
    log shows) is marked failed, so that the relay does not try it at every
    pass; a fault of the database or its disk (:func:`judge.store.is_fault`)
    propagates, and the rows left are composed next time."""
    done = 0
    for mail_id in store.uncomposed(ids):
        spec = store.mail_spec(mail_id)
        if spec is None:  # composed meanwhile, by another process
            continue
        try:
            raw, kept = compose_spec(spec)
        except Exception as exc:
            if is_fault(exc):
                raise
            log.exception("outbox: mail %s could not be composed", mail_id)
            store.mark_uncomposable(mail_id, f"could not be composed: {type(exc).__name__}: "
                                             f"{exc}"[:500])
            continue
        if store.set_composed(mail_id, raw, kept):
            done += 1
        if fault is not None:
            fault("composed")
    return done
