"""The optional hooks of the game contract (judge/game/spec.py, GameSpec), tested
through the game's own API: response windows as WindowSpec with a public
context, standing-answer conditions, the game turn, hidden zones,
resignation, help texts and the introduction, and the report fixes (losses
prompt, capped die rolls, the seat list). Each test quotes the rulebook
passage it covers."""

from __future__ import annotations

import copy
import hashlib
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from judge import reports
from judge.game.engine import (
    Decision,
    DecisionKind,
    Event,
    IllegalLine,
    PolicyCondition,
    WindowSpec,
    Zone,
)
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import GAME, RULES
from judge_games.conflict_of_alliances import cards as C
from judge_games.conflict_of_alliances.data import DATA, SIDES, card_of, slug
from tests.conflict_of_alliances.helpers import (
    SEED,
    A,
    L,
    State,
    deal,
    empty,
    lose,
    new,
    play,
    put,
    stance,
    texts,
)
from tests.conflict_of_alliances.test_responses import _attack
from tests.support.scramble import scramble, zone_items


def _report(state: State, role: str | None, events: list[Event] | None = None) -> str:
    return reports.game_report(GAME, GAME.view(state, role), events or [], role, "g1")


def _walk(options: Mapping[str, Any], seed: int,
          limit: int = 300) -> Iterator[tuple[State, list[Event]]]:
    """A seeded random playthrough through setup/pending/legal/parse/act/resolve
    (no judge): every state with the events that led to it. Military
    operations and face-up plays are preferred, so that battles and windows
    happen."""
    chooser = random.Random(seed)
    base = hashlib.sha256(f"hooks {seed}".encode()).digest()
    state = GAME.setup({o.name: o.default for o in GAME.options} | dict(options), Rng(base))
    yield state, []
    for step in range(limit):
        if GAME.outcome(state) is not None:
            return
        decision = GAME.pending(state)[0]
        rng = Rng(base, 1000 * (step + 1))
        if decision.kind is DecisionKind.ORDERS:
            orders = {}
            for role in decision.roles:
                lines = GAME.legal(state, role)
                orders[role] = [GAME.parse(state, role, chooser.choice(lines))]
            state, events = GAME.resolve(state, orders, rng)
        else:
            role = decision.roles[0]
            lines = GAME.legal(state, role)
            keen = [x for x in lines if "MILITARY" in x or "FACEUP" in x or "RESPOND" in x]
            pool = keen if keen and chooser.random() < 0.7 else lines
            if state["stage"] == "action" and len(lines) > 1 and chooser.random() < 0.9:
                pool = [x for x in pool if x != "PASS"] or [x for x in lines if x != "PASS"]
            state, events = GAME.act(state, role, GAME.parse(state, role, chooser.choice(pool)),
                                     rng)
        yield state, events


WALKS = [
    ({"scenario": "five-kingdoms", "turns": 3}, 21),
    ({"scenario": "qin-dominates", "turns": 2, "card_text": "printed"}, 22),
    ({"scenario": "five-kingdoms", "victory": "bidding", "turns": 1, "aid_24th_card": True}, 23),
    ({"scenario": "qin-dominates", "victory": "match", "turns": 1}, 24),
]


# --------------------------------------------------------------------------- 1. windows


def test_windows_are_declared_as_window_specs() -> None:
    """Responses: "Some cards may be played face up during the opponent's
    action phase, when a specific condition printed on the card is met" --
    before combat (Emergency Mobilization, Elite Crossbowmen, Lord Xinling)
    and when a character card is played (Li Si: "Play if enemy plays
    character card"). Each kind declares its answers and condition words."""
    kinds = [w.kind for w in GAME.windows]
    assert kinds == ["before-combat", "character-card"] == list(C.WINDOWS)
    assert all(isinstance(w, WindowSpec) and w.summary for w in GAME.windows)
    combat = GAME.window("before-combat")
    character = GAME.window("character-card")
    assert combat is not None and character is not None
    assert combat.answers == (
        "RESPOND <card> [FROM <area>]",
        "DEFEND [<n> READY] [<n> TIRED] [<general>...] [LEAD <general>]")
    assert character.answers == ("RESPOND <card>",)
    words = {w.kind: {c.word for c in w.conditions} for w in GAME.windows}
    assert {"AREA", "FORCE", "HOLDING"} <= words["before-combat"]
    assert {"CARD", "FORCE", "HOLDING"} <= words["character-card"]
    assert all(isinstance(c, PolicyCondition) and c.args and c.summary
               for w in GAME.windows for c in w.conditions)
    # The answers are the game's own verbs.
    verbs = {v.syntax.split()[0] for v in GAME.verbs}
    assert {a.split()[0] for w in GAME.windows for a in w.answers} <= verbs


