"""One mail loads each game it touches once (DESIGN.md, "Mail pipeline";
judge/session.py): while the judge handles one mail of a seven-seat classic
Diplomacy game, the game's row (``Store.game``), its seats (``Store.seats``)
and its clock (``Store.deadline``) are each read at most once, by the one
:class:`~judge.session.Workspace` the pipeline also hands to authentication;
and the mail that makes the phase resolve computes one ``view()`` per seat it
sends a report to, and no other.

The game is set up by mail (CREATE, seven JOINs, START); the mails counted
are real RFC 5322 messages handed to :meth:`Judge.handle`.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench.support.classic_mail import ClassicByMail, Clock, address
from judge import pipeline
from judge.game import registry
from judge.game.engine import JSON, Role, State
from judge.service import Judge
from judge.session import Workspace

GAME = "g1"
COUNTED = ("game", "seats", "deadline")
JUDGE_DIR = Path(pipeline.__file__).resolve().parent


def _where() -> str:
    """The judge's frames that led to a call: ``file:line function`` innermost last."""
    frames = [f for f in traceback.extract_stack()[:-2]
              if Path(f.filename).resolve().is_relative_to(JUDGE_DIR)]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames))


@dataclass
class Reads:
    """Calls of the counted store methods: (method, game, where from)."""

    calls: list[tuple[str, str, str]] = field(default_factory=list)
    views: list[tuple[Role | None, str]] = field(default_factory=list)
    workspaces: dict[str, list[int]] = field(default_factory=dict)

    def clear(self) -> None:
        self.calls.clear()
        self.views.clear()
        self.workspaces.clear()

    def of(self, method: str, game: str = GAME) -> list[str]:
        return [where for m, g, where in self.calls if m == method and g == game]

    def seen(self, what: str, ws: Workspace) -> None:
        self.workspaces.setdefault(what, []).append(id(ws))


@pytest.fixture
def classic(judge: Judge, home: Path, clock: Clock) -> ClassicByMail:
    game = ClassicByMail(judge, home, clock, name=GAME)
    game.setup(max_year=1910)
    assert game.phase() == "S1901M" and len(game.owing()) == 7
    return game


@pytest.fixture
def reads(judge: Judge, monkeypatch: pytest.MonkeyPatch) -> Iterator[Reads]:
    got = Reads()
    store = judge.store
    for method in COUNTED:
        original: Callable[..., Any] = getattr(store, method)

        def counted(name: str, *args: Any, _m: str = method,
                    _o: Callable[..., Any] = original, **kw: Any) -> Any:
            got.calls.append((_m, name, _where()))
            return _o(name, *args, **kw)

        monkeypatch.setattr(store, method, counted)
    game = registry.get("classic")
    view = game.view

    def counted_view(state: State, role: Role | None) -> dict[str, JSON]:
        got.views.append((role, _where()))
        return view(state, role)

    monkeypatch.setattr(game, "view", counted_view)
    authenticate = pipeline.authenticate

    def counted_authenticate(judge: Judge, ws: Workspace, *args: Any) -> str | None:
        got.seen("authenticate", ws)
        return authenticate(judge, ws, *args)

    monkeypatch.setattr(pipeline, "authenticate", counted_authenticate)
    flush = Workspace.flush

    def counted_flush(ws: Workspace) -> None:
        got.seen("flush", ws)
        flush(ws)

    monkeypatch.setattr(Workspace, "flush", counted_flush)
    yield got


def _handle(classic: ClassicByMail, reads: Reads, role: str) -> None:
    """``role``'s whole ORDERS block in one real mail, handed to the judge
    (the mail is written first: only its handling is counted)."""
    raw = classic.raw(address(role), classic.orders_body(role, classic.orders(role)))
    reads.clear()
    line = classic.judge.handle(f"one-load-{classic.count}", raw)
    assert "processed:" in line and " 0 errors" in line, line


def _assert_loaded_once(reads: Reads) -> None:
    for method in COUNTED:
        where = reads.of(method)
        assert len(where) == 1, f"Store.{method}({GAME!r}) read {len(where)} times: {where}"
    # The one read is the workspace's, and authentication used that workspace:
    # the one the commands ran in and that wrote the mail's changes.
    assert all("session.py" in w and "find" in w for m in COUNTED for w in reads.of(m))
    assert reads.workspaces["authenticate"] == reads.workspaces["flush"], reads.workspaces
    assert len(reads.workspaces["flush"]) == 1


def test_an_orders_mail_reads_its_game_seats_and_clock_once(
        classic: ClassicByMail, reads: Reads) -> None:
    role = sorted(classic.owing())[0]
    _handle(classic, reads, role)
    _assert_loaded_once(reads)
    assert role in classic.table().submitted
    assert classic.phase() == "S1901M"
    # Orders are held, nothing is reported: no view is computed for them.
    assert reads.views == []


def test_the_mail_that_resolves_a_phase_reads_once_and_views_once_per_report(
        classic: ClassicByMail, reads: Reads) -> None:
    roles = sorted(classic.owing())
    last = roles[-1]
    classic.send_orders(roles[:-1])  # six powers' orders through the inbox
    classic.cycle()
    assert classic.owing() == {last}
    queued = len(classic.judge.store.outbox())
    _handle(classic, reads, last)
    new_mail = classic.judge.store.outbox()[queued:]
    reports = [r for r in new_mail if r["kind"] == "report"]
    views = list(reads.views)
    _assert_loaded_once(reads)
    assert classic.phase() == "F1901M"
    # Every seat gets the digest of Spring 1901, which asks for its autumn
    # orders: seven reports, each from its seat's one view (the JSON
    # attachment is that same view), and no other view.
    assert sorted(r["to_addr"] for r in reports) == sorted(address(r) for r in roles)
    assert len(views) <= len(reports) == 7, views
    assert sorted(str(role) for role, _ in views) == sorted(roles), views
    assert all("notify.py" in where and "report_of" in where for _, where in views), views
