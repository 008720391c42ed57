"""A full game turn played by mail through the real servers.

The GM and three players write to the judge over SMTP (into Dovecot through
the front), the judge reads its mailbox over IMAP and sends every answer and
report over SMTP, and each player's reports are read back from that player's
own IMAP mailbox. Each mailbox must hold only what its owner may see
(DESIGN, Privacy: one seat's mail goes to that seat's address only; reports
are built from that role's view).
"""

from __future__ import annotations

import json

from bench.support.mailplayers import GM, ROLES, Mail, address, hand, orders_applied, text_of
from bench.support.mailservers import MailServers
from judge.service import Judge


def _reports(mail: Mail, user: str) -> list[tuple[str, dict[str, object]]]:
    """(text, JSON view) of every report in ``user``'s mailbox, oldest first."""
    found = []
    for msg in mail.inbox(user):
        if " report for " not in str(msg["Subject"]) and "your decision" not in str(
                msg["Subject"]):
            continue
        attachment = next(p for p in msg.iter_attachments()
                          if p.get_content_type() == "application/json")
        found.append((text_of(msg), json.loads(attachment.get_content())))
    return found


def test_a_turn_by_mail(servers: MailServers, judge: Judge, mail: Mail) -> None:
    signon = mail.start_sealed()
    table = judge.table("g1")
    game = judge.game_of("g1")[1]
    hands = {role: hand(judge, role) for role in ROLES}

    # The first reports: one per player, in that player's mailbox only, each
    # its own view (hand in full; the others only as counts).
    for role in ROLES:
        reports = _reports(mail, role.lower())
        assert len(reports) == 1
        text, view = reports[0]
        assert view == json.loads(json.dumps(game.view(table.state, role)))
        assert f"Your hand: {' '.join(hands[role])}" in text
        others = {c for r in ROLES if r != role for c in hands[r]}
        assert not others & set(text.replace(",", " ").split()), role
        for msg in mail.inbox(role.lower()):
            assert msg.get_all("To") == [address(role)] and msg["Cc"] is None

    # Round 1: every player bids by mail; the third bid resolves the round.
    bids = {role: hands[role][-1] for role in ROLES}
    sent = {role: mail.send(address(role), f"{signon[role]}\nBID {bids[role]}\n")
            for role in ROLES}
    mail.cycle_until(lambda: judge.table("g1").state["stage"] != "bid", "the round resolving")
    assert orders_applied(judge) == {sent[r]: 1 for r in ROLES}

    # Each bidder got an acknowledgement threaded on its mail; the winner is
    # asked for its award (R6) and the others hear of the round in its digest
    # (mail only when a seat must decide).
    winner = judge.table("g1").state["winner"]
    for role in ROLES:
        acks = [m for m in mail.inbox(role.lower()) if m["In-Reply-To"] == sent[role]]
        assert len(acks) == 1
        assert acks[0]["Auto-Submitted"] == "auto-replied"
        assert sent[role] in str(acks[0]["References"])
        assert f"BID {bids[role]}" in text_of(acks[0])
        reports = _reports(mail, role.lower())
        assert len(reports) == (2 if role == winner else 1)
        assert all(m["Auto-Submitted"] == "auto-generated" for m in mail.inbox(role.lower())
                   if " report for " in str(m["Subject"]) or "decision" in str(m["Subject"]))

    # The winner keeps the prize: the turn is complete, round 2 opens.
    mail.send(address(winner), f"{signon[winner]}\nKEEP\n")
    mail.cycle_until(lambda: judge.table("g1").state["round"] == 2, "round 2 opening")
    state = judge.table("g1").state
    for role in ROLES:
        text, view = _reports(mail, role.lower())[-1]
        assert view == json.loads(json.dumps(game.view(state, role)))
        others = {c for r in ROLES if r != role for c in state["hands"][r]}
        assert not others & set(text.replace(",", " ").split()), role
        assert "Round 2 of 3" in text
    # The GM received no player's hand either.
    for msg in mail.inbox("gm"):
        words = set(text_of(msg).replace(",", " ").split())
        assert not words & {c for r in ROLES for c in state["hands"][r]}
    assert judge.store.outbox("queued") == [] and judge.store.outbox("failed") == []
    assert {r["status"] for r in judge.store.inbox()} == {"processed"}
    # Everything handled left the judge's INBOX for Processed.
    assert servers.count("judge") == 0
    assert servers.count("judge", "Processed") == len(judge.store.inbox())
    assert GM
