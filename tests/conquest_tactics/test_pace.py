"""Conquest Tactics at correspondence pace, by mail through the Maildir
pipeline: a simultaneous Mobilize, Mobilize lines written ahead through Up
the Field, a standing pass of Up the Field, and the whole default
deployment at one deadline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from email.message import EmailMessage
from typing import Any

import pytest

from judge.game.engine import DecisionKind, copy_state, live
from judge_games.conquest_tactics import GAME, rules
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.table import Ctx
from tests.conquest_tactics.scenario import asked_anew, control
from tests.conquest_tactics.test_mail import (
    ADDR,
    FORCES,
    NAME,
    N,
    Players,
    S,
    _set_up,
    _text,
)
from tests.conquest_tactics.test_mail_defects import (
    _free,
    _request,
    _start,
    _to_mobilize,
    _until,
)
from tests.core.conftest import Post
from tests.support.bench import load_bench

BENCH = load_bench("pace")


def _to(mails: Sequence[EmailMessage], role: str) -> str:
    return "\n".join(_text(m) for m in mails if m["To"] == ADDR[role])


def _events(post: Post, start: str) -> list[dict[str, object]]:
    """The logged events whose text starts with ``start`` (with their audience)."""
    return [e for row in post.judge.store.actions(NAME)
            for e in json.loads(row["payload"]).get("events", [])
            if str(e.get("text", "")).startswith(start)]


# --------------------------------------------------------------------------- Mobilize


def test_mobilize_is_simultaneous_by_mail(post: Post) -> None:
    """Mobilize: "Players can choose to pay Tactical Points to deploy
    additional Troops or Equipment" -- both players at once (the README's
    reading). South's lines are held face down: South's own reply shows what
    they will do, North's mails and North's view show nothing of them, and
    North, finishing second, decides without seeing them. Once both are
    DONE the lines are carried out and both reports show them."""
    players = _to_mobilize(post)
    (a,) = _free(players.table().state, 1)
    state = players.table().state
    north_before = GAME.view(state, N)
    log, mails = players.send(S, [f"DEPLOY footsoldiers {a} DISCARD 1"])
    assert not any("failed" in x for x in log), log
    state = players.table().state
    space = F.from_frame(a, S)
    assert space is not None
    assert Ctx(state).troop_at(space) is None  # held: not on the field yet
    assert state["p"][S]["hand"] == ["aimed-shot", "footsoldiers", "fireball", "archers",
                                     "longsword"]
    assert "Every line was accepted." in _to(mails, S)
    view = GAME.view(state, S)["you"]
    assert view["held"] == [f"DEPLOY footsoldiers {a} DISCARD aimed-shot"]
    assert "Footsoldiers" not in _to(mails, N) and "Aimed Shot" not in _to(mails, N)
    north_now = GAME.view(state, N)
    assert north_now["troops"] == north_before["troops"]
    assert north_now["players"] == north_before["players"]
    # North, second, mobilizes without having seen South's lines.
    log, mails = players.send(N, ["DONE"])
    assert not any("failed" in x for x in log), log
    assert players.table().state["stage"] == "mobilize"
    assert "Footsoldiers" not in _to(mails, N)
    log, mails = players.send(S, ["DONE"])
    state = players.table().state
    assert state["stage"] in ("play", "follow", "window"), state["stage"]
    troop = Ctx(state).troop_at(space)
    assert troop is not None and troop["card"] == "footsoldiers" and troop["owner"] == S
    assert "aimed-shot" in state["p"][S]["discard"]
    assert f"South deploys Footsoldiers at {F.to_frame(space, N)}" in _to(mails, N)
    held = _events(post, "Held until both have mobilized: South deploys Footsoldiers")
    assert held and all(e["audience"] == [S] for e in held), held


def test_a_held_line_that_no_longer_fits_is_dropped_and_its_writer_told(post: Post) -> None:
    """A held line is checked again when both are done; one the other side's
    Mobilize made impossible is not carried out, and its writer is told."""
    players = _to_mobilize(post)
    (a,) = _free(players.table().state, 1)
    players.send(S, [f"DEPLOY footsoldiers {a}"])
    table = players.table()
    space = F.from_frame(a, S)
    assert space is not None
    # Something the other side did meanwhile took the space (set in the stored state).
    Ctx(table.state).place(N, "malice-imp", space)
    post.judge.store.update_game(NAME, table_json=table.dumps())
    players.send(N, ["DONE"])
    players.send(S, ["DONE"])
    state = players.table().state
    troop = Ctx(state).troop_at(space)
    assert troop is not None and troop["owner"] == N
    assert "footsoldiers" in state["p"][S]["hand"]
    told = _events(post, f'Your Mobilize line "DEPLOY footsoldiers {a}" was not carried out')
    assert told and all(e["audience"] == [S] for e in told), told
    assert state["stage"] != "mobilize"


# --------------------------------------------------------------------------- Up the Field


def _to_up(post: Post) -> tuple[Players, str, str]:
    """A match by mail up to turn 1's Up the Field, where both sides have a
    troop that may step up; the mover (it has the Initiative) holds
    Footsoldiers. Returns the players, the mover and the other side."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "up")
    table = players.table()
    mover = str(table.state["mover"])
    p = table.state["p"][mover]
    p["hand"] = ["footsoldiers", *p["hand"][1:]]
    post.judge.store.update_game(NAME, table_json=table.dumps())
    return players, mover, F.other(mover)


