"""Kingdom Wars by mail: regression tests for defects found in games played
at correspondence pace (rounds, rescues, choices, standing answers, Negation,
deadlines, the start and the full table), each through the Maildir pipeline.

The games are those of :mod:`tests.kingdom_wars.test_mail` (six seats, the
same seed); a test that needs a given position changes the stored state
(hands, health), then plays on by mail.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from bench.support.maildir import Outbox, whole
from judge.game import adjudicator as adj
from judge.game.engine import State
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.table import label
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, token_in
from tests.kingdom_wars.test_mail import (
    ADDR,
    NAME,
    SEATS,
    Players,
    _into_hand,
    _out_of_hands,
    _to_play_phase,
)


def _store(post: Post, players: Players, change: Callable[[State], None]) -> None:
    """Change the stored game's state (a position the test needs)."""
    table = players.table()
    change(table.state)
    post.judge.store.update_game(NAME, table_json=table.dumps())


def _answer_idly(players: Players, seat: str) -> None:
    """``seat`` owes a decision: it passes where it may, else sends the
    first line offered (a discard, a choice a card asks)."""
    table = players.table()
    legal = GAME.legal(table.state, seat)
    players.send(seat, ["PASS"] if "PASS" in legal else [legal[0]])


def _idle_until(players: Players, done: Callable[[State], bool], steps: int = 400) -> None:
    """Every seat answers idly (passes) until ``done(state)``: a seat owing
    a decision answers it by mail; while nobody owes one, the clock passes
    a window's minimum open time."""
    for _ in range(steps):
        table = players.table()
        if done(table.state) or table.outcome is not None:
            return
        owed = sorted(adj.waiting_on(GAME, table))
        if owed:
            _answer_idly(players, owed[0])
        else:
            players.tick(minutes=31)
    raise AssertionError("the game never got there")


def _in_play_phase_of(seat: str) -> Callable[[State], bool]:
    def done(state: State) -> bool:
        asks = state["asks"]
        return bool(state["current"] == seat and asks and asks[-1]["kind"] == "play")
    return done


def _next(state: State, seat: str, k: int = 1) -> str:
    seats: list[str] = state["seats"]
    return seats[(seats.index(seat) + k) % len(seats)]


def _unarmed(state: State, seat: str, hp: int) -> None:
    """``seat`` at ``hp`` health, with no equipment, no judgement cards, and no
    Dodge, Peach or Wine anywhere in the hands (nobody can save it but those
    the test gives a card)."""
    _out_of_hands(state, ("dodge", "peach", "wine"))
    p = state["p"][seat]
    p["hp"] = hp
    for slot, cid in list(p["equip"].items()):
        if cid:
            state["deck"].append(cid)
            p["equip"][slot] = None


def _attack_line(state: State, user: str, target: str) -> str:
    return next(x for x in GAME.legal(state, user)
                if x.startswith("USE Attack ") and x.endswith(f" ON {target}"))


# --------------------------------------------------------------------------- rounds


def test_rounds_go_on_after_the_starting_player_is_eliminated(post: Post) -> None:
    """"The game begins with the Starting Player, followed by other players
    in a counter clockwise direction": a round is one turn of every player
    from the starting player's place. The starting player is killed by an
    Attack in round 1; the rounds still go on (2, 3), and every living seat
    gets each round's digest by mail."""
    outbox = Outbox(post)
    players, start = _to_play_phase(post, outbox)
    assert players.table().state["start"] == start
    killer = _next(players.table().state, start)
    _idle_until(players, _in_play_phase_of(killer))

    def armed(state: State) -> None:
        _unarmed(state, start, 1)
        _into_hand(state, killer, "attack")
    _store(post, players, armed)
    players.send(killer, [_attack_line(players.table().state, killer, start)])
    _idle_until(players, lambda s: not s["p"][start]["alive"])
    state = players.table().state
    assert state["round"] == 1 and state["current"] == killer

    _idle_until(players, lambda s: s["round"] == 3 and s["current"] == killer)
    living = [s for s in SEATS if s != start]
    for seat in living:
        subjects = [str(m["Subject"]) for m in outbox.mails if m["To"] == ADDR[seat]]
        rounds = {int(n) for x in subjects for n in re.findall(r"\bround (\d+)", x)}
        assert {1, 2, 3} <= rounds, (seat, subjects[-5:])
    text = "\n".join(whole(m) for m in outbox.mails if m["To"] == ADDR[killer])
    assert f"Round 2: seat {killer}'s turn begins." in text
    assert f"Round 3: seat {killer}'s turn begins." in text


# --------------------------------------------------------------------------- rescue


