"""The game master's commands."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from judge import gmview, grammar, lifecycle, notify
from judge.commands import league
from judge.commands.base import Ctx, check_press_size, handles
from judge.game import adjudicator as adj
from judge.game import scheduler
from judge.game.engine import RuleError
from judge.mail.visible import visible
from judge.session import CommandError, Loaded, Workspace
from judge.store import Seat

MAX_DEADLINE_DAYS = 365


@handles("START")
def start(ctx: Ctx, command: grammar.Command) -> None:
    s, _g = ctx.gm_game()
    ctx.mail.sections.extend(lifecycle.start(ctx.ws, s.game, ctx.message_id))
    ctx.mail.touched.add(s.game)
    ctx.mail.ok(command.line, f"{s.game} started")


def announce(ctx: Ctx, g: Loaded, what: str, text: Callable[[Seat], str],
             skip: int | None = None) -> None:
    """Tell every seat what the GM changed and what it means for it (each in
    its own time zone): players are never left to find out. Everything one
    GM mail tells a player goes in one mail (:func:`send_notices`)."""
    for seat in g.active_seats():
        if seat.id == skip:
            continue
        tell(ctx, g.name, seat.address, what, text(seat))


def tell(ctx: Ctx, game: str, address: str, what: str, text: str) -> None:
    """Add to what this mail's GM commands tell ``address``."""
    ctx.mail.notices.setdefault((game, address), []).append((what, text))


def send_notices(ctx: Ctx) -> None:
    """One mail per player and game for everything the GM's commands in this
    mail told them, in the order the commands came; a player who gets a
    report from this mail anyway (a rollback, a phase the GM processed) finds
    it at the head of that report instead."""
    for (game, address), items in ctx.mail.notices.items():
        heads = list(dict.fromkeys(what for what, _ in items))
        text = "\n".join(text.rstrip("\n") + "\n" for _, text in items)
        g = ctx.ws.find(game)
        seat = next((x for x in g.active_seats() if x.address == address), None) if g else None
        if g is not None and seat is not None and notify.report_due(
                g, seat, notify.must_decide(g, seat)):
            notify.fold_ack(g, seat, "From the GM: " + "; ".join(heads) + "\n\n" + text)
            continue
        ctx.ws.outbox.queue(address, f"[{game}] from the GM: " + "; ".join(heads), text,
                             "notice", game=game)
    ctx.mail.notices.clear()


def _when(clock: scheduler.Clock, seat: Seat) -> str:
    return scheduler.local(scheduler.iso(clock.deadline), seat.tz)


def _gm_when(g: Loaded, when: datetime) -> str:
    """A time as the GM reads it: in the GM's zone (SET TIMEZONE as GM)."""
    return scheduler.local(scheduler.iso(when), gmview.gm_zone(g))


def status_text(ws: Workspace, g: Loaded) -> str:
    """What the GM sees (judge/gmview.py): the position, settings, league,
    the clock in the GM's zone, and every seat: orders on file, who still
    owes, deadlines missed in a row."""
    return gmview.gm_status_text(gmview.gm_status(ws, g))


def _clock(g: Loaded) -> scheduler.Clock:
    if g.clock is None:
        raise CommandError(f"{g.name} has no running clock")
    return g.clock