def _open(state: dict[str, Any], role: str) -> list[str]:
    """The open spaces of ``role``'s deployment zone, in its frame."""
    g = Ctx(state)
    return [F.to_frame(x, role) for x in sorted(F.deployment_zone(role)) if g.open_for(role, x)]


def _asked(players: Players, role: str, phase: str, since: int) -> list[str]:
    return [str(m["Subject"]) for m in players.outbox.mails[since:]
            if m["To"] == ADDR[role] and "your decision" in str(m["Subject"])
            and phase in str(m["Subject"])]


def test_mobilize_lines_written_ahead_survive_up_the_field(post: Post) -> None:
    """Up the Field: "The option to move a Troop continues to alternate back
    and forth, even after a pass ... until both players pass consecutively";
    "if a player is done moving the Troops he wants to during this phase, he
    may Pass". The mover sends its whole turn in one mail: a move up, then
    its Mobilize (DEPLOY, DONE). The other side moves; the mover is not
    asked again: its Mobilize line passes for it and waits, and is carried
    out in the Mobilize with the rest."""
    players, mover, other = _to_up(post)
    state = players.table().state
    move = next(x for x in GAME.legal(state, mover) if x.startswith("MOVE"))
    space = _open(state, mover)[0]
    since = len(players.outbox.mails)
    log, _ = players.send(mover, [move, f"DEPLOY footsoldiers {space}", "DONE"])
    assert not any("failed" in x or "dropped" in x for x in log), log
    state = players.table().state
    assert state["stage"] == "up" and state["mover"] == other
    reply = next(x for x in GAME.legal(state, other) if x.startswith("MOVE"))
    players.send(other, [reply])
    state = players.table().state
    if state["stage"] == "up":  # the mover passed by its Mobilize line; the other is asked
        assert state["mover"] == other and state["p"][mover]["up_done"]
        players.send(other, ["PASS"])
    state = players.table().state
    assert state["stage"] == "mobilize", state["stage"]
    assert not _asked(players, mover, "Up the Field", since)
    assert state["p"][mover]["done"]  # its DONE, queued, was taken in the Mobilize
    assert state["p"][mover]["held"] == [f"DEPLOY footsoldiers {space}"]
    players.send(other, ["DONE"])
    state = players.table().state
    where = F.from_frame(space, mover)
    assert where is not None
    troop = Ctx(state).troop_at(where)
    assert troop is not None and troop["card"] == "footsoldiers" and troop["owner"] == mover
    assert not _events(post, "Your queued line")