def test_every_window_a_playthrough_opens_is_declared() -> None:
    """Responses: the passive player "may respond several times in each action
    phase"; every window offered carries a declared kind and a phase of its
    own (a new phase for every window, so deadlines never mix)."""
    declared = {w.kind for w in GAME.windows}
    seen: dict[str, int] = {}
    for options, seed in WALKS[:2]:
        for i, (state, _) in enumerate(_walk(options, seed)):
            for d in GAME.pending(state):
                if d.kind is DecisionKind.RESPONSE:
                    assert d.window in declared
                    assert d.phase not in seen or seen[d.phase] == i, d.phase
                    seen[d.phase] = i
    assert seen, "no response window was opened"


# --------------------------------------------------------------------------- 2. context


def test_before_combat_context_names_the_battle() -> None:
    """Responses, the rulebook's example: "the Lianheng player directs Wang
    Jian and 3 Qin armies to attack Li Mu and 1 Zhao army defending a city.
    ... Before combat is resolved, the Alliance player plays Emergency
    Mobilization face up". The window's context is what both players see on
    the board: where, who attacks whom, city or field."""
    s = _attack(("su-qin",))
    (d,) = GAME.pending(s)
    assert d.kind is DecisionKind.RESPONSE and d.window == "before-combat"
    assert dict(d.context) == {
        "window": "before-combat", "responder": A, "area": "xiao-han", "attacker": "qin",
        "defender": "zhao", "attacker_side": L, "city": True, "battle": 1,
        "card": None, "attackers": {"armies": 3, "generals": ["wang-jian"]}}
    assert "Qin attack Zhao in Xiao Han (city)" in d.prompt
    for reader in (L, A, None):
        window = GAME.view(s, reader)["window"]
        assert window["context"] == dict(d.context)
    # The context and the prompt do not depend on the responder's hand.
    other = _attack(("emergency-mobilization", "elite-crossbowmen"))
    (d2,) = GAME.pending(other)
    assert d2.context == d.context and d2.prompt == d.prompt


