"""What every command handler works with, and the table that binds them.

A handler is ``handler(ctx, command) -> None``: it changes the games of
``ctx.ws`` in memory (never the database directly), adds its line's result
to ``ctx.mail`` and raises :class:`~judge.session.CommandError` or a
:class:`~judge.game.engine.RuleError` to refuse its line (which then changed
nothing). :func:`handles` binds a handler to the name of its
:class:`~judge.grammar.CommandSpec`; :data:`HANDLERS` is the table the
pipeline runs, and a test checks that every spec of the grammar has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from judge import grammar
from judge.mail import redact
from judge.mail.bounds import MAX_ECHO_CHARS, echo
from judge.mail.mailin import IncomingMail
from judge.session import CommandError, Loaded, Workspace
from judge.store import Seat

if TYPE_CHECKING:
    from judge.hub import Hub

GM = "GM"



@dataclass
class Row:
    number: int
    text: str
    result: str


@dataclass
class ErrorRow:
    number: int
    text: str
    message: str
    hint: str = ""


@dataclass
class Signon:
    game: str
    role: str  # a game role, or "GM"
    address: str
    seat: Seat | None


@dataclass
class MailSession:
    """What one mail did: echoed rows, errors, extra sections for the ack."""

    mail: IncomingMail
    now: datetime
    rows: list[Row] = field(default_factory=list)
    errors: list[ErrorRow] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    signon: Signon | None = None
    reply_to: str | None = None
    touched: set[str] = field(default_factory=set)
    first_signon: Signon | None = None
    answers: str = ""
    """The decision the mail replies to (its In-Reply-To names a request for it)."""
    notices: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    """What the GM's commands in this mail tell each player, by (game,
    address): (headline, text) in order; sent as one mail each at the end."""
    bound_checked: bool = False
    bound_stale: bool = False
    """Whether the decision it replies to was found over (then none of its
    game lines is taken)."""
    echo: int = MAX_ECHO_CHARS
    """How much of a line the acknowledgement quotes (``limits.max_echo_chars``)."""

    def ok(self, line: grammar.Line, result: str, text: str | None = None) -> None:
        shown = echo(redact.mask_secrets(text if text is not None else line.text), self.echo)
        self.rows.append(Row(line.number, shown, result))

    def error(
        self, line: grammar.Line, message: str, hint: str = "", text: str | None = None
    ) -> None:
        shown = echo(redact.mask_secrets(text if text is not None else line.text), self.echo)
        self.rows.append(Row(line.number, shown, "not accepted (see below)"))
        self.errors.append(ErrorRow(line.number, shown, message, hint))


@dataclass
class Ctx:
    """One mail at work: the judge, its workspace of games, the mail's record."""

    judge: Hub
    ws: Workspace
    mail: MailSession

    @property
    def message_id(self) -> str:
        return self.mail.mail.message_id

    def signed(self, gm: bool = False) -> Signon:
        s = self.mail.signon
        if s is None:
            raise CommandError("sign on first", "start with SIGNON <game> <role> <token>")
        if gm and s.role != GM:
            raise CommandError(
                "only the game master may do this", f"sign on with SIGNON {s.game} GM <token>"
            )
        if not gm and s.role == GM:
            raise CommandError("the GM has no seat to act for", "sign on as a player")
        return s

    def seat_game(self) -> tuple[Signon, Loaded, Seat]:
        """The signed-on player's game and seat (as loaded by this mail)."""
        s = self.signed()
        g = self.ws.get(s.game)
        signed = s.seat
        seat = next((x for x in g.seats if signed is not None and x.id == signed.id), None)
        seat = seat or g.seat(s.role)
        if seat is None:
            raise CommandError(f"{s.role} has no seat in {s.game} yet",
                               "the start report gives every seat its role")
        return s, g, seat

    def gm_game(self) -> tuple[Signon, Loaded]:
        s = self.signed(gm=True)
        return s, self.ws.get(s.game)


Handler = Callable[[Ctx, grammar.Command], None]

#: Command name (as in :data:`judge.grammar.COMMANDS`, ``GAME`` for game lines)
#: to its handler.
HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Bind the decorated handler to these command names."""

    def bind(fn: Handler) -> Handler:
        for name in names:
            if name in HANDLERS:
                raise AssertionError(f"{name} is bound twice")
            HANDLERS[name] = fn
        return fn

    return bind


def check_press_size(ctx: Ctx, subject: str, body: str) -> None:
    """Refuse a press whose mail would be larger than ``limits.max_out_bytes``
    (its text and HTML parts together): a mail server would bounce it, and
    the seat would be marked as bouncing. Nothing is sent or counted."""
    limit = ctx.judge.config.max_out_bytes
    size = ctx.ws.outbox.size(subject, body)
    if size > limit:
        raise CommandError(
            f"this press would make a mail of {size:,} bytes, and the judge sends mails of "
            f"at most {limit:,} bytes (limits.max_out_bytes)",
            "send a shorter press, or split it into several")
