"""Kingdom Wars as a player meets it who reads only the mail: what the
acknowledgements, requests, digests and reminders say must be what then
happens, each through the Maildir pipeline.

The games are those of :mod:`tests.kingdom_wars.test_mail` (six seats, the
same seed); a test that needs a given position changes the stored state,
then plays on by mail.
"""

from __future__ import annotations

import json

from bench.support.maildir import Outbox, whole
from judge.game import adjudicator as adj
from judge.game.engine import DecisionKind, State
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.table import label
from tests.core.conftest import Post
from tests.kingdom_wars.test_mail import (
    ADDR,
    NAME,
    SEATS,
    _into_hand,
    _start,
    _to_play_phase,
)
from tests.kingdom_wars.test_mail_defects import (
    _attack_line,
    _idle_until,
    _in_play_phase_of,
    _next,
    _store,
    _unarmed,
)


def _mails_to(outbox: Outbox, seat: str, since: int = 0) -> list[str]:
    return [whole(m) for m in outbox.mails[since:] if m["To"] == ADDR[seat]]


def _line_reply(text: str, line: str) -> str:
    """The judge's word on ``line`` in an acknowledgement."""
    _, _, rest = text.partition(f"  {line}\n")
    assert rest, f"{line!r} not in the acknowledgement"
    return rest.splitlines()[0].strip()


def _taken_out(state: State, kind: str) -> str:
    """The first copy of ``kind``, taken out of the deck, or out of a hand
    (a card of the deck takes its place there)."""
    for c in state["deck"]:
        if c.split(".")[0] == kind:
            state["deck"].remove(c)
            return str(c)
    for p in state["p"].values():
        for i, c in enumerate(p["hand"]):
            if c.split(".")[0] == kind:
                p["hand"][i] = state["deck"].pop()
                return str(c)
    raise AssertionError(f"no {kind} in the deck or a hand")


# --------------------------------------------------------------------------- item 1


