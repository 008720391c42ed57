"""Kingdom Wars by mail: the seat on turn plays its whole turn in one mail
(the card plays, the answers to the questions a card asks on the way, the
Discard Phase), through the Maildir pipeline; and its standing orders.
The rules are tested one by one in test_standing.py."""

from __future__ import annotations

from judge.game import adjudicator as adj
from judge.game.engine import State
from judge_games.kingdom_wars import GAME, standing
from judge_games.kingdom_wars.table import label
from tests.core.conftest import Post
from tests.kingdom_wars.test_mail import (
    NAME,
    _into_hand,
    _out_of_hands,
    _to_play_phase,
)
from tests.support.maildir import Outbox, whole


def test_one_mail_carries_the_whole_turn(post: Post) -> None:
    """Stealing Sheep ("Obtain a card from the target player's hand,
    equipment zone or judgement zone") with the card to take written after
    THEN, a DISCARD for the Discard Phase ("You will have to discard the
    extra cards in your hand") and PASS, in the one mail: the Negation
    window on the way closes, the card is taken, the Discard Phase gives up
    the named card and then the least wanted, and the seat gets no request
    mail for the rest of its turn."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    request = players.requests[seat]
    # "Your hidden General card can also be exposed ... at this phase"
    # (Preparation Phase): keeping it hidden is the standing answer, so the
    # first request of the turn is the Play Phase.
    asked = [str(m["Subject"]) for m in outbox.mails if "your decision" in str(m["Subject"])]
    assert asked and not any("expose generals" in x for x in asked)
    assert "THEN" in whole(request) and "whole Play Phase" in " ".join(whole(request).split())
    table = players.table()
    state = table.state
    _out_of_hands(state, ("negation", "negation-force"))
    sheep = _into_hand(state, seat, "stealing-sheep")
    peach = _into_hand(state, seat, "peach", keep=(sheep,))
    state["p"][seat]["hp"] = 1  # the hand limit: one card
    legal = GAME.legal(state, seat)
    steal = next(x for x in legal if x.startswith(f"USE {label(sheep)} ON "))
    victim = steal.split()[-1]
    blade = next(c for c in state["deck"] if c.startswith("blue-blade"))
    state["deck"].remove(blade)
    state["p"][victim]["equip"]["weapon"] = blade
    post.judge.store.update_game(NAME, table_json=table.dumps())
    kept = sorted(c for c in state["p"][seat]["hand"] if c not in (sheep, peach))[0]
    lines = ["POLICY trigger ASK", "POLICY trigger PASS",
             f"{steal} THEN TAKE {label(blade).upper()}", f"DISCARD {label(peach)}", "PASS"]
    players.send(seat, lines)
    assert not players.table().queue.get(seat) or all(
        q["line"] != lines[2] for q in players.table().queue[seat])
    for _ in range(60):
        table = players.table()
        if table.state["current"] != seat:
            break
        waiting = sorted(adj.waiting_on(GAME, table))
        assert seat not in waiting, adj.phase_key(GAME, table)
        if waiting:
            players.send(waiting[0], ["PASS"])
        else:
            players.tick(minutes=31)
    s = players.table().state
    assert s["current"] != seat
    assert players.requests[seat] is request  # no request mail since the turn mail
    hand = s["p"][seat]["hand"]
    assert len(hand) == 1 and peach in s["discard"]
    assert blade not in s["p"][victim]["equip"].values()
    # Taken, then given up by the keep-order (equipment in the hand ranks below
    # every basic card and spell, and the seat held such cards).
    assert blade in s["discard"]
    assert hand == standing.ranked(s, seat, [*hand, kept])[:1]


def test_a_standing_order_sent_between_turns_waits_for_the_turn(post: Post) -> None:
    """A STANDING line sent when nothing is asked of the seat is queued and
    taken at its next turn, which it does not end; the acknowledgement says
    so, and no other seat's mail mentions it."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    other = next(r for r in players.table().state["seats"] if r != seat)
    players.send(other, ["STANDING discard KEEP Dodge Peach"])
    queued = players.table().queue.get(other, [])
    assert [q["line"] for q in queued] == ["STANDING discard KEEP Dodge Peach"]
    ack = outbox.mails[-1]
    assert "queued" in whole(ack)
    state: State = players.table().state
    assert "standing" not in state or other not in state["standing"]
