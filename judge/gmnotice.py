"""What the GM of a forming game is told about its table: once per cycle,
one mail per game listing the seats taken and the requests to join since
the last such mail, and, when every seat is taken, that the table is full.

What was told is remembered by the id of the last seat listed (the game's
``gm_told_seat`` setting, written in the transaction that queues the mail),
so a crash neither loses a notice nor sends one twice.
"""

from __future__ import annotations

import json
from itertools import groupby
from typing import TYPE_CHECKING, Any

from judge import lifecycle
from judge.session import Workspace

if TYPE_CHECKING:
    from judge.hub import Hub

TOLD = "gm_told_seat"
"""The game setting holding the id of the last seat its GM was told of."""


def send_join_digests(judge: Hub) -> int:
    """Queue, per forming game with new seats or requests, one mail to its
    GM; returns how many were queued."""
    if not _fresh(judge.store.forming_seats()):  # a read: most cycles end here, unlocked
        return 0
    sent = 0
    with judge.store.atomic():
        rows = judge.store.forming_seats()
        for name, group in groupby(rows, key=lambda r: str(r["game"])):
            seats = list(group)
            settings = json.loads(seats[0]["settings"] or "{}")
            told = int(settings.get(TOLD, 0))
            fresh = [s for s in seats if int(s["id"]) > told]
            if not fresh:
                continue
            _queue(judge, name, seats, fresh)
            settings[TOLD] = max(int(s["id"]) for s in fresh)
            judge.store.update_game(name, settings=json.dumps(settings, sort_keys=True))
            sent += 1
    return sent


def _fresh(rows: list[dict[str, Any]]) -> bool:
    """Whether some forming game has a seat its GM was not told of."""
    told: dict[str, int] = {}
    for r in rows:
        game = str(r["game"])
        if game not in told:
            told[game] = int(json.loads(r["settings"] or "{}").get(TOLD, 0))
        if int(r["id"]) > told[game]:
            return True
    return False


def _queue(judge: Hub, name: str, seats: list[dict[str, Any]],
           fresh: list[dict[str, Any]]) -> None:
    ws = Workspace(judge, judge.now())
    g = ws.get(name)
    capacity = lifecycle.seat_count(g)
    taken = [s for s in seats if s["status"] != "pending"]
    lines = []
    for s in fresh:
        role = f" as {s['wanted']}" if s["wanted"] else " (role by lot at START)"
        if s["status"] == "pending":
            lines.append(f"  {s['address']} asks to join{role}: ADMIT {s['address']}, or "
                         f"REMOVE {s['address']}")
        else:
            lines.append(f"  {s['address']} joined{role}")
    full = len(taken) >= capacity
    asks = sum(s["status"] == "pending" for s in fresh)
    joined = len(fresh) - asks
    head = ", ".join(x for x in (f"{joined} joined" if joined else "",
                                 f"{asks} ask(s) to join" if asks else "") if x)
    body = (f"{name}: {len(taken)} of {capacity} seats taken.\nSince the last notice:\n"
            + "\n".join(lines) + "\n")
    if full:
        body += "\nThe table is full: send START (signed on as GM) when you are ready.\n"
    subject = f"[{name}] {head}" + ("; the table is full" if full else "")
    ws.outbox.queue(str(seats[0]["gm_address"]), subject, body, "notice", game=name)