def test_lines_queued_behind_a_window_in_ones_own_play_phase_say_this_turn(post: Post) -> None:
    """A Play Phase written in one mail: the Attack opens a window, so the
    Stealing Sheep and the PASS after it wait. They are taken when the Play
    Phase comes back, in this very turn, and the acknowledgement says so (it
    once said "for your next turn"). A line sent by a seat whose turn it is
    not does wait for its next turn, and says that."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)

    def armed(state: State) -> None:
        attack = _into_hand(state, seat, "attack")
        _into_hand(state, seat, "stealing-sheep", keep=(attack,))
    _store(post, players, armed)
    state = players.table().state
    legal = GAME.legal(state, seat)
    attack = next(x for x in legal if x.startswith("USE Attack "))
    sheep = next(x for x in legal if x.startswith("USE Stealing Sheep "))
    since = len(outbox.mails)
    players.send(seat, [attack, sheep, "PASS"])
    ack = next(t for t in _mails_to(outbox, seat, since) if "was read as follows" in t)
    assert _line_reply(ack, attack) == f"-> done: {attack}"
    for n, line in ((1, sheep), (2, "PASS")):
        said = _line_reply(ack, line)
        assert said.startswith(f"-> queued as line {n} for later in this turn: taken when "
                               "your Play Phase comes back to you"), said
        assert "next turn" not in said
    _idle_until(players, lambda s: s["current"] != seat)
    taken = [json.loads(r["payload"]) for r in post.judge.store.actions(NAME)
             if r["kind"] == "act" and r["role"] == seat]
    queued = [p["action"]["text"] for p in taken if p.get("queued")]
    assert queued[:2] == [sheep, "PASS"], queued
    other = _next(players.table().state, players.table().state["current"], 2)
    since = len(outbox.mails)
    players.send(other, ["PASS"])
    ack = next(t for t in _mails_to(outbox, other, since) if "was read as follows" in t)
    assert _line_reply(ack, "PASS").startswith("-> queued as line 1 for your next turn")


# --------------------------------------------------------------------------- item 2


def test_the_two_bladed_trident_asks_after_the_damage_and_which_card(post: Post) -> None:
    """Two-bladed Trident: "After your [Attack] deals damage to a target
    player, you may discard a card in hand and choose another player within
    1 physical distance from that target player, to deal 1 damage to the
    chosen player." The question comes after the Attack's damage, which the
    request shows first; the card discarded is the user's choice (asked,
    not taken by its keep-order); the digest tells the Attack's damage before
    the Trident's."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    target = _next(players.table().state, seat)

    def armed(state: State) -> None:
        _unarmed(state, target, 3)
        attack = _into_hand(state, seat, "attack")
        trident = _taken_out(state, "two-bladed-trident")
        state["p"][seat]["equip"]["weapon"] = trident
        assert len(state["p"][seat]["hand"]) >= 3 and attack in state["p"][seat]["hand"]
    _store(post, players, armed)
    players.send(seat, [_attack_line(players.table().state, seat, target)])
    table = players.table()
    question = adj.decision_for(GAME, table, seat)
    assert question is not None and "Two-bladed Trident" in question.prompt, question
    assert table.state["p"][target]["hp"] == 2, "asked before the Attack's damage"
    request = whole(players.requests[seat])
    hit = f"seat {target} takes 1 damage from seat {seat}"
    assert hit in request and request.index(hit) < request.index("You owe: ")
    other = next(x for x in GAME.legal(table.state, seat) if x.startswith("CHOOSE "))
    victim = other.split()[-1]
    hp = table.state["p"][victim]["hp"]
    players.send(seat, [other], reply=True)
    table = players.table()
    ask = adj.decision_for(GAME, table, seat)
    assert ask is not None and ask.kind is DecisionKind.ACTION and "discard" in ask.prompt, ask
    offered = GAME.legal(table.state, seat)
    hand = table.state["p"][seat]["hand"]
    assert len(offered) == len(hand) >= 2, offered  # a choice of every hand card
    pick = offered[-1]
    players.send(seat, [pick], reply=True)
    state = players.table().state
    gone = pick.split(maxsplit=1)[1]
    assert gone not in {label(c) for c in state["p"][seat]["hand"]}
    assert state["p"][victim]["hp"] == hp - 1
    _idle_until(players, lambda s: s["round"] == 2)  # the round's digest goes out
    text = "\n".join(_mails_to(outbox, victim))
    second = f"seat {victim} takes 1 damage from seat {seat}"
    assert hit in text and second in text and text.index(hit) < text.index(second)


# --------------------------------------------------------------------------- item 6


