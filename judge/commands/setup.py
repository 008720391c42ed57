"""Commands anyone may send: SIGNON, HELP, LIST, JOIN, CREATE; and the set-up
of a game (create, join, start) that the CLI shares with them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re

from judge import adjudicator as adj
from judge import grammar, redact, registry, scheduler
from judge.bounds import echo
from judge.commands.base import GM, Ctx, Signon, handles
from judge.engine import Game, option_values
from judge.rng import Rng, commitment
from judge.session import CommandError, Loaded, Workspace
from judge.store import hash_token, new_token

#: Game names: ASCII letters and digits, - and _ (no look-alike letters).
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@handles("SIGNON")
def signon(ctx: Ctx, command: grammar.Command) -> None:
    line = command.line
    name, role = command.args["game"], command.args["role"]
    g = ctx.ws.get(name)  # authenticated before anything ran
    if role.upper() == GM:
        s = Signon(g.name, GM, g.row["gm_address"], None)
    else:
        seat = g.seat(role) or next(
            x for x in g.seats if x.wanted and x.wanted.lower() == role.lower())
        s = Signon(g.name, seat.role or role, seat.address, seat)
    ctx.mail.signon = s
    if ctx.mail.first_signon is None:
        ctx.mail.first_signon = s
        ctx.mail.reply_to = s.address
    ctx.mail.ok(line, f"signed on as {s.role} in {s.game}", redact.mask_secrets(line.text))


def _window_help(game: Game) -> str:
    if not game.windows:
        return ""
    out = ["Response windows (standing answers: POLICY <window> ASK|PASS|<answer> "
           "[WHEN <condition>]):"]
    for w in game.windows:
        out.append(f"  {w.kind}: {w.summary}")
        if w.answers:
            out.append("      answers: " + "; ".join(w.answers))
        for c in w.conditions:
            out.append(f"      WHEN {c.word} {c.args}: {c.summary}")
    return "\n".join(out) + "\n"


@handles("HELP")
def help_(ctx: Ctx, command: grammar.Command) -> None:
    """HELP: the judge's commands (and, signed on, the game's own); HELP <game
    kind or game>: that game's own orders and windows only; HELP <card or
    rule>: its text, from the signed-on game."""
    topic = command.args.get("topic")
    if topic:
        game: Game | None = None
        try:
            game = registry.get(topic)
        except registry.UnknownGame:
            found = ctx.ws.find(topic)
            game = found.game if found is not None else None
        if game is not None:
            ctx.mail.sections.append(_game_help(game))
            ctx.mail.ok(command.line, "help follows below")
            return
        text = (ctx.ws.get(ctx.mail.signon.game).game.help_topic(topic)
                if ctx.mail.signon is not None else None)
        if text is None:
            raise CommandError(
                f"no game, card or rule called {echo(topic, ctx.mail.echo)!r}",
                "HELP alone lists the judge's commands; HELP <game kind> a game's orders")
        ctx.mail.sections.append(text.rstrip("\n"))
        ctx.mail.ok(command.line, "help follows below")
        return
    game = ctx.ws.get(ctx.mail.signon.game).game if ctx.mail.signon is not None else None
    kinds = ", ".join(f"{g.id} ({g.title})" for g in registry.available())
    text = grammar.help_text() + (_game_help(game) if game else "")
    ctx.mail.sections.append(text + f"\nGame kinds here: {kinds}\n")
    ctx.mail.ok(command.line, "help follows below")


def _game_help(game: Game) -> str:
    """A game's own orders and response windows, from its tables."""
    out = [f"Orders and actions of {game.title} ({game.id}):"]
    for v in game.verbs:
        out += [f"  {v.syntax}", f"      {v.summary}", f"      e.g. {v.example}"]
    return "\n".join(out) + "\n\n" + _window_help(game)


@handles("LIST")
def list_(ctx: Ctx, command: grammar.Command) -> None:
    store = ctx.judge.store
    lines = ["Games open to join:"]
    for n in store.forming_games():
        g = ctx.ws.get(n)
        if not open_to_join(g):
            continue
        taken = len([s for s in g.seats if s.status != "pending"])
        how = ("by the GM's approval"
               if g.settings(ctx.judge.config.settings).get("joins") == "approval" else "open")
        lines.append(f"  {n}: {g.game.title} ({g.row['game']}), {taken} of "
                     f"{seat_count(g)} seats taken, {how}")
    if len(lines) == 1:
        lines.append("  (none now: CREATE one)")
    ctx.mail.sections.append("\n".join(lines))
    ctx.mail.ok(command.line, "list follows below")


def observe_code(ctx: Ctx, game: str, address: str) -> str:
    """The code that proves a mail to ``address`` was read there: an HMAC of
    the game and the address under the home's key, so nothing is stored
    until it comes back."""
    key = ctx.judge.store.token_key or ctx.ws.get(game).row["seed"].encode()
    digest = hmac.new(key, f"observe\0{game.lower()}\0{address.lower()}".encode(),
                      hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:10]


