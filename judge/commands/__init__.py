"""The judge's command handlers, one module per family, bound by name in
:data:`HANDLERS` (see :mod:`judge.commands.base`)."""

from judge.commands import gm, league, player, setup
from judge.commands.base import HANDLERS, Ctx, ErrorRow, MailSession, Row, Signon, handles

__all__ = ["HANDLERS", "Ctx", "ErrorRow", "MailSession", "Row", "Signon", "gm", "handles",
           "league", "player", "setup"]
