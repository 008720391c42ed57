"""A mail's write transaction queues its reports as data; their text,
pictures and MIME are made after the commit (DESIGN.md, "How a mail is
handled", step 6), so the write lock is held for the game's change and
the queue rows only.

Shown through a classic game played by mail on the Maildir transports:
the last orders of a phase resolve it and queue the reports of all seven
powers, each with its JSON view and its map.
"""

from __future__ import annotations

import email
import email.policy
import json
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.support.classic_mail import ClassicByMail, address
from judge import outbox, pictures, reports
from judge.game import draw as by_id
from judge.mail import mailout
from judge.service import Crash, Judge
from tests.core.conftest import Clock


@pytest.fixture
def game(judge: Judge, home: Path, clock: Clock) -> Iterator[ClassicByMail]:
    g = ClassicByMail(judge, home, clock, name="g1")
    g.setup(max_year=1905)
    yield g


def _last_orders(g: ClassicByMail) -> bytes:
    """Every power but one sends its orders (handled); the last one's mail,
    which resolves the phase."""
    owing = sorted(g.owing())
    g.send_orders(owing[1:])
    g.cycle()
    last = owing[0]
    return g.raw(address(last), g.orders_body(last, g.orders(last)), "orders")


def test_pictures_and_mime_are_made_outside_the_write_transaction(
        game: ClassicByMail, judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = judge.store.db.conn
    drawn: list[bool] = []
    composed: list[bool] = []
    draw, compose = by_id.picture, mailout.compose  # what outbox calls as compose

    def drawing(*args: Any, **kw: Any) -> bytes:  # a spy: passes on whatever it is given
        drawn.append(conn.in_transaction)
        return draw(*args, **kw)

    def composing(mail: mailout.OutgoingMail) -> bytes:
        composed.append(conn.in_transaction)
        return compose(mail)

    monkeypatch.setattr(by_id, "picture", drawing)
    monkeypatch.setattr(outbox, "compose", composing)
    raw = _last_orders(game)
    phase = game.phase()
    before = len(judge.store.outbox())
    drawn.clear()
    composed.clear()
    judge.handle("last-orders", raw)
    assert game.phase() != phase
    queued = judge.store.outbox()[before:]
    reports = [r for r in queued if r["kind"] == "report"]
    assert len(reports) == 7
    # Committed: every row queued as its spec, nothing drawn or composed yet.
    assert drawn == [] and composed == []
    assert all(r["raw"] is None and r["kept"] is None and r["spec"] for r in queued)
    judge.relay()
    assert drawn and not any(drawn)
    assert len(composed) == 2 * len(queued) and not any(composed)  # the mail and its kept copy
    rows = {r["message_id"]: r for r in judge.store.outbox()}
    for row in queued:
        sent = rows[row["message_id"]]
        assert sent["status"] == "sent" and sent["spec"] is None and sent["raw"]
    # The player's report carries its view and its map, shown inline.
    delivered = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                 for p in sorted((game.home / "mail" / "out").glob("*/*"))]
    ours = [m for m in delivered if m["Message-ID"] == reports[0]["message_id"]]
    assert len(ours) == 1
    names = [name for part in ours[0].walk() if (name := part.get_filename())]
    assert any(n.endswith(".json") for n in names) and any(n.endswith(".png") for n in names)


