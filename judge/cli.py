"""The ``judge`` command: a thin layer over the library.

Every command finds its home by ``--home DIR``, else ``$JUDGE_HOME``, else the
current folder.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from judge import __version__
from judge import config as cfg

if TYPE_CHECKING:
    from judge.service import CommandError, Judge

# The rest of the library is imported by the commands that use it, so that a
# command starts with only what it needs (`judge adjudicate` never loads the
# mail stack, the store or the templates).

SCORING = ("draw-size", "sum-of-squares", "wdl")
"""The league scoring systems (``judge.game.league.SCORING``, named here so that
the command line can list them without loading the league code)."""
DEFAULT_SCORING = "draw-size"


def _home(ctx: click.Context) -> Path:
    return cfg.find_home(ctx.obj.get("home"))


def _open(ctx: click.Context) -> Judge:
    from judge.service import Judge

    try:
        return Judge.open(_home(ctx))
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="judge", message="%(prog)s %(version)s")
@click.option("--home", metavar="DIR", help="The judge's folder (default: $JUDGE_HOME or .).")
@click.option("-v", "--verbose", is_flag=True, help="Log debug detail.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text",
              envvar="JUDGE_LOG_FORMAT", show_default=True,
              help="The log on stderr: text lines, or one JSON object a line.")
@click.pass_context
def main(ctx: click.Context, home: str | None, verbose: bool, log_format: str) -> None:
    """judge: a play-by-email adjudication service.

    \b
    Example:
      judge init --home ~/judge && judge --home ~/judge serve --once
    """
    ctx.ensure_object(dict)
    ctx.obj["home"] = home
    from judge import logs

    logs.setup(verbose, log_format)


@main.command()
@click.option("--home", "home_opt", metavar="DIR", help="Where to create it.")
@click.option("--address", default=None, help="The judge's address (sets the Message-ID domain).")
@click.option("--imap", "imap_url", metavar="URL", default=None,
              help="Read mail from this IMAP mailbox: imaps://USER@HOST[:PORT][/FOLDER].")
@click.option("--smtp", "smtp_url", metavar="URL", default=None,
              help="Send mail through this server: smtp://USER@HOST[:587] or smtps://...")
@click.option("--imap-password-env", default="JUDGE_IMAP_PASSWORD", show_default=True,
              help="The environment variable that will hold the IMAP password.")
@click.option("--smtp-password-env", default="JUDGE_SMTP_PASSWORD", show_default=True,
              help="The environment variable that will hold the SMTP password.")
@click.pass_context
def init(ctx: click.Context, home_opt: str | None, address: str | None, imap_url: str | None,
         smtp_url: str | None, imap_password_env: str, smtp_password_env: str) -> None:
    """Write a config file and an empty database. Without --imap/--smtp the
    judge reads and writes Maildir folders in its home; with them it uses
    those servers (passwords come from the environment, never the file).

    \b
    Example:
      judge init --home ./league
      judge init --home /var/lib/judge --address judge@example.org \\
        --imap imaps://judge@mail.example.org --smtp smtp://judge@mail.example.org
    """
    from judge import mailconfig
    from judge.service import Judge
    from judge.store import Store

    home = cfg.find_home(home_opt or ctx.obj.get("home"))
    servers = imap_url is not None or smtp_url is not None or address is not None
    if servers:
        if (home / cfg.CONFIG_NAME).exists():
            raise click.ClickException(f"{home / cfg.CONFIG_NAME} exists: edit it, or remove "
                                       "it and run init again")
        try:
            text = mailconfig.config_text(
                address,
                mailconfig.server_section(imap_url, "imap", imap_password_env)
                if imap_url else None,
                mailconfig.server_section(smtp_url, "smtp", smtp_password_env)
                if smtp_url else None,
            )
        except cfg.ConfigError as exc:
            raise click.ClickException(str(exc)) from exc
        home.mkdir(parents=True, exist_ok=True)
        (home / cfg.CONFIG_NAME).write_text(text, encoding="utf-8")
    path = cfg.init_home(home)
    try:
        config = cfg.load(home)
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    if config.postgres:  # the tables, in a database its operator made
        from judge.mailconfig import database_password

        Store.open(config.database, password=database_password(config)).close()
    elif not config.db_path.exists():  # init alone makes a database where one was
        Store.open(config.db_path).close()
    if imap_url or smtp_url:
        envs = [e for e, u in ((imap_password_env, imap_url), (smtp_password_env, smtp_url))
                if u and "@" in u.split("//", 1)[-1]]
        click.echo(f"wrote {path} and {config.db_path}"
                   + (f"; put the passwords into {' and '.join(envs)}" if envs else "")
                   + ", then run `judge check-mail`")
        return
    try:
        Judge.open(home).close()
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"wrote {path} and {home / 'judge.db'}; players write to the Maildir "
               f"{home / 'mail' / 'in'}")


@main.command("check-mail")
@click.option("--timeout", default=15.0, show_default=True, help="Seconds per connection.")
@click.pass_context
def check_mail(ctx: click.Context, timeout: float) -> None:
    """Log in to the configured IMAP and SMTP servers and say plainly what
    works and what is wrong (nothing is sent; missing Processed and Failed
    folders are created). With a local Maildir inbox, name any file left in
    the folder itself instead of its new/. Exits 1 if anything failed.

    \b
    Example:
      JUDGE_IMAP_PASSWORD=... JUDGE_SMTP_PASSWORD=... judge check-mail
    """
    from judge import mailconfig

    try:
        config = cfg.load(_home(ctx))
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    results = mailconfig.check_mail(config, timeout, say=lambda c: click.echo(str(c)))
    if not all(r.ok for r in results):
        ctx.exit(1)


@main.command("mail")
@click.argument("files", metavar="FILE|-", nargs=-1, required=True)
@click.option("--from", "sender", default=None, metavar="ADDRESS",
              help="The text is a mail's body, sent from ADDRESS (for a file that is "
                   "not a whole mail).")
@click.pass_context
def mail_(ctx: click.Context, files: tuple[str, ...], sender: str | None) -> None:
    """Put a mail in the judge's inbox (its Maildir new/ folder, written
    whole then moved in): a saved .eml file, or - for standard input. The
    next `judge serve` cycle reads it.

    \b
    Example:
      judge mail orders.eml
      printf 'JOIN spring26 France\\n' | judge mail --from marie@example.fr -
    """
    from judge.mail import maildrop

    try:
        config = cfg.load(_home(ctx))
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    if config.mail_in.get("transport") != "maildir":
        raise click.ClickException(
            f"the judge reads its mail from {config.mail_in.get('transport')}, not a local "
            f"Maildir: send the mail to {config.address} instead")
    folder = config.path(str(config.mail_in.get("path", "mail/in")))
    for name in files:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        try:
            mail = maildrop.as_mail(raw, sender, config.address)
        except maildrop.NotAMail as exc:
            raise click.ClickException(f"{'standard input' if name == '-' else name}: "
                                       f"{exc}") from exc
        path = maildrop.deliver(folder, mail)
        click.echo(f"{'standard input' if name == '-' else name} -> {path} "
                   "(`judge serve --once` reads it)")


@main.command()
@click.option("--once", is_flag=True, help="Do one full cycle and exit.")
@click.option("--check", is_flag=True,
              help="Check every report's JSON attachment against its view schema.")
@click.pass_context
def serve(ctx: click.Context, once: bool, check: bool) -> None:
    """Run the daemon: poll mail, handle it, run deadlines, relay the outbox.
    Only one may serve a home: a second one says which process holds the
    home's lock (judge.lock) and exits with status 1.

    \b
    Example:
      judge --home ./league serve --once
    """
    from judge import daemon, reports

    if check:
        reports.CHECK_VIEWS = True
    try:
        daemon.serve(_home(ctx), once=once, echo=logging.getLogger("judge").info)
    except (cfg.ConfigError, daemon.HomeLocked) as exc:
        raise click.ClickException(str(exc)) from exc


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
@click.option("--stale", "stale", type=click.FloatRange(min=0), metavar="SECONDS", default=None,
              help="Stale when the last cycle is older than this "
                   "(default: 3 x poll_seconds).")
@click.option("--queued", is_flag=True, help="List every mail waiting in the outbox too.")
@click.pass_context
def status(ctx: click.Context, as_json: bool, stale: float | None, queued: bool) -> None:
    """The daemon's health: when its last cycle ended, mails waiting in the
    inbox, the oldest mail queued in the outbox, the next deadline, the mails
    filed in Failed since the last one handled (how many, the last reason).
    Exits 1 when the last cycle is stale (or there was none) or the last
    cycle that read mail filed any in Failed, for a monitor to act on.

    \b
    Example:
      judge --home /var/lib/judge status --stale 300 || alert "judge is stuck"
    """
    from judge import health

    try:
        state = health.status(_home(ctx), stale, queued=queued)
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(json.dumps(state, sort_keys=True) if as_json else health.describe(state))
    if not state["ok"]:
        ctx.exit(1)


@main.group()
def clock() -> None:
    """The judge's clock: after a jump forward (limits.max_clock_jump_hours)
    no phase is processed until the operator confirms the clock is right.

    \b
    Example:
      judge --home /var/lib/judge status      # PHASES HELD: the clock moved ...
      judge --home /var/lib/judge clock confirm
    """


@clock.command("confirm")
@click.pass_context
def clock_confirm(ctx: click.Context) -> None:
    """Confirm the clock is right: phases held after a jump forward are
    processed again from the next cycle (their deadlines as they stand;
    extend a game's with the GM's EXTEND where players lost time).

    \b
    Example:
      judge --home /var/lib/judge clock confirm
    """
    judge = _open(ctx)
    try:
        held = judge.confirm_clock()
    finally:
        judge.close()
    click.echo(f"confirmed; it held: {held}" if held
               else "nothing was held; the clock's reading is recorded")


@main.group()
def game() -> None:
    """Create, list and show games.

    \b
    Example:
      judge game create league42 --game classic --option max_year=1910
    """


@game.command("create")
@click.argument("name")
@click.option("--game", "kind", required=True, help="The game kind (id or alias).")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A game option.")
@click.option("--gm", default="", help="The GM's address (default: the judge's own).")
@click.option("--no-mail", is_flag=True,
              help="Print the GM's token instead of mailing it to --gm.")
@click.pass_context
def game_create(ctx: click.Context, name: str, kind: str, options: tuple[str, ...],
                gm: str, no_mail: bool) -> None:
    """Create a game that players then JOIN by mail. With --gm the GM's
    token is mailed to that address (--no-mail prints it instead); without,
    the judge's own address is the GM and the token is printed.

    \b
    Example:
      judge game create league42 --game classic --option max_year=1910 --gm gm@example.org
    """
    from judge import lifecycle
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        opts: dict[str, str] = {}
        for item in options:
            if "=" not in item:
                raise click.BadParameter(f"{item!r} is not K=V", param_hint="--option")
            k, v = item.split("=", 1)
            opts[k] = v
        with judge.store.atomic():
            token = judge.create_game(name, kind, opts, gm or judge.config.address)
            mail = bool(gm) and not no_mail
            if mail:
                lifecycle.send(judge.outbox(), [lifecycle.operator_gm_notice(name, gm, token)])
        if mail:
            judge.relay()
            click.echo(f"created {name}; the GM's token was mailed to {gm.lower()}")
        else:
            click.echo(f"created {name}; GM token: {token}")
    except CommandError as exc:
        raise click.ClickException(exc.message + (f" ({exc.hint})" if exc.hint else "")) from exc
    finally:
        judge.close()


@game.command("seat")
@click.argument("name")
@click.argument("address")
@click.option("--role", default=None, help="The role wanted (default: by lot at START).")
@click.option("--no-mail", is_flag=True, help="Print the token instead of mailing it.")
@click.pass_context
def game_seat(ctx: click.Context, name: str, address: str, role: str | None,
              no_mail: bool) -> None:
    """Give ADDRESS a seat in a forming game; its token is mailed there
    (--no-mail prints it instead).

    \b
    Example:
      judge game seat league42 marie@example.fr --role France
    """
    from judge import lifecycle
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        with judge.store.atomic():
            token = judge.join(name, address, role)
            if not no_mail:
                lifecycle.send(judge.outbox(),
                               [lifecycle.operator_seat_notice(name, address, role, token)])
        if no_mail:
            click.echo(f"{address} joined {name}; token: {token}")
        else:
            judge.relay()
            click.echo(f"{address} joined {name}; the token was mailed there")
    except CommandError as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        judge.close()


@game.command("unseat")
@click.argument("name")
@click.argument("who")
@click.pass_context
def game_unseat(ctx: click.Context, name: str, who: str) -> None:
    """Before START: remove the seat of WHO (an address or a role asked for).

    \b
    Example:
      judge game unseat league42 stranger@example.net
    """
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        click.echo(f"{judge.unseat(name, who)} no longer has a seat in {name}")
        judge.relay()
    except CommandError as exc:
        raise click.ClickException(exc.message + (f" ({exc.hint})" if exc.hint else "")) from exc
    finally:
        judge.close()


@game.command("start")
@click.argument("name")
@click.pass_context
def game_start(ctx: click.Context, name: str) -> None:
    """Start a forming game (reports go out with the next `serve`).

    \b
    Example:
      judge game start league42
    """
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        with judge.store.atomic():
            for note in judge.start(name):
                click.echo(note)
    except CommandError as exc:
        raise click.ClickException(exc.message + (f" ({exc.hint})" if exc.hint else "")) from exc
    finally:
        judge.close()


@game.command("end")
@click.argument("name")
@click.option("--draw", "draw", default=None, metavar="ROLES",
              help="A draw shared by these seats (comma separated; ALL: every seat in it).")
@click.option("--win", "win", default=None, metavar="ROLE", help="This seat wins.")
@click.option("--cancel", is_flag=True, help="No result: the game counts for nobody.")
@click.pass_context
def game_end(ctx: click.Context, name: str, draw: str | None, win: str | None,
             cancel: bool) -> None:
    """End a running game with the result its GM declares (as END DRAW, END
    WIN and CANCEL GAME by mail); its league and pages record it and the
    final reports go out with the next `serve`. With --cancel, a game not
    yet started is cancelled: who joined is told, and it is open no more.

    \b
    Example:
      judge game end spring26 --draw France,England,Russia
      judge game end spring26 --cancel
    """
    from judge import grammar
    from judge.session import CommandError

    chosen = [x for x in ((draw, "draw"), (win, "win"), (cancel or None, "cancel"))
              if x[0] is not None]
    if len(chosen) != 1:
        raise click.UsageError("give one of --draw ROLES, --win ROLE or --cancel")
    value, result = chosen[0]
    names = grammar.split_roles(value) if isinstance(value, str) else []
    judge = _open(ctx)
    try:
        click.echo(judge.end_game(name, result, names))
    except CommandError as exc:
        raise _fail(exc) from exc
    finally:
        judge.close()


@game.command("list")
@click.pass_context
def game_list(ctx: click.Context) -> None:
    """List the games: name, kind, status, phase (- before START), seats
    taken, league.

    \b
    Example:
      judge game list
    """
    judge = _open(ctx)
    try:
        rows = [("GAME", "KIND", "STATUS", "PHASE", "SEATS", "LEAGUE")]
        for name in judge.store.game_names():
            row = judge.store.game(name)
            assert row is not None
            seats = [s for s in judge.store.seats(name) if s.status != "pending"]
            rows.append((name, row["game"], row["status"],
                         row["phase"] if row["table_json"] else "-", str(len(seats)),
                         judge.store.league_of(name) or "-"))
        if len(rows) == 1:
            click.echo("no games yet: judge game create NAME --game KIND, or CREATE by mail")
            return
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    finally:
        judge.close()


@game.command("show")
@click.argument("name")
@click.option("--as", "role", default=None,
              help="Whose view (default: observers; GM: every seat, the clock, settings).")
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON.")
@click.pass_context
def game_show(ctx: click.Context, name: str, role: str | None, as_json: bool) -> None:
    """Show a game as ROLE's report shows it, with what ROLE has on file
    for the decision open now and who still owes one.

    \b
    Example:
      judge game show league42 --as France
      judge game show league42 --as GM --json
    """
    from judge import gmview
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        row, g = judge.game_of(name)
        if role is not None and role.upper() == "GM":
            ws = judge.workspace()
            data = gmview.gm_status(ws, ws.get(name))
            click.echo(json.dumps(data, indent=2, sort_keys=True) if as_json
                       else gmview.gm_status_text(data))
            return
        if not row["table_json"]:
            seats = len(judge.store.seats(name))
            click.echo(f"{name} was cancelled by its GM before it started: {seats} seat(s) "
                       "had joined" if row["status"] == "cancelled"
                       else f"{name} is forming: {seats} seat(s)")
            return
        if role is not None:
            roles = {r.lower(): r for r in g.roles(judge.table(name).state)}
            if role.lower() not in roles:
                raise click.BadParameter(f"{name} has no role {role!r}; roles: "
                                         + ", ".join(roles.values()), param_hint="--as")
            role = roles[role.lower()]
        if as_json:
            click.echo(json.dumps(g.view(judge.table(name).state, role), indent=2,
                                  sort_keys=True))
        else:
            text, _ = judge.report_text(name, role)
            click.echo(text, nl=False)
            click.echo(judge.on_file_text(name, role))
    except CommandError as exc:
        raise click.ClickException(exc.message) from exc
    finally:
        judge.close()


@game.command("map")
@click.argument("name")
@click.option("--phase", default=None, metavar="P",
              help="The phase to draw, as the game names its turns (S1901M; set-up: the "
                   "start); the picture shows the position after it, with its orders. "
                   "Default: the position now.")
@click.option("--as", "role", default=None, metavar="ROLE",
              help="Whose view to draw (default: the observers'). Any seat may be named: "
                   "this is the operator's command, run on the judge's host, and shows "
                   "what that seat's own report shows, hidden facts of that seat included.")
@click.option("-o", "--output", "output", required=True, metavar="FILE.png|FILE.svg",
              help="Where to write the picture; its suffix gives the format.")
@click.pass_context
def game_map(ctx: click.Context, name: str, phase: str | None, role: str | None,
             output: str) -> None:
    """Draw a game's map (its picture) as a role's view sees it.

    Drawn from the game's view only, as the reports and public pages draw it:
    with no --as, only what observers may know. --as ROLE shows that seat's
    view; the operator may name any seat (players never reach this command,
    only the mail grammar, whose reports show each seat its own view).

    \b
    Example:
      judge game map spring26 --phase F1901M -o f1901.png
      judge game map spring26 --as France -o now.svg
    """
    from judge import pictures
    from judge.game import draw
    from judge.session import CommandError
    from judge.site import publish as site

    target = Path(output)
    fmt = target.suffix.lower().lstrip(".")
    if fmt not in pictures.FORMATS:
        raise click.BadParameter(f"{output!r}: the file must end in .png or .svg",
                                 param_hint="-o")
    judge = _open(ctx)
    try:
        try:
            row, g = judge.game_of(name)
        except CommandError as exc:
            raise click.BadParameter(exc.message, param_hint="NAME") from exc
        if not draw.supported(g.id):
            raise click.BadParameter(f"{name} is a game of {g.id}, which draws no map",
                                     param_hint="NAME")
        if not row["table_json"]:
            raise click.BadParameter(f"{name} is forming: it has no map before it starts",
                                     param_hint="NAME")
        state = judge.table(name).state
        label = row["phase"] or ""
        if phase is not None:
            turns = site.walk(g, judge.store.actions(name), bytes.fromhex(row["seed"]))
            found = [t for t in turns if t.label.lower() == phase.lower()]
            if not found:
                raise click.BadParameter(
                    f"{name} has no phase {phase!r}; its phases: "
                    + ", ".join(t.label for t in turns), param_hint="--phase")
            state, label = found[-1].state, found[-1].label
        if role is not None:
            roles = {r.lower(): r for r in g.roles(state)}
            if role.lower() not in roles:
                raise click.BadParameter(f"{name} has no role {role!r}; roles: "
                                         + ", ".join(roles.values()), param_hint="--as")
            role = roles[role.lower()]
        data = draw.picture(g.id, g.view(state, role), fmt=fmt)
    finally:
        judge.close()
    target.write_bytes(data)
    click.echo(f"wrote {target} ({fmt}, {len(data)} bytes): {name} {label}, "
               + (f"as {role} sees it" if role else "as observers see it"))


@main.group()
def league() -> None:
    """Leagues: games scored together, ratings, standbys.

    \b
    Example:
      judge league create autumn --scoring sum-of-squares --gm gm@example.org
    """


def _fail(exc: CommandError) -> click.ClickException:
    return click.ClickException(exc.message + (f" ({exc.hint})" if exc.hint else ""))


@league.command("create")
@click.argument("name")
@click.option("--scoring", type=click.Choice(sorted(SCORING)),
              default=DEFAULT_SCORING, show_default=True,
              help="How a game's result becomes points.")
@click.option("--gm", default="", help="The league's GM (default: the judge's own address).")
@click.pass_context
def league_create(ctx: click.Context, name: str, scoring: str, gm: str) -> None:
    """Create a league. Its GM puts games in it (LEAGUE <name> by mail before
    START, or `judge league add`) and is offered standbys for seats left.

    \b
    Example:
      judge league create autumn --scoring draw-size --gm gm@example.org
    """
    from judge.commands import league as league_commands
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        with judge.store.atomic():
            made = league_commands.create_league(judge, name, scoring,
                                                 gm or judge.config.address)
        click.echo(f"created league {made} ({scoring} scoring)")
    except CommandError as exc:
        raise _fail(exc) from exc
    finally:
        judge.close()


@league.command("add")
@click.argument("name")
@click.argument("game_name", metavar="GAME")
@click.pass_context
def league_add(ctx: click.Context, name: str, game_name: str) -> None:
    """Put a forming GAME in league NAME (whoever its GM is).

    \b
    Example:
      judge league add autumn spring26
    """
    from judge.commands import league as league_commands
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        row, _ = judge.game_of(game_name)
        with judge.store.atomic():
            made = league_commands.add_game(judge, name, row["name"], row["status"])
        click.echo(f"{row['name']} is a game of league {made}")
    except CommandError as exc:
        raise _fail(exc) from exc
    finally:
        judge.close()


@league.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print it as JSON.")
@click.pass_context
def league_show(ctx: click.Context, name: str, as_json: bool) -> None:
    """Print a league's games, standings, ratings, reliability and standby list.

    \b
    Example:
      judge league show autumn
    """
    from judge.commands import league as league_commands
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        with judge.store.atomic():  # a finished game's summary is kept on first use
            if as_json:
                text = json.dumps(league_commands.show_json(judge, name), indent=2,
                                  sort_keys=True) + "\n"
            else:
                text = league_commands.show(judge, name)
        click.echo(text, nl=False)
    except CommandError as exc:
        raise _fail(exc) from exc
    finally:
        judge.close()


@league.command("list")
@click.pass_context
def league_list(ctx: click.Context) -> None:
    """List the leagues: name, scoring, GM, games.

    \b
    Example:
      judge league list
    """
    judge = _open(ctx)
    try:
        for row in judge.store.leagues():
            games = judge.store.league_games(row["name"])
            click.echo(f"{row['name']}\t{row['scoring']}\t{row['gm_address']}\t"
                       + (",".join(games) or "-"))
    finally:
        judge.close()


@main.command()
@click.argument("name")
@click.option("--from-snapshot", is_flag=True,
              help="Start from the latest snapshot (fast; checks only what followed it).")
@click.pass_context
def replay(ctx: click.Context, name: str, from_snapshot: bool) -> None:
    """Rebuild a game from its action log; fail loudly if it differs.

    \b
    Example:
      judge replay league42
    """
    from judge.game import adjudicator as adj
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        click.echo(judge.replay_check(name, full=not from_snapshot))
    except (adj.ReplayError, CommandError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        judge.close()


@main.command()
@click.argument("name")
@click.pass_context
def verify(ctx: click.Context, name: str) -> None:
    """Recompute every random draw of a finished game from its revealed seed.

    \b
    Example:
      judge verify league42
    """
    from judge.game import adjudicator as adj
    from judge.game.rng import VerifyError
    from judge.session import CommandError

    judge = _open(ctx)
    try:
        click.echo(judge.verify(name))
    except CommandError as exc:
        raise click.ClickException(exc.message) from exc
    except (VerifyError, adj.ReplayError) as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        judge.close()


@main.command()
@click.argument("folder", metavar="[DIR]", required=False)
@click.option("--pictures", type=click.Choice(["svg", "png"]), default=None,
              help="The maps' format (default: [publish] pictures, else svg).")
@click.option("--force", is_flag=True, help="Render every page again, changed or not.")
@click.pass_context
def publish(ctx: click.Context, folder: str | None, pictures: str | None, force: bool) -> None:
    """Write the public pages of every game (observer's view only) into DIR
    (default: [publish] dir of judge.toml). On a terminal it shows which
    game it is at.

    \b
    Example:
      judge publish /var/www/judge
      judge publish            # into [publish] dir
    """
    from judge.site import publish as site

    judge = _open(ctx)
    try:
        target = Path(folder) if folder else judge.config.publish_path
        if target is None:
            raise click.UsageError("name the folder (judge publish DIR) or set [publish] dir")
        progress = site.terminal_progress(sys.stderr)
        done = site.publish(judge, target, fmt=pictures or judge.config.publish_pictures,
                            draw=site.default_draw(), force=force, progress=progress)
        if progress is not None:
            progress.clear()
        click.echo(done.line(target))
    finally:
        judge.close()


@main.command("backup")
@click.argument("file", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def backup_cmd(ctx: click.Context, file: Path) -> None:
    """Write a backup of the database (an online, consistent copy, safe
    while the judge serves) and the home's token.key into one FILE,
    readable by its owner only.

    \b
    Example:
      judge backup /var/backups/judge/judge-$(date +%F-%H%M).tar
    """
    from judge import store
    from judge.store import backup

    try:
        config = cfg.load(_home(ctx))
        if config.postgres:  # a logical dump of the judge's tables
            from judge.store import pgbackup

            made = pgbackup.backup(config, file)
        else:
            backup.check_database(config.db_path, config.home)
            if not config.db_path.exists():
                raise click.ClickException(f"{config.db_path}: no database to back up")
            made = backup.backup(config.db_path, config.home, file)
    except cfg.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    except Exception as exc:
        if not isinstance(exc, OSError | store.Error) and not store.is_fault(exc):
            raise
        raise click.ClickException(f"the backup to {file} failed: {exc}") from exc
    click.echo(f"wrote {file}: the database as of {made.made.isoformat()} "
               f"(schema {made.schema}) and token.key")


@main.command("restore")
@click.argument("file", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--extend-hours", default=24.0, show_default=True,
              help="Deadlines that passed since the backup, or fall sooner, move this far "
                   "from now, so players can send again what was undone.")
@click.pass_context
def restore_cmd(ctx: click.Context, file: Path, extend_hours: float) -> None:
    """Put the backup FILE in place of the database (the judge must be
    stopped; the database replaced is kept beside it, renamed), and carry
    on from it: everything done after the backup is undone, and every seat
    and GM of a running game, and everyone written to since, is told to
    send again what they sent since.

    \b
    Example:
      systemctl stop judge
      judge restore /var/backups/judge/judge-2026-03-01-0300.tar
      systemctl start judge
    """
    from judge import daemon
    from judge.store import backup

    home = _home(ctx)
    try:
        config = cfg.load(home)
        with daemon.HomeLock(home):
            if config.postgres:
                from judge.store import pgbackup

                lines = pgbackup.restore(home, file, extend_hours=extend_hours)
            else:
                lines = backup.restore(home, file, extend_hours=extend_hours)
            for line in lines:
                click.echo(line)
    except (cfg.ConfigError, daemon.HomeLocked) as exc:
        raise click.ClickException(str(exc)) from exc


@main.command()
def adjudicate() -> None:
    """Adjudicate positions offline: one JSON document per line on stdin, one
    result per line on stdout (for tools). The document's "game" names the game.

    \b
    Example:
      echo '{"game": "classic", "phase": "S1901M", "orders": {"FRANCE": ["A PAR - BUR"]}}' \\
        | judge adjudicate
    """
    from judge.game.offline import adjudicate_stream

    sys.exit(adjudicate_stream(sys.stdin, sys.stdout))


class _DemoCommand(click.Command):
    """``judge demo --help`` lists the games (read only when help is asked)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from judge.game import registry

        with formatter.section("Games"):
            formatter.write_dl([(g.id, g.title) for g in registry.available()])
        super().format_epilog(ctx, formatter)


@main.command(cls=_DemoCommand)
@click.option("--game", "kind", default="classic", show_default=True,
              help="Which game to play (an id or alias; the games are listed below).")
@click.option("--phases", default=6, show_default=True,
              help="How many phases to play from the start (every decision counts: in "
                   "classic S1901M, F1901M, the retreats and adjustments that follow...).")
@click.option("--keep", is_flag=True, help="Keep the temporary folder and print its path.")
@click.option("--all", "everything", is_flag=True,
              help="Print every mail in full, and the judge's log lines (default: the "
                   "first seat's mails in full, every other mail in one line).")
def demo(kind: str, phases: int, keep: bool, everything: bool) -> None:
    """Play a short real game by mail through the Maildir transport in a
    temporary folder: a GM creates it, the players JOIN, the GM starts it and
    every seat mails legal orders each phase.

    \b
    Example:
      judge demo --game classic --phases 4
      judge demo --game kingdom_wars --all
    """
    from judge.demo import run_demo
    from judge.game import registry

    try:
        run_demo(kind, phases, keep, click.echo, everything=everything)
    except registry.UnknownGame as exc:
        raise click.ClickException(str(exc)) from exc
