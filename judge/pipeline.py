"""One mail, one straight path: decode -> drop or refuse -> authenticate ->
load each game once -> apply the commands in memory -> carry the games on ->
write once and queue every reply and report.

The caller (:meth:`judge.service.Judge.handle`) holds the one transaction;
the transport moves the message to Processed or Failed only after it
commits. A crash at any point loses no order and applies none twice: before
the commit nothing happened, after it the inbox row makes a re-delivered
copy a duplicate.

Privacy: replies go only to registered addresses (a seat's or the GM's),
never to the From of the incoming mail and never with Cc; the one exception
is a mail from an address no game knows (HELP, JOIN, CREATE, LIST), answered
at most once an hour per address and carrying no game information.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from judge import grammar, notify, reports
from judge.commands import HANDLERS, Ctx, ErrorRow, MailSession, gm, player
from judge.commands.base import GM
from judge.game import adjudicator as adj
from judge.game import scheduler
from judge.game.engine import DecisionKind, RuleError
from judge.mail import bounds, mailin, redact
from judge.mail.mailin import IncomingMail
from judge.session import CommandError, Workspace

if TYPE_CHECKING:
    from judge.hub import Hub
    from judge.store import Store

log = logging.getLogger("judge")

#: MIME types of signature parts: a signed mail is not a mail with attachments.
SIGNATURE_TYPES = (
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
)


def raw_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def real_attachments(mail: IncomingMail) -> list[str]:
    """The mail's attachments that its sender attached knowingly: not a
    signature part, nor a part :func:`judge.mail.mailin.incidental` left aside."""
    aside = {text for text, _why in mail.aside}
    return [a for a in mail.attachments
            if a not in aside and not any(f"({t}," in a for t in SIGNATURE_TYPES)]


@dataclass
class Prepared:
    """What is worked out of a mail before its transaction: its commands, and
    every SIGNON's token checked against the hash stored when it was read
    (the slow part: scrypt), so no write lock is held meanwhile."""

    parsed: grammar.Parsed
    commands: list[grammar.Command]
    checked: dict[tuple[str, str], tuple[str, bool]] = field(default_factory=dict)
    """(game, role) -> (the stored hash the token was checked against, match)."""
    locked: set[tuple[str, str]] = field(default_factory=set)
    """(game, role) this sender sent too many wrong tokens for this hour:
    not checked (``limits.token_failures_per_hour``)."""


def failure_key(address: str, name: str, role: str) -> str:
    """Who wrong tokens are counted against: the sending address and the seat."""
    return f"{address} {name.lower()}/{role.lower()}"


def prepare(judge: Hub, mail: IncomingMail) -> Prepared:
    """Parse the mail and check its tokens; reads only, outside any transaction.

    A token is checked (a scrypt: the costly part) only for a SIGNON sent
    from the seat's registered address: from any other address the mail is
    refused whatever the token, so a stranger's guesses cost nothing. From
    the registered address, at most ``limits.token_failures_per_hour`` wrong
    tokens an hour are checked per seat; and a mail with more than
    ``limits.max_signons`` SIGNON lines is refused whole, none checked."""
    parsed = grammar.parse_body(list(mail.lines))
    commands = grammar.parse_subject(mail.subject) + parsed.commands
    pre = Prepared(parsed, commands)
    cfg = judge.config
    signons = [c for c in commands if c.name == "SIGNON"]
    if len(commands) > cfg.max_commands or len(signons) > cfg.max_signons:
        return pre  # refused whole; nothing to check
    now = judge.now()
    since, until = scheduler.iso(now - timedelta(hours=1)), scheduler.iso(now)
    for command in signons:
        name, role = command.args["game"], command.args["role"]
        stored, registered = judge.store.token_owner(name, role)
        if registered != mail.from_addr:
            continue  # refused by authenticate whatever the token
        if judge.store.used("token-failure", failure_key(mail.from_addr, name, role),
                            since, until) >= cfg.token_failures_per_hour:
            pre.locked.add((name.lower(), role.lower()))
            continue
        pre.checked[(name.lower(), role.lower())] = (
            stored or "", judge.store.check_token(command.args["token"], stored))
    return pre


@dataclass(frozen=True)
class Handled:
    """What became of one mail: its inbox record (``status``, ``reason``,
    the games it touched) and the log line that says it."""

    status: str
    reason: str
    line: str
    games: str = ""
    #: The Message-IDs of the mails its handling queued (replies, reports).
    queued: tuple[str, ...] = ()

    def inbox_row(self, mail: IncomingMail, key: str, received: datetime,
                  raw: bytes = b"") -> dict[str, Any]:
        """The inbox table's record of ``mail`` (transport key ``key``), as
        it became this: its tokens masked, its subject cut short."""
        return {
            "message_id": mail.message_id,
            "body_hash": mail.body_hash,
            "raw_hash": raw_hash(raw) if raw else "",
            "from_addr": mail.from_addr,
            "subject": redact.mask_secrets(redact.fold(mail.subject))[:200],
            "received": scheduler.iso(received),
            "status": self.status,
            "reason": self.reason,
            "game": self.games,
            "transport_key": key,
        }


def handle(judge: Hub, mail: IncomingMail, raw: bytes = b"",
           pre: Prepared | None = None) -> Handled:
    """Handle one decoded mail (inside the caller's transaction); returns
    what became of it, for the caller to record in the inbox."""
    store = judge.store
    now = judge.now()
    ws = Workspace(judge, now)  # the session: its games, and the outbox it queues in
    if store.seen_message(mail.message_id):
        return Handled("duplicate", "Message-ID seen before",
                       "duplicate (Message-ID seen before)")
    if mail.drop:
        reason = mail.drop
        if mail.drop == "delivery report" and raw:
            from judge import bounces  # RFC 3464: a report about our own mail

            note = bounces.read_report(judge, raw)
            reason += f": {note}" if note else ""
        return Handled("dropped", reason[:500], f"dropped: {reason}")
    # A second delivery of the very same message (a relay or a mailbox that
    # handed it over twice): the same raw bytes. A body sent again in a new
    # mail is a new mail and is handled again (a PASS, a STATUS, a set-up
    # command sent once too early and then on time).
    if raw and store.seen_raw(raw_hash(raw)):
        return Handled("duplicate", "the same message was delivered before",
                       "duplicate (the same message was delivered before)")
    refusal = mail.refuse
    attached = real_attachments(mail)
    advice = ("Nothing in it was carried out. Send your commands as plain text in the body "
              "of a mail.")
    if refusal is None and attached and judge.config.attachments == "refuse":
        refusal = ("attachments are not accepted, and it has an attached file the judge "
                   "does not open: " + "; ".join(attached))
        advice = ("Nothing in it was carried out. Send the mail again without the "
                  "attachment, with your commands as plain text in its body (pictures, "
                  "signatures and a signature's logo may stay: they are left aside).")
    pre = pre if pre is not None else prepare(judge, mail)
    parsed, commands = pre.parsed, pre.commands
    if refusal is None and not commands and not parsed.errors:
        refusal = ("it holds no commands (only lines of the judge's own mails)"
                   if parsed.judge_text else "it holds no commands (its body is empty)")
        forwarded = [text for text, why in mail.aside if why == mailin.ATTACHED_MAIL]
        if forwarded:  # an attached mail is never opened: say so
            refusal += ("; the mail attached to it is not opened: " + "; ".join(forwarded))
            advice = ("Nothing in it was carried out. Write your commands in the body of "
                      "the mail itself, not in a mail attached to it.")
    if refusal is None and len(commands) > judge.config.max_commands:
        refusal = f"too many commands: {len(commands)} (at most {judge.config.max_commands})"
    signons = sum(c.name == "SIGNON" for c in commands)
    if refusal is None and signons > judge.config.max_signons:
        refusal = (f"it holds {signons} SIGNON lines, and one mail may hold "
                   f"{judge.config.max_signons} (limits.max_signons)")
    if refusal:
        if ws.outbox.may_answer(mail.from_addr):
            ws.outbox.queue(
                mail.from_addr,
                grammar.reply_subject(mail.subject, judge.config.max_echo_chars),
                reports.render(
                    "common/notice.txt.j2",
                    text="Your mail was not read: " + refusal + ".\n" + (
                        "Nothing in it was carried out. Send it again within the limit."
                        if "(limits." in refusal else advice),
                ),
                "notice",
                in_reply_to=mail.message_id,
            )
        return Handled("refused", refusal[:500], f"refused: {refusal}",
                       queued=tuple(ws.outbox.queued))

    failure = authenticate(judge, ws, mail, commands, pre.checked, pre.locked)
    if failure is not None:
        return Handled("auth-failure", failure, f"auth-failure: {failure}",
                       queued=tuple(ws.outbox.queued))

    exceeded = over_limits(judge, ws, mail, commands)
    if exceeded:
        if ws.outbox.may_answer(mail.from_addr):
            ws.outbox.queue(
                mail.from_addr, grammar.reply_subject(mail.subject, judge.config.max_echo_chars),
                reports.render("common/notice.txt.j2", text=(
                    f"Your mail was not carried out: {exceeded}.\n"
                    "Nothing in it was done. Send it again within the limit.")),
                "notice", in_reply_to=mail.message_id)
        return Handled("refused", exceeded[:500], f"refused: {exceeded}",
                       queued=tuple(ws.outbox.queued))

    session = MailSession(mail, now)
    session.echo = judge.config.max_echo_chars
    session.answers = _replied_decision(judge, mail)
    ctx = Ctx(judge, ws, session)
    for err in parsed.errors:
        session.errors.append(ErrorRow(err.line.number, err.line.text, err.message, err.hint))
    for ln in parsed.judge_text:
        session.ok(ln, "not read: a heading or line of the judge's own mails")
    runs = batches(commands)
    for i, batch in enumerate(runs):
        if isinstance(batch, list):  # a run of game lines: one decision's lines
            # The mail's last lines: those the game does not recognise at all
            # after the last line read are a sign-off (judge.signoff), once
            # the mail has given a command other than SIGNON.
            player.game_lines(ctx, [c.line for c in batch], block=False,
                              trailing=i == len(runs) - 1,
                              read_before=any(isinstance(b, list) or b.name != "SIGNON"
                                              for b in runs[:i]))
        else:
            run(ctx, batch)
    for name in sorted(session.touched):
        g = ws.find(name)
        if g is not None:
            session.sections.extend(ws.settle(g, mail.message_id))
    _list_footer(session, mail)
    if mail.aside:
        session.sections.append(
            "Left aside, not read (your mail's text was read):\n"
            + "\n".join(f"  {text}: {why}" for text, why in mail.aside))
    if attached:
        session.sections.append(
            "Not read (orders go in the body of the mail): " + "; ".join(attached)
        )
    if parsed.ended_at is not None:
        session.sections.append(f"(END at line {parsed.ended_at}: the rest was not read)")
    gm.send_notices(ctx)  # what the GM's commands told each player: one mail each
    _acknowledge(ctx)
    ws.flush()
    games = ",".join(sorted(session.touched))
    counts = f"{len(session.rows)} lines, {len(session.errors)} errors"
    return Handled("processed", counts, f"processed: {counts}" + (f" ({games})" if games else ""),
                   games, tuple(ws.outbox.queued))


FOOTER_LISTED = 5
"""At most this many signature and footer lines are listed one by one."""


def _list_footer(session: MailSession, mail: IncomingMail) -> None:
    """The signature and footer lines cut from the mail (``mail.footer``:
    below a ``-- `` separator or a client's line such as "Sent from my
    iPhone"), listed as not read after the mail's last line: the first
    :data:`FOOTER_LISTED`, then how many more. They were never read as
    commands and do not hold the seat."""
    first = len(mail.lines) + 1
    for k, text in enumerate(mail.footer[:FOOTER_LISTED]):
        session.ok(grammar.Line(first + k, text),
                   "not read: a signature or a mail client's footer")
    more = len(mail.footer) - FOOTER_LISTED
    if more > 0:
        session.ok(grammar.Line(first + FOOTER_LISTED, f"(and {more} more lines)"),
                   "not read: the rest of the signature or footer")


def over_limits(judge: Hub, ws: Workspace, mail: IncomingMail,
                commands: Sequence[grammar.Command]) -> str:
    """The limit this mail would break, in words ("" if none): CREATE and JOIN
    commands per mail, games created per address and day, press recipients per
    mail and press mails per seat and hour (``[limits]`` in judge.toml)."""
    cfg = judge.config
    store = judge.store
    now = judge.now()
    # OBSERVE, JOIN and CREATE from an address no game knows: at most
    # strangers_per_hour different addresses an hour (forged senders earn
    # neither games, seats, nor a report each turn).
    asks = sorted({c.name for c in commands if c.name in ("OBSERVE", "JOIN", "CREATE")})
    if asks and not store.is_registered(mail.from_addr):
        since, until = scheduler.iso(now - timedelta(hours=1)), scheduler.iso(now)
        if not store.used("stranger-request", mail.from_addr, since, until):
            if store.users("stranger-request", since, until) >= cfg.strangers_per_hour:
                return (f"{cfg.strangers_per_hour} new addresses have sent OBSERVE, JOIN or "
                        "CREATE in the last hour, and the judge takes that many an hour "
                        "(limits.strangers_per_hour); send it again later")
            store.use("stranger-request", mail.from_addr, scheduler.iso(now))
    count = {name: sum(c.name == name for c in commands) for name in ("CREATE", "JOIN")}
    if count["CREATE"] > cfg.creates_per_mail:
        return (f"it holds {count['CREATE']} CREATE commands, and one mail may hold "
                f"{cfg.creates_per_mail} (limits.creates_per_mail)")
    if count["JOIN"] > cfg.joins_per_mail:
        return (f"it holds {count['JOIN']} JOIN commands, and one mail may hold "
                f"{cfg.joins_per_mail} (limits.joins_per_mail)")
    if count["CREATE"]:
        made = store.used("create", mail.from_addr, scheduler.iso(now - timedelta(days=1)),
                          scheduler.iso(now))
        if made + count["CREATE"] > cfg.creates_per_day:
            return (f"{mail.from_addr} has created {made} game(s) in the last 24 hours, and "
                    f"may create {cfg.creates_per_day} a day (limits.creates_per_day)")
    recipients: dict[str, int] = {}
    game = ""
    for command in commands:
        if command.name == "SIGNON":
            game = f"{command.args['game']}/{command.args['role']}".lower()
            continue
        if command.name != "PRESS TO" or not game:
            continue
        names = grammar.split_roles(command.args.get("roles", ""))
        if [n.upper() for n in names] == ["ALL"]:
            g = ws.find(game.split("/")[0])
            n = max(len(g.active_seats()) - 1, 0) if g is not None else 0
        else:
            n = len(names)
        recipients[game] = recipients.get(game, 0) + n
    total = sum(recipients.values())
    if total > cfg.press_recipients_per_mail:
        return (f"its press goes to {total} recipients, and one mail may reach "
                f"{cfg.press_recipients_per_mail} (limits.press_recipients_per_mail)")
    for seat, n in recipients.items():
        sent = store.used("press", seat, scheduler.iso(now - timedelta(hours=1)),
                          scheduler.iso(now))
        if sent + n > cfg.press_per_hour:
            return (f"{seat.split('/')[1]} has sent {sent} press mail(s) in the last hour, and "
                    f"this one would make {sent + n}; a seat may send {cfg.press_per_hour} "
                    "an hour (limits.press_per_hour)")
    return ""


def batches(commands: Sequence[grammar.Command]) -> list[grammar.Command | list[grammar.Command]]:
    """The commands in order, each run of consecutive game lines as one list:
    the lines a player wrote together for one decision are read together (an
    answer of several lines, a turn's plays in a row)."""
    out: list[grammar.Command | list[grammar.Command]] = []
    for command in commands:
        if command.name == "GAME":
            if out and isinstance(out[-1], list):
                out[-1].append(command)
            else:
                out.append([command])
        else:
            out.append(command)
    return out


def run(ctx: Ctx, command: grammar.Command) -> None:
    """Run one command; a refused one changes nothing and is reported on its line."""
    try:
        HANDLERS[command.name](ctx, command)
    except CommandError as exc:
        ctx.mail.error(command.line, exc.message, exc.hint)
    except RuleError as exc:
        ctx.mail.error(command.line, f"{exc.grade.value}: {exc.message}", exc.hint)


def _replied_decision(judge: Hub, mail: IncomingMail) -> str:
    """The decision the request this mail replies to asked for ("" if none)."""
    if not mail.in_reply_to:
        return ""
    row = judge.store.mail_by_message_id(mail.in_reply_to)
    if row is None or row["to_addr"] != mail.from_addr:
        return ""
    return str(row.get("decision") or "")


def _acknowledge(ctx: Ctx) -> None:
    """The acknowledgement: now, or folded into the seat's next mail (SET ACK
    errors, when nothing was refused)."""
    session = ctx.mail
    mail = session.mail
    judge = ctx.judge
    session.rows.sort(key=lambda r: r.number)
    session.errors.sort(key=lambda e: e.number)
    to = session.reply_to
    if to is None and ctx.ws.outbox.may_answer(mail.from_addr):
        to = mail.from_addr
    elif to is not None and not ctx.ws.outbox.may_answer(to, once_an_hour=False):
        to = None  # a stranger's asked-for answer (OBSERVE's code): within strangers_per_hour
    if not to:
        return
    session.sections.extend(_where_you_stand(ctx))
    body = reports.render(
        "common/ack.txt.j2",
        intro="",
        subject=bounds.echo(redact.mask_secrets(mail.subject), judge.config.max_echo_chars),
        rows=session.rows,
        errors=session.errors,
        sections=session.sections,
    )
    first = session.first_signon
    if first is not None and first.seat is not None and not session.errors:
        g = ctx.ws.find(first.game)
        seat = g.seat(first.role) if g is not None else None
        if g is not None and seat is not None and seat.ack_mode == "errors" \
                and seat.address == to:
            notify.fold_ack(g, seat, body)
            return
    refs = (*mail.references, mail.message_id)
    ctx.ws.outbox.queue(
        to,
        (grammar.reply_subject(mail.subject, judge.config.max_echo_chars) if mail.subject
         else "Your orders"),
        body,
        "ack",
        game=first.game if first else "",
        in_reply_to=mail.message_id,
        references=refs,
    )


def _where_you_stand(ctx: Ctx) -> list[str]:
    """For a seat that owes a decision: its deadline, in the seat's zone, and
    (orders) what of its still has no order. Once per acknowledgement."""
    first = ctx.mail.first_signon
    if first is None or first.seat is None:
        return []
    g = ctx.ws.find(first.game)
    if g is None or g.table is None or g.status not in ("active", "paused"):
        return []
    seat = g.seat(first.role)
    if seat is None or seat.role is None:
        return []
    decision = adj.decision_for(g.game, g.table, seat.role)
    if decision is None:
        return []
    out = []
    if g.clock is not None:
        when = scheduler.local(scheduler.iso(g.clock.deadline), seat.tz)
        out.append(f"The deadline of {decision.phase} is {when}.")
    if decision.kind is DecisionKind.ORDERS:
        missing = g.game.unordered(g.table.state, seat.role, g.table.held(seat.role))
        if missing:
            out.append("Still without orders (they hold if you send none): "
                       + ", ".join(missing) + ".")
    return ["\n".join(out)] if out else []


def _former_holder(store: Store, game: str, role: str, address: str) -> bool:
    """Whether ``address`` held seat ``role`` of ``game`` before a REPLACE (or
    left it in a league game) and holds it no more."""
    return any(h["role"].lower() == role.lower() and h["address"] == address.lower()
               for h in store.handovers(game))


def _tell_seat_gone(judge: Hub, ws: Workspace, game: str, role: str, address: str,
                    now: datetime) -> None:
    """Tell a seat's former player, at most once a day, that the seat is
    someone else's (their mail signed with its old token was refused)."""
    if not judge.store.allow(address, f"seat-gone {game}/{role}".lower(), scheduler.iso(now),
                             scheduler.iso(now - timedelta(days=1))):
        return
    ws.outbox.queue(
        address, f"[{game}] {role} is no longer your seat",
        reports.render("common/notice.txt.j2", text=(
            f"A mail from this address signed on as {role} in {game} was not carried out: "
            f"the GM of {game} has given the seat of {role} to another player, and its old "
            "token no longer works. If you think this is a mistake, write to the game's GM. "
            "This notice is sent at most once a day.")),
        "notice", game=game)


def authenticate(judge: Hub, ws: Workspace, mail: IncomingMail,
                 commands: Iterable[grammar.Command],
                 checked: dict[tuple[str, str], tuple[str, bool]] | None = None,
                 locked: set[tuple[str, str]] | None = None) -> str | None:
    """Check every SIGNON before anything runs. One failure rejects the mail
    whole: a wrong token changes nothing and reveals nothing. The notice goes
    to the seat's registered address, at most once an hour. ``checked``
    holds the tokens :func:`prepare` already checked; a hash that changed
    since (a REPLACE in between) is checked again here. A token is checked
    only for a SIGNON from the seat's registered address, and not for a
    seat in ``locked`` (see :func:`prepare`); each wrong one counts against
    that address and seat (``limits.token_failures_per_hour``)."""
    checked = checked or {}
    locked = locked or set()

    def verify(name: str, role: str, token: str, stored: str | None) -> bool:
        before = checked.get((name.lower(), role.lower()))
        if before is not None and before[0] == (stored or ""):
            return before[1]
        return store.check_token(token, stored)

    store = judge.store
    for command in commands:
        if command.name != "SIGNON":
            continue
        name, role, token = command.args["game"], command.args["role"], command.args["token"]
        g = ws.find(name)
        registered: str | None = None
        if g is not None:
            stored: str | None
            if role.upper() == GM:
                registered, stored = g.row["gm_address"], g.row["gm_token_hash"]
            else:
                seat = g.seat(role) or next(
                    (s for s in g.seats
                     if s.role is None and s.wanted and s.wanted.lower() == role.lower()),
                    None,
                )
                registered = seat.address if seat else None
                stored = seat.token_hash if seat else None
            if registered is not None and registered == mail.from_addr \
                    and (name.lower(), role.lower()) not in locked:
                ok = verify(name, role, token, stored)
                if ok:
                    continue
                store.use("token-failure", failure_key(mail.from_addr, name, role),
                          scheduler.iso(judge.now()))
        if registered is None:
            reason = "unknown game or role"
        elif registered != mail.from_addr:
            reason = "sent from an unregistered address"
        elif (name.lower(), role.lower()) in locked:
            reason = ("too many wrong tokens from this address for this seat in the last "
                      "hour (limits.token_failures_per_hour)")
        else:
            reason = "wrong token"
        targets = {a for a in (registered,) if a}
        if store.is_registered(mail.from_addr):
            targets.add(mail.from_addr)
        now = judge.now()
        if g is not None and registered is not None and registered != mail.from_addr \
                and role.upper() != GM and _former_holder(store, g.name, role, mail.from_addr):
            # The seat's former player, with the token the REPLACE retired: the
            # new player has nothing to fear from it and is not alarmed; the GM
            # is, and the former player learns (once a day) why nothing works.
            targets = {g.row["gm_address"]}
            _tell_seat_gone(judge, ws, g.name, role, mail.from_addr, now)
        for address in sorted(targets):
            if store.allow(address, "auth-failure", scheduler.iso(now),
                           scheduler.iso(now - timedelta(hours=1))):
                ws.outbox.queue(
                    address,
                    f"[{name}] sign-on refused",
                    reports.render(
                        "common/notice.txt.j2",
                        text=(
                            f"A mail signed on as {role} in {name} could not be "
                            "accepted: the game, role, token or sending address does "
                            "not match our records. Nothing in it was carried out.\n"
                            "If it was yours, send it again from your registered "
                            "address with your token. This notice is sent at most "
                            "once an hour."
                        ),
                    ),
                    "notice",
                    game=name if g else "",
                )
            else:
                log.warning("not telling %s of a refused sign-on to %s %s: told in the last "
                            "hour", address, name, role)
        return f"SIGNON {name} {role}: {reason}"
    return None
