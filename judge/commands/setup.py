"""Commands anyone may send: SIGNON, HELP, LIST, JOIN, CREATE. A game's set-up
itself (create, join, start) is :mod:`judge.lifecycle`, which the CLI shares."""

from __future__ import annotations

import base64
import hashlib
import hmac

from judge import grammar, lifecycle
from judge.commands.base import GM, Ctx, Signon, handles
from judge.game import registry, scheduler
from judge.game.spec import Game
from judge.lifecycle import open_to_join, seat_count
from judge.mail import redact
from judge.mail.bounds import echo
from judge.session import CommandError


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
           "[WHEN <condition>]; you are asked only where ASK applies, under conditions "
           "every player can see, and a window that asks nobody closes at once):"]
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


def confirmation_code(ctx: Ctx, purpose: str, what: str, address: str,
                      key: bytes | None = None) -> str:
    """The code that proves a mail to ``address`` was read there, for
    ``purpose`` (``observe``, ``league``) and ``what`` (the game, the
    league): an HMAC of the three under the home's key (``key`` where the
    home has none), so nothing is stored until it comes back. What OBSERVE
    and CREATE LEAGUE mail a sender, who sends it back to show the From
    address is theirs."""
    secret = ctx.judge.store.token_key or key
    if not secret:
        raise CommandError("the judge has no key to make a confirmation code with",
                           "ask its operator")
    digest = hmac.new(secret, f"{purpose}\0{what.lower()}\0{address.lower()}".encode(),
                      hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:10]


def observe_code(ctx: Ctx, game: str, address: str) -> str:
    """The code OBSERVE mails to ``address`` for ``game``
    (:func:`confirmation_code`)."""
    return confirmation_code(ctx, "observe", game, address,
                             ctx.ws.get(game).row["seed"].encode())


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
    token = lifecycle.join(ctx.ws, name, address, wanted)
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
    token = lifecycle.create(ctx.ws, command.args["game"], command.args["kind"], options, address)
    ctx.judge.store.use("create", address, scheduler.iso(ctx.ws.now))
    ctx.mail.reply_to = ctx.mail.reply_to or address
    ctx.mail.sections.append(
        f"You are the GM of {name}. Your GM token is: {token}\n"
        f"Sign GM commands with SIGNON {name} GM {token}."
    )
    ctx.mail.ok(command.line, f"created {name}")