def test_report_text_is_rendered_after_the_commit_from_the_queued_data(
        game: ClassicByMail, judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """The transaction keeps each report's data (its reader, the events it
    may see, the deadline, what it owes) and its view; the text is rendered
    from them when the mail is composed, and it is the text the reader gets."""
    conn = judge.store.db.conn
    rendered: list[bool] = []
    game_report = reports.game_report

    def rendering(*args: Any, **kw: Any) -> str:  # a spy: passes on whatever it is given
        rendered.append(conn.in_transaction)
        return game_report(*args, **kw)

    monkeypatch.setattr(reports, "game_report", rendering)
    raw = _last_orders(game)
    before = len(judge.store.outbox())
    rendered.clear()
    judge.handle("last-orders", raw)
    queued = [r for r in judge.store.outbox()[before:] if r["kind"] == "report"]
    assert len(queued) == 7
    assert rendered == []  # no report's text was made while the write lock was held
    specs = {r["message_id"]: json.loads(r["spec"]) for r in queued}
    assert all(s["mail"]["body"] == "" and s["report"]["role"] for s in specs.values())
    # (a judge that would send a report's spec without its text refuses the version)
    assert {s["v"] for s in specs.values()} == {outbox.REPORT_SPEC_VERSION}
    # What a reply may quote (the outbox's copy) is that same text, rendered on demand.
    texts = {m: outbox.body_of(r["spec"]) for m, r in zip(specs, queued, strict=True)}
    rendered.clear()
    judge.relay()
    assert rendered and not any(rendered)
    for path in (game.home / "mail" / "out").glob("*/*"):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if str(msg["Message-ID"]) not in texts:
            continue
        body = msg.get_body(("plain",))
        assert body is not None
        text = body.get_content()
        assert text == texts.pop(str(msg["Message-ID"]))
        role = specs[str(msg["Message-ID"])]["report"]["role"]
        assert f"report for {role}" in text and "Deadline: " in text and "You owe: " in text
    assert texts == {}  # each report delivered, with the text it was queued as


def test_the_reports_take_the_new_entries_as_written_not_read_back(
        game: ClassicByMail, judge: Judge, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write that resolves a phase hands its new log entries (with their
    events) to the reports it queues: the log is read only for entries
    written before it, which a seat has not seen yet."""
    raw = _last_orders(game)
    last_before = judge.store.last_action("g1")
    read: list[int] = []
    actions_after = judge.store.actions_after

    def reading(name: str, n: int, before: int | None = None) -> list[dict[str, object]]:
        rows = actions_after(name, n, before)
        read.extend(int(r["n"]) for r in rows)
        return rows

    monkeypatch.setattr(judge.store, "actions_after", reading)
    judge.handle("last-orders", raw)
    assert judge.store.last_action("g1") > last_before  # the phase was resolved and logged
    assert all(n <= last_before for n in read), (read, last_before)
    reports_queued = [r for r in judge.store.outbox() if r["kind"] == "report"
                      and r["spec"] is not None]
    assert len(reports_queued) == 7
    # ... and each report still tells its reader what the resolution did.
    for row in reports_queued:
        assert json.loads(row["spec"])["report"]["events"]


def _delivered(home: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in (home / "mail" / "out").glob("*/*"):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert str(msg["Message-ID"]) not in out  # never twice
        out[str(msg["Message-ID"])] = path.read_bytes()
    return out


def test_a_mail_queued_but_not_composed_is_composed_after_a_restart(
        game: ClassicByMail, judge: Judge, home: Path, clock: Clock, tmp_path: Path) -> None:
    raw = _last_orders(game)
    game.deliver(address("Austria"), "HELP\n", "help")  # a reply behind it
    (home / "mail" / "in" / "new" / "last.bench:2,").write_bytes(raw)

    def crash(point: str) -> None:
        if point == "composed":
            raise Crash(point)

    judge.fault = crash
    with pytest.raises(Crash):
        judge.cycle()  # killed once the first row is composed
    judge.close()
    look = Judge.open(home, now=clock)
    waiting = [r for r in look.store.outbox() if r["raw"] is None]
    look.close()
    assert len(waiting) >= 7 and all(r["spec"] and r["status"] == "queued" for r in waiting)
    twin = tmp_path / "twin"  # the same home, composed by another process later
    shutil.copytree(home, twin)

    again = Judge.open(home, now=clock)  # the restart
    again.cycle()
    rows = {r["message_id"]: r for r in again.store.outbox()}
    assert all(rows[r["message_id"]]["status"] == "sent" for r in waiting)
    assert all(r["spec"] is None for r in rows.values())
    delivered = _delivered(home)
    again.close()

    other = Judge.open(twin, now=clock)
    try:
        by_id._picture_cache.clear()  # drawn afresh
        pictures._png_cache.clear()
        assert other.relayer.compose() == len(waiting)
        composed = {r["message_id"]: bytes(r["raw"]) for r in other.store.outbox()
                    if r["status"] == "queued"}
    finally:
        other.close()
    for row in waiting:  # each sent once, under its Message-ID, as composed anywhere
        message_id = row["message_id"]
        head = (f"Return-Path: <{row['envelope_from']}>\n"
                f"Delivered-To: {row['to_addr']}\n").encode()
        assert delivered[message_id] == head + composed[message_id].replace(b"\r\n", b"\n")


def test_a_mail_that_cannot_be_composed_fails_alone(
        game: ClassicByMail, judge: Judge, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    raw = _last_orders(game)
    judge.handle("last-orders", raw)
    queued = [r for r in judge.store.outbox() if r["raw"] is None]

    def broken(*args: object, **kw: object) -> bytes:
        raise RuntimeError("the drawing broke")

    monkeypatch.setattr(by_id, "picture", broken)
    with caplog.at_level(logging.ERROR, logger="judge"):
        judge.relay()
    rows = {r["message_id"]: r for r in judge.store.outbox()}
    reports = [rows[r["message_id"]] for r in queued if r["kind"] == "report"]
    others = [rows[r["message_id"]] for r in queued if r["kind"] != "report"]
    assert reports and all(r["status"] == "failed" and r["spec"] is None
                           and "the drawing broke" in r["last_error"] for r in reports)
    assert others and all(r["status"] == "sent" for r in others)  # the acknowledgement went
    assert "could not be composed" in caplog.text
    monkeypatch.undo()
    judge.relay()  # and the failed ones are not tried again
    kept = [judge.store.mail_by_message_id(r["message_id"]) for r in reports]
    assert all(row is not None and row["status"] == "failed" for row in kept)