def test_a_queued_peach_in_a_death_match_is_dropped_for_the_death_match(post: Post) -> None:
    """Death Match: "[Peach] can only be used or played as [Attack] or
    [Dodge], it cannot be used for recovering health points." A wounded seat
    queues ``USE Peach`` (no target) before its turn; in its Play Phase the
    line is dropped, and the reason is the Death Match (it once said "an
    Attack needs a target")."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    later = _next(players.table().state, seat)
    peach: list[str] = []

    def match(state: State) -> None:
        state["death_match"] = True
        state["p"][later]["hp"] -= 1
        peach.append(_into_hand(state, later, "peach"))
    _store(post, players, match)
    line = f"USE {label(peach[0])}"
    since = len(outbox.mails)
    players.send(later, [line])
    _idle_until(players, _in_play_phase_of(later))
    text = "\n".join(_mails_to(outbox, later, since))
    assert f'Your queued line "{line}" was dropped: in a Death Match a Peach cannot ' \
           "recover health" in text, text[-2000:]
    assert "an Attack needs a target" not in text


# --------------------------------------------------------------------------- item 8


def test_a_general_is_exposed_in_the_first_preparation_phase_by_mail(post: Post) -> None:
    """Preparation Phase: "Your hidden General card can also be exposed
    (flipped face up) at this phase". By mail, nobody is asked then (keeping
    the generals hidden is the standing answer), so a seat writes its
    REVEAL with its GENERALS; the general is exposed at the start of its
    first Preparation Phase (before, nothing could expose a general without
    a passive skill on turn 1 but using it). The request to choose says so."""
    outbox = Outbox(post)
    players = _start(post, outbox, None)
    state = players.table().state
    first = next(t for t in _mails_to(outbox, "A") if "report for" in t)
    assert "REVEAL MAIN, REVEAL DEPUTY or REVEAL BOTH" in first
    assert "Preparation\nPhase of your first turn" in first
    choice = {s: GAME.legal(state, s)[0] for s in SEATS}
    revealer = next(s for s in state["seats"] if s != state["start"])
    since = len(outbox.mails)
    for s in SEATS:
        players.send(s, [choice[s], "REVEAL MAIN"] if s == revealer else [choice[s]])
    ack = next(t for t in _mails_to(outbox, revealer, since) if "was read as follows" in t)
    assert "-> ok: REVEAL MAIN" in ack
    state = players.table().state
    assert state["stage"] == "play" and not state["p"][revealer]["shown"][0]
    _idle_until(players, lambda s: s["current"] == revealer and s["phase"] not in
                ("", "preparation"))
    state = players.table().state
    assert state["round"] == 1 and state["p"][revealer]["shown"][0]
    assert not state["p"][revealer]["shown"][1]
    main = choice[revealer].split(" AND ")[0].removeprefix("GENERALS ")
    told = [e["text"] for r in post.judge.store.actions(NAME)
            for e in json.loads(r["payload"]).get("events", []) if e.get("audience") is None]
    assert any(x.startswith(f"seat {revealer} exposes {main}") and "Preparation Phase" in x
               for x in told), told[-20:]


# --------------------------------------------------------------------------- item 3


def test_the_first_report_tells_each_seat_its_standing_answers(post: Post) -> None:
    """Every seat starts with the game's standing answers (a Dodge when
    attacked, a Peach for itself when dying, a Negation of a harmful spell
    on it...): its first report lists them, kind by kind in the order they
    are tried, and says how to change them."""
    outbox = Outbox(post)
    _start(post, outbox, None)
    for s in SEATS:
        first = next(t for t in _mails_to(outbox, s) if "report for" in t)
        assert "Standing answers: the judge answers these windows for you at once" in first
        for line in ("POLICY negation NEGATE WHEN TARGET ME AND HARMFUL AND DEPTH 1",
                     "POLICY negation PASS", "POLICY dodge DODGE", "POLICY attack ATTACK",
                     "POLICY rescue WINE WHEN DYING ME AND HOLDING 1 Wine",
                     "POLICY rescue PEACH WHEN DYING ME", "POLICY rescue PASS"):
            assert f"    {line}\n" in first, line
        assert "  trigger: you are asked by hand\n" in first
        assert "To change them: POLICY <window> ASK has you asked by hand every time" in first
        assert first.index("POLICY negation NEGATE") < first.index("POLICY negation PASS")


def test_a_seat_is_told_when_its_standing_answer_plays_its_dodge(post: Post) -> None:
    """The default standing answer plays the Dodge of a seat attacked (it is
    not asked: "Each target player must play a [Dodge] card, otherwise
    suffer 1 damage"). The seat is told, in its next mail, that its standing
    answer played it, and how to be asked instead; a seat whose standing
    answer only passed is told nothing."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    target = _next(players.table().state, seat)
    dodge: list[str] = []

    def armed(state: State) -> None:
        _unarmed(state, target, 3)
        _into_hand(state, seat, "attack")
        dodge.append(_into_hand(state, target, "dodge"))
    _store(post, players, armed)
    since = len(outbox.mails)
    players.send(seat, [_attack_line(players.table().state, seat, target)])
    state = players.table().state
    assert dodge[0] not in state["p"][target]["hand"] and state["p"][target]["hp"] == 3
    _idle_until(players, lambda s: s["round"] == 2)
    text = "\n".join(_mails_to(outbox, target, since))
    told = (f"Your standing answer for dodge windows (round 1, seat {seat}'s turn #")
    assert told in text, text[-3000:]
    line = next(x for x in text.splitlines() if told in x)
    assert f"played for you: DODGE {label(dodge[0])}" in " ".join(
        text[text.index(told):].split())
    assert "POLICY dodge ASK" in " ".join(text[text.index(told):].split())
    others = [s for s in SEATS if s != target]
    assert not any("Your standing answer for" in t for s in others
                   for t in _mails_to(outbox, s, since)), line


# --------------------------------------------------------------------------- item 4


def test_a_report_during_another_seats_turn_names_whose_deadline_it_is(post: Post) -> None:
    """The digest that opens round 1 reaches every seat while the starting
    player is on turn: to the others, the deadline it shows is the starting
    player's (nothing is asked of them), not a bare "Deadline:" that reads
    as their own."""
    outbox = Outbox(post)
    since = len(outbox.mails)
    _, seat = _to_play_phase(post, outbox)
    others = [s for s in SEATS if s != seat]
    checked = 0
    for s in others:
        for text in _mails_to(outbox, s, since):
            if "report for" not in text or "You owe:" in text:
                continue
            assert "\nDeadline:" not in text, text[:3000]
            if f"\nDeadline of {seat} (nothing is asked of you now): " in text:
                checked += 1
    assert checked >= len(others), checked
    mine = [t for t in _mails_to(outbox, seat, since) if "You owe:" in t]
    assert mine and all("\nDeadline: " in t for t in mine)


# --------------------------------------------------------------------------- item 5


def test_the_reminder_after_a_refused_mail_does_not_say_nothing_came(post: Post) -> None:
    """The seat on turn sends a mail whose only line is refused; the
    reminder before the deadline says its mail was read and no line taken
    (it once said "The judge has nothing from C yet")."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    since = len(outbox.mails)
    players.send(seat, ["USE Attack ON Z"])
    ack = next(t for t in _mails_to(outbox, seat, since) if "was read as follows" in t)
    assert "USE Attack ON Z" in ack and "done:" not in ack
    reminders: list[str] = []
    for _ in range(60):
        players.tick(hours=1)
        reminders = [t for t in _mails_to(outbox, seat, since) if "reminder" in t.split("\n")[0]]
        if reminders:
            break
    assert reminders, "no reminder came"
    text = " ".join(reminders[0].split())
    assert "nothing from" not in text, text
    assert f"The judge has taken no line from {seat} for it yet: your mail of" in text
    assert "was read, but no line of it was taken" in text


def test_the_two_bladed_trident_answered_ahead_on_the_attacks_line(post: Post) -> None:
    """The same questions answered ahead, after THEN on the Attack's line
    (whom to strike, which card to discard): nothing is asked, and the card
    named is the one discarded."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    target = _next(players.table().state, seat)
    other = _next(players.table().state, seat, 2)

    def armed(state: State) -> None:
        _unarmed(state, target, 3)
        _unarmed(state, other, 3)
        _into_hand(state, seat, "attack")
        state["p"][seat]["equip"]["weapon"] = _taken_out(state, "two-bladed-trident")
    _store(post, players, armed)
    state = players.table().state
    hand = [c for c in state["p"][seat]["hand"] if not c.startswith("attack")]
    gone = hand[0]
    line = (f"{_attack_line(state, seat, target)} THEN CHOOSE {other} "
            f"THEN DISCARD {label(gone)}")
    players.send(seat, [line])
    state = players.table().state
    assert state["p"][target]["hp"] == 2 and state["p"][other]["hp"] == 2
    assert gone not in state["p"][seat]["hand"] and gone in state["discard"]
    decision = adj.decision_for(GAME, players.table(), seat)
    assert decision is not None and "Play Phase" in decision.phase
