"""Every mail of the real-world corpus (tests/mail/corpus) through the whole
judge: each gets exactly the treatment its ``pipeline`` entry names.

The corpus game is a classic Diplomacy game ``corpus`` in which France
(marie@example.fr) and England (john@example.co.uk) hold the tokens the
corpus mails use; the other powers are seated too. The mails arrive in file
order, eleven minutes apart (days apart, in real life), except that a resend
of a body comes a minute after its original, as a duplicate delivery does.
"""

from __future__ import annotations

import pytest

from judge.game import registry
from judge.store import hash_token
from tests.core.conftest import Clock, Post
from tests.mail.test_corpus import EXPECTED, FILES, raw_of

SEATS = {"France": ("marie@example.fr", "frtoken-7Q2x"),
         "England": ("john@example.co.uk", "entoken-9Kd4")}


@pytest.fixture
def corpus_game(post: Post) -> Post:
    judge = post.judge
    judge.config.address = "judge@pbem.example.net"
    with judge.store.atomic():
        judge.create_game("corpus", "classic", {}, "gm@pbem.example.net")
        game = registry.get("classic")
        from judge.game import adjudicator as adj

        roles = game.roles(adj.start(game, {o.name: o.default for o in game.options},
                                     bytes(32)).table.state)
        for role in roles:
            address, token = SEATS.get(role, (f"{role.lower()}@other.example", "x" * 12))
            judge.store.add_seat("corpus", address, hash_token(token), wanted=role)
        judge.start("corpus")
    judge.relay()
    post.new()
    return post


def _arrival_order() -> list[str]:
    resends = {n for n in FILES if "resend_of" in EXPECTED[n]}
    order: list[str] = []
    for name in FILES:
        if name in resends:
            continue
        order.append(name)
        order += [r for r in sorted(resends) if EXPECTED[r]["resend_of"] == name]
    return order


def test_every_corpus_mail_gets_its_treatment(corpus_game: Post, clock: Clock) -> None:
    post = corpus_game
    judge = post.judge
    registered = {a for a, _ in SEATS.values()}
    for name in _arrival_order():
        resend = "resend_of" in EXPECTED[name]
        clock.advance(minutes=1 if resend else 11)
        entry = EXPECTED[name]
        before = judge.store.game("corpus")
        n_actions = len(judge.store.actions("corpus"))
        line = judge.handle(name, raw_of(name))
        judge.relay()
        row = judge.store.inbox()[-1]
        sent = post.new()
        want = entry["pipeline"]
        status = {"process": "processed", "ignore": "dropped", "refuse-reply": "refused",
                  "auth-failure": "auth-failure", "duplicate": "duplicate"}[want]
        assert row["status"] == status, (name, line, row["reason"])
        for msg in sent:
            # never to an unknown address, never with Cc
            assert msg["Cc"] is None, name
        if want in ("ignore", "duplicate"):
            assert sent == [], name
        if want == "auth-failure":
            assert judge.store.game("corpus") == before, name
            assert len(judge.store.actions("corpus")) == n_actions, name
            assert {m["To"] for m in sent} <= registered, name
        if want == "process":
            assert len(sent) >= 1, name
            ack = sent[-1] if "Re:" in (sent[-1]["Subject"] or "") else sent[0]
            assert ack["In-Reply-To"], name
            assert ack["Auto-Submitted"] == "auto-replied", name
        if want == "refuse-reply":
            assert all(m["To"] in registered for m in sent), name
    # France's and England's orders from the corpus are held for Spring 1901
    table = judge.table("corpus")
    assert table.held("France") and table.held("England")
    assert "rebuild the stored game" in judge.replay_check("corpus")