def test_the_rescue_ends_when_the_dying_player_is_saved(post: Post) -> None:
    """Peach: "Target: ... any player who is in the state of Dying"; its
    example: a player at 2 health taking 3 damage "can be rescued only on
    condition that 2 [Peach] cards are used" (2-3+2=1). A player at 1 takes
    an Attack strengthened by Wine (2 damage: -1, Dying, 2 Peaches needed).
    The next three seats in turn order each hold a Peach, have themselves
    asked every rescue (``POLICY rescue ASK``) and each answers with it by
    mail: after two Peaches the player is at 1 and out
    of Dying, so the third Peach is not used (it stays in its holder's hand,
    who is told its answer was not needed)."""
    outbox = Outbox(post)
    players, start = _to_play_phase(post, outbox)
    attacker = _next(players.table().state, start)
    _idle_until(players, _in_play_phase_of(attacker))
    target = start  # the seat before the attacker: at distance 1
    first, second, third = (_next(players.table().state, attacker, k) for k in (1, 2, 3))

    def armed(state: State) -> None:
        _unarmed(state, target, 1)
        keep = (_into_hand(state, attacker, "attack"),)
        _into_hand(state, attacker, "wine", keep=keep)
        for seat in (first, second, third):
            _into_hand(state, seat, "peach")
    _store(post, players, armed)
    for seat in (first, second, third):  # asked by hand in every rescue, whatever they hold
        players.send(seat, ["POLICY rescue ASK"])
    state = players.table().state
    wine = next(x for x in GAME.legal(state, attacker) if x.startswith("USE Wine"))
    players.send(attacker, [wine])
    _idle_until(players, _in_play_phase_of(attacker))
    players.send(attacker, [_attack_line(players.table().state, attacker, target)])
    # The target has no Dodge: the Attack hits; it is Dying; the rescue asks
    # from the seat on turn, which holds no Peach (its standing answer passes).
    _idle_until(players, lambda s: bool(s["asks"]) and s["asks"][-1].get("window") == "rescue"
                and first in s["asks"][-1]["roles"] and s["asks"][-1]["open"]
                and first in adj.waiting_on(GAME, players.table()))
    assert players.table().state["p"][target]["hp"] == -1
    table = players.table()
    assert {first, second, third} <= adj.waiting_on(GAME, table)
    peach = [c for c in table.state["p"][third]["hand"] if c.startswith("peach")]
    assert len(peach) == 1
    for seat in (first, second, third):  # each asked holds a Peach and answers with it
        players.send(seat, [next(x for x in GAME.legal(players.table().state, seat)
                                 if x.startswith("PEACH Peach"))], reply=True)
    _idle_until(players, lambda s: not any(a.get("window") == "rescue" for a in s["asks"]))
    state = players.table().state
    assert state["p"][target]["alive"] and not state["p"][target]["dying"]
    assert state["p"][target]["hp"] == 1, "a Peach was used on a player no longer Dying"
    assert [c for c in state["p"][third]["hand"] if c.startswith("peach")] == peach
    notices = [e["text"] for r in post.judge.store.actions(NAME)
               for e in json.loads(r["payload"]).get("events", [])
               if e.get("audience") == [third]]
    assert any(f"'PEACH {label(peach[0])}' was not needed" in x for x in notices), notices
    _idle_until(players, _in_play_phase_of(attacker))  # the turn goes on
    assert players.table().state["p"][target]["hp"] == 1


# --------------------------------------------------------------------------- choices


def _expand(line: str) -> set[str]:
    """The lines a compact choice stands for (``ON B|C``: ``ON B``, ``ON C``)."""
    out = [""]
    for word in line.split():
        out = [f"{x} {w}".strip() for x in out for w in word.split("|")]
    return set(out)


def _choices(text: str) -> set[str]:
    """The choices a request lists, expanded."""
    block = text.split("Your choices", 1)[1].split(":\n", 1)[1]
    found: set[str] = set()
    for line in block.splitlines():
        if not line.startswith("  ") or not line.strip():
            break
        found |= _expand(line.strip())
    return found


