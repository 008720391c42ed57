"""A seated player's commands: game lines (orders, actions, answers, queued
lines), standing answers, queue, flags, status, history, press, settings."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

from judge import grammar, notify, signoff
from judge.commands import league
from judge.commands.base import Ctx, check_press_size, handles
from judge.commands.gm import gm_press, set_gm_timezone, status_text
from judge.game import adjudicator as adj
from judge.game import scheduler, timing
from judge.game.engine import Action, DecisionKind, Event, InvalidLine, RuleError
from judge.mail.visible import visible
from judge.session import CommandError, Loaded


def _refuse(ctx: Ctx, ln: grammar.Line, exc: RuleError) -> None:
    ctx.mail.error(ln, f"{exc.grade.value}: {exc.message}", exc.hint)


@handles("ORDERS")
def orders_block(ctx: Ctx, command: grammar.Command) -> None:
    phase = command.args.get("phase", "").strip()
    if phase and ctx.mail.signon is not None and ctx.mail.signon.role != "GM":
        g = ctx.ws.get(ctx.mail.signon.game)
        table = g.table
        now = adj.phase_key(g.game, table) if table is not None else g.status
        if phase.lower() != now.lower() and table is not None and g.status == "active" \
                and g.game.phase_after(table.state, phase):
            _hold_ahead(ctx, g, phase, command)
            return
        if phase.lower() != now.lower():
            # Written for a phase that is over: refused whole.
            ctx.mail.error(command.line, f"this block is for {phase}, and the game is at {now}",
                           "nothing in it was done; send orders for the phase now open")
            for ln in command.body:
                ctx.mail.error(ln, f"part of the block for {phase}: not read")
            return
    ctx.mail.ok(command.line, "orders block: these lines replace the orders you sent before")
    # A block left open runs to the end of the mail: a sign-off at its end
    # is not read, as after the last line of any mail (judge.signoff).
    game_lines(ctx, command.body, block=True, trailing=not command.closed, read_before=True)


def _hold_ahead(ctx: Ctx, g: Loaded, phase: str, command: grammar.Command) -> None:
    """An ORDERS block for a later phase of one's own: held, and checked when
    that phase opens (the lines that fit then become the orders for it)."""
    s = ctx.signed()
    table = g.need_table()
    lines = [ln.text for ln in command.body]
    for ln in command.body:
        try:
            g.game.parse(table.state, s.role, ln.text)
        except InvalidLine as exc:  # not an order at all: refused now
            _refuse(ctx, ln, exc)
            lines.remove(ln.text)
        except RuleError:
            ctx.mail.ok(ln, f"held for {phase}")
        else:
            ctx.mail.ok(ln, f"held for {phase}")
    ctx.ws.apply(g, adj.hold_ahead(table, s.role, phase.upper(), lines), ctx.message_id)
    ctx.mail.touched.add(g.name)
    ctx.mail.ok(command.line, f"orders ahead for {phase.upper()}: checked when it opens")
    ctx.mail.sections.append(
        f"Your orders for {phase.upper()} are held until that phase opens; then each line "
        "that fits is taken as your orders for it (a new block for it replaces this one), "
        "and your mail then says which were not.")


def held_text(g: Loaded, role: str) -> str:
    table = g.need_table()
    held = table.held(role)
    phase = adj.phase_key(g.game, table)
    if not held:
        return f"You have no orders held for {phase}."
    return f"Orders held for {role}, {phase}:\n" + "\n".join(f"  {a.text}" for a in held)


def game_lines(ctx: Ctx, lines: Sequence[grammar.Line], block: bool,
               trailing: bool = False, read_before: bool = False) -> None:
    """Lines for the game: orders for an open order set, an answer to an open
    window, an action on one's turn, else lines queued for one's next turn.
    ``trailing``: the lines are the mail's last; those at their end that the
    game does not recognise at all (:func:`judge.signoff.is_sign_off`) are
    a sign-off, listed as not read, when a line before them was read (a
    line of this run, or, ``read_before``, a command or orders before it)."""
    if ctx.mail.signon is None:
        for ln in lines:
            ctx.mail.error(
                ln,
                "not a judge command, and you have not signed on for a game",
                "sign on first with SIGNON <game> <role> <token>; HELP lists the commands",
            )
        return
    s, g, _seat = ctx.seat_game()
    if g.status not in ("active", "paused") or g.table is None:
        for ln in lines:
            ctx.mail.error(ln, f"{s.game} is {g.status}: no orders now")
        return
    role = s.role
    table = g.table
    game = g.game
    if trailing:
        cut = len(lines)
        while cut > 0 and signoff.is_sign_off(game, table.state, role, lines[cut - 1].text):
            cut -= 1
        if cut < len(lines) and (cut > 0 or read_before):
            for ln in lines[cut:]:
                ctx.mail.ok(ln, "not read: looks like a signature or footer (after the last "
                            "line read, and no order or command)")
            lines = lines[:cut]
            if not lines:
                return
    decision = adj.decision_for(game, table, role)
    bound = ctx.mail.answers
    # The mail replies to a request: its first game line must find that
    # decision open. Checked once per mail; after its first lines took effect
    # the decision has moved on, as the writer expected.
    if bound and not ctx.mail.bound_checked:
        ctx.mail.bound_stale = decision is None or decision.id != bound
        ctx.mail.bound_checked = True
    if bound and ctx.mail.bound_stale:
        # The mail replies to a request for a decision that is over: its lines
        # were written for that decision, and nothing else takes them.
        for ln in lines:
            ctx.mail.error(
                ln, f"this mail answers {bound}, which is over", "nothing was done with it; "
                "STATUS shows what the game waits for now")
        return
    if decision is not None and decision.kind is DecisionKind.ORDERS:
        _orders(ctx, g, role, lines, block)
        return
    if g.status == "paused":
        for ln in lines:
            ctx.mail.error(ln, f"{s.game} is paused: actions wait until the GM resumes it")
        return
    if (decision is not None and decision.kind is DecisionKind.RESPONSE
            and role in adj.answering_roles(game, table)):
        _answer(ctx, g, role, lines)
        return
    for ln in lines:
        table = g.need_table()
        if role in adj.acting_roles(game, table):
            try:
                action = game.parse(table.state, role, ln.text)
                ctx.ws.apply(g, adj.act(game, table, role, action, g.seed), ctx.message_id)
            except RuleError as exc:
                _refuse(ctx, ln, exc)
                continue
            ctx.mail.touched.add(s.game)
            ctx.mail.ok(ln, f"done: {action.text}")
        elif game.queues_actions:
            _queue_line(ctx, g, role, ln)
        else:
            ctx.mail.error(ln, f"{role} has nothing to do in {s.game} now",
                           "send STATUS to see what the game waits for")


def _orders(ctx: Ctx, g: Loaded, role: str, lines: Sequence[grammar.Line], block: bool) -> None:
    table = g.need_table()
    accepted: list[Action] = []
    refused = 0
    before = [] if block else table.held(role)
    for ln in lines:
        try:
            action = g.game.parse(table.state, role, ln.text)
            g.game.check_held(table.state, role, action, [*before, *accepted])
        except RuleError as exc:
            _refuse(ctx, ln, exc)
            refused += 1
            continue
        accepted.append(action)
        ctx.mail.ok(ln, f"ok: {action.text}")
    # Ready means ready: orders with a refused line leave the seat a chance to
    # mend them before the phase is processed early.
    if refused and role not in table.unready:
        ctx.ws.apply(g, adj.set_flag(table, role, "unready", True), ctx.message_id)
    elif not refused and accepted and role in table.unready:
        ctx.ws.apply(g, adj.set_flag(table, role, "unready", False), ctx.message_id)
    table = g.need_table()
    if role in table.unready:
        ctx.mail.sections.append(
            "A line of your orders was refused, so this phase will not be processed "
            "before its deadline on your account: send your orders again with no refused "
            "line (or NOWAIT) to count as ready.")
    if block and lines and not accepted:
        # A block whose every line was refused (orders for another phase, say)
        # replaces nothing: what was held stays.
        ctx.mail.sections.append("No line of the ORDERS block was accepted, so it replaced "
                                 "nothing: the orders you sent before still stand.")
    elif accepted or block:
        ctx.ws.apply(g, adj.submit(g.game, table, role, accepted, replace_all=block),
                     ctx.message_id)
        ctx.mail.touched.add(g.name)
    summary = held_text(g, role)
    if summary not in ctx.mail.sections:
        ctx.mail.sections.append(summary)


def _answer(ctx: Ctx, g: Loaded, role: str, lines: Sequence[grammar.Line]) -> None:
    """Every line of the mail for the open window is one answer, held in
    secret until the window closes (replacing an earlier one)."""
    table = g.need_table()
    window = adj.open_window(g.game, table)
    assert window is not None
    accepted: list[Action] = []
    for ln in lines:
        try:
            action = g.game.parse(table.state, role, ln.text)
        except RuleError as exc:
            _refuse(ctx, ln, exc)
            continue
        accepted.append(action)
        ctx.mail.ok(ln, f"answer held: {action.text}")
    if not accepted:
        return
    ctx.ws.apply(g, adj.answer(g.game, table, role, accepted), ctx.message_id)
    ctx.mail.touched.add(g.name)
    clock = g.clock
    when = ""
    if clock is not None:
        seat = g.seat(role)
        tz = seat.tz if seat else "UTC"
        when = f" and by {scheduler.local(scheduler.iso(clock.deadline), tz)} at the latest"
    ctx.mail.sections.append(
        f"Your answer to {window.phase} is held in secret: "
        + "; ".join(a.text for a in accepted)
        + f". It takes effect when the window closes: when every seat it asks has "
        f"answered, no sooner than its minimum open time{when}. A new answer before "
        "then replaces it.")


def _queue_line(ctx: Ctx, g: Loaded, role: str, ln: grammar.Line) -> None:
    """A line sent while the seat has nothing to decide waits for its next turn
    (an ``InvalidLine`` is refused now; an ``IllegalLine`` may fit then)."""
    table = g.need_table()
    try:
        g.game.parse(table.state, role, ln.text)
    except InvalidLine as exc:
        _refuse(ctx, ln, exc)
        return
    except RuleError:
        pass  # understood; it may fit when the turn comes
    mark = g.game.plan_mark(table.state, role, ln.text)
    ctx.ws.apply(g, adj.enqueue(table, role, [ln.text], mark=mark), ctx.message_id)
    ctx.mail.touched.add(g.name)
    table = g.need_table()
    n = len(table.queue.get(role, []))
    later = g.game.queued_later(table.state, role)
    when = (f"later in this turn: taken when {later} comes back to you, once what is under "
            "way now is over," if later else "your next turn: taken then")
    ctx.mail.ok(ln, f"queued as line {n} for {when} if it still fits "
                "(QUEUE lists your queued lines, CANCEL removes them)")


# --------------------------------------------------------------------------- POLICY, QUEUE


def _policies_text(g: Loaded, role: str) -> str:
    table = g.need_table()
    out = []
    for w in g.game.windows:
        for e in adj.ordered_policies(table, role, w.kind):
            out.append(f"  POLICY {w.kind} {e['answer']}"
                       + (f" WHEN {e['when']}" if e["when"] else ""))
    if not out:
        return "You have no standing answers: every window asks you."
    return "Your standing answers, in the order they are tried:\n" + "\n".join(out)


@handles("POLICY")
def policy(ctx: Ctx, command: grammar.Command) -> None:
    s, g, _seat = ctx.seat_game()
    if g.status not in ("active", "paused") or g.table is None:
        raise CommandError(f"{s.game} is {g.status}")
    game = g.game
    kind = command.args.get("window", "").lower()
    rest = command.args.get("answer", "")
    if not kind:
        ctx.mail.sections.append(_policies_text(g, s.role))
        ctx.mail.ok(command.line, "your standing answers follow below")
        return
    spec = game.window(kind)
    if spec is None:
        kinds = ", ".join(w.kind for w in game.windows) or "none in this game"
        raise CommandError(f"{game.title} has no response window called {kind!r}",
                           f"windows: {kinds}")
    if not rest:
        raise CommandError("POLICY needs an answer: ASK, PASS or an answer line",
                           f"e.g. POLICY {kind} PASS")
    answer_text, cond_words = adj.parse_answer_words(rest)
    verbs = {a.split()[0].upper() for a in spec.answers}
    first = answer_text.split()[0].upper() if answer_text else ""
    if first not in ({"ASK", "PASS"} | verbs):
        raise CommandError(
            f"{answer_text!r} is not an answer to {kind} windows",
            "answers: ASK, PASS" + "".join(f", {a}" for a in spec.answers))
    if first in ("ASK", "PASS"):
        answer_text = first
    when = game.policy_condition(kind, cond_words.split()) if cond_words else ""
    timing.check_policy(game, kind, answer_text, when)
    table = g.need_table()
    ctx.ws.apply(g, adj.set_policy(table, s.role, kind, answer_text, when), ctx.message_id)
    ctx.mail.touched.add(s.game)
    # A window of that kind open now and not yet answered by hand takes it too.
    table = g.need_table()
    w = adj.open_window(game, table)
    if w is not None and w.window == kind and s.role in adj.answering_roles(game, table):
        held = table.windows.get(w.id, {}).get("answers", {}).get(s.role)
        if held is None or held.get("by") == "policy":
            got = adj.policy_answer(game, table, s.role, w)
            if got is not None:
                ctx.ws.apply(g, adj.answer(game, table, s.role, got, by="policy"),
                             ctx.message_id)
    cond = f" when {when}" if when else ""
    what = ("you are asked" if answer_text == "ASK" and not when
            else f"answered {answer_text}{cond}")
    ctx.mail.ok(command.line, f"{kind} windows: {what}")


@handles("QUEUE")
def queue(ctx: Ctx, command: grammar.Command) -> None:
    s, g, _seat = ctx.seat_game()
    queued = g.need_table().queue.get(s.role, [])
    later = g.game.queued_later(g.need_table().state, s.role)
    waits = f"waits for {later}, later in this turn" if later else "waits for your next turn"
    if not queued:
        text = "You have no queued lines."
    else:
        text = "Your queued lines, in the order they are tried:\n" + "\n".join(
            f"  {i}. {q['line']}   ({waits})"
            for i, q in enumerate(queued, 1))
    ctx.mail.sections.append(text)
    ctx.mail.ok(command.line, "your queued lines follow below")


@handles("CANCEL")
def cancel(ctx: Ctx, command: grammar.Command) -> None:
    s, g, _seat = ctx.seat_game()
    which = command.args["which"]
    numbers: list[int] | None
    if which.upper() == "ALL":
        numbers = None
    else:
        try:
            numbers = [int(w) for w in which.replace(",", " ").split()]
        except ValueError:
            raise CommandError(f"{which!r} is not a queued line's number",
                               "CANCEL 2, or CANCEL ALL") from None
    table = g.need_table()
    before = len(table.queue.get(s.role, []))
    ctx.ws.apply(g, adj.unqueue(table, s.role, numbers), ctx.message_id)
    ctx.mail.touched.add(s.game)
    left = len(g.need_table().queue.get(s.role, []))
    ctx.mail.ok(command.line, f"{before - left} queued line(s) removed; {left} left")


# --------------------------------------------------------------------------- flags


def _flag(ctx: Ctx, command: grammar.Command, flag: str, on: bool) -> None:
    s, g, _seat = ctx.seat_game()
    if g.status not in ("active", "paused"):
        raise CommandError(f"{s.game} is {g.status}")
    ctx.ws.apply(g, adj.set_flag(g.need_table(), s.role, flag, on), ctx.message_id)
    if flag == "wait" and not on and s.role in g.need_table().unready:
        ctx.ws.apply(g, adj.set_flag(g.need_table(), s.role, "unready", False), ctx.message_id)
    ctx.mail.touched.add(s.game)
    what = {
        ("wait", True): "the phase will wait for its deadline",
        ("wait", False): "the phase may be processed as soon as all orders are in",
        ("draw", True): "you vote for a draw of all survivors",
        ("draw", False): "you withdraw your draw vote",
    }[(flag, on)]
    ctx.mail.ok(command.line, what)


@handles("WAIT")
def wait(ctx: Ctx, command: grammar.Command) -> None:
    _flag(ctx, command, "wait", True)


@handles("NOWAIT")
def nowait(ctx: Ctx, command: grammar.Command) -> None:
    _flag(ctx, command, "wait", False)


@handles("DRAW")
def draw(ctx: Ctx, command: grammar.Command) -> None:
    _flag(ctx, command, "draw", True)
    _announce_vote(ctx, "votes for a draw of all survivors")


@handles("NODRAW")
def nodraw(ctx: Ctx, command: grammar.Command) -> None:
    _flag(ctx, command, "draw", False)
    _announce_vote(ctx, "withdraws its draw vote")


@handles("CONCEDE")
def concede(ctx: Ctx, command: grammar.Command) -> None:
    s, g, _seat = ctx.seat_game()
    if g.status not in ("active", "paused") or g.table is None:
        raise CommandError(f"{s.game} is {g.status}")
    who = command.args.get("role", "")
    table = g.table
    if not who or who.upper() == "NONE":
        ctx.ws.apply(g, adj.concede_to(table, s.role, None), ctx.message_id)
        ctx.mail.touched.add(s.game)
        ctx.mail.ok(command.line, "you withdraw your concession")
        _announce_vote(ctx, "withdraws its concession")
        return
    alive = set(g.game.survivors(table.state)) - g.absent()
    target = next((r for r in alive if r.lower() == who.lower()), None)
    if target is None or target == s.role:
        raise CommandError(f"{who!r} is not another survivor of {s.game}",
                           "survivors: " + ", ".join(sorted(alive - {s.role})))
    ctx.ws.apply(g, adj.concede_to(table, s.role, target), ctx.message_id)
    ctx.mail.touched.add(s.game)
    ctx.mail.ok(command.line, f"you concede the game to {target}: it ends when every other "
                "survivor does")
    _announce_vote(ctx, f"concedes the game to {target}")


def _announce_vote(ctx: Ctx, what: str) -> None:
    """With ``draw_votes public``, every other seat hears of a vote."""
    s, g, _seat = ctx.seat_game()
    if g.settings(ctx.judge.config.settings).get("draw_votes") != "public":
        return
    for seat in g.active_seats():
        if seat.role != s.role:
            ctx.ws.outbox.queue(seat.address, f"[{g.name}] {s.role} {what}",
                                 f"In {g.name}, {s.role} {what}.\n", "notice", game=g.name)


# --------------------------------------------------------------------------- reading


@handles("STATUS")
def status(ctx: Ctx, command: grammar.Command) -> None:
    signed = ctx.mail.signon
    if signed is not None and signed.role == "GM":  # the GM sees every seat

        ctx.mail.sections.append(status_text(ctx.ws, ctx.ws.get(signed.game)))
        ctx.mail.ok(command.line, "the game's status follows below")
        return
    s, g, seat = ctx.seat_game()
    if g.status == "forming" or g.table is None:
        ctx.mail.sections.append(f"{s.game} is forming: {len(g.seats)} seat(s) taken.")
    else:
        decision = notify.must_decide(g, seat)
        text, _, _ = notify.report_text(ctx.ws, g, s.role, tz=seat.tz, decision=decision)
        ctx.mail.sections.append(text.rstrip("\n"))
        table = g.table
        if s.role in adj.ordering_roles(g.game, table):
            ctx.mail.sections.append(held_text(g, s.role))
        w = adj.open_window(g.game, table)
        if w is not None and s.role in adj.answering_roles(g.game, table):  # asked: named
            mine = table.answer_of(w.id, s.role)
            if mine is not None:
                ctx.mail.sections.append(f"Your answer held for {w.phase}: "
                                         + ("; ".join(a.text for a in mine) or "PASS"))
    ctx.mail.ok(command.line, "status follows below")


@handles("HISTORY")
def history(ctx: Ctx, command: grammar.Command) -> None:
    s, _g, _seat = ctx.seat_game()
    raw = command.args.get("count", "3")
    if not raw.isdigit() or not 1 <= int(raw) <= 50:
        raise CommandError(f"{raw!r} is not a count from 1 to 50", "e.g. HISTORY 5")
    count = int(raw)
    chunks: list[str] = []
    for act_row in reversed(ctx.judge.store.actions(s.game)):
        payload = json.loads(act_row["payload"])
        if "events" not in payload:
            continue
        lines = [ev.text for ev in map(Event.from_json, payload["events"])
                 if ev.visible_to(s.role)]
        if lines:
            chunks.append(f"[{act_row['created']}]\n" + "\n".join(lines))
        if len(chunks) >= count:
            break
    ctx.mail.sections.append(
        "History, latest last:\n\n"
        + ("\n\n".join(reversed(chunks)) if chunks else "(nothing yet)")
    )
    ctx.mail.ok(command.line, "history follows below")


# --------------------------------------------------------------------------- the seat


@handles("RESIGN")
def resign(ctx: Ctx, command: grammar.Command) -> None:
    s, g, seat = ctx.seat_game()
    g.set_seat(seat, status="resigned", token_hash="")
    ctx.mail.touched.add(s.game)
    if g.table is not None and g.status in ("active", "paused"):
        step = adj.concede(g.game, g.table, s.role)
        if step is not None:
            ctx.ws.apply(g, step, ctx.message_id)
            ctx.mail.ok(command.line, f"you have conceded {s.game}")
            return
    league.seat_left(ctx.ws, g, seat, "resigned")
    ctx.mail.ok(command.line, f"you have left {s.game}; {s.role} is in civil disorder")


@handles("SET TIMEZONE")
def set_timezone(ctx: Ctx, command: grammar.Command) -> None:
    tz = command.args["zone"]
    try:
        scheduler.zone(tz)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    signed = ctx.mail.signon
    if signed is not None and signed.role == "GM":  # the GM's STATUS is in this zone

        set_gm_timezone(ctx, tz)
        ctx.mail.ok(command.line, f"times are now shown to the GM in {tz}")
        return
    _s, g, seat = ctx.seat_game()
    g.set_seat(seat, tz=tz)
    ctx.mail.ok(command.line, f"times are now shown in {tz}")


@handles("SET ABSENCE")
def set_absence(ctx: Ctx, command: grammar.Command) -> None:
    s, g, seat = ctx.seat_game()
    words = command.args["dates"].split()
    if [w.upper() for w in words] == ["NONE"]:
        g.set_seat(seat, absences=[])
        ctx.mail.ok(command.line, "you have no absence announced")
        return
    zone = scheduler.zone(seat.tz)
    try:
        first, last = (date.fromisoformat(w) for w in words)
    except ValueError:
        raise CommandError(f"cannot read {command.args['dates']!r} as two days",
                           "e.g. SET ABSENCE 2026-12-24 2026-12-28 (first and last day)"
                           ) from None
    start = datetime.combine(first, time.min, zone).astimezone(UTC)
    end = datetime.combine(last + timedelta(days=1), time.min, zone).astimezone(UTC)
    if end <= start:
        raise CommandError("the last day comes before the first",
                           "SET ABSENCE <first day> <last day>")
    if end <= ctx.ws.now:
        raise CommandError("that absence is over already")
    settings = g.settings(ctx.judge.config.settings)
    cap = float(settings.get("max_absence_days", 14))
    kept = [[a, b] for a, b in seat.absences if scheduler.parse_time(b) > ctx.ws.now]
    days = sum((scheduler.parse_time(b) - scheduler.parse_time(a)).total_seconds()
               for a, b in kept) / 86400 + (end - start).total_seconds() / 86400
    if days > cap:
        raise CommandError(f"that would make {days:g} days of absence in {s.game}, and a seat "
                           f"may announce {cap:g}", "SET ABSENCE NONE clears yours")
    g.set_seat(seat, absences=[*kept, [scheduler.iso(start), scheduler.iso(end)]])
    if g.clock is not None and g.table is not None and seat.role in adj.waiting_on(
            g.game, g.table, g.absent()):
        moved = scheduler.around_absences(
            g.clock, [(start, end)], settings)
        if moved != g.clock:
            ctx.ws.set_clock(g, moved)
    ctx.mail.ok(command.line, f"absent from {first} to {last} ({seat.tz}): a deadline you owe "
                "inside it moves to its end, by at most "
                f"{float(settings['max_extend_hours']):g} hours")


#: The seat's mail settings: command -> (seat field, each mode -> what it means).
MAIL_SETTINGS: dict[str, tuple[str, dict[str, str]]] = {
    "SET MAIL": ("mail_mode", {
        "each": "a report after every move you may see",
        "decisions": "a mail when you must decide, and a digest each game turn",
        "digest": "a digest each game turn and a mail on your own turn; response windows "
                  "are answered by your standing answers or the default"}),
    "SET ACK": ("ack_mode", {
        "all": "every mail of yours acknowledged at once",
        "errors": "a mail of yours with no refused line acknowledged in the judge's next "
                  "mail to you"}),
}


@handles("SET MAIL", "SET ACK")
def set_mail(ctx: Ctx, command: grammar.Command) -> None:
    _s, g, seat = ctx.seat_game()
    column, modes = MAIL_SETTINGS[command.name]
    mode = command.args["mode"].lower()
    if mode not in modes:
        raise CommandError(f"{mode!r} is not a setting of {command.name}",
                           " or ".join(f"{command.name} {m}" for m in modes))
    g.set_seat(seat, **{column: mode})
    ctx.mail.ok(command.line, f"you now get {modes[mode]}")


def press_mode(settings: dict[str, object]) -> str:
    """``press`` as white, grey, named or none (``yes``/``no`` mean white/none)."""
    mode = str(settings.get("press", "white")).lower()
    return {"yes": "white", "no": "none"}.get(mode, mode)


@handles("PRESS TO")
def press(ctx: Ctx, command: grammar.Command) -> None:
    if ctx.mail.signon is not None and ctx.mail.signon.role == "GM":
        gm_press(ctx, command)
        return
    s, g, _seat = ctx.seat_game()
    mode = press_mode(g.settings(ctx.judge.config.settings))
    if mode == "none":
        raise CommandError(f"{s.game} is played without press")
    seats = [x for x in g.seats if x.role and x.status == "active"]
    names = grammar.split_roles(command.args["roles"])
    public = [n.upper() for n in names] == ["PUBLIC"]  # to all, and on the public page
    if public or [n.upper() for n in names] == ["ALL"]:
        if mode == "named":
            raise CommandError(f"press in {s.game} goes only to named powers",
                               "PRESS TO <role>, <role>")
        targets = [x for x in seats if x.role != s.role]
    else:
        by = {x.role.lower(): x for x in seats if x.role}
        unknown = [n for n in names if n.lower() not in by]
        if unknown:
            raise CommandError(
                f"no active seat called {', '.join(unknown)} in {s.game}",
                "seats: " + ", ".join(sorted(x.role for x in seats if x.role)),
            )
        targets = [by[n.lower()] for n in names if by[n.lower()].role != s.role]
    # invisible format characters (bidi controls, tags, zero-width) go: judge.mail.visible
    text = visible("\n".join(ln.text for ln in command.body)).strip("\n")
    if not text:
        raise CommandError("the press message is empty", "write it between PRESS TO and ENDPRESS")
    to_names = ", ".join(sorted(x.role or "" for x in targets))
    sender = "a power" if mode == "grey" else s.role  # grey press hides its sender
    subject = f"[{s.game}] press from {sender}"
    body = f"Press from {sender} to {to_names}:\n\n{text}\n"
    check_press_size(ctx, subject, body)
    ctx.judge.store.use("press", f"{s.game}/{s.role}".lower(), scheduler.iso(ctx.ws.now),
                        len(targets))
    copies = [x.address for x in targets]
    if g.settings(ctx.judge.config.settings).get("gm_copies") == "yes":
        copies.append(g.row["gm_address"])  # the GM's master copy
    if public:
        ctx.judge.store.add_public_press(
            s.game, sender, str(g.row["phase"]),
            ctx.judge.store.last_action(s.game) + len(g.entries), text,
            scheduler.iso(ctx.ws.now))
    for address in copies:
        ctx.ws.outbox.queue(
            address,
            subject,
            body,
            "press",
            game=s.game,
        )
    ctx.mail.ok(command.line, f"press sent to {to_names}"
                + (" and kept for the game's public page" if public else ""))