@handles("OBSERVE")
def observe(ctx: Ctx, command: grammar.Command) -> None:
    """OBSERVE <game>: a code goes to the sending address; OBSERVE <game>
    <code> from that address then follows the game (a forged From earns its
    owner one mail, never a report each turn); OBSERVE <game> OFF stops it."""
    address = ctx.mail.mail.from_addr
    if not address:
        raise CommandError("your mail has no usable From address")
    g = ctx.ws.get(command.args["game"])
    word = command.args.get("off", "").upper()
    code = observe_code(ctx, g.name, address)
    ctx.mail.reply_to = ctx.mail.reply_to or address
    if word == "OFF":
        ctx.judge.store.observe(g.name, address, scheduler.iso(ctx.ws.now), on=False)
        ctx.mail.ok(command.line, f"you no longer follow {g.name}")
        return
    if word and not hmac.compare_digest(word, code):
        raise CommandError(f"{word[:20]!r} is not the code sent to this address for {g.name}",
                           f"send OBSERVE {g.name} from this address to have it mailed here, "
                           f"or OBSERVE {g.name} OFF")
    if word:
        ctx.judge.store.observe(g.name, address, scheduler.iso(ctx.ws.now), on=True)
        ctx.mail.ok(command.line, f"you follow {g.name}: its public report comes here each turn")
        return
    if address in ctx.judge.store.observers(g.name):
        ctx.mail.ok(command.line, f"you already follow {g.name}")
        return
    ctx.mail.sections.append(
        f"To follow {g.name}, send this line from this address (it shows the address is "
        f"yours and asked):\n\n  OBSERVE {g.name} {code}\n\nIf you did not ask, do nothing: "
        "no report comes here until it is sent.")
    ctx.mail.ok(command.line, "a code to confirm follows below")


@handles("JOIN")
def join_(ctx: Ctx, command: grammar.Command) -> None:
    address = ctx.mail.mail.from_addr
    if not address:
        raise CommandError("your mail has no usable From address")
    name = command.args["game"]
    wanted = command.args.get("role")
    token = join(ctx.ws, name, address, wanted)
    ctx.mail.reply_to = ctx.mail.reply_to or address
    if not token:
        ctx.mail.sections.append(
            f"{name} takes players by the GM's approval: your request is with its GM. "
            "If you are admitted, your token comes to this address.")
        ctx.mail.ok(command.line, f"asked to join {name}")
        return
    how = (
        f"SIGNON {name} {wanted} {token}"
        if wanted
        else f"SIGNON {name} <role> {token}, with the role the start report gives you"
    )
    ctx.mail.sections.append(
        f"You have a seat in {name}. Your secret token is: {token}\n"
        f"Keep it private. Sign your mails with {how}."
    )
    ctx.mail.ok(command.line, f"joined {name}")


@handles("CREATE")
def create_(ctx: Ctx, command: grammar.Command) -> None:
    address = ctx.mail.mail.from_addr
    creators = ctx.judge.config.creators
    if not address:
        raise CommandError("your mail has no usable From address")
    if "*" not in creators and address not in creators:
        raise CommandError(
            "this judge lets only its listed game masters create games",
            "ask the judge's operator",
        )
    options: dict[str, str] = {}
    for word in command.args.get("options", "").split():
        if "=" not in word:
            raise CommandError(f"option {word!r} is not name=value", "e.g. max_year=1910")
        k, v = word.split("=", 1)
        options[k] = v
    name = command.args["game"].lower()
    token = create(ctx.ws, command.args["game"], command.args["kind"], options, address)
    ctx.judge.store.use("create", address, scheduler.iso(ctx.ws.now))
    ctx.mail.reply_to = ctx.mail.reply_to or address
    ctx.mail.sections.append(
        f"You are the GM of {name}. Your GM token is: {token}\n"
        f"Sign GM commands with SIGNON {name} GM {token}."
    )
    ctx.mail.ok(command.line, f"created {name}")


# --------------------------------------------------------------------------- set-up


def create(ws: Workspace, name: str, kind: str, options: dict[str, str], gm_address: str) -> str:
    """Create a forming game; returns the GM's token (shown once)."""
    judge = ws.judge
    if not GAME_NAME.fullmatch(name):
        raise CommandError(
            f"{name!r} is not a usable game name",
            "use the ASCII letters a-z, digits, - and _, at most 40 characters",
        )
    name = name.lower()  # game names compare case-folded: SPRING26 is spring26
    if name.upper() == GM or ws.find(name) is not None:
        raise CommandError(f"a game called {name!r} already exists", "choose another name")
    try:
        game = registry.get(kind)
    except registry.UnknownGame as exc:
        raise CommandError(str(exc)) from exc
    try:
        values = option_values(game, options)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    seed = judge.seed_source()
    token = new_token()
    now = scheduler.iso(ws.now)
    judge.store.insert_game(
        {
            "name": name,
            "game": game.id,
            "status": "forming",
            "options": json.dumps(values, sort_keys=True),
            "settings": json.dumps({}),
            "seed": seed.hex(),
            "seed_hash": commitment(seed),
            "table_json": "",
            "phase": "forming",
            "gm_address": gm_address.lower(),
            "gm_token_hash": hash_token(token),
            "created": now,
            "updated": now,
        }
    )
    return token