def test_the_up_the_field_request_lists_the_mobilize_it_would_take(post: Post) -> None:
    """Up the Field, then Mobilize ("Players can choose to pay Tactical
    Points to deploy additional Troops or Equipment"; "a Spell or Skill can
    be added to your Knowledge Pool in the Mobilize phase"): the Up the
    Field request says the whole Up the Field and Mobilize may be written in
    its reply and lists, among its choices, the Mobilize lines that fit the
    field as it stands, each one the game takes now (held for the
    Mobilize); a line of that list written after a move is carried out in
    the Mobilize."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "up")
    state = players.table().state
    mover = str(state["mover"])
    request = _request(players, mover, "Up the Field")
    assert "You may write your whole Up the Field and your Mobilize in this mail" in request
    listed = BENCH.listed_lines(request)
    ahead = [x for x in listed if x.split()[0] in ("DEPLOY", "LEARN", "UPGRADE", "EQUIP")]
    assert ahead and any(x.startswith("MOVE ") for x in listed)
    assert sorted(listed) == sorted(GAME.legal(state, mover))
    for line in ahead:
        assert GAME.parse(state, mover, line).data.get("ahead") is True  # held for the Mobilize
    line = next(x for x in ahead if " DISCARD " not in x)
    words = line.split()
    used = words[2] if words[0] == "UPGRADE" else words[1]
    move = next(x for x in listed if x.startswith("MOVE ") and x.split()[2] not in words)
    held = state["p"][mover]["hand"].count(used)
    players.send(mover, [move, line, "DONE"])
    _until(players, lambda s: s["stage"] not in ("up", "mobilize"))
    assert players.table().state["p"][mover]["hand"].count(used) == held - 1
    assert not _events(post, f'Your Mobilize line "{line}" was not carried out')


def test_done_passes_the_rest_of_up_the_field(post: Post) -> None:
    """DONE in Up the Field is a standing pass for the rest of it (the
    rulebook's "he may Pass", at each of his turns): the other side moves
    twice in a row without the first being asked between."""
    players, mover, other = _to_up(post)
    state = players.table().state
    assert "DONE" in GAME.legal(state, mover)
    since = len(players.outbox.mails)
    players.send(mover, ["DONE"])
    for _ in range(2):
        state = players.table().state
        assert state["stage"] == "up" and state["mover"] == other
        moves = [x for x in GAME.legal(state, other) if x.startswith("MOVE")]
        players.send(other, [moves[0]])
    assert not _asked(players, mover, "Up the Field", since)
    assert len(_asked(players, other, "Up the Field", since)) >= 2


# --------------------------------------------------------------------------- deployment


def test_a_silent_deployer_deploys_all_at_one_deadline(post: Post) -> None:
    """Setup: "The player with Initiative ... places their selected Troops on
    the Field within their deployment zone ... After the player with
    Initiative completes his deployment, the other player follows". A first
    deployer who sends nothing has its whole default deployment made at its
    first deadline (not one troop a deadline): the Archers in its row 1, the
    others in its row 2, from the centre out; then the other side is asked."""
    players, _ = _start(post, "south=humans north=malice")
    players.privacy.decks(players.table().state)
    for role in (S, N):
        players.send(role, FORCES[role])
    state = players.table().state
    assert state["stage"] == "deploy"
    first = str(state["deployer"])
    forces = list(state["p"][first]["forces"])
    assert len(forces) >= 5
    request = "\n".join(_text(m) for m in players.outbox.mails if m["To"] == ADDR[first])
    assert "DEPLOY ALL" in request
    for _ in range(200):  # to the first deadline, and not a minute further
        players.tick(minutes=30)
        if players.table().state["deployer"] != first:
            break
    state = players.table().state
    assert state["deployer"] == F.other(first) and state["stage"] == "deploy"
    assert not state["p"][first]["forces"]
    g = Ctx(state)
    placed = {F.to_frame(t["at"], first): t["card"] for t in g.troops(first)}
    assert sorted(placed.values()) == sorted(forces)
    ranged = [s for s, c in placed.items() if POOL.card(c).range_min > 1]
    melee = [s for s, c in placed.items() if POOL.card(c).range_min == 1]
    assert all(s[1] == "1" for s in ranged), placed
    front = sorted(s for s in melee if s[1] == "2")
    assert front == sorted(f"{c}2" for c in "CBDAE"[:min(5, len(melee))]), placed
    assert placed["C2"] == forces[0] or POOL.card(forces[0]).range_min > 1
    missed = [r for r in post.judge.store.actions(NAME) if r["kind"] in ("default", "missed")]
    assert len([r for r in missed if r["kind"] == "default"]) == 1, missed


# --------------------------------------------------------------------------- Play


def test_pass_all_passes_for_the_rest_of_the_play_phase(post: Post) -> None:
    """Play: the phase ends "Once both players have either used all of their
    Tactical Points or Passed", "both of you have passed consecutively".
    ``PASS ALL`` is the player's pass at each of its later turns of this Play
    phase: the other side acts as long as it likes without the first being
    asked again, and its own pass ends the phase."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "play")
    table = players.table()
    for role in (S, N):  # points enough for both to act (set in the stored state)
        table.state["p"][role]["tp"] = 6
    table.state["serial"] += 1
    asked_anew(table.state)  # the decision asked anew, under its new number
    post.judge.store.update_game(NAME, table_json=table.dumps())
    state = players.table().state
    first = str(state["actor"])
    other = F.other(first)
    turn = state["turn"]
    assert "PASS ALL" in GAME.legal(state, first)
    since = len(players.outbox.mails)
    log, _ = players.send(first, ["PASS ALL"])
    assert not any("failed" in x for x in log), log
    acted = 0
    for _ in range(30):
        state = players.table().state
        if state["turn"] != turn or state["stage"] not in ("play", "follow"):
            break
        assert state["actor"] == other, state["actor"]
        moves = [x for x in GAME.legal(state, other) if x.startswith("MOVE")]
        if state["stage"] == "follow" or acted >= 2 or not moves:
            players.send(other, ["STOP" if state["stage"] == "follow" else "PASS"])
            continue
        players.send(other, [moves[0]])
        acted += 1
    state = players.table().state
    assert acted == 2 and (state["turn"] != turn or state["stage"] not in ("play", "follow"))
    assert not _asked(players, first, f"turn {turn} Play", since)
    assert state["turn"] == turn or not state["p"][first]["play_done"]  # a new turn: asked again


def test_a_forced_stop_after_a_move_is_not_asked(post: Post) -> None:
    """Play, Move: after moving, the troop "may perform one of the following
    actions". When nothing is in its reach and its player holds no control
    or instant circumstance, STOP is the only answer: the judge does not ask
    it, the action ends and both reports say so."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "play")
    table = players.table()
    actor = str(table.state["actor"])
    for role in (S, N):
        table.state["p"][role]["tp"] = 6
    table.state["p"][actor]["hand"] = []
    table.state["serial"] += 1
    asked_anew(table.state)  # the decision asked anew, under its new number
    post.judge.store.update_game(NAME, table_json=table.dumps())
    state = players.table().state
    far = [x for x in GAME.legal(state, actor) if x.startswith("MOVE ")
           and x.split()[2][1] in "12"]  # a move within its own rows: no enemy in reach
    assert far
    since = len(players.outbox.mails)
    log, mails = players.send(actor, [far[0]])
    assert not any("failed" in x for x in log), log
    state = players.table().state
    assert state["stage"] != "follow"
    assert not _asked(players, actor, "Play (after a move)", since)
    assert "can do nothing after its move; its action ends." in _to(mails, F.other(actor))


# --------------------------------------------------------------------------- instants


def _duel(post: Post, players: Players) -> tuple[str, str]:
    """North to act in the Play phase with one troop at C4 (South's frame),
    South with one troop at C3 that North's attack would destroy, South
    holding Hold the Line and a point to pay for it (set in the stored state).
    Returns North's ATTACK line and South's space in South's frame."""
    _until(players, lambda s: s["stage"] == "play")
    table = players.table()
    state = table.state
    north = next(t for t in Ctx(state).troops(N) if t["card"] == "malice-convert")
    south = next(t for t in Ctx(state).troops(S))
    state["troops"] = {north["uid"]: north, south["uid"]: south}
    north["at"], south["at"] = "C4", "C3"
    south["damage"] = POOL.card(south["card"]).health - 1
    state["p"][S]["hand"] = ["hold-the-line"]
    state["p"][S]["tp"], state["p"][N]["tp"] = 1, 6
    state["actor"] = N
    state["serial"] += 1
    asked_anew(state)  # the decision asked anew, under its new number
    post.judge.store.update_game(NAME, table_json=table.dumps())
    return f"ATTACK {F.to_frame('C4', N)} {F.to_frame('C3', N)}", "C3"


def test_a_lethal_blow_is_answered_by_default_without_asking(post: Post) -> None:
    """Combat, step 2: "your opponent has the option to play one instant
    card ... before attack damage is dealt". By default a player who holds
    an instant that fits answers a blow that would destroy its card (or brings
    3 or more damage) with it (DEFEND: the cheapest that fits) and is not
    asked: Hold the Line ("incoming damage is reduced by 3") saves South's
    troop, and no request goes to South."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    attack, _space = _duel(post, players)
    since = len(players.outbox.mails)
    log, _ = players.send(N, [attack])
    assert not any("failed" in x for x in log), log
    for _ in range(6):  # the window's minimum time
        players.tick(minutes=31)
    state = players.table().state
    assert "hold-the-line" not in state["p"][S]["hand"]
    assert not _asked(players, S, "an instant", since)
    troop = Ctx(state).troop_at("C3")
    assert troop is not None and troop["owner"] == S  # saved
    played = _events(post, "South answers with Hold the Line")
    assert played, "the default answer was not played"


def test_policy_ask_asks_again(post: Post) -> None:
    """A player who wants to decide each window by hand says so once:
    ``POLICY instant ASK`` (clear the defaults: ask me at every window; whether
    one is asked never depends on what one holds, judge/game/timing.py); the same
    lethal blow then brings South a request listing its instant."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    log, _ = players.send(S, ["POLICY instant ASK"])
    assert not any("failed" in x for x in log), log
    attack, _space = _duel(post, players)
    since = len(players.outbox.mails)
    players.send(N, [attack])
    for _ in range(6):
        players.tick(minutes=31)
    asked = [m for m in players.outbox.mails[since:] if m["To"] == ADDR[S]
             and "an instant" in str(m["Subject"]) and "your decision" in str(m["Subject"])]
    assert asked
    text = _text(asked[0])
    assert "PLAY hold-the-line" in text
    assert "hold-the-line" in players.table().state["p"][S]["hand"]


def test_troops_are_taken_in_the_order_placed_however_the_state_was_stored() -> None:
    """A stored state's keys come back sorted as text ("t10" before "t9");
    the Halt returns debuffs home in the troops' order, so a replay of the
    log (keys as made) must see the same order: placement order."""
    from tests.conquest_tactics.scenario import put, table

    s = table()
    for i in range(11):
        put(s, S if i % 2 else N, "footsoldiers", f"{'ABCDE'[i % 5]}{1 + i // 5}")
    made = [t["uid"] for t in Ctx(s).troops()]
    s["troops"] = dict(sorted(s["troops"].items()))  # as json.dumps(sort_keys=True) leaves it
    assert list(s["troops"])[:3] == ["t1", "t10", "t11"]
    assert [t["uid"] for t in Ctx(s).troops()] == made == [f"t{i}" for i in range(1, 12)]


# --------------------------------------------------------------------------- a plan written ahead


def _settled(state: dict[str, Any], actor: str) -> dict[str, Any]:
    """``actor``'s action carried through its windows, every instant passed."""
    from tests.conquest_tactics.scenario import act

    for _ in range(10):
        due = live(GAME.pending(state))
        if not due or (state["stage"] == "play" and due[0].kind is DecisionKind.ACTION):
            return state
        state, _ = act(state, due[0].roles[0], "PASS")
    raise AssertionError("the action never settled")


def test_an_opponents_action_is_counted_on_the_spaces_it_changed() -> None:
    """Play: "one player at a time will have control". An action of North's
    is counted, for South, on every space whose card it changed: its attack
    on South's troop (the target damaged) and the Counterattack on North's
    attacker; a move of North's on the spaces it left and entered. Nothing
    is counted for North, and no other space."""
    from tests.conquest_tactics.scenario import act, control, put, table

    state = table("play", tp=(5, 5))
    put(state, S, "footsoldiers", "C3")
    put(state, N, "footsoldiers", "C4")
    put(state, N, "footsoldiers", "A4")
    control(state, N)
    line = f"ATTACK {F.to_frame('C4', N)} {F.to_frame('C3', N)}"
    before = GAME.plan_mark(state, S, "ATTACK C3 C4")
    assert before == "C3:0 C4:0"
    state, _ = act(state, N, line)
    state = _settled(state, N)
    assert rules.touched(state, S, "C3") == 1 and rules.touched(state, S, "C4") == 1
    assert rules.touched(state, S, "A4") == 0
    assert not state.get("touched", {}).get(N)
    assert GAME.plan_mark(state, S, "ATTACK C3 C4") == "C3:1 C4:1"
    assert GAME.plan_mark(state, S, "ATTACK B3 B4") == "B3:0 B4:0"
    control(state, N)
    state, _ = act(state, N, f"MOVE {F.to_frame('A4', N)} {F.to_frame('A3', N)}")
    assert rules.touched(state, S, "A4") == 1 and rules.touched(state, S, "A3") == 1


@pytest.mark.parametrize("changed", [False, True])
def test_a_plan_runs_until_the_opponent_changes_a_card_it_names(post: Post,
                                                                changed: bool) -> None:
    """A line written ahead in the Play phase is part of a plan: it is taken
    when its writer next has control (Play: "one player at a time will have
    control") unless since it was written an action of the opponent has
    changed the card on a space it names. When one has (here: the count of
    such actions on that space raised in the stored state, as an attack
    there does), the plan stops: the line is dropped, the writer is told why
    and asked. The Play request says so."""
    players, _ = _start(post, "south=humans north=malice")
    _set_up(players, FORCES)
    _until(players, lambda s: s["stage"] == "play")
    table = players.table()
    for role in (S, N):  # points enough for both to act (set in the stored state)
        table.state["p"][role]["tp"] = 6
    table.state["serial"] += 1
    asked_anew(table.state)
    post.judge.store.update_game(NAME, table_json=table.dumps())
    state = players.table().state
    first = str(state["actor"])
    other = F.other(first)
    request = _request(players, first, "Play")
    assert "You may write more lines after this one, a plan" in request
    mine = copy_state(state)
    control(mine, other)
    move = next(x for x in GAME.legal(mine, other) if x.startswith("MOVE "))
    _, mails = players.send(other, [move, "STOP"])  # the other side's plan
    assert "queued as line 2" in _to(mails, other)
    if changed:
        table = players.table()
        space = F.from_frame(move.split()[2], other)
        table.state["touched"] = {other: {space: 1}}
        post.judge.store.update_game(NAME, table_json=table.dumps())
    since = len(players.outbox.mails)
    players.send(first, ["PASS"])  # control to the other side for one action
    to_other = _to(players.outbox.mails[since:], other)
    asked = _asked(players, other, "Play", since)
    if changed:
        assert f'Your queued line "{move}" was dropped: your plan stopped' in to_other, to_other
        assert 'Your queued line "STOP" was dropped: your plan stopped' not in to_other
        assert asked and players.table().state["actor"] == other
    else:
        assert "plan stopped" not in to_other and not asked
        dest = F.from_frame(move.split()[2], other)
        assert dest is not None
        moved = Ctx(players.table().state).troop_at(dest)
        assert moved is not None and moved["owner"] == other
