"""What the GM sees of a game (STATUS signed on as GM, ``judge game show
--as GM``): the position, the settings and options, the league, the clock
in the GM's time zone, and every seat: its player, whether it has orders on
file for the decision open now and how many, whether it still owes them,
and the deadlines it has missed in a row.

:func:`gm_status` gathers it as JSON-ready data; :func:`gm_status_text`
writes it for a mail. The GM sees which seats have sent orders whatever
``orders_in`` says (``orders_in all`` shows it to the players too), never
the orders themselves: they stay secret until the phase is resolved.
"""

from __future__ import annotations

from typing import Any

from judge import lifecycle, notify
from judge.game import adjudicator as adj
from judge.game import scheduler
from judge.session import Loaded, Workspace

GM_TIMEZONE = "gm_timezone"
"""The game setting that holds the GM's time zone (SET TIMEZONE signed on as GM)."""


def gm_zone(g: Loaded) -> str:
    """The GM's time zone for ``g`` (SET TIMEZONE signed on as GM; UTC)."""
    return str(g.settings({}).get(GM_TIMEZONE) or "UTC")


def gm_status(ws: Workspace, g: Loaded) -> dict[str, Any]:
    """Everything the GM's STATUS shows, as data."""
    judge = ws.judge
    tz = gm_zone(g)
    table = g.table
    settings = g.settings(judge.config.settings)
    own = g.settings({})
    owed: set[str] = set()
    ordering: set[str] = set()
    open_: list[dict[str, Any]] = []
    if table is not None and table.outcome is None:
        owed = adj.waiting_on(g.game, table, g.absent())
        ordering = adj.ordering_roles(g.game, table)
        for d in adj.open_decisions(g.game, table):
            open_.append({"phase": d.phase, "kind": d.kind.value,
                          "roles": [r for r in d.roles if r not in g.absent()]})
    clock: dict[str, Any] | None = None
    if g.clock is not None:
        c = g.clock
        clock = {"phase": c.phase, "deadline": scheduler.iso(c.deadline),
                 "deadline_local": scheduler.local(scheduler.iso(c.deadline), tz),
                 "grace_until": scheduler.iso(c.grace_until) if c.grace_until else None,
                 "extended_hours": c.extended_hours}
    seats = []
    for seat in g.seats:
        entry: dict[str, Any] = {
            "role": seat.role, "wanted": seat.wanted, "address": seat.address,
            "status": seat.status, "mail": seat.mail_mode, "ack": seat.ack_mode,
            "timezone": seat.tz,
        }
        if table is not None and seat.role:
            held = table.held(seat.role) if seat.role in ordering else []
            entry.update({
                "owes": seat.role in owed,
                "orders_on_file": len(held),
                "ready": seat.role in table.submitted and seat.role not in table.unready,
                "wait": seat.role in table.waiting,
                "votes_draw": seat.role in table.draw_votes,
                "missed_in_a_row": int(table.missed.get(seat.role, 0)),
            })
        seats.append(entry)
    position = None
    if table is not None:
        text, _, _ = notify.report_text(ws, g, None, tz=tz, decision=None)
        position = text
    outcome = None
    if table is not None and table.outcome is not None:
        o = table.outcome
        outcome = {"draw": bool(o.get("draw")), "winners": list(o.get("winners") or []),
                   "reason": o.get("reason", "")}
    return {
        "game": g.name, "kind": g.row["game"], "title": g.game.title, "status": g.status,
        "phase": g.row["phase"] if table is not None else None,
        "league": judge.store.league_of(g.name),
        "gm": g.row["gm_address"], "timezone": tz,
        "options": _options(g), "settings": {k: settings[k] for k in sorted(settings)
                                             if k in judge.config.settings},
        "settings_changed": sorted(k for k in own if k in judge.config.settings),
        "daily_deadline": own.get(scheduler.DAILY),
        "seats_taken": len([x for x in g.seats if x.status != "pending"]),
        "seats_wanted": lifecycle.seat_count(g) if g.status == "forming" else None,
        "clock": clock, "open": open_, "owed": sorted(owed),
        "seats": seats, "outcome": outcome, "position": position,
    }


def _options(g: Loaded) -> dict[str, Any]:
    import json

    return dict(json.loads(g.row.get("options") or "{}"))


def gm_status_text(data: dict[str, Any]) -> str:
    """The GM's STATUS as a mail shows it."""
    lines = [f"{data['game']}: {data['title']} ({data['kind']}), {data['status']}"
             + (f", phase {data['phase']}" if data["phase"] else "")]
    lines.append(f"League: {data['league'] or 'none'}")
    c = data["clock"]
    if c is not None:
        lines.append(f"Deadline of {c['phase']}: {c['deadline_local']}"
                     + (f", grace until {scheduler.local(c['grace_until'], data['timezone'])}"
                        if c["grace_until"] else "")
                     + (f", extended by {c['extended_hours']:g} h" if c["extended_hours"]
                        else ""))
    elif data["status"] == "paused":
        lines.append("The clock is stopped (paused).")
    if data["daily_deadline"]:
        lines.append(f"Deadlines fall every day at {data['daily_deadline']}.")
    for d in data["open"]:
        lines.append(f"Open: {d['phase']} ({d['kind']}) for {', '.join(d['roles']) or 'nobody'}")
    if data["status"] in ("active", "paused"):
        lines.append("Still owed by: " + (", ".join(data["owed"]) or "nobody"))
    if data["outcome"] is not None:
        o = data["outcome"]
        lines.append("Finished: " + ("a draw shared by " if o["draw"] else "won by ")
                     + (", ".join(o["winners"]) or "nobody")
                     + (f" ({o['reason']})" if o["reason"] else ""))
    if data["seats_wanted"] is not None:
        lines.append(f"Forming: {data['seats_taken']} of {data['seats_wanted']} seats taken"
                     + (" (the table is full: START when ready)"
                        if data["seats_taken"] >= data["seats_wanted"] else ""))
    lines.append("Seats:")
    for s in data["seats"]:
        who = s["role"] or (f"(asked for {s['wanted']})" if s["wanted"] else "(by lot)")
        state = s["status"]
        if "owes" in s and s["status"] in ("active", "bouncing"):
            if s["owes"]:
                state += ", owes orders" if s["orders_on_file"] == 0 else (
                    f", {s['orders_on_file']} order(s) on file, not ready")
            elif s["orders_on_file"]:
                state += f", {s['orders_on_file']} order(s) on file"
            else:
                state += ", owes nothing now"
            if s["wait"]:
                state += ", WAIT"
            if s["votes_draw"]:
                state += ", votes DRAW"
        elif s["status"] in ("ejected", "resigned"):
            state += " (civil disorder: the game's defaults act for it)"
        if s.get("missed_in_a_row"):
            state += f", missed {s['missed_in_a_row']} deadline(s) in a row"
        lines.append(f"  {who}: {s['address']}, {state}; mail {s['mail']}, "
                     f"acknowledgements {s['ack']}, times in {s['timezone']}")
    changed = set(data["settings_changed"])
    lines.append("Settings (* changed for this game): " + ", ".join(
        f"{k} {_show(v)}{'*' if k in changed else ''}" for k, v in data["settings"].items()))
    if data["options"]:
        lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in data["options"].items()))
    lines.append(f"Times in {data['timezone']} (SET TIMEZONE <zone> signed on as GM).")
    if data["position"]:
        lines += ["", "The position, as observers see it:", "", data["position"].rstrip("\n")]
    return "\n".join(lines)


def _show(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
