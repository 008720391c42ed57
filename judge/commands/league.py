"""Leagues by mail and from the CLI: STANDINGS, STANDBY, LEAGUE; creating a
league, putting a forming game in one; and what happens to a league seat
that is left (the GM is offered the first standby) or handed over.

The scoring itself is pure and lives in :mod:`judge.game.league`; this module
reads the database for it. A finished game's log is walked once (to count
the decisions each seat owed and missed) and the summary is kept
(``league_results``), so STANDINGS costs one read per game however long the
games were.

Who sees what: standings, ratings and reliability come from finished games
only. Players' addresses are shown in full to the league's GM and to the
players of its games; to anyone else they are masked (``an...@example.org``).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from judge import grammar, reports
from judge.commands.base import Ctx, handles
from judge.game import adjudicator as adj
from judge.game import league, registry, scheduler
from judge.game.engine import JSON, RuleError
from judge.grammar import GAME_NAME
from judge.session import CommandError, Loaded, Workspace
from judge.store import Seat, Store

if TYPE_CHECKING:
    from judge.hub import Hub

log = logging.getLogger("judge.game.league")


# --------------------------------------------------------------------------- leagues


def _league(store: Store, name: str) -> dict[str, Any]:
    row = store.league(name)
    if row is None:
        known = ", ".join(r["name"] for r in store.leagues()) or "none yet"
        raise CommandError(f"there is no league called {name!r}", f"leagues: {known}")
    return row


def create_league(judge: Hub, name: str, scoring: str, gm_address: str) -> str:
    """Create a league; returns its name (case-folded)."""
    if not GAME_NAME.fullmatch(name):
        raise CommandError(f"{name!r} is not a usable league name",
                           "use the ASCII letters a-z, digits, - and _, at most 40 characters")
    if scoring not in league.SCORING:
        raise CommandError(f"no scoring system {scoring!r}",
                           "systems: " + ", ".join(league.SCORING))
    if judge.store.league(name) is not None:
        raise CommandError(f"a league called {name.lower()!r} already exists")
    judge.store.insert_league(name, scoring, gm_address, scheduler.iso(judge.now()))
    return name.lower()


def add_game(judge: Hub, name: str, game: str, status: str,
             gm_address: str | None = None) -> str:
    """Put forming game ``game`` (whose status is ``status``) in league
    ``name``; by mail (``gm_address``: the game's GM) only a game of the
    league's own GM. Returns the league's name."""
    row = _league(judge.store, name)
    if status != "forming":
        raise CommandError(f"{game} has started: a game joins a league before its START",
                           "create a new game for the league")
    if gm_address is not None and gm_address.lower() != row["gm_address"]:
        raise CommandError(f"{row['name']} takes only games of its own GM",
                           f"ask the judge's operator: judge league add {row['name']} {game}")
    judge.store.set_league(game, row["name"], scheduler.iso(judge.now()))
    return str(row["name"])


# --------------------------------------------------------------------------- results


def _summary(judge: Hub, row: dict[str, Any]) -> dict[str, Any]:
    """A finished game's log summary: kept, or made now and kept."""
    store = judge.store
    name = row["name"]
    last_n = store.last_action(name)
    kept = store.league_summary(name)
    if kept is not None and int(kept["last_n"]) == last_n:
        summary: dict[str, Any] = json.loads(kept["summary"])
        return summary
    game = registry.get(row["game"])
    table = adj.Table.loads(row["table_json"])
    rows = [{"n": r["n"], "kind": r["kind"], "role": r["role"],
             "payload": json.loads(r["payload"]), "draws": json.loads(r["draws"]),
             "created": r["created"]} for r in store.actions(name)]
    try:
        walked = league.summarise_log(game, rows, bytes.fromhex(row["seed"]))
        owed, ended = walked.owed, walked.ended
    except (adj.ReplayError, RuleError, KeyError) as exc:  # the log is not replayable
        log.warning("%s: its log does not replay (%s): no reliability from it", name, exc)
        owed, ended = (), ""
    outcome = table.outcome or {}
    summary = {
        "ended": ended or row["updated"],
        "winners": list(outcome.get("winners") or []),
        "draw": bool(outcome.get("draw")),
        "cancelled": bool(outcome.get("cancelled")),
        "scores": game.scores(table.state),
        "owed": [[o.n, o.role, o.missed] for o in owed],
    }
    store.save_league_summary(name, last_n, json.dumps(summary, sort_keys=True))
    return summary


def _seats(store: Store, game: str) -> tuple[league.Seat, ...]:
    gone: dict[str, list[league.Handover]] = {}
    for h in store.handovers(game):
        gone.setdefault(h["role"], []).append(
            league.Handover(h["address"], int(h["last_n"]), h["reason"]))
    return tuple(league.Seat(s.role, s.address, s.status, tuple(gone.get(s.role, [])))
                 for s in store.seats(game) if s.role)


def results(judge: Hub, name: str) -> tuple[dict[str, Any], list[league.GameResult],
                                             list[str]]:
    """League ``name``: its row, its finished games' results, its other games."""
    store = judge.store
    row = _league(store, name)
    done: list[league.GameResult] = []
    running: list[str] = []
    for game in store.league_games(row["name"]):
        grow = store.game(game)
        if grow is None or grow["status"] == "cancelled":
            continue  # cancelled before START: never played, counts for nobody
        if grow["status"] != "finished" or not grow["table_json"]:
            running.append(game)
            continue
        s = _summary(judge, grow)
        done.append(league.GameResult(
            game=game, ended=s["ended"], seats=_seats(store, game),
            winners=tuple(s["winners"]), draw=s["draw"], scores=dict(s["scores"]),
            cancelled=bool(s.get("cancelled")),
            owed=tuple(league.Owed(int(n), str(r), bool(m)) for n, r, m in s["owed"])))
    return row, done, running


def _mask(address: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local[:2]}...@{domain}"


def members(judge: Hub, row: dict[str, Any]) -> set[str]:
    """Who may read the league's addresses: its GM and everyone who has held
    a seat in one of its games."""
    store = judge.store
    out = {row["gm_address"]}
    for game in store.league_games(row["name"]):
        out |= {s.address for s in store.seats(game)}
        out |= {h["address"] for h in store.handovers(game)}
    return out


def show(judge: Hub, name: str, viewer: str | None = None) -> str:
    """The league's standings, ratings and reliability as text, for
    ``viewer`` (None: the operator, who sees everything, the standby list
    too; the league's GM sees that list as well)."""
    row, done, running = results(judge, name)
    full = viewer is None or viewer.lower() in members(judge, row)
    text = league.render(row["name"], row["scoring"], done, running,
                         show=str if full else _mask)
    if viewer is None or viewer.lower() == row["gm_address"]:
        waiting = judge.store.standby(row["name"])
        text += f"\nStandby list ({len(waiting)}):\n" + ("".join(
            f"  {i}. {w['address']} (since {w['added']})"
            + (f", offered for {w['offered']}" if w["offered"] else "") + "\n"
            for i, w in enumerate(waiting, 1)) or "  (nobody)\n")
    return text


def show_json(judge: Hub, name: str) -> dict[str, JSON]:
    row, done, running = results(judge, name)
    out = league.to_json(row["name"], row["scoring"], done, running)
    out["gm"] = row["gm_address"]
    out["standby"] = [{"address": w["address"], "added": w["added"], "offered": w["offered"]}
                      for w in judge.store.standby(row["name"])]
    return out


# --------------------------------------------------------------------------- seats


def _log_n(ws: Workspace, g: Loaded) -> int:
    """The number of the last log entry of ``g``, counting what this mail
    has not written yet."""
    return ws.judge.store.last_action(g.name) + len(g.entries)


def seat_left(ws: Workspace, g: Loaded, seat: Seat, reason: str) -> None:
    """Seat ``seat`` of running game ``g`` is left: ``resigned`` (called
    once the seat says so, unless the resignation ended the game) or
    ``ejected`` by the GM (called before the seat changes: a seat that was
    left already is not left again). In a league game: record that its
    player held it up to now, and offer its GM the first standby."""
    store = ws.judge.store
    name = store.league_of(g.name)
    table = g.table
    if name is None or seat.role is None or table is None or table.outcome is not None:
        return
    if reason == "ejected" and seat.status in league.GONE:
        return
    store.add_handover(g.name, seat.role, seat.address, _log_n(ws, g), reason,
                       scheduler.iso(ws.now))
    _offer(ws, g, name, seat, reason)


def abandoned(ws: Workspace, g: Loaded, owed: Iterable[str]) -> None:
    """After a deadline of ``g`` (``owed``: the seats it waited for): a seat
    of a league game that has just let ``abandon_after`` deadlines in a row
    pass without a word is abandoned, and its GM (told so by
    :func:`judge.notify.missed_deadline`) is offered the first standby for
    it. The seat stays its player's until the GM replaces it."""
    table = g.table
    name = ws.judge.store.league_of(g.name)
    if name is None or table is None or table.outcome is not None:
        return
    limit = int(float(g.settings(ws.judge.config.settings).get("abandon_after", 3)))
    for role in sorted(owed):
        seat = g.seat(role)
        if (limit > 0 and table.missed.get(role, 0) == limit and seat is not None
                and seat.status not in league.GONE):
            _offer(ws, g, name, seat, "abandoned")


def _offer(ws: Workspace, g: Loaded, name: str, seat: Seat, reason: str) -> None:
    """Mail the GM of ``g`` (and the league's, if another) the first player
    waiting on league ``name``'s standby list, with the REPLACE line that
    seats them, and mark that player offered for the seat. With nobody
    waiting, only a resignation is mailed (the GM knows of the others)."""
    store = ws.judge.store
    row = _league(store, name)
    seated = {s.address for s in g.seats}
    first = next((w for w in store.standby(name)
                  if not w["offered"] and w["address"] not in seated), None)
    if first is None and reason != "resigned":
        return
    role, old = seat.role or "", seat.address
    how = {"resigned": "has resigned", "ejected": "was ejected",
           "abandoned": "looks abandoned"}.get(reason, "was left")
    text = f"{role} ({old}) {how} in {g.name}, a game of league {name}."
    if reason != "abandoned":
        text += " The seat is in civil disorder until you give it to another player."
    text += "\n\n"
    if first is not None:
        store.mark_standby(name, first["address"], f"{g.name}/{role}")
        text += (f"The first player on {name}'s standby list is {first['address']} (waiting "
                 f"since {first['added']}). To give them the seat, send:\n\n"
                 f"    SIGNON {g.name} GM <your GM token>\n"
                 f"    REPLACE {role} {first['address']}\n\n"
                 f"They get a new token by mail, and {old} is told. To seat someone else, "
                 f"REPLACE {role} <address>: {first['address']} then waits again in their "
                 "place on the list.")
    else:
        text += (f"Nobody is on {name}'s standby list (players join it by mailing "
                 f"STANDBY {name}). When you find a player, send REPLACE {role} <address>.")
    for to in sorted({g.row["gm_address"], row["gm_address"]} - {""}):
        ws.outbox.queue(to, f"[{g.name}] {role} {how}: a standby for the seat",
                            reports.render("common/notice.txt.j2", text=text + "\n"),
                            "notice", game=g.name)


def before_replace(ws: Workspace, g: Loaded, seat: Seat, address: str) -> None:
    """The GM gives ``seat`` of ``g`` to ``address`` (called before the seat
    changes). In a league game: a player replaced while still holding the
    seat held it up to now; the new player leaves the standby list; anyone
    offered for this seat and not taken waits again in their place."""
    store = ws.judge.store
    name = store.league_of(g.name)
    if name is None or seat.role is None:
        return
    address = address.lower()
    if g.table is not None and seat.status not in league.GONE and seat.address != address:
        store.add_handover(g.name, seat.role, seat.address, _log_n(ws, g), "replaced",
                           scheduler.iso(ws.now))
    store.release_standby(name, f"{g.name}/{seat.role}")
    store.remove_standby(name, address)


# --------------------------------------------------------------------------- by mail


@handles("STANDINGS")
def standings(ctx: Ctx, command: grammar.Command) -> None:
    name = command.args["league"]
    text = show(ctx.judge, name, viewer=ctx.mail.mail.from_addr or "")
    ctx.mail.sections.append(text.rstrip("\n"))
    ctx.mail.ok(command.line, f"the standings of {name.lower()} follow below")


@handles("STANDBY")
def standby(ctx: Ctx, command: grammar.Command) -> None:
    address = ctx.mail.mail.from_addr
    if not address:
        raise CommandError("your mail has no usable From address")
    store = ctx.judge.store
    name = str(_league(store, command.args["league"])["name"])
    word = command.args.get("off", "")
    if word and word.upper() != "OFF":
        raise CommandError(f"STANDBY takes a league and OFF, not {word!r}",
                           f"STANDBY {name} to join the list, STANDBY {name} OFF to leave it")
    ctx.mail.reply_to = ctx.mail.reply_to or address
    if word:
        if not store.remove_standby(name, address):
            raise CommandError(f"{address} is not on {name}'s standby list")
        ctx.mail.ok(command.line, f"you are off {name}'s standby list")
        return
    if all(w["address"] != address for w in store.standby(name)):
        store.add_standby(name, address, scheduler.iso(ctx.ws.now))
    rows = store.standby(name)
    mine = next(w for w in rows if w["address"] == address)
    if mine["offered"]:
        where = (f"You have been offered to the GM for the seat {mine['offered']}; the GM "
                 "decides, and you stay on the list until you are seated.")
    else:
        waiting = [w for w in rows if not w["offered"]]
        place = next(i for i, w in enumerate(waiting, 1) if w["address"] == address)
        where = (f"You are number {place} of {len(waiting)} waiting on {name}'s standby list. "
                 "When a seat of one of its games is left, its GM is offered the first "
                 "player waiting; if you are seated, your token comes to this address.")
    ctx.mail.sections.append(where + f"\nSTANDBY {name} OFF takes you off the list.")
    ctx.mail.ok(command.line, f"on {name}'s standby list")


@handles("LEAGUE")
def league_(ctx: Ctx, command: grammar.Command) -> None:
    s, g = ctx.gm_game()
    name = add_game(ctx.judge, command.args["league"], g.name, g.status, g.row["gm_address"])
    ctx.mail.ok(command.line, f"{s.game} is a game of league {name}")


#: A confirmation code (:func:`judge.commands.setup.confirmation_code`).
_CODE = re.compile(r"[A-Za-z2-7]{10}")


@handles("CREATE LEAGUE")
def create_league_(ctx: Ctx, command: grammar.Command) -> None:
    """CREATE LEAGUE by mail: only an address named in ``judge.creators``
    (its ``"*"``, anyone may create games, does not open leagues to anyone),
    and only with the proof any privileged act needs, never the From
    address alone (it is forged at will): the mail is signed on with a
    token of that address (a SIGNON above the line), or the line carries
    the code :func:`judge.commands.setup.confirmation_code` mailed to the
    address when it asked without one."""
    from judge.commands.setup import confirmation_code

    address = ctx.mail.mail.from_addr
    if not address:
        raise CommandError("your mail has no usable From address")
    if address.lower() not in {c.lower() for c in ctx.judge.config.creators}:
        raise CommandError("only the game masters the judge's operator lists may create a "
                           "league by mail", "ask the operator (judge league create)")
    name = command.args["league"]
    scoring_word, code_word = command.args.get("scoring", ""), command.args.get("code", "")
    if (scoring_word and not code_word and scoring_word.lower() not in league.SCORING
            and _CODE.fullmatch(scoring_word)):
        scoring_word, code_word = "", scoring_word  # CREATE LEAGUE <league> <code>
    if scoring_word and scoring_word.lower() not in league.SCORING:
        raise CommandError(f"no scoring system {scoring_word.lower()!r}",
                           "systems: " + ", ".join(league.SCORING))
    code = confirmation_code(ctx, "league", name, address)
    signed = ctx.mail.signon is not None and ctx.mail.signon.address.lower() == address.lower()
    if code_word and not hmac.compare_digest(code_word.upper(), code):
        raise CommandError(f"{code_word[:20]!r} is not the code sent to this address for "
                           f"league {name}",
                           f"send CREATE LEAGUE {name} from this address to have it mailed here")
    if not code_word and not signed:
        if ctx.judge.store.league(name) is not None:
            raise CommandError(f"a league called {name.lower()!r} already exists")
        ctx.mail.reply_to = ctx.mail.reply_to or address
        line = f"CREATE LEAGUE {name} {scoring_word.lower() or 'draw-size'} {code}"
        ctx.mail.sections.append(
            f"To create league {name}, send this line from this address (it shows the "
            f"address is yours and asked):\n\n  {line}\n\nIf you did not ask, do nothing: "
            "no league is created until it is sent.")
        ctx.mail.ok(command.line, "a code to confirm follows below")
        return
    scoring = (scoring_word or "draw-size").lower()
    made = create_league(ctx.judge, command.args["league"], scoring, address)
    ctx.judge.store.use("create", address, scheduler.iso(ctx.ws.now))
    ctx.mail.reply_to = ctx.mail.reply_to or address
    ctx.mail.sections.append(
        f"You are the GM of league {made} ({scoring} scoring). Put a game of yours in it "
        f"before its START with LEAGUE {made}, signed on as the game's GM; STANDINGS {made} "
        "shows the results.")
    ctx.mail.ok(command.line, f"created league {made}")
