"""One game in memory while one mail (or one deadline) works on it.

A :class:`Workspace` loads each game it touches once (its row, table, seats
and clock), lets the commands change them in memory through
:meth:`Workspace.apply`, carries the game on (:meth:`Workspace.settle`:
early processing, windows that may close, queued lines and standing
answers), and writes everything once in :meth:`Workspace.flush`: the log
entries, the game row, the seats, the clock, a snapshot at each new turn,
and the mails :mod:`judge.notify` decides on. Every mail the work queues
goes into the workspace's :attr:`Workspace.outbox` (:class:`judge.outbox.Outbox`).
The caller holds the transaction; nothing here commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from judge import notify
from judge.game import adjudicator as adj
from judge.game import registry, scheduler, timing
from judge.game.engine import DecisionKind, Event
from judge.hub import Hub
from judge.loaded import CommandError as CommandError
from judge.loaded import Loaded as Loaded
from judge.outbox import Outbox
from judge.store import Seat


class Workspace:
    """The games one mail (or one run of the clock) works on."""

    def __init__(self, judge: Hub, now: datetime) -> None:
        self.judge = judge
        self.now = now
        self.games: dict[str, Loaded] = {}
        #: The mails this work queues (written in the caller's transaction).
        self.outbox = Outbox(judge.store, judge.config, now)

    # ------------------------------------------------------------------ loading

    def find(self, name: str) -> Loaded | None:
        """The game called ``name`` (loaded once per workspace), or None."""
        got = self.games.get(name)
        if got is not None:
            return got
        store = self.judge.store
        row = store.game(name)
        if row is None:
            return None
        game = registry.get(row["game"])
        table = adj.Table.loads(row["table_json"]) if row["table_json"] else None
        clock_row = store.deadline(name)
        clock = scheduler.Clock.from_row(clock_row) if clock_row else None
        loaded = Loaded(name, dict(row), game, table, store.seats(name), clock)
        self.games[name] = loaded
        return loaded

    def get(self, name: str) -> Loaded:
        loaded = self.find(name)
        if loaded is None:
            raise CommandError(f"there is no game called {name!r}", "send LIST to see the games")
        return loaded

    # ------------------------------------------------------------------ changes

    def apply(self, g: Loaded, step: adj.Step, message_id: str = "") -> None:
        """Take ``step`` into the game in memory: its log entries, its table,
        the clock of a decision that opened, the end of the game."""
        before = g.table
        old_phase = adj.phase_key(g.game, before) if before is not None else "forming"
        old_turn = g.game.turn(before.state) if before is not None else ""
        events = list(step.events)
        for entry in step.entries:
            mine = events if entry.kind in adj.MOVES else []
            if mine:
                events = []
            g.entries.append((entry, mine))
        if events and g.entries:  # events of a step without a move: on its last entry
            g.entries[-1][1].extend(events)
        if message_id and message_id not in g.message_ids:
            g.message_ids.append(message_id)
        g.table = step.table
        table = step.table
        new_phase = adj.phase_key(g.game, table)
        g.table_changed = True
        fields: dict[str, Any] = {"phase": new_phase}
        if table.outcome is not None:
            fields["status"] = "finished"
        g.set_row(**fields)
        if before is None or g.game.turn(table.state) != old_turn or table.outcome is not None:
            g.new_turn = True
        if table.outcome is not None and (before is None or before.outcome is None):
            g.ended_now = True
        if table.outcome is not None:
            g.clock = None
            g.clock_changed = True
        elif new_phase != old_phase and g.status == "active":
            self.open_clock(g)

    def open_clock(self, g: Loaded) -> scheduler.Clock:
        """A fresh clock for the decision open now: orders get ``orders_hours``,
        single actions ``action_hours``, response windows ``window_hours`` and a
        minimum open time."""
        table = g.need_table()
        kinds = {d.kind for d in adj.open_decisions(g.game, table)}
        kind = ("orders" if DecisionKind.ORDERS in kinds
                else "response" if DecisionKind.RESPONSE in kinds else "action")
        settings = g.settings(self.judge.config.settings)
        clock = scheduler.plan(self.now, adj.phase_key(g.game, table), settings, kind)
        if kind != "response":  # a window's default (a pass) waits for nobody
            owed = adj.waiting_on(g.game, table, g.absent())
            away = [(scheduler.parse_time(a), scheduler.parse_time(b))
                    for seat in g.active_seats() if seat.role in owed
                    for a, b in seat.absences]
            clock = scheduler.around_absences(clock, away, settings)
        g.clock = clock
        g.clock_changed = True
        return clock

    def set_clock(self, g: Loaded, clock: scheduler.Clock | None) -> None:
        g.clock = clock
        g.clock_changed = True

    def settle(self, g: Loaded, message_id: str = "") -> list[str]:
        """Carry the game on as far as it goes without anyone deciding: an
        agreed draw, orders all in, a window answered by every seat it asks
        by hand (at once when it asks nobody), standing answers and queued
        lines."""
        done: list[str] = []
        for _ in range(1000):
            if g.status != "active" or g.table is None or g.table.outcome is not None:
                break
            table = g.table
            game = g.game
            for step in adj.drain(game, table, g.seed):
                self.apply(g, step, message_id)
            table = g.table
            absent = g.absent()
            alive = sorted(set(game.survivors(table.state)) - absent)
            if adj.draw_agreed(game, table, alive):
                self.apply(g, adj.agree_draw(game, table, alive), message_id)
                done.append(f"{g.name}: every survivor voted for a draw; the game is over.")
                break
            winner = adj.concession_agreed(table, alive)
            if winner is not None:
                self.apply(g, adj.agree_concession(game, table, winner), message_id)
                done.append(f"{g.name}: every other survivor conceded to {winner}; the game "
                            "is over.")
                break
            if adj.ready(game, table, absent):
                phase = adj.phase_key(game, table)
                self.apply(g, adj.resolve(game, table, g.seed, "all orders in"), message_id)
                done.append(f"{g.name}: all orders for {phase} were in, so it was processed "
                            "now; the reports are on their way.")
                continue
            if adj.window_complete(game, table, absent) and self.may_close(g):
                self.apply(g, adj.close(game, table, g.seed, "all answered"), message_id)
                continue
            break
        return done

    def may_close(self, g: Loaded) -> bool:
        """A complete window closes at once when it asks nobody by hand, else
        once its minimum open time (if the game sets one) is over."""
        table = g.need_table()
        return timing.may_close(g.clock, self.now, adj.asks_anyone(g.game, table))

    # ------------------------------------------------------------------ writing

    def flush(self) -> None:
        """Write every game this workspace changed, once, and queue its mail."""
        store = self.judge.store
        stamp = scheduler.iso(self.now)
        for g in self.games.values():
            last_n = 0
            written: list[tuple[int, list[Event]]] = []  # each entry's number and events
            for entry, events in g.entries:
                payload = dict(entry.payload)
                if events:
                    payload["events"] = [e.to_json() for e in events]
                last_n = store.append_action(
                    g.name, entry.kind, entry.role, payload,
                    [d.to_json() for d in entry.draws],
                    g.message_ids[0] if g.message_ids else "", stamp)
                written.append((last_n, events))
            if g.entries:
                self.judge.fault("logged")
            if g.table is not None and g.table_changed:
                g.row_changes["table_json"] = g.table.dumps()
                if g.new_turn and last_n:
                    store.save_snapshot(g.name, last_n, g.row_changes["table_json"], stamp)
            if g.row_changes:
                g.row_changes["updated"] = stamp
                store.update_game(g.name, **g.row_changes)
            if g.clock_changed:
                if g.clock is None:
                    store.clear_deadline(g.name)
                else:
                    store.set_deadline(g.clock.to_row(g.name))
            self.queue([*notify.after(self, g, last_n, written), *notify.gm_after(self, g),
                        *notify.observers_after(self, g)])
            for seat_id, fields in g.seat_changes.items():
                store.update_seat(seat_id, **fields)
            g.entries = []
            g.public = None
            g.row_changes = {}
            g.seat_changes = {}
            g.clock_changed = False
            g.table_changed = False
            g.new_turn = False
            g.ended_now = False


    def queue(self, mails: Sequence[notify.Mail]) -> None:
        """Queue ``mails`` (what :mod:`judge.notify` decided on) in the outbox."""
        for m in mails:
            self.outbox.queue(m.to_addr, m.subject, m.body, m.kind, game=m.game,
                              attachments=m.attachments, decision=m.decision,
                              report=m.report)


def seats_for(g: Loaded, roles: Sequence[str] | set[str]) -> list[Seat]:
    return [s for s in g.active_seats() if s.role in roles]
