"""Bounces: mail the judge sent that could not be delivered.

Two ways a bounce reaches the judge:

* the relay's server refuses a recipient for good (a 5xx answer,
  :class:`~judge.mail.mailout.PermanentFailure`): :func:`bounced` right away;
* a server that accepted the mail fails later and sends a delivery status
  report (RFC 3464) to the mail's return path. With VERP on, that return path
  is ``judge+bounce-<id>@domain`` and names the outgoing mail
  (:func:`~judge.mail.mailout.verp_address`); failing that, the report's returned
  headers carry the Message-ID. :func:`read_report` finds the outbox row
  either way and calls :func:`bounced`.

A report that names no mail the judge sent changes nothing (anyone can write
a report; only the recipient of a mail knows its id), and neither does a
report that only says "delayed".

What a bounce does: the outbox row is marked (``failed`` at SMTP time,
``bounced`` after a report), every active or joined seat of that address in
a running game becomes ``bouncing`` (it gets no reminders or press; the game
does not wait less for it), and the GM of each such game is told once, when
the seat changes to bouncing, so that they can REPLACE the address. Runs
inside the caller's transaction.
"""

from __future__ import annotations

import logging
from email.parser import BytesHeaderParser
from typing import TYPE_CHECKING, Any

from judge import reports
from judge.mail.mailin import delivery_report
from judge.mail.mailout import verp_token
from judge.outbox import Outbox

if TYPE_CHECKING:
    from judge.hub import Hub

log = logging.getLogger("judge.bounces")

_VERP_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To")
"""Where a delivered report shows the address it was sent to (local delivery
agents write the first ones; bouncing MTAs put the return path in To)."""


def bounced(judge: Hub, mail: dict[str, Any], reason: str, *, reported: bool) -> list[str]:
    """Record that outbox row ``mail`` bounced for ``reason``; ``reported``:
    it came back as a delivery report (else the relay's server refused it).
    Returns one line per seat marked bouncing."""
    if reported:
        judge.store.mark_bounced(mail["id"], reason[:500])
    address = str(mail["to_addr"]).lower()
    changed = judge.store.bounce_seats(address)
    lines = []
    for seat in changed:
        who = seat.role or seat.wanted or "a player"
        lines.append(f"{seat.game}: {who} ({address}) is bouncing")
        row = judge.store.game(seat.game)
        if row is None or not row["gm_address"] or row["gm_address"] == address:
            continue
        Outbox(judge.store, judge.config, judge.now()).queue(
            row["gm_address"],
            f"[{seat.game}] mail to {who} bounced",
            reports.render(
                "common/notice.txt.j2",
                text=(
                    f"The judge's mail to {who} in {seat.game} ({address}) could not be "
                    f"delivered:\n\n    {reason}\n\n"
                    f"The seat is marked bouncing: it gets no reminders or press and may not "
                    f"see its reports. Ask the player for a working address and give the seat "
                    f"to it with REPLACE {seat.role or who} <address>."
                ),
            ),
            "notice",
            game=seat.game,
        )
    for line in lines:
        log.warning("bounce: %s: %s", line, reason)
    return lines


def _outbox_row(judge: Hub, raw: bytes, original_id: str) -> dict[str, Any] | None:
    """The mail a report returns: by the VERP address it was delivered to,
    else by the returned Message-ID."""
    try:
        headers = BytesHeaderParser().parsebytes(raw)
        values = [str(v) for name in _VERP_HEADERS for v in headers.get_all(name) or []]
    except Exception:  # unreadable headers: fall back to the Message-ID
        values = []
    delimiter = str(judge.config.mail_out.get("verp_delimiter", "+"))
    for value in values:
        for part in value.replace(",", " ").split():
            token = verp_token(part.strip("<>"), judge.config.address, delimiter)
            if token is None:
                continue
            row = judge.store.mail_by_message_id(f"<{token}@{judge.config.domain}>")
            if row is None:  # the domain may have changed since it was sent
                row = judge.store.mail_by_token(token)
            if row is not None:
                return row
    if original_id:
        return judge.store.mail_by_message_id(original_id)
    return None


def read_report(judge: Hub, raw: bytes) -> str:
    """Act on a delivery report that arrived in the inbox; returns what it
    did, for the inbox row's reason."""
    report = delivery_report(raw)
    if report is None:
        return ""
    row = _outbox_row(judge, raw, report.original_message_id)
    if row is None:
        return "names no mail of ours"
    failed = [s for s in report.statuses if s.action == "failed"]
    if not failed:
        actions = ", ".join(sorted({s.action for s in report.statuses})) or "no status"
        return f"for {row['message_id']}: {actions}; nothing done"
    first = failed[0]
    reason = " ".join(x for x in (first.status, first.diagnostic or first.recipient) if x)
    lines = bounced(judge, row, reason or "delivery failed", reported=True)
    return f"bounce of {row['message_id']} to {row['to_addr']}" + (
        f": {'; '.join(lines)}" if lines else ""
    )