def test_a_request_lists_every_legal_line(post: Post) -> None:
    """A Play Phase with many choices (a mount, Iron Chains on one or two
    players, spells on every other player): the request by mail lists every
    line the game would take, none hidden behind "and N more"; lines that
    differ in one word are written once (``ON B|C|D``)."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)

    def hand(state: State) -> None:
        keep: tuple[str, ...] = ()
        for kind in ("iron-chains", "stealing-sheep", "burning-bridges", "duel"):
            keep = (*keep, _into_hand(state, seat, kind, keep=keep))
        mount = next(c for c in state["deck"] if c.split(".")[0] == "red-hare")
        state["p"][seat]["hand"].append(mount)
        state["deck"].remove(mount)
    _store(post, players, hand)
    state = players.table().state
    legal = GAME.legal(state, seat)
    mount = next(x for x in legal if x.startswith("USE Red Hare"))
    assert len(legal) > 30
    players.send(seat, ["RECAST " + next(x.split(" ", 1)[1] for x in legal
                                         if x.startswith("RECAST"))])
    table = players.table()
    assert adj.decision_for(GAME, table, seat) is not None
    legal = GAME.legal(table.state, seat)
    request = whole(players.requests[seat])
    assert "more)" not in request
    assert _choices(request) == set(legal), set(legal) ^ _choices(request)
    assert mount in legal and mount in request
    assert " ON " in request and "|" in request and "(x|y: send one of them)" in request


# --------------------------------------------------------------------------- moments


def test_policy_refuses_an_unknown_moment_and_help_lists_them(post: Post) -> None:
    """``POLICY trigger ... WHEN MOMENT <word>``: a word that is no moment a
    trigger window opens at is refused, quoting the line and listing the
    moments, and nothing is set; a known one is taken. ``HELP moments`` and
    ``HELP kingdom_wars`` publish the words."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    before = players.table().policies.get(seat)
    players.send(seat, ["POLICY trigger USE Clever Shift WHEN MOMENT judge_start"])
    reply = whole(outbox.mails[-1])
    assert "POLICY trigger USE Clever Shift WHEN MOMENT judge_start" in reply
    assert "'judge_start' is not a moment a trigger window opens at" in reply
    assert "before_judgement, judged, retrial" in reply
    assert players.table().policies.get(seat) == before
    players.send(seat, ["POLICY trigger PASS WHEN MOMENT before_discard", "HELP moments",
                        "HELP kingdom_wars"])
    reply = whole(outbox.mails[-1])
    assert "failed" not in reply.split("help follows below")[0].lower()
    assert any(p["when"] == "MOMENT before_discard"
               for p in players.table().policies[seat]["trigger"])
    assert "  before_discard: a player's Discard Phase is about to begin" in reply
    assert "WHEN MOMENT <moment>: the moment (HELP moments): prep_start, " in reply


# --------------------------------------------------------------------------- Negation


def test_a_seat_is_not_asked_to_negate_its_own_spell(post: Post) -> None:
    """Negation: "Use this card to cancel the effect of target Spell card on
    a player" -- any spell, the user's own too (a seat may cancel its own
    Rest and Reorganization on an enemy), so the window still lists the
    user; but the default standing answers are answers, not questions: the
    user passes on its own spell, and the target, holding a Negation,
    Negates the harmful spell aimed at it, and nobody is asked by mail. A
    standing answer of one's own may still negate (``WHEN BY ME AND TARGET
    OTHER``; ``NOT`` negates a condition), and ``ASK`` on what only the seat
    can see (``CAN``) is refused with the reason, changing nothing."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    state = players.table().state
    target = _next(state, seat)

    def negations(state: State) -> None:
        _out_of_hands(state, ("negation", "negation-force"))
        keep = (_into_hand(state, seat, "burning-bridges"),)
        _into_hand(state, seat, "negation", keep=keep)
        _into_hand(state, target, "negation-force")
    _store(post, players, negations)
    state = players.table().state
    line = next(x for x in GAME.legal(state, seat)
                if x.startswith("USE Burning Bridges") and x.endswith(f" ON {target}"))
    asked = len(outbox.mails)
    players.send(seat, [line])
    rows = post.judge.store.actions(NAME)
    windows = [json.loads(r["payload"]) for r in rows if r["kind"] == "asked"]
    assert windows and all(w["by_hand"] == [] for w in windows)
    answered = {(r["role"], json.loads(r["payload"])["actions"][0]["text"].split()[0])
                for r in rows if r["kind"] == "answer"
                and json.loads(r["payload"])["by"] == "policy"}
    assert (seat, "PASS") in answered and (target, "NEGATE") in answered
    state = players.table().state
    assert not any(c.startswith("negation-force") for c in state["p"][target]["hand"])
    requests = [str(m["Subject"]) for m in outbox.mails[asked:]
                if "your decision" in str(m["Subject"])]
    assert not any("Negation" in x for x in requests), requests
    players.send(seat, ["POLICY negation NEGATE WHEN BY ME AND NOT TARGET ME AND CAN"])
    assert {"answer": "NEGATE", "when": "BY ME AND NOT TARGET ME AND CAN"} in \
        players.table().policies[seat]["negation"]
    before = players.table().policies[seat]["negation"]
    sent = len(outbox.mails)
    players.send(seat, ["POLICY negation ASK WHEN CAN"])
    (ack,) = [m for m in outbox.mails[sent:] if m["To"] == ADDR[seat]]
    text = whole(ack)
    assert "POLICY negation ASK WHEN CAN" in text
    assert "only you can see" in text and "POLICY negation <answer> WHEN CAN" in text
    assert players.table().policies[seat]["negation"] == before


# --------------------------------------------------------------------------- deadlines


def test_a_window_left_to_its_default_is_no_missed_deadline(post: Post) -> None:
    """A Dodge window is asked by mail (the target has itself asked:
    ``POLICY dodge ASK``); the target never answers and the window lapses
    (its other standing answers give nothing: it passes). That is
    no missed deadline: the GM gets no "missed orders" mail and the seat's
    count of deadlines missed in a row does not grow (no "abandoned seat"
    warning for a seat answering by its standing answers and defaults)."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    target = _next(players.table().state, seat)

    def armed(state: State) -> None:
        _out_of_hands(state, ("dodge",))
        _into_hand(state, seat, "attack")
    _store(post, players, armed)
    players.send(target, ["POLICY dodge ASK"])
    state = players.table().state
    hp = state["p"][target]["hp"]
    players.send(seat, [_attack_line(state, seat, target)])
    _idle_until(players, lambda s: target in adj.waiting_on(GAME, players.table()), steps=20)
    window = adj.open_window(GAME, players.table())
    assert window is not None and window.window == "dodge"
    for _ in range(8):  # the window's deadline and grace pass; the target stays silent
        players.tick(hours=6)
    state = players.table().state
    assert state["p"][target]["hp"] < hp, "the window did not lapse"
    assert players.table().missed.get(target) is None
    gm = [str(m["Subject"]) for m in outbox.mails if m["To"] == GM_ADDR]
    assert not any("missed orders" in x or "abandoned seat" in x for x in gm), gm