def test_before_combat_context_names_the_face_up_card() -> None:
    """Mounted Attack: "Perform military operation. May move and fight
    multiple times with +1 DRM" -- a face-up card is public, so the window
    before its battle names it; a face-down card's face stays hidden
    (Face-Down Play: "The opponent may not look at the card's face")."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 0, generals=["li-mu"])
    put(s, "wei", "qin", 1)
    stance(s, "zhao", "anti-qin")
    deal(s, A, "mounted-attack")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY mounted-attack FACEUP")
    s, _ = play(s, A, "MILITARY han-dan zhao li-mu TO wei")
    (d,) = GAME.pending(s)
    assert d.context["card"] == "mounted-attack" and d.context["responder"] == L
    assert d.context["attacker_side"] == A and d.context["defender"] == "qin"


def test_character_card_context_names_the_card_and_its_force() -> None:
    """Li Si: "Play if enemy plays character card. Cancel effect." The
    window after a character card played face up names the card, its option
    and the force it acts on (Su Qin moving Chu), as announced."""
    s = empty()
    s["active"] = A
    put(s, "guanzhong", "qin", 3)
    stance(s, "chu", "neutral-2")
    deal(s, A, "su-qin", "mao-sui")
    deal(s, L, "li-si")
    s, _ = play(s, A, "PLAY su-qin FACEUP A chu")
    (d,) = GAME.pending(s)
    assert d.window == "character-card" and d.roles == (L,)
    assert dict(d.context) == {
        "window": "character-card", "responder": L, "card": "su-qin", "card_name": "Su Qin",
        "option": "a", "played_by": A, "force": "chu", "general": None}
    assert "Alliance plays Su Qin face up on Chu" in d.prompt
    assert GAME.view(s, A)["window"]["context"] == dict(d.context)


def test_fan_ju_context_names_the_general_and_his_force() -> None:
    """Fan Ju: "Remove 1x general from the map." The general is named when
    the card is played face up."""
    s = empty()
    put(s, "guanzhong", "qin", 3)
    put(s, "han-dan", "zhao", 2, generals=["li-mu"])
    deal(s, L, "fan-ju", "han-fei")
    deal(s, A, "su-qin", "mao-sui")
    s, _ = play(s, L, "PLAY fan-ju FACEUP li-mu")
    (d,) = GAME.pending(s)
    assert d.context["general"] == "li-mu" and d.context["force"] == "zhao"


# --------------------------------------------------------------------------- 3. conditions


@pytest.mark.parametrize(("window", "words", "canonical"), [
    ("before-combat", ["AREA", "han-dan"], "AREA han-dan"),
    ("before-combat", ["area", "Han", "Dan", "xiao_han"], "AREA han-dan xiao-han"),
    ("before-combat", ["Force", "ZHAO", "wei", "zhao"], "FORCE zhao wei"),
    ("before-combat", ["ATTACKER", "Qin"], "ATTACKER qin"),
    ("before-combat", ["HOLDING", "Emergency", "Mobilization"],
     "HOLDING emergency-mobilization"),
    ("before-combat", ["CARD", "mounted-attack"], "CARD mounted-attack"),
    ("character-card", ["CARD", "su", "qin", "ZhangYi"], "CARD su-qin zhang-yi"),
    ("character-card", ["FORCE", "chu"], "FORCE chu"),
    ("character-card", ["holding", "li-si"], "HOLDING li-si"),
    ("before-combat", ["AREA", "han", "dan", "and", "HOLDING", "lord-xinling"],
     "AREA han-dan AND HOLDING lord-xinling"),
])
def test_policy_conditions_are_checked_and_made_canonical(
        window: str, words: list[str], canonical: str) -> None:
    """Responses: "A player need not memorise which cards can respond. A
    player only needs to check whether they hold a card with this mark" --
    a standing answer names the battle (area, force) or the card it is for,
    with the names of the commands (ids, any case, with or without
    hyphens, spaces between the words of a name). The canonical text reads
    back the same."""
    assert GAME.policy_condition(window, words) == canonical
    assert GAME.policy_condition(window, canonical.split()) == canonical


@pytest.mark.parametrize(("window", "words", "hint"), [
    ("before-combat", ["WEATHER", "rain"], "conditions: AREA <area>..."),
    ("before-combat", ["AREA", "atlantis"], "areas: longxi"),
    ("before-combat", ["FORCE", "rome"], "forces: qin"),
    ("before-combat", ["AREA"], "areas: longxi"),
    ("before-combat", ["HOLDING", "su-qin", "li-si"], "HOLDING emergency-mobilization"),
    ("character-card", ["AREA", "han-dan"], "conditions: CARD <card>..."),
    ("character-card", ["CARD", "mounted-attack"], "character cards: fan-ju"),
    ("combat", ["AREA", "han-dan"], "windows: before-combat, character-card"),
    ("before-combat", ["AREA", "han-dan", "AND"], "write a condition on each side of AND"),
])
def test_bad_policy_conditions_are_refused_with_the_choices(
        window: str, words: list[str], hint: str) -> None:
    """Mounted Attack has no portrait ("A portrait with background text
    identifies a card as a character card"), so no character-card window is
    ever about it; unknown words and names are refused with what would be
    right."""
    with pytest.raises(IllegalLine) as err:
        GAME.policy_condition(window, words)
    assert hint in err.value.hint


def test_policy_conditions_hold_on_the_seats_own_view_and_the_context() -> None:
    """Responses: "The passive player may respond when the card in hand allows
    it" -- HOLDING tests the seat's own hand in its own view; AREA and FORCE
    the public context of the window."""
    s = _attack(("emergency-mobilization", "su-qin"))
    (d,) = GAME.pending(s)
    mine = GAME.view(s, A)

    def holds(cond: str, view: Mapping[str, Any] = mine, decision: Decision = d) -> bool:
        return GAME.policy_holds(view, decision, GAME.policy_condition(d.window, cond.split()))

    assert holds("AREA xiao-han") and holds("AREA han-dan xiao-han")
    assert not holds("AREA han-dan")
    assert holds("FORCE zhao") and not holds("FORCE wei han")
    assert holds("ATTACKER qin") and not holds("ATTACKER zhao")
    assert holds("HOLDING emergency-mobilization") and not holds("HOLDING elite-crossbowmen")
    assert not holds("CARD mounted-attack")  # a face-down attack names no card
    # Only the view and the context are read: the opponent's view (no hand of
    # the Alliance) never satisfies HOLDING, and a context that says another
    # area changes the answer although the state is the same.
    assert not holds("HOLDING emergency-mobilization", view=GAME.view(s, L))
    moved = Decision(d.kind, d.roles, d.phase, window=d.window,
                     context={**d.context, "area": "han-dan"})
    assert holds("AREA han-dan", decision=moved) and not holds("AREA xiao-han", decision=moved)
    # A condition of the other window's kind never holds here.
    assert not GAME.policy_holds(mine, d, "CARD su-qin")
    # Joined by AND, every condition must hold.
    assert holds("AREA xiao-han AND HOLDING emergency-mobilization")
    assert not holds("AREA xiao-han AND HOLDING elite-crossbowmen")


def test_character_card_conditions() -> None:
    """Jing Ke: "Play if Yan is friendly and enemy plays character card" --
    a standing answer may be kept for some character cards (CARD) or for the
    force the card acts on (FORCE)."""
    s = empty()
    put(s, "guanzhong", "qin", 3)
    stance(s, "chu", "neutral-2")
    deal(s, L, "zhang-yi", "han-fei")
    deal(s, A, "jing-ke", "su-qin")
    s, _ = play(s, L, "PLAY zhang-yi FACEUP A chu")
    (d,) = GAME.pending(s)
    view = GAME.view(s, A)
    assert GAME.policy_holds(view, d, "CARD zhang-yi su-qin")
    assert not GAME.policy_holds(view, d, "CARD fan-ju")
    assert GAME.policy_holds(view, d, "FORCE chu")
    assert not GAME.policy_holds(view, d, "FORCE qi")
    assert GAME.policy_holds(view, d, "HOLDING jing-ke")
    assert not GAME.policy_holds(view, d, "AREA guanzhong")


# --------------------------------------------------------------------------- 4. turn


def test_turn_changes_exactly_when_a_game_turn_starts() -> None:
    """Turn Sequence: "A game is made up of several turns ... Each turn has 3
    steps": the label changes with the draw step of a new turn (and with the
    match's second game), never inside a turn; "bids" while the players bid
    (Competitive Victory Rule)."""
    for options, seed in WALKS:
        last = None
        for state, events in _walk(options, seed):
            label = GAME.turn(state)
            if state["stage"] == "bid":
                assert label == "bids"
            else:
                assert label == f"game {state['game_no']} turn {state['turn']}"
            started = any(e.text.startswith(f"Turn {state['turn']} of ") for e in events)
            if last is not None:
                assert (label != last) == started, (last, label, texts(events))
            last = label
    assert new(victory="bidding")["stage"] == "bid"
    assert GAME.turn(new(victory="bidding")) == "bids"
    assert GAME.turn(new()) == "game 1 turn 1"


def test_turn_label_after_passes() -> None:
    """Actions: "When both players pass in succession, the action step ends
    immediately"; the End Step moves the turn counter."""
    s = new()
    assert GAME.turn(s) == "game 1 turn 1"
    s["cards"][L]["hand"] = s["cards"][L]["hand"][:1]
    s["cards"][A]["hand"] = s["cards"][A]["hand"][:1]
    s, _ = play(s, L, "PASS")
    assert GAME.turn(s) == "game 1 turn 1"
    s, events = play(s, A, "PASS")
    assert GAME.turn(s) == "game 1 turn 2"
    assert "Turn 2 of 5." in texts(events)


# --------------------------------------------------------------------------- 5. zones


def _items(state: State, zone: Zone) -> list[str]:
    return [str(x) for x in zone_items(state, zone)]


def _all_cards(state: State, side: str) -> list[str]:
    z = state["cards"][side]
    out = z["deck"] + z["hand"] + z.get("aside", []) + [e[0] for e in z["discard"]]
    out += z["removed"]
    ch = state.get("choice")
    if ch is not None and ch["side"] == side and ch["kind"] == "keep":
        out += ch["cards"]
    return sorted(out)


def test_zones_lie_in_real_states_and_pools_hold_one_sides_cards() -> None:
    """Turn Sequence: "A player may look at their own hand but may not look at
    the opponent's hand"; Face-Down Play: "The card is then placed face down
    in the player's own discard pile. The opponent may not look at the card's
    face"; Preparation: "The Alliance player and the Lianheng player each
    form a separate draw deck". Every zone's path exists; a pool holds the
    cards of one side's deck only, so any item of a pool may stand in any
    zone of it; no card is ever outside the places a deck's cards can be."""
    kinds: Counter[str] = Counter()
    for options, seed in WALKS:
        for state, _ in _walk(options, seed):
            roles = set(GAME.roles(state))
            zones = GAME.zones(state)
            assert len({z.path for z in zones}) == len(zones)
            for z in zones:
                assert z.seen_by <= roles
                side = z.pool.removesuffix(" cards")
                assert side in SIDES
                for item in _items(state, z):
                    assert isinstance(item, str) and card_of(side, item).side == side
                kinds[str(z.path[2] if z.path[0] == "cards" else z.path[0])] += 1
                if z.path[-1] == "deck":
                    assert z.order_hidden
                elif state["stage"] != "over":
                    assert not state["seats"] or z.seen_by == {state["seats"][side]}
            for side in SIDES:
                expected = DATA.deck_list(side, extra=bool(state["aid24"]) and side == L)
                assert _all_cards(state, side) == sorted(expected)
                # Every card outside the zones is in plain sight: face up in a
                # discard pile, removed from the game, or shown at the end.
                z = state["cards"][side]
                hidden = [x for zone in zones if zone.pool == f"{side} cards"
                          for x in _items(state, zone)]
                shown = [e[0] for e in z["discard"] if e[1]] + z["removed"]
                if state["stage"] == "over":
                    shown += z["hand"] + [e[0] for e in z["discard"] if not e[1]]
                assert sorted(hidden + shown) == sorted(expected)
    assert kinds["deck"] and kinds["hand"] and kinds["discard"]


def test_scrambling_the_zones_a_seat_cannot_see_changes_nothing_it_sees() -> None:
    """DESIGN.md, Privacy, tested with zones() as the data: dealing again the
    cards of every zone a seat may not see leaves its view, its report and
    its legal lines byte for byte the same; dealing again the zones it does
    see changes its view (so the zones are the real ones)."""
    rnd = random.Random(5)
    changed = 0
    checked = 0
    for options, seed in WALKS:
        for state, events in _walk(options, seed, limit=150):
            for reader in [*GAME.roles(state), None]:
                other = scramble(GAME, state, reader, rnd)
                assert GAME.view(other, reader) == GAME.view(state, reader)
                assert _report(other, reader, events) == _report(state, reader, events)
                if reader is not None:
                    assert GAME.legal(other, reader) == GAME.legal(state, reader)
                checked += 1
            for reader in GAME.roles(state):
                if state["stage"] == "over" or reader not in state["seats"].values():
                    continue
                seen = copy.deepcopy(state)
                side = RULES.side_of(state, reader)
                z = seen["cards"][side]
                if z["hand"] and z["deck"]:
                    z["hand"][0], z["deck"][-1] = z["deck"][-1], z["hand"][0]
                    if GAME.view(seen, reader) != GAME.view(state, reader):
                        changed += 1
    assert checked and changed


def test_choosing_from_the_deck_shows_its_cards_to_the_chooser_only() -> None:
    """King of Qin: "Choose a card from your deck. Then reshuffle." While the
    Lianheng chooses, it sees what its deck holds (not its order); Lord
    Chunshen: "Draw 3 cards and keep 2" -- the three drawn are seen by the
    Alliance only. Scrambling what a seat may not see keeps its view."""
    s = empty()
    put(s, "guanzhong", "qin", 3)
    deal(s, L, "king-of-qin", "han-fei")
    deal(s, A, "su-qin", "mao-sui")
    s, _ = play(s, L, "PLAY king-of-qin FACEUP")
    s, _ = play(s, A, "PASS")
    assert s["stage"] == "choose"
    (deck,) = [z for z in GAME.zones(s) if z.path == ("cards", L, "deck")]
    assert deck.seen_by == {L} and deck.order_hidden
    (other_deck,) = [z for z in GAME.zones(s) if z.path == ("cards", A, "deck")]
    assert other_deck.seen_by == frozenset()
    rnd = random.Random(1)
    for reader in (L, A, None):
        assert GAME.view(scramble(GAME, s, reader, rnd), reader) == GAME.view(s, reader)
    c = empty()
    c["active"] = A
    put(c, "nan-yang", "chu", 2)
    stance(c, "chu", "anti-qin")
    deal(c, A, "lord-chunshen")
    deal(c, L, "han-fei", "fan-ju")
    c, _ = play(c, A, "PLAY lord-chunshen FACEUP")
    c, _ = play(c, L, "PASS")
    assert c["stage"] == "choose" and c["choice"]["kind"] == "keep"
    (kept,) = [z for z in GAME.zones(c) if z.path == ("choice", "cards")]
    assert kept.seen_by == {A} and kept.pool == "Alliance cards" and len(_items(c, kept)) == 3
    for reader in (L, A, None):
        assert GAME.view(scramble(GAME, c, reader, rnd), reader) == GAME.view(c, reader)


def test_a_named_discard_waits_in_a_hidden_zone() -> None:
    """Lyu Buwei: "Discard 1 more card, then draw 3"; the Lianheng names the
    card when it plays Lyu Buwei, and the Alliance may answer the character
    card first (Jing Ke, Li Si: "Cancel effect"). While it waits the card is
    still counted in the hand, seen by its owner only, in a zone of the
    Lianheng pool; cancelled, it goes back to the hand."""
    s = empty()
    put(s, "guanzhong", "qin", 3)
    deal(s, L, "lyu-buwei", "fan-ju", "han-fei")
    deal(s, A, "jing-ke", "su-qin", "mao-sui")
    s, _ = play(s, L, "PLAY lyu-buwei FACEUP DISCARD fan-ju")
    aside = [z for z in GAME.zones(s) if z.path == ("cards", L, "aside")]
    assert aside and aside[0].seen_by == {L} and aside[0].pool == "Lianheng cards"
    assert [slug(x) for x in _items(s, aside[0])] == ["fan-ju"]
    assert GAME.view(s, A)["cards"][L]["hand"] == 2
    assert GAME.view(s, L)["hand"] == ["fan-ju", "han-fei"]
    assert "fan-ju" not in repr(s["todo"])
    passed, _ = play(s, A, "PASS")
    assert [slug(e[0]) for e in passed["cards"][L]["discard"]] == ["lyu-buwei", "fan-ju"]
    assert passed["cards"][L]["discard"][1][1] is False
    assert len(passed["cards"][L]["hand"]) == 4
    cancelled, _ = play(s, A, "RESPOND jing-ke")
    assert sorted(slug(x) for x in cancelled["cards"][L]["hand"]) == ["fan-ju", "han-fei"]
    assert cancelled["cards"][L]["aside"] == []


# --------------------------------------------------------------------------- 6. concede


def test_resigning_concedes_a_two_player_game() -> None:
    """Number of Players: "The game is for 2 players. One player plays the
    Lianheng side ... The other player plays the Alliance side": when one
    resigns, the other wins."""
    s = new()
    before = copy.deepcopy(s)
    result = GAME.concede(s, L)
    assert result is not None
    done, events = result
    assert s == before
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.winners == (A,) and not outcome.draw
    assert done["stage"] == "over" and GAME.pending(done) == []
    assert [e.text for e in events] == ["Lianheng resigns; Alliance wins the game."]
    assert all(e.audience is None for e in events)
    assert GAME.view(done, A)["result"] == {"winners": [A], "draw": False}
    assert "hands" in GAME.view(done, None)
    with pytest.raises(IllegalLine):
        GAME.concede(done, A)


def test_resigning_the_match_gives_it_to_the_opponent() -> None:
    """Two-Game Victory Rule: "the two players may play 2 games in a row ...
    The player who played the Lianheng side in the game in which Qin
    controlled more RP is the winner" -- a player who resigns, in either
    game, loses the match."""
    s = new("qin-dominates", victory="match")
    s["game_no"] = 2
    s["seats"] = {L: "Second", A: "First"}
    result = GAME.concede(s, "Second")
    assert result is not None
    done, events = result
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.winners == ("First",)
    assert "Second resigns; First wins the match." in texts(events)
    assert done["end"] == "Second resigns in game 2 of the match"


def test_resigning_during_a_window_shows_the_cards_at_the_end() -> None:
    """Full history is released when the game ends (DESIGN.md, Privacy):
    after a resignation during Lyu Buwei's window, the card it named to
    discard is in its owner's hand, and every hand is shown."""
    s = empty()
    put(s, "guanzhong", "qin", 3)
    deal(s, L, "lyu-buwei", "fan-ju", "han-fei")
    deal(s, A, "jing-ke", "su-qin", "mao-sui")
    s, _ = play(s, L, "PLAY lyu-buwei FACEUP DISCARD fan-ju")
    result = GAME.concede(s, A)
    assert result is not None
    done, _ = result
    assert GAME.view(done, None)["hands"][L] == ["fan-ju", "han-fei"]
    assert GAME.zones(done) == [z for z in GAME.zones(done) if z.path[-1] == "deck"]


# --------------------------------------------------------------------------- 7. help


def test_help_gives_a_cards_text_by_slug_or_name() -> None:
    """Cards: "Card name is printed at the top of the card. Effect description
    is printed at the bottom of the card"; the translator's notes: "The
    printed Chinese card art says the first option directs a reinforcement
    operation and then a military operation on any Revenge Qin or Anti-Qin
    force" (option card_text=printed)."""
    by_slug = GAME.help_topic("emergency-mobilization")
    assert by_slug is not None
    assert GAME.help_topic("Emergency Mobilization") == by_slug
    assert "Lianheng deck: 4 copies" in by_slug and "Alliance deck: 1 copy" in by_slug
    assert 'May use "Afraid of Qin" factions' in by_slug
    assert "With card_text=printed:" in by_slug and "Revenge Qin or Anti-Qin" in by_slug
    assert "Break mark (破): option B may respond" in by_slug
    assert "RESPOND emergency-mobilization in the before-combat window" in by_slug
    lyu = GAME.help_topic("lyu buwei")
    assert lyu is not None and "Discard 1 more card, then draw 3." in lyu
    assert "PLAY lyu-buwei FACEUP DISCARD <card>" in lyu
    # Cards of one deck only have one text.
    su = GAME.help_topic("su-qin")
    assert su is not None and "Alliance deck" in su and "Lianheng deck" not in su
    assert "With card_text" not in su


def test_help_on_generals_windows_and_unknown_topics() -> None:
    """Counters: "Sword: +1 to own combat roll ... Shield: -1 to the enemy
    combat roll ... Horse: movement allowance of 3"; the windows for
    standing answers; None for what the game does not know."""
    li_mu = GAME.help_topic("Li Mu")
    assert li_mu is not None and "Zhao" in li_mu and "Sword" in li_mu
    sima = GAME.help_topic("general sima-cuo")
    assert sima is not None and "Horse" in sima
    window = GAME.help_topic("before-combat")
    assert window is not None and "DEFEND" in window and "AREA <area>..." in window
    character = GAME.help_topic("window character-card")
    assert character is not None and "CARD <card>..." in character
    han = GAME.help_topic("han")
    assert han is not None and "RP" in han and "major force" in han
    assert GAME.help_topic("card han") is None
    assert GAME.help_topic("nonsense") is None
    assert GAME.help_topic("") is None


def test_introduction_lists_every_card_of_the_seats_side() -> None:
    """Cards: "The Alliance (Hezong) side and the Lianheng side each have their
    own draw deck, of 23 cards each"; "A card marked with the 'Break'
    character (破) indicates that the card may be responded to"."""
    s = new()
    text = GAME.introduction(s, A)
    assert text.startswith("The Alliance deck: 23 cards.")
    for card in DATA.cards[A].values():
        assert f"{card.name}" in text and f"[{card.id}]" in text
        assert card.text in text
    assert "Legendary General [legendary-general], Alliance deck: 3 copies" in text
    assert text.count("Break mark (破)") == 1 + sum(
        1 for c in DATA.cards[A].values() if c.response)
    assert "Lyu Buwei" not in text and "With card_text" not in text
    lianheng = GAME.introduction(new(aid_24th_card=True), L)
    assert lianheng.startswith("The Lianheng deck: 24 cards.")
    assert "National Mobilization [national-mobilization], Lianheng deck: 3 copies" in lianheng
    printed = GAME.introduction(new(card_text="printed"), A)
    assert "Text (printed card art, card_text=printed): a) Perform a military operation " \
           "directing a Revenge Qin or Anti-Qin force" in printed
    both = GAME.introduction(new(victory="bidding"), "First")
    assert "The Lianheng deck" in both and "The Alliance deck" in both


# --------------------------------------------------------------------------- 8. reports


def test_the_losses_prompt_gives_both_sides_figures() -> None:
    """Combat, Assigning losses: "The player commanding each side chooses which
    of its own army counters are lost" -- the shared prompt says, for each
    side, how many of its counters taking part it loses and which they are."""
    s = empty()
    put(s, "guanzhong", "qin", 3, generals=["bai-qi"])
    put(s, "xiao-han", "zhao", 2, generals=["li-mu"])
    deal(s, L, "fan-ju", "han-fei")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 bai-qi TO xiao-han")
    s, _ = play(s, A, "PASS", dice=[4, 3])
    (d,) = GAME.pending(s)
    assert d.kind is DecisionKind.ORDERS and d.roles == (L, A)
    assert ("Lianheng (Qin, attacker) loses 2 of its 4 counters taking part "
            "(3 moved armies, Bai Qi)") in d.prompt
    assert ("Alliance (Zhao, defender) loses 2 of its 3 counters taking part "
            "(2 ready armies, Li Mu)") in d.prompt
    s, _ = lose(s, {L: "LOSE 2 MOVED", A: "LOSE 2 READY"})


def test_the_losses_prompt_with_first_strike() -> None:
    """Responses: "the defender deals 3 points of damage and eliminates 3 Qin
    army counters, leaving only Wang Jian" -- with first strike only the
    attacker loses in this round, and the prompt says so for both."""
    s = _attack(("emergency-mobilization", "elite-crossbowmen", "su-qin"))
    s, _ = play(s, A, "RESPOND emergency-mobilization")
    s, _ = play(s, A, "RESPOND elite-crossbowmen")
    s, _ = play(s, A, "PASS", dice=[6, 4])
    (d,) = GAME.pending(s)
    assert "Lianheng (Qin, attacker) loses 3 of its 4 counters taking part" in d.prompt
    assert "Alliance (Zhao, defender) loses 0 of its 3 counters taking part" in d.prompt


def test_a_modified_roll_past_six_or_below_one_is_shown_capped() -> None:
    """Combat Die Modifiers: "However many modifiers apply, the final result
    cannot be less than 1 or greater than 6 ... a roll of 6 stays 6 ... a
    roll of 1 stays 1"."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 0, generals=["li-mu"])
    put(s, "wei", "qin", 1)
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao li-mu TO wei")
    _, events = play(s, L, "PASS", dice=[6, 1])
    assert "Dice: attacker rolls 6 (+1, capped at 6), defender rolls 1." in texts(events)
    _, events = play(s, L, "PASS", dice=[5, 1])
    assert "Dice: attacker rolls 5 (+1 = 6), defender rolls 1." in texts(events)
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 2)
    put(s, "wei", "qin", 1, generals=["shu-li-ji"])
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 2 TO wei")
    _, events = play(s, L, "PASS", dice=[1, 3])
    assert "Dice: attacker rolls 1 (-1, capped at 1), defender rolls 3." in texts(events)
    _, events = play(s, L, "PASS", dice=[2, 3])
    assert "Dice: attacker rolls 2 (-1 = 1), defender rolls 3." in texts(events)


def _seat_line(report: str) -> str:
    return next(line for line in report.splitlines() if line.startswith("Seats:"))


def test_the_seat_list_names_each_seat_once() -> None:
    """Number of Players: "One player plays the Lianheng side ... The other
    player plays the Alliance side". With the basic rules the seats are the
    sides and are named once; with bidding or a match the seat and its side
    differ and both are given, the seat once."""
    s = new()
    for reader in (L, A, None):
        report = _report(s, reader)
        line = _seat_line(report)
        assert line == "Seats: Lianheng, Alliance."
        assert "(Lianheng side)" not in report and "(Alliance side)" not in report
    assert "report for Lianheng\n" in _report(s, L)
    m = new(victory="match")
    report = _report(m, "First")
    assert _seat_line(report) == "Seats: First (Lianheng), Second (Alliance)."
    assert "report for First (Lianheng side)" in report
    for seat in ("First", "Second"):
        assert _seat_line(report).count(seat) == 1


def test_the_report_describes_the_open_window() -> None:
    """Responses: "Before combat is resolved, the Alliance player plays
    Emergency Mobilization face up" -- the report says which battle the
    window is for."""
    s = _attack(("su-qin",))
    report = _report(s, A)
    assert ("Now: a response window (before-combat) for Alliance: Qin attack Zhao in "
            "xiao-han (city) (you: RESPOND <card>, DEFEND ... or PASS).") in report


# --------------------------------------------------------------------------- 9. the table


def test_every_card_has_one_effect_function_named_after_it() -> None:
    """Face-Up Play: "A card played face up is turned face up and its effect
    is carried out" -- every card of both decks has its function in the
    table, named after the card and quoting its text."""
    slugs = {c for deck in DATA.cards.values() for c in deck}
    assert set(C.CARD_EFFECTS) == slugs
    for card, fn in C.CARD_EFFECTS.items():
        assert fn.__name__ == card.replace("-", "_")
        names = {DATA.cards[s][card].name for s in SIDES if card in DATA.cards[s]}
        assert fn.__doc__ and any(n in fn.__doc__ for n in names), card


def test_views_with_a_window_validate() -> None:
    """The view (with the window's context) fits its schema for every reader."""
    states = [_attack(("su-qin",))]
    s = empty()
    s["active"] = A
    put(s, "guanzhong", "qin", 3)
    stance(s, "chu", "neutral-2")
    deal(s, A, "su-qin", "mao-sui")
    deal(s, L, "li-si")
    states.append(play(s, A, "PLAY su-qin FACEUP A chu")[0])
    for state in states:
        for reader in (L, A, None):
            reports.validate(GAME.view_schema, GAME.view(state, reader))


_ = SEED