@handles("SET DEADLINE")
def set_deadline(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    text = command.args["when"].strip()
    daily = re.fullmatch(r"every\s+day(?:\s+at)?\s*(.*)", text, re.IGNORECASE)
    if daily is not None:
        _set_daily(ctx, g, command, daily.group(1).strip())
        return
    try:
        hours = scheduler.parse_duration(text)
    except ValueError:
        hours = None
    if hours is not None:
        if not 0 < hours <= MAX_DEADLINE_DAYS * 24:
            raise CommandError(f"{text!r} is not a duration from now up to "
                               f"{MAX_DEADLINE_DAYS} days", "e.g. SET DEADLINE 72h")
        command.args["when"] = (ctx.ws.now + timedelta(hours=hours)).astimezone(UTC).strftime(
            "%Y-%m-%d %H:%M:%S UTC")
    words = command.args["when"].split()
    tz = "UTC"
    if (len(words) >= 2 and "/" in words[-1]) or (words and words[-1].upper() == "UTC"):
        tz = words.pop()
    try:
        when = datetime.fromisoformat(" ".join(words)).replace(tzinfo=scheduler.zone(tz))
    except (ValueError, OverflowError) as exc:
        raise CommandError(
            f"cannot read {command.args['when']!r} as a date and time",
            "e.g. SET DEADLINE 2026-12-01 18:00 Europe/Paris, SET DEADLINE 72h, or "
            "SET DEADLINE every day at 20:00 Europe/Paris",
        ) from exc
    if when <= ctx.ws.now:
        raise CommandError("that deadline is in the past")
    if when > ctx.ws.now + timedelta(days=MAX_DEADLINE_DAYS):
        raise CommandError(f"that deadline is more than {MAX_DEADLINE_DAYS} days away",
                           "PAUSE the game for a long break")
    clock = scheduler.set_deadline(_clock(g), when.astimezone(UTC),
                                   g.settings(ctx.judge.config.settings))
    ctx.ws.set_clock(g, clock)
    announce(ctx, g, "a new deadline",
             lambda seat: f"The GM of {g.name} has set the deadline of {clock.phase} to "
                          f"{_when(clock, seat)}.\n")
    ctx.mail.ok(command.line, f"deadline set to {_gm_when(g, clock.deadline)}")


def _set_daily(ctx: Ctx, g: Loaded, command: grammar.Command, rule: str) -> None:
    """SET DEADLINE every day at 20:00 Europe/Paris: every deadline of orders
    and actions from now on falls at that time of day (the first one after the
    phase's hours); the deadline running now moves to the first such time at
    or after it. SET DEADLINE every day off goes back to plain hours."""
    current = json.loads(g.row["settings"] or "{}")
    if rule.lower() in ("off", "none"):
        current.pop(scheduler.DAILY, None)
        g.set_row(settings=json.dumps(current, sort_keys=True))
        ctx.mail.ok(command.line, "deadlines no longer fall at a set time of day")
        return
    try:
        daily = scheduler.parse_daily(rule)
    except ValueError as exc:
        raise CommandError(str(exc), "or SET DEADLINE every day off") from exc
    current[scheduler.DAILY] = daily
    g.set_row(settings=json.dumps(current, sort_keys=True))
    done = f"deadlines fall every day at {daily}"
    if g.clock is not None and g.status == "active":
        moved = scheduler.at_daily(g.clock.deadline, daily)
        if moved != g.clock.deadline:
            clock = scheduler.set_deadline(g.clock, moved, g.settings(ctx.judge.config.settings))
            ctx.ws.set_clock(g, clock)
            done += f"; this one is now {_gm_when(g, moved)}"
        announce(ctx, g, "deadlines at a set time of day",
                 lambda seat: f"The GM of {g.name} has set every deadline at {daily}: the "
                              f"deadline of {g.clock.phase if g.clock else 'this phase'} is "
                              f"{_when(g.clock, seat) if g.clock else 'unchanged'}.\n")
    ctx.mail.ok(command.line, done)


@handles("SET")
def set_setting(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    key, value = command.args["setting"].lower(), command.args["value"]
    if key in {o.name for o in g.game.options}:
        set_option(ctx, g, key, value)
        ctx.mail.ok(command.line, f"option {key} is now {json.loads(g.row['options'])[key]}")
        return
    if key not in scheduler.DEFAULT_SETTINGS:
        raise CommandError(
            f"no setting {key!r}", "settings: " + ", ".join(scheduler.DEFAULT_SETTINGS)
            + "; options of this game (before START): "
            + (", ".join(o.name for o in g.game.options) or "none"))
    current = json.loads(g.row["settings"] or "{}")
    words = WORD_SETTINGS.get(key)
    if words is not None:
        if value.lower() not in words:
            raise CommandError(f"{key} is {' or '.join(words)}, not {value!r}",
                               f"e.g. SET {key} {words[0]}")
        current[key] = value.lower()
    else:
        unit = "minutes" if key.endswith("_minutes") else "hours"
        try:  # a number of the setting's unit, or a duration: 72h, 3d, 90m
            amount = float(value)
        except ValueError:
            try:
                if not key.endswith(("_hours", "_minutes")):
                    raise ValueError(key)
                hours = scheduler.parse_duration(value)
            except ValueError:
                raise CommandError(f"{key} takes a number of {unit}"
                                   + (" or a duration (72h, 3d, 90m)"
                                      if key.endswith(("_hours", "_minutes")) else "")
                                   + f", not {value!r}") from None
            amount = hours * 60 if unit == "minutes" else hours
        if not 0 <= amount <= 24 * 60:
            raise CommandError(f"{key} must be between 0 and 1440 {unit}")
        current[key] = amount
    g.set_row(settings=json.dumps(current, sort_keys=True))
    ctx.mail.ok(command.line, f"{key} is now {current[key]}")


def set_option(ctx: Ctx, g: Loaded, key: str, value: str) -> None:
    """SET of a game option (as CREATE takes them): only before START, when
    the game is set up from them; a table must still seat every seat taken."""
    spec = next(o for o in g.game.options if o.name == key)
    if g.status != "forming":
        raise CommandError(f"{key} is an option of the game, fixed when {g.name} started",
                           "settings (SET orders_hours 72, ...) may change at any time")
    try:
        coerced = spec.coerce(value)
    except ValueError as exc:
        raise CommandError(str(exc) if "option" in str(exc)
                           else f"option {key} takes a value such as {spec.default!r} "
                                f"(its default), not {value!r}", f"{spec.help}") from None
    before = g.row["options"]
    current = json.loads(before)
    current[key] = coerced
    g.row["options"] = json.dumps(current, sort_keys=True)
    taken = len([x for x in g.seats if x.status != "pending"])
    try:
        capacity = lifecycle.seat_count(g)
    except (ValueError, TypeError, KeyError, RuleError) as exc:  # the game refuses it
        g.row["options"] = before
        raise CommandError(f"{g.game.title} cannot be set up with {key}={value}: {exc}") from exc
    g.row["options"] = before
    if taken > capacity:
        raise CommandError(f"{g.name} has {taken} seats taken, and with {key}={value} it "
                           f"seats {capacity}", "REMOVE a seat first")
    g.set_row(options=json.dumps(current, sort_keys=True))


#: Settings that take a word rather than a number, with their words.
WORD_SETTINGS: dict[str, tuple[str, ...]] = {
    "press": ("white", "grey", "named", "none", "yes", "no"),
    "joins": ("open", "approval"),
    "gm_copies": ("no", "yes"),
    "draw_votes": ("secret", "public"),
    "orders_in": ("gm", "all"),
    "picture": ("png", "svg", "none"),
}


@handles("ADMIT")
def admit(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.admit(g, command.args["who"])
    lifecycle.send(ctx.ws.outbox, done.notices)
    ctx.mail.ok(command.line, f"{done.seat.address} is admitted; the token went there")


@handles("REMOVE")
def remove(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    seat = lifecycle.remove(ctx.ws, g, command.args["who"])
    ctx.mail.ok(command.line, f"{seat.address} no longer has a seat in {s.game}")


@handles("EXTEND")
def extend(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    try:
        hours = float(command.args["hours"])
        clock = scheduler.extend(_clock(g), hours, g.settings(ctx.judge.config.settings))
    except ValueError as exc:
        raise CommandError(
            str(exc)
            if isinstance(exc, scheduler.ExtendRefused)
            else f"{command.args['hours']!r} is not a number of hours",
            "e.g. EXTEND 24",
        ) from exc
    ctx.ws.set_clock(g, clock)
    announce(ctx, g, "the deadline is extended",
             lambda seat: f"The GM of {g.name} has extended {clock.phase} by {hours:g} "
                          f"hours: the deadline is now {_when(clock, seat)}.\n")
    ctx.mail.ok(command.line, f"deadline moved to {_gm_when(g, clock.deadline)}")


@handles("PAUSE")
def pause(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    if g.status != "active":
        raise CommandError(f"{s.game} is {g.status}, not active")
    g.set_row(status="paused")
    ctx.ws.set_clock(g, None)
    announce(ctx, g, "the game is paused",
             lambda seat: f"The GM of {g.name} has paused the game: its clock is stopped "
                          "and nothing is processed until the GM resumes it. You may still "
                          "send and revise orders.\n")
    ctx.mail.ok(command.line, f"{s.game} is paused; its clock is stopped")


@handles("RESUME")
def resume(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    if g.status != "paused":
        raise CommandError(f"{s.game} is not paused")
    g.set_row(status="active")
    clock = ctx.ws.open_clock(g)
    ctx.mail.touched.add(s.game)
    announce(ctx, g, "the game resumes",
             lambda seat: f"The GM of {g.name} has resumed the game. The deadline of "
                          f"{clock.phase} is {_when(clock, seat)}.\n")
    ctx.mail.ok(command.line, f"{s.game} resumes; deadline {_gm_when(g, clock.deadline)}")


@handles("PROCESS")
def process(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    if g.status != "active":
        raise CommandError(f"{s.game} is {g.status}, not active")
    ctx.ws.apply(g, adj.deadline(g.game, g.need_table(), g.seed, g.absent()), ctx.message_id)
    ctx.mail.touched.add(s.game)
    ctx.mail.ok(command.line, "processed")


def _tell_seats(ctx: Ctx, g: Loaded, done: lifecycle.Change, skip: int | None = None) -> None:
    """Queue the mails of a seat change and tell every other seat of it
    (with whatever else this mail tells them: :func:`send_notices`)."""
    lifecycle.send(ctx.ws.outbox, done.notices)
    if done.announce is not None:
        what, text = done.announce
        announce(ctx, g, what, lambda _seat: text, skip=skip)


@handles("REPLACE")
def replace(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.replace(
        ctx.ws, g, command.args["role"], command.args["address"],
        before=lambda seat, address: league.before_replace(ctx.ws, g, seat, address))
    _tell_seats(ctx, g, done, skip=done.seat.id)
    ctx.mail.ok(command.line,
                f"{done.seat.role} now belongs to {done.seat.address}; the token went there")


@handles("EJECT")
def eject(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.eject(ctx.ws, g, command.args["role"],
                           before=lambda seat: league.seat_left(ctx.ws, g, seat, "ejected"))
    ctx.mail.touched.add(g.name)
    _tell_seats(ctx, g, done)
    ctx.mail.ok(command.line, f"{done.seat.role} is ejected and in civil disorder")


@handles("ROLLBACK")
def rollback_(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    phase = rollback(ctx.ws, s.game)
    announce(ctx, g, f"rolled back to {phase}",
             lambda _seat: f"The GM of {g.name} has undone the last step of the game: it is "
                           f"back at {phase}. Your report of that position follows; orders "
                           "you sent since count no more.\n")
    for seat in g.active_seats():  # each seat gets the report of the phase rolled back to
        g.set_seat(seat, turn_seen="(rolled back)", asked="")
    ctx.mail.ok(command.line, f"rolled back to {phase}")


def rollback(ws: Workspace, name: str) -> str:
    """Undo the last step that moved the game on; the log keeps the undone
    entries, marked, and the table is rebuilt from the latest snapshot before
    them and the entries after it."""
    g = ws.get(name)
    if g.entries:
        ws.flush()  # what this mail did so far is written first
    store = ws.judge.store
    rows = store.actions(name)
    moves = [r for r in rows if r["kind"] in ("act", "default", "resolve", "draw", "concede")]
    if not moves:
        raise CommandError(f"{name} has nothing to roll back")
    last = moves[-1]["n"]
    store.undo_actions_after(name, last - 1)
    store.delete_snapshots_after(name, last - 1)
    table = rebuild(ws, name)
    g.table = table
    phase = adj.phase_key(g.game, table)
    g.table_changed = True
    g.set_row(table_json=table.dumps(), phase=phase,
              status="active" if table.outcome is None else "finished")
    if table.outcome is None:
        ws.open_clock(g)
    return phase


def rebuild(ws: Workspace, name: str, *, full: bool = False) -> adj.Table:
    """The table as the action log rebuilds it: from the latest snapshot and
    the entries after it (``full``: from the seed and every entry)."""
    g = ws.get(name)
    store = ws.judge.store
    snap = None if full else store.latest_snapshot(name)
    start_from = adj.Table.loads(snap["table_json"]) if snap else None
    after = snap["n"] if snap else 0
    entries = [
        {"kind": r["kind"], "role": r["role"], "payload": json.loads(r["payload"]),
         "draws": json.loads(r["draws"])}
        for r in store.actions_after(name, after)
    ]
    return adj.replay(g.game, entries, g.seed, start_from=start_from)


def set_gm_timezone(ctx: Ctx, tz: str) -> None:
    """SET TIMEZONE signed on as GM: the zone of the GM's STATUS and notices."""
    _s, g = ctx.gm_game()
    current = json.loads(g.row["settings"] or "{}")
    current[gmview.GM_TIMEZONE] = tz
    g.set_row(settings=json.dumps(current, sort_keys=True))


def gm_press(ctx: Ctx, command: grammar.Command) -> None:
    """PRESS TO signed on as GM: a message from the GM to the named seats,
    ALL of them, or PUBLIC (all, and kept for the game's public page). The
    game's press setting binds the players, not its GM. It goes in the one
    mail this GM mail sends each player."""
    s, g = ctx.gm_game()
    seats = [x for x in g.active_seats() if x.role]
    names = grammar.split_roles(command.args["roles"])
    public = [n.upper() for n in names] == ["PUBLIC"]
    if public or [n.upper() for n in names] == ["ALL"]:
        targets = seats
    else:
        by = {x.role.lower(): x for x in seats if x.role}
        unknown = [n for n in names if n.lower() not in by]
        if unknown:
            raise CommandError(f"no active seat called {', '.join(unknown)} in {s.game}",
                               "seats: " + ", ".join(sorted(x.role or "" for x in seats))
                               + "; or PRESS TO ALL")
        targets = [by[n] for n in dict.fromkeys(n.lower() for n in names)]
    if not targets:
        raise CommandError(f"{s.game} has no player to write to yet")

    text = visible("\n".join(ln.text for ln in command.body)).strip("\n")
    if not text:
        raise CommandError("the press message is empty", "write it between PRESS TO and ENDPRESS")
    to_names = "everyone" if len(targets) == len(seats) else ", ".join(
        sorted(x.role or "" for x in targets))

    body = f"Press from the GM to {to_names}:\n\n{text}\n"
    check_press_size(ctx, f"[{s.game}] press from the GM", body)
    if public:
        ctx.judge.store.add_public_press(
            s.game, "the GM", str(g.row["phase"]),
            ctx.judge.store.last_action(s.game) + len(g.entries), text,
            scheduler.iso(ctx.ws.now))
    for seat in targets:
        tell(ctx, s.game, seat.address, "press", body)
    ctx.mail.ok(command.line, f"press sent to {to_names}"
                + (" and kept for the game's public page" if public else ""))


@handles("END DRAW")
def end_draw(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.end(ctx.ws, g, "draw", grammar.split_roles(command.args["roles"]),
                    ctx.message_id)
    ctx.mail.touched.add(g.name)
    ctx.mail.ok(command.line, done)


@handles("END WIN")
def end_win(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.end(ctx.ws, g, "win", [command.args["role"]], ctx.message_id)
    ctx.mail.touched.add(g.name)
    ctx.mail.ok(command.line, done)


@handles("CANCEL GAME")
def cancel_game(ctx: Ctx, command: grammar.Command) -> None:
    _s, g = ctx.gm_game()
    done = lifecycle.cancel(ctx.ws, g, ctx.message_id)
    ctx.mail.touched.add(g.name)
    ctx.mail.ok(command.line, done)