# --------------------------------------------------------------------------- the start


def test_the_start_report_says_how_to_sign_and_the_gm_hears_the_table_is_full(
        post: Post) -> None:
    """The GM is told by mail when the last seat is taken (not before); each
    seat's first report names its seat and the SIGNON line to sign with."""
    outbox = Outbox(post)
    post.send(GM_ADDR, f"CREATE {NAME} kingdom_wars seats=6\n")
    gm = token_in(post, GM_ADDR)
    for s in SEATS:
        assert not any("the table is full" in str(m["Subject"]) for m in outbox.new())
        post.send(ADDR[s], f"JOIN {NAME} {s}\n")
    full = [m for m in outbox.new() if m["To"] == GM_ADDR
            and "the table is full" in str(m["Subject"])]
    assert len(full) == 1
    text = whole(full[0])
    assert "g1: 6 of 6 seats taken." in text and ADDR["F"] in text
    assert "The table is full: send START (signed on as GM)" in text
    post.send(GM_ADDR, f"SIGNON {NAME} GM {gm}\nSTART\n")
    for s in SEATS:
        first = next(whole(m) for m in outbox.new() + outbox.mails if m["To"] == ADDR[s]
                     and "report for" in str(m["Subject"]))
        assert f"You are {s} in g1: sign each mail with\n  SIGNON g1 {s} <your token>" in first


# --------------------------------------------------------------------------- timing


def test_status_names_a_window_only_to_the_seats_it_asks(post: Post) -> None:
    """A Burning Bridges on the target opens a Negation window offered to
    every seat; the target has itself asked (``POLICY negation ASK``), the
    others hold their standing answers (judge/game/timing.py). The window waits
    for the target alone; another seat's STATUS, sent while it waits, names
    neither the window nor the answer it holds, and no request reaches it;
    the target's STATUS names both."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    state = players.table().state
    target, other = _next(state, seat), _next(state, seat, 3)

    def bridges(state: State) -> None:
        _out_of_hands(state, ("negation", "negation-force"))
        _into_hand(state, seat, "burning-bridges")
    _store(post, players, bridges)
    players.send(target, ["POLICY negation ASK"])
    line = next(x for x in GAME.legal(players.table().state, seat)
                if x.startswith("USE Burning Bridges") and x.endswith(f" ON {target}"))
    sent = len(outbox.mails)
    players.send(seat, [line])
    table = players.table()
    window = adj.open_window(GAME, table)
    assert window is not None and window.window == "negation" and other in window.roles
    assert adj.answering_roles(GAME, table) == {target}
    assert table.answer_of(window.id, other) is not None  # its standing answer, held
    players.send(other, ["STATUS"])
    players.send(target, ["STATUS"])
    mine = [whole(m) for m in outbox.mails[sent:] if m["To"] == ADDR[other]]
    theirs = [whole(m) for m in outbox.mails[sent:] if m["To"] == ADDR[target]]
    assert mine and not any(window.phase in t or "answer held" in t.lower() for t in mine)
    assert not any("your decision" in str(m["Subject"]) for m in outbox.mails[sent:]
                   if m["To"] == ADDR[other])
    assert any(window.phase in t for t in theirs)
