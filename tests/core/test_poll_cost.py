"""What keeps a poll's cost flat: known tokens (an HMAC under the home's key
instead of a scrypt, in any later run), the outbox read a page at a time
without its texts, and sent mail kept only as a redacted copy for
``judge.keep_sent_days``."""

from __future__ import annotations

import hashlib
import stat
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from judge import store as store_module
from judge.game import scheduler
from judge.mail.mailout import Attachment
from judge.relay import Ledger
from judge.service import TOKEN_KEY_FILE, Judge
from judge.store import Store, hash_token, load_token_key, new_token

from .conftest import Clock, Post
from .helpers import start_sealed


def _count_scrypt(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = hashlib.scrypt

    def counting(*args: Any, **kw: Any) -> bytes:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(hashlib, "scrypt", counting)
    return calls


def test_a_known_token_costs_no_scrypt_in_a_later_run(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    token = new_token()
    stored = hash_token(token)
    key_path = tmp_path / "token.key"
    first = Store.open(tmp_path / "j.db")
    first.token_key = load_token_key(key_path)
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    calls = _count_scrypt(monkeypatch)
    assert first.check_token(token, stored) and len(calls) == 1
    first.close()
    store_module._VERIFIED.clear()  # a new process: nothing remembered in memory
    later = Store.open(tmp_path / "j.db")
    later.token_key = load_token_key(key_path)
    assert later.check_token(token, stored) and len(calls) == 1  # the tag, not scrypt
    assert not later.check_token(token + "x", stored) and len(calls) == 2  # a guess pays
    # The database holds no token and nothing a guess could be checked
    # against without the key: a tag made under another key never matches.
    tags = [r["tag"] for r in later.db.query("select tag from token_tags")]
    assert len(tags) == 1 and token not in tags[0]
    store_module._VERIFIED.clear()
    later.token_key = b"k" * 32
    assert later.check_token(token, stored) and len(calls) == 3
    later.close()


def test_the_judge_keeps_its_token_key_in_the_home(judge: Judge, home: Path) -> None:
    key = home / TOKEN_KEY_FILE
    assert judge.store.token_key == key.read_bytes()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_bytes() not in (home / "judge.db").read_bytes()


def test_due_mail_comes_a_page_at_a_time_without_its_text(judge: Judge) -> None:
    for i in range(5):
        judge.outbox().queue(f"p{i}@players.example", "hello", "body\n", "notice")
    now = scheduler.iso(judge.now())
    page = Ledger(judge.store).due_mail(now, limit=2)
    assert len(page) == 2 and all(k not in r for r in page for k in ("raw", "kept", "spec"))
    rest = Ledger(judge.store).due_mail(now, after=page[-1]["id"])
    assert [r["id"] for r in page + rest] == [r["id"] for r in judge.store.outbox()]
    assert Ledger(judge.store).mail_texts([r["id"] for r in rest]) == {}  # composed by the relay
    assert judge.relayer.compose() == 5
    texts = Ledger(judge.store).mail_texts([r["id"] for r in rest])
    assert all(b"body" in texts[r["id"]] for r in rest)


def test_sent_mail_is_kept_redacted_then_deleted(judge: Judge, post: Post,
                                                 clock: Clock) -> None:
    token = new_token()
    judge.outbox().queue("p@players.example", "your seat", f"Your token is: {token}\n", "notice",
                     attachments=[Attachment("view.json", "application/json", b'{"a": 1}')])
    judge.relay()
    delivered = post.new()
    assert len(delivered) == 1 and token in post.text(delivered[0])
    row = judge.store.outbox("sent")[-1]
    assert token.encode() not in row["raw"] and b'{"a": 1}' not in row["raw"]
    assert b"view.json" in row["raw"]  # named, not kept
    clock.advance(days=judge.config.keep_sent_days - 1)
    assert judge.prune(every=timedelta(0)) == 0
    clock.advance(days=2)
    assert judge.prune(every=timedelta(0)) >= 1
    assert judge.store.outbox("sent") == []


def test_a_game_plays_on_after_the_outbox_is_pruned(judge: Judge, post: Post,
                                                    clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    clock.advance(days=judge.config.keep_sent_days + 1)
    judge.prune(every=timedelta(0))
    assert judge.store.outbox() == []
    post.read = 0  # Post counts the outbox's rows; they are gone
    role, addr = next(iter(seats.addresses.items()))
    post.deliver(post.raw(addr, f"SIGNON g1 {role} {seats.tokens[role]}\nSTATUS\n"))
    judge.cycle()
    assert judge.store.inbox()[-1]["status"] == "processed"
    replies = [m for m in post.new() if m["To"] == addr and m["Subject"].startswith("Re:")]
    assert len(replies) == 1 and "North" in post.text(replies[0])