def roster(g: Loaded) -> list[str]:
    """Every role a seat of ``g`` may ask for: the roles of the game set up
    with its options at the largest table its ``players`` option allows."""
    options = json.loads(g.row["options"])
    spec = next((o for o in g.game.options if o.name == "players"), None)
    if spec is not None and spec.choices:
        options["players"] = max(int(c) for c in spec.choices)
    return g.game.roles(g.game.setup(options, Rng(g.seed, 0)))


def seat_count(g: Loaded) -> int:
    """How many seats ``g`` may have (the largest table it allows)."""
    return len(roster(g))


def open_to_join(g: Loaded) -> bool:
    taken = [s for s in g.seats if s.status != "pending"]
    return g.status == "forming" and len(taken) < seat_count(g)


def join(ws: Workspace, name: str, address: str, wanted: str | None, *,
         by_gm: bool = False) -> str:
    """Add a seat to a forming game; returns its token ("" when the GM must
    admit it first: the game's ``joins`` setting is ``approval``, unless the
    seat is given ``by_gm``, as the CLI's ``game seat`` does)."""
    g = ws.get(name)
    if g.status != "forming":
        raise CommandError(f"{name} has already started", "ask its GM for a REPLACE")
    address = address.lower()
    if any(s.address == address for s in g.seats):
        raise CommandError(f"{address} already has a seat in {name}")
    roles = roster(g)
    if wanted:
        match = next((r for r in roles if r.lower() == wanted.lower()), None)
        if match is None:
            raise CommandError(f"{g.game.title} has no role {wanted!r}",
                               "roles: " + ", ".join(roles) + "; or JOIN without a role")
        wanted = match
        if any((s.wanted or "").lower() == wanted.lower() for s in g.seats):
            raise CommandError(
                f"{wanted} is already taken in {name}", "JOIN without a role to get one by lot"
            )
    if not open_to_join(g):
        raise CommandError(f"{name} is full: it has {seat_count(g)} seats",
                           "ask its GM for a standby place")
    store = ws.judge.store
    approval = not by_gm and g.settings(ws.judge.config.settings).get("joins") == "approval"
    if approval:
        store.add_seat(name, address, "", wanted=wanted, status="pending",
                       now=scheduler.iso(ws.now))
        g.seats = store.seats(name)  # its GM is told at the end of the cycle (gmnotice)
        return ""
    token = new_token()
    store.add_seat(name, address, hash_token(token), wanted=wanted,
                   now=scheduler.iso(ws.now))
    g.seats = store.seats(name)
    return token


def start(ws: Workspace, name: str, message_id: str = "") -> list[str]:
    """Set the game up, give every seat a role (chosen, else by lot), open
    the first decision. Returns notices."""
    g = ws.get(name)
    game = g.game
    if g.status != "forming":
        raise CommandError(f"{name} has already started")
    seats = [s for s in g.seats if s.status != "pending"]
    options = json.loads(g.row["options"])
    spec = next((o for o in game.options if o.name == "players"), None)
    if spec is not None and seats and (not spec.choices or len(seats) in spec.choices):
        options["players"] = len(seats)  # the table decides how many play
    seed = g.seed
    step = adj.start(game, options, seed)
    roles = game.roles(step.table.state)
    if len(seats) != len(roles):
        raise CommandError(
            f"{name} needs {len(roles)} players and has {len(seats)}",
            "wait for more JOINs, or create the game with fewer players",
        )
    by_name = {r.lower(): r for r in roles}
    taken: dict[int, str] = {}
    for seat in seats:
        if seat.wanted:
            role = by_name.get(seat.wanted.lower())
            if role is None:
                raise CommandError(
                    f"{seat.address} asked for {seat.wanted!r}, which {game.title} does "
                    f"not have (roles: {', '.join(roles)})"
                )
            taken[seat.id] = role
    free = [r for r in roles if r not in taken.values()]
    lot = adj.assign_seats(step.table, seed, len(free))
    order = lot.entries[0].payload["order"]
    unassigned = [s for s in seats if s.id not in taken]
    for seat, idx in zip(unassigned, order, strict=True):
        taken[seat.id] = free[idx]
    lot.entries[0].payload["roles"] = {str(k): v for k, v in taken.items()}
    for seat in seats:
        g.set_seat(seat, role=taken[seat.id], status="active")
    from judge.commands.gm import unseat  # requests never admitted lapse

    for seat in [s for s in g.seats if s.status == "pending"]:
        unseat(ws, g, seat)
    g.set_row(status="active")
    ws.apply(g, adj.Step(lot.table, step.entries + lot.entries, step.events), message_id)
    ws.settle(g, message_id)
    return [f"{name} has started: " + ", ".join(f"{taken[s.id]} ({s.address})" for s in seats)]
