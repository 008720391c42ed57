"""Every Game card, each test citing the rulebook's Description of Game Cards
(kingdom-wars.txt) for what it checks. The generals are chosen without skills
that touch the card tested (Lv Bu and Diao Chan are never exposed here)."""

from __future__ import annotations

import pytest

from bench.support.kingdom_wars import (
    answer,
    ask,
    copy_of,
    hp,
    open_ask,
    pass_all,
    play,
    table,
    texts,
)
from judge.game.engine import Event, State

# Four seats of generals whose skills stay hidden (never exposed in these tests).
PLAIN = {"A": ("cao-cao", "xu-chu"), "B": ("liu-bei", "guan-yu"),
         "C": ("sun-quan", "zhou-tai"), "D": ("lv-bu", "diao-chan")}
SIX = {**PLAIN, "E": ("zhang-jiao", "jia-xu"), "F": ("cao-pi", "lady-zhen")}


def attack(suit: str = "spades", rank: int = 7, kind: str = "attack") -> str:
    return copy_of(kind, suit, rank)


# --------------------------------------------------------------------------- Attack


def test_attack_deals_one_damage_unless_dodged() -> None:
    """Attack: "Your [Attack] deals 1 damage to the target player"; Dodge:
    "Offset the effect of the target [Attack]"."""
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("dodge")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    assert open_ask(s)["kind"] == "respond" and open_ask(s)["roles"] == ["B"]
    s, ev = answer(s, {"B": ["DODGE"]})
    assert hp(s, "B") == 4 and "seat B dodges the Attack." in texts(ev)
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("dodge")]})
    s, _ = play(s, "A", "USE Attack ON B")
    s, ev = answer(s, {})
    assert hp(s, "B") == 3
    assert any("takes 1 damage from seat A" in t for t in texts(ev))


def test_only_one_attack_per_play_phase() -> None:
    """"You may use [Attack] only once in the Play Phase"."""
    a1, a2 = attack("spades", 7), attack("spades", 8)
    s = table(PLAIN, hands={"A": [a1, a2]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all(s)
    with pytest.raises(Exception, match="used your Attack"):
        play(s, "A", "USE Attack S8 ON B")


def test_attack_range_is_one_at_the_start() -> None:
    """Attack Range: "Every player's attack range is 1 when the game begins";
    in a ring of six, C is at distance 2 from A."""
    s = table(SIX, hands={"A": [attack()]})
    with pytest.raises(Exception, match="out of your attack range"):
        play(s, "A", "USE Attack S7 ON C")
    assert play(s, "A", "USE Attack S7 ON B")  # distance 1
    assert play(s, "A", "USE Attack S7 ON F")  # distance 1 the other way round


def test_fire_and_thunder_attack_deal_elemental_damage() -> None:
    """Fire Attack / Thunder Attack: "the damage caused by this [Attack] is
    Fire Damage" / "Thunder Damage"."""
    s = table(PLAIN, hands={"A": [copy_of("fire-attack")]})
    s, _ = play(s, "A", "USE Fire Attack ON B")
    s, ev = answer(s, {})
    assert any("1 fire damage" in t for t in texts(ev))
    s = table(PLAIN, hands={"A": [copy_of("thunder-attack")]})
    s, _ = play(s, "A", "USE Thunder Attack ON B")
    s, ev = answer(s, {})
    assert any("1 thunder damage" in t for t in texts(ev))


def test_wine_strengthens_the_next_attack_once_per_turn() -> None:
    """Wine: "During Play Phase, use it on yourself to strengthen your next
    [Attack] damage +1 (can only be used once per turn)"."""
    w1, w2 = copy_of("wine"), copy_of("wine", taken=[copy_of("wine")])
    s = table(PLAIN, hands={"A": [w1, w2, attack()]})
    s, _ = play(s, "A", "USE Wine")
    with pytest.raises(Exception, match="once per turn"):
        play(s, "A", "USE Wine")
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    assert hp(s, "B") == 2


def test_dodge_is_not_used_in_the_play_phase() -> None:
    """Dodge: "Under normal circumstances, [Dodge] will only be used outside
    your turn" (it answers an Attack)."""
    s = table(PLAIN, hands={"A": [copy_of("dodge")]})
    with pytest.raises(Exception, match="only used to answer"):
        play(s, "A", "USE Dodge")


# --------------------------------------------------------------------------- Peach


def test_peach_in_the_play_phase_only_when_wounded() -> None:
    """Peach: "During Play Phase, you are not allowed to use [Peach] to yourself
    if you are in full health"; otherwise it recovers 1."""
    p = copy_of("peach")
    s = table(PLAIN, hands={"A": [p]})
    with pytest.raises(Exception, match="full health"):
        play(s, "A", "USE Peach")
    s = table(PLAIN, hands={"A": [p]}, hp={"A": 2})
    s, _ = play(s, "A", "USE Peach")
    assert hp(s, "A") == 3


def test_peach_rescues_a_dying_player_two_needed_at_minus_one() -> None:
    """Peach, Others: a player at 2 health hit by 3 is dying and "can be
    rescued only on condition that 2 [Peach] cards are used" (2-3+2=1). Here
    B, at 1 health, takes a 2-damage Attack (Wine) and needs two Peaches."""
    p1 = copy_of("peach")
    p2 = copy_of("peach", taken=[p1])
    s = table(PLAIN, hands={"A": [copy_of("wine"), attack()], "C": [p1, p2]}, hp={"B": 1})
    s, _ = play(s, "A", "USE Wine")
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    assert open_ask(s)["window"] == "rescue" and open_ask(s)["need"] == 2
    assert open_ask(s)["roles"] == ["A", "B", "C", "D"]  # in turn order from the current player
    s, _ev = answer(s, {"C": ["PEACH", "PEACH"]})
    assert hp(s, "B") == 1 and s["p"]["B"]["alive"]


def test_wine_rescues_only_oneself() -> None:
    """Wine: "When you are in the state of Dying, use it on yourself to recover
    1 health point ([Wine] cannot be used on other players)"."""
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("wine")], "C": [copy_of("wine")]},
              hp={"B": 1})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    with pytest.raises(Exception, match="PEACH"):
        play(s, "C", "WINE")  # C may not Wine B
    s, _ = answer(s, {"B": ["WINE"]})
    assert hp(s, "B") == 1


def test_an_unrescued_player_is_eliminated_and_reveals_everything() -> None:
    """Elimination: "Otherwise, the Player gets eliminated officially and shall
    reveal all his/her General cards and discard all of their cards"."""
    eq = copy_of("red-hare")
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("dodge", "hearts", 2)]},
              equip={"B": [eq]}, hp={"B": 1})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    s, _ev = pass_all(s)
    assert not s["p"]["B"]["alive"]
    assert s["p"]["B"]["shown"] == [True, True]
    assert eq in s["discard"] and not s["p"]["B"]["hand"]


# --------------------------------------------------------------------------- spells


def test_duel_the_first_without_an_attack_loses() -> None:
    """Duel: "Starting with the target player, he and you will take turns to
    play an [Attack] card. The first player that fails to play [Attack] will
    be the loser of the Duel. The winner deals 1 damage to the loser." (It
    may damage oneself.)"""
    d = copy_of("duel")
    s = table(PLAIN, hands={"A": [d, attack("clubs", 2)], "B": [attack("clubs", 3)]})
    s, _ = play(s, "A", "USE Duel ON B")
    s, _ = answer(s, {})  # nobody negates the Duel
    assert open_ask(s)["roles"] == ["B"] and open_ask(s)["want"] == "attack"
    s, _ = answer(s, {"B": ["ATTACK"]})
    assert open_ask(s)["roles"] == ["A"]
    s, _ = answer(s, {})  # A has an Attack but passes: A loses
    assert hp(s, "A") == 3 and hp(s, "B") == 4


def test_negation_cancels_a_spell_and_a_negation_cancels_a_negation() -> None:
    """Negation: "cancel the effect of target Spell card on a player, or cancel
    the effect of another [Negation]"; asked "in sequence ... starting from the
    player who is playing his/her current turn"."""
    n1 = copy_of("negation")
    n2 = copy_of("negation-force")
    s = table(PLAIN, hands={"A": [copy_of("something-out-of-nothing")], "C": [n1], "D": [n2]})
    s, _ = play(s, "A", "USE Something out of Nothing")
    assert open_ask(s)["kind"] == "negate" and open_ask(s)["roles"] == ["A", "B", "C", "D"]
    s, _ = answer(s, {"C": ["NEGATE"]})
    assert open_ask(s)["kind"] == "negate" and open_ask(s)["about"]["type"] == "negation"
    before = len(s["p"]["A"]["hand"])
    s, _ = answer(s, {"D": ["NEGATE"]})  # negates C's Negation
    s, _ = answer(s, {})  # nobody negates D's Negation: it stands, C's is cancelled
    # the first window resumes with D, the one who has not answered it yet
    assert open_ask(s)["kind"] == "negate" and open_ask(s)["roles"] == ["D"]
    s, _ev = answer(s, {})
    assert len(s["p"]["A"]["hand"]) == before + 2


def test_a_standing_negation_cancels_the_spell() -> None:
    """Negation: the spell is cancelled on that player when nobody negates the
    Negation."""
    s = table(PLAIN, hands={"A": [copy_of("something-out-of-nothing")], "B": [copy_of("negation")]})
    s, _ = play(s, "A", "USE Something out of Nothing")
    s, _ = answer(s, {"B": ["NEGATE"]})
    s, ev = answer(s, {})
    assert "Something out of Nothing S7 is cancelled on seat A." in texts(ev) or any(
        "is cancelled on seat A" in t for t in texts(ev))
    assert len(s["p"]["A"]["hand"]) == 0


def test_negation_force_cancels_the_spell_for_the_whole_force() -> None:
    """Negation (force): "cancel the effect of target Spell card on a player or
    all players that belong to one force". B and C are both exposed Shu here:
    one FORCE Negation spares both from Raining Arrows."""
    gens = {"A": ("cao-cao", "xu-chu"), "B": ("liu-bei", "guan-yu"),
            "C": ("zhang-fei", "zhao-yun"), "D": ("sun-quan", "zhou-tai")}
    nf = copy_of("negation-force")
    s = table(gens, hands={"A": [copy_of("raining-arrows")], "B": [nf]},
              shown={"B": ["main"], "C": ["main"]})
    s, _ = play(s, "A", "USE Raining Arrows")
    s, _ = answer(s, {"B": ["NEGATE FORCE"]})
    s, ev = answer(s, {})
    # B's window is settled; C is skipped; D is asked for a Negation, then to dodge
    assert any("whole force" in t for t in texts(ev))
    assert open_ask(s)["kind"] == "negate" and open_ask(s)["about"]["target"] == "D"


def test_burning_bridges_discards_a_chosen_card() -> None:
    """Burning Bridges: "You may discard one card from his/her zone"."""
    shield = copy_of("nio-shield")
    s = table(PLAIN, hands={"A": [copy_of("burning-bridges")]}, equip={"C": [shield]})
    s, _ = play(s, "A", "USE Burning Bridges ON C")
    s, _ = answer(s, {})
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["options"] == ["TAKE NIO SHIELD C2"]
    s, _ = play(s, "A", "TAKE NIO SHIELD C2")
    assert shield in s["discard"] and s["p"]["C"]["equip"]["armor"] is None


def test_stealing_sheep_reaches_distance_one_and_takes_blind_from_the_hand() -> None:
    """Stealing Sheep: "Another player within 1 physical range"; Appendix I,
    Obtain: from another's hand "you may only choose it randomly", and the
    card is named only to the two players (Privacy)."""
    ss = copy_of("stealing-sheep")
    s = table(SIX, hands={"A": [ss], "B": [copy_of("dodge")], "C": [copy_of("peach")]})
    with pytest.raises(Exception, match="reaches 1"):
        play(s, "A", "USE Stealing Sheep ON C")
    s, _ = play(s, "A", "USE Stealing Sheep ON B")
    s, _ = answer(s, {})
    s, ev = play(s, "A", "TAKE HAND")
    assert copy_of("dodge") in s["p"]["A"]["hand"]
    named = [e for e in ev if "Dodge" in e.text]
    assert named and all(e.audience == frozenset({"A", "B"}) for e in named)


def test_raining_arrows_and_barbarian_invasion() -> None:
    """Raining Arrows: "Each target player must play a [Dodge] card, otherwise
    suffer 1 damage"; Barbarian Invasion: "must play an [Attack] card"."""
    s = table(PLAIN, hands={"A": [copy_of("raining-arrows")], "C": [copy_of("dodge")]})
    s, _ = play(s, "A", "USE Raining Arrows")
    s, _ = pass_all_but(s, {"C": ["DODGE"]})
    assert (hp(s, "B"), hp(s, "C"), hp(s, "D")) == (3, 4, 3)
    s = table(PLAIN, hands={"A": [copy_of("barbarian-invasion")], "B": [attack()]})
    s, _ = play(s, "A", "USE Barbarian Invasion")
    s, _ = pass_all_but(s, {"B": ["ATTACK"]})
    assert (hp(s, "B"), hp(s, "C"), hp(s, "D")) == (4, 3, 3)


def pass_all_but(s: State, lines: dict[str, list[str]]) -> tuple[State, list[Event]]:
    """Settle windows until A is asked to play again, ``lines`` given in the
    windows that ask for cards."""
    events: list[Event] = []
    for _ in range(100):
        a = ask(s)
        if a is None or a["kind"] in ("play", "choose", "cards"):
            break
        if a["kind"] == "respond":
            s, got = answer(s, {r: list(v) for r, v in lines.items()})
        else:
            s, got = answer(s, {})
        events += got
    return s, events


def test_something_out_of_nothing_brotherhood_and_bumper_harvest() -> None:
    """Something out of Nothing: "Draw 2 cards". Brotherhood: "Each target
    player recovers 1 health point". Bumper Harvest: cards as many as the
    players, each player from the user picks one."""
    s = table(PLAIN, hands={"A": [copy_of("brotherhood")]}, hp={"A": 2, "C": 3})
    s, _ = play(s, "A", "USE Brotherhood")
    s, _ = pass_all_but(s, {})
    assert (hp(s, "A"), hp(s, "C")) == (3, 4)
    s = table(PLAIN, hands={"A": [copy_of("bumper-harvest")]})
    s, _ = play(s, "A", "USE Bumper Harvest")
    assert len(s["proc"]) == 1 + 4  # the spell and four cards shown
    picks = 0
    for _ in range(40):
        a = ask(s)
        if a is None or a["kind"] == "play":
            break
        if a["kind"] == "choose":
            s, _ = play(s, a["roles"][0], a["options"][0])
            picks += 1
        else:
            s, _ = answer(s, {})
    assert picks == 4 and all(len(s["p"][r]["hand"]) == 1 for r in "ABCD")


def test_borrowed_sword_attack_or_give_the_weapon() -> None:
    """Borrowed Sword: "A needs to use an [Attack] card against B. Otherwise,
    you take his weapon"."""
    bow = copy_of("kirin-bow")
    s = table(PLAIN, hands={"A": [copy_of("borrowed-sword")]}, equip={"B": [bow]})
    s, _ = play(s, "A", "USE Borrowed Sword ON B D")
    s, _ = answer(s, {})
    assert open_ask(s)["roles"] == ["B"]
    s, _ = play(s, "B", "PASS")
    assert bow in s["p"]["A"]["hand"]


def test_iron_chains_spread_elemental_damage_once() -> None:
    """Iron Chains: "When a player in the state of "in Chains" is damaged by
    fire or thunder, all other players who are also in the state of "in
    Chains" will also be damaged by the same degree"; "Damage transmitted
    through the "in Chains" cannot be transmitted again"."""
    s = table(PLAIN, hands={"A": [copy_of("fire-attack")]}, chained=["B", "C", "D"])
    s, _ = play(s, "A", "USE Fire Attack ON B")
    s, _ = pass_all_but(s, {})
    assert (hp(s, "B"), hp(s, "C"), hp(s, "D")) == (3, 3, 3)
    assert not any(s["p"][r]["chained"] for r in "BCD")


def test_iron_chains_toggle_and_recast() -> None:
    """Iron Chains: tap or untap 1 or 2 players; "Recast: During Play Phase, you
    may discard this card and draw a card"."""
    ic1 = copy_of("iron-chains")
    ic2 = copy_of("iron-chains", taken=[ic1])
    s = table(PLAIN, hands={"A": [ic1, ic2]})
    s, _ = play(s, "A", "USE Iron Chains ON B C")
    s, _ = pass_all_but(s, {})
    assert s["p"]["B"]["chained"] and s["p"]["C"]["chained"]
    s, _ = play(s, "A", "RECAST Iron Chains")
    # the used one and the recast one are discarded; one card was drawn
    assert ic1 in s["discard"] and ic2 in s["discard"] and len(s["p"]["A"]["hand"]) == 1


def test_attack_by_fire() -> None:
    """Attack by Fire: "The target player reveals a card from his/her hand. You
    may discard a card with the same suit as that card; if you do so, you
    deal 1 damage to target" (fire)."""
    shown = copy_of("dodge", "hearts", 2)
    same = copy_of("peach", "hearts", 4)
    s = table(PLAIN, hands={"A": [copy_of("attack-by-fire"), same], "B": [shown]})
    s, _ = play(s, "A", "USE Attack by Fire ON B")
    s, _ = answer(s, {})
    s, ev = play(s, "B", "SHOW Dodge H2")
    assert "seat B shows Dodge H2." in texts(ev)
    s, ev = play(s, "A", "DISCARD Peach H4")
    assert hp(s, "B") == 3 and any("fire damage" in t for t in texts(ev))


def test_know_your_enemy_shows_the_hand_to_the_user_only() -> None:
    """Know your Enemy: "view the whole set of target's hand cards" (Privacy:
    one seat only)."""
    d = copy_of("dodge")
    s = table(PLAIN, hands={"A": [copy_of("know-your-enemy")], "C": [d]})
    s, _ = play(s, "A", "USE Know your Enemy ON C")
    s, _ = answer(s, {})
    s, ev = play(s, "A", "CHOOSE HAND")
    seen = [e for e in ev if "Dodge" in e.text]
    assert seen and all(e.audience == frozenset({"A"}) for e in seen)


def test_alliance_needs_two_exposed_forces() -> None:
    """Alliance: "can be used, only if you and the target player are
    determined to be in different Forces"; target draws 1, you draw 3."""
    s = table(PLAIN, hands={"A": [copy_of("alliance")]})
    with pytest.raises(Exception, match="different forces"):
        play(s, "A", "USE Alliance ON B")
    s = table(PLAIN, hands={"A": [copy_of("alliance")]}, shown={"A": ["main"], "B": ["main"]})
    s, _ = play(s, "A", "USE Alliance ON B")
    s, _ = answer(s, {})
    assert (len(s["p"]["A"]["hand"]), len(s["p"]["B"]["hand"])) == (3, 1)


def test_rest_and_reorganization() -> None:
    """Rest and Reorganization: "Each player draw 2 cards, and then discard 2
    cards" (you and your kingdom: alone while hidden)."""
    s = table(PLAIN, hands={"A": [copy_of("rest-and-reorganization")]})
    s, _ = play(s, "A", "USE Rest and Reorganization")
    s, _ = answer(s, {})
    assert open_ask(s)["kind"] == "cards" and open_ask(s)["least"] == 2
    line = f"DISCARD {' '.join(_labels(s['p']['A']['hand']))}"
    s, _ = play(s, "A", line)
    assert s["p"]["A"]["hand"] == []


def _labels(cids: list[str]) -> list[str]:
    from judge_games.kingdom_wars.table import label

    return [label(c) for c in cids]


# --------------------------------------------------------------------------- time-delay


def test_acedia_skips_the_play_phase_unless_hearts() -> None:
    """Acedia: "if the judgement card does not belong to the Hearts suit,
    target's Play Phase will be skipped"."""
    ac = copy_of("acedia")
    s = table(PLAIN, judge={"A": [(ac, "acedia")]}, deck_top=[copy_of("attack", "spades", 7)],
              phase="judgement")
    s, ev = pass_all_but(s, {})
    assert "seat A's Play Phase is skipped." in texts(ev) and ac in s["discard"]
    s = table(PLAIN, judge={"A": [(ac, "acedia")]}, deck_top=[copy_of("attack", "hearts", 10)],
              phase="judgement")
    s, ev = pass_all_but(s, {})
    assert open_ask(s)["kind"] == "play"


def test_rations_depleted_skips_the_draw_unless_clubs() -> None:
    """Rations Depleted: "if the judgement card does not belong to the Clubs
    suit, his Draw Phase will be skipped"; target "within 1 physical range"."""
    rd = copy_of("rations-depleted")
    s = table(PLAIN, judge={"A": [(rd, "rations-depleted")]},
              deck_top=[copy_of("attack", "spades", 7)], phase="judgement")
    s, ev = pass_all_but(s, {})
    assert "seat A's Draw Phase is skipped." in texts(ev) and len(s["p"]["A"]["hand"]) == 0
    s = table(SIX, hands={"A": [rd]})
    with pytest.raises(Exception, match="reaches 1"):
        play(s, "A", "USE Rations Depleted ON C")


def test_no_two_cards_of_one_name_in_a_judgement_zone() -> None:
    """Play Phase: "You are not allowed to place 2 cards with the same name in
    the judgement zone of any player"."""
    a1 = copy_of("acedia")
    a2 = copy_of("acedia", taken=[a1])
    s = table(PLAIN, hands={"A": [a2]}, judge={"B": [(a1, "acedia")]})
    with pytest.raises(Exception, match="already"):
        play(s, "A", "USE Acedia ON B")


def test_lightning_strikes_on_spades_two_to_nine_else_passes_on() -> None:
    """Lightning: "if the judgement card is between 2-9 and belongs to the
    Spades suit, you will suffer a 3-point thunder damage ... Otherwise, this
    card will be passed into the next player's judgement zone"; "The damage
    caused by [Lightning] has no source"."""
    li = copy_of("lightning")
    s = table(PLAIN, judge={"A": [(li, "lightning")]}, deck_top=[copy_of("attack", "spades", 7)],
              phase="judgement")
    s, ev = pass_all_but(s, {})
    assert hp(s, "A") == 1 and any("takes 3 thunder damage" in t for t in texts(ev))
    s = table(PLAIN, judge={"A": [(li, "lightning")]}, deck_top=[copy_of("attack", "hearts", 10)],
              phase="judgement")
    s, ev = pass_all_but(s, {})
    assert s["p"]["B"]["judge"] == [{"card": li, "as": "lightning"}]


def test_a_negated_lightning_moves_on() -> None:
    """Negation, Others: "When [Negation] cancels the effect of [Lightning], the
    [Lightning] card will not be discarded, but it will be passed onto the
    next player's judgement zone"."""
    li = copy_of("lightning")
    s = table(PLAIN, judge={"A": [(li, "lightning")]}, hands={"C": [copy_of("negation")]},
              phase="judgement")
    s, _ = answer(s, {"C": ["NEGATE"]})
    s, _ = answer(s, {})
    assert s["p"]["B"]["judge"] == [{"card": li, "as": "lightning"}] and hp(s, "A") == 4


def test_judgements_go_from_the_last_placed_to_the_first() -> None:
    """Judgement Phase: "you must make judgement in sequence starting from the
    last to the first time-delay spell card that was placed in front of you"."""
    ac, rd = copy_of("acedia"), copy_of("rations-depleted")
    s = table(PLAIN, judge={"A": [(ac, "acedia"), (rd, "rations-depleted")]},
              phase="judgement")
    assert open_ask(s)["about"]["card"]["kind"] == "rations-depleted"


# --------------------------------------------------------------------------- equipment


def test_zhuge_crossbow_allows_many_attacks() -> None:
    """Zhuge Crossbow: "you may use as many [Attack] cards as you wish"."""
    a1, a2 = attack("spades", 7), attack("spades", 8)
    s = table(PLAIN, hands={"A": [a1, a2]}, equip={"A": [copy_of("zhuge-crossbow")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all(s)
    s, _ = play(s, "A", "USE Attack S8 ON B")
    s, _ = pass_all(s)
    assert hp(s, "B") == 2


def test_weapon_range_and_mounts() -> None:
    """Attack Range: with a weapon "your attack range will be adjusted"; Mount:
    a +1 mount makes others' distance to you 1 more, a -1 mount yours to them 1
    less; the example: D with a +1 mount is at 2 from C and E, 3 from B and F,
    4 from A, and D's own distances are unchanged."""
    s = table(SIX, equip={"D": [copy_of("shadowrunner")]})
    from judge_games.kingdom_wars.table import Ctx

    g = Ctx(s)
    assert [g.distance(x, "D") for x in "CEBFA"] == [2, 2, 3, 3, 4]
    assert [g.distance("D", x) for x in "CEBFA"] == [1, 1, 2, 2, 3]
    s = table(SIX, equip={"A": [copy_of("serpent-spear")]})
    assert Ctx(s).in_range("A", "D")  # the rulebook's Serpent Spear example: range 3
    s = table(SIX, equip={"A": [copy_of("red-hare")]})
    assert Ctx(s).distance("A", "C") == 1


def test_eliminated_players_do_not_occupy_a_position() -> None:
    """Distance: "when any player is eliminated, players on both sides of
    him/her becomes adjacent"."""
    from judge_games.kingdom_wars.table import Ctx

    s = table(SIX)
    s["p"]["B"]["alive"] = False
    assert Ctx(s).distance("A", "C") == 1


def test_a_new_weapon_replaces_the_old() -> None:
    """Weapon: "If you would like to change weapon, you are required to discard
    your original weapon upon equipping a new one"."""
    old, new = copy_of("blue-blade"), copy_of("kirin-bow")
    s = table(PLAIN, hands={"A": [new]}, equip={"A": [old]})
    s, _ = play(s, "A", "USE Kirin Bow")
    assert s["p"]["A"]["equip"]["weapon"] == new and old in s["discard"]


def test_nio_shield_and_blue_blade() -> None:
    """Nio Shield: "all black colored [Attack] cards have no effect on you";
    Blue Blade: "you ignore the effect of target's armor"."""
    s = table(PLAIN, hands={"A": [attack()]}, equip={"B": [copy_of("nio-shield")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    assert hp(s, "B") == 4 and open_ask(s)["kind"] == "play"
    s = table(PLAIN, hands={"A": [attack()]}, equip={"A": [copy_of("blue-blade")],
                                                        "B": [copy_of("nio-shield")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    assert hp(s, "B") == 3


def test_rattan_armor() -> None:
    """Rattan Armor: "ignores the effect of [Barbarian Invasion], [Raining
    Arrows] and common [Attack] targeting you. When you suffer fire damage,
    that damage is increased by 1"."""
    s = table(PLAIN, hands={"A": [attack()]}, equip={"B": [copy_of("rattan-armor")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    assert hp(s, "B") == 4
    s = table(PLAIN, hands={"A": [copy_of("fire-attack")]},
              equip={"B": [copy_of("rattan-armor")]})
    s, _ = play(s, "A", "USE Fire Attack ON B")
    s, _ = answer(s, {})
    assert hp(s, "B") == 2


def test_silver_lion_helmet() -> None:
    """Silver Lion Helmet: "if this damage is more than 1 point, extra damage
    is prevented"; "When this card leaves your equipment zone, you will
    recover 1 health point"."""
    helmet = copy_of("silver-lion-helmet")
    s = table(PLAIN, hands={"A": [copy_of("wine"), attack(), copy_of("burning-bridges")]},
              equip={"B": [helmet]}, hp={"B": 3})
    s, _ = play(s, "A", "USE Wine")
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all(s)
    assert hp(s, "B") == 2
    s, _ = play(s, "A", "USE Burning Bridges ON B")
    s, _ = answer(s, {})
    s, _ = play(s, "A", next(o for o in open_ask(s)["options"] if "SILVER" in o))
    assert hp(s, "B") == 3


def test_eight_trigrams_formation_dodges_on_red() -> None:
    """Eight Trigrams Formation: "Whenever you need to use or play a [Dodge]
    card, you may perform a judgement. If the result is red, you are deemed to
    have used or played a [Dodge]"; black: "you can still use or play a
    [Dodge] in other ways"."""
    s = table(PLAIN, hands={"A": [attack()]}, equip={"B": [copy_of("eight-trigrams-formation")]},
              deck_top=[copy_of("peach", "hearts", 4)])
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {"B": ["DODGE BY Eight Trigrams Formation"]})
    s, _ = pass_all_but(s, {})
    assert hp(s, "B") == 4
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("dodge")]},
              equip={"B": [copy_of("eight-trigrams-formation")]},
              deck_top=[copy_of("attack", "clubs", 2)])
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {"B": ["DODGE BY Eight Trigrams Formation", "DODGE"]})
    s, _ = pass_all_but(s, {"B": ["DODGE"]})
    assert hp(s, "B") == 4 and s["p"]["B"]["hand"] == []


def test_serpent_spear_two_cards_as_an_attack() -> None:
    """Serpent Spear: "You may discard 2 cards in hand to use or play as an
    [Attack] card"."""
    c1, c2 = copy_of("dodge", "hearts", 2), copy_of("peach", "hearts", 4)
    s = table(PLAIN, hands={"A": [c1, c2]}, equip={"A": [copy_of("serpent-spear")]})
    s, _ = play(s, "A", "USE Attack BY Serpent Spear WITH Dodge H2 Peach H4 ON B")
    s, _ = answer(s, {})
    assert hp(s, "B") == 3 and s["p"]["A"]["hand"] == []


def test_feathered_fan_common_attack_as_fire() -> None:
    """Feathered Fan: "You may use your common [Attack] as [Fire Attack]"."""
    s = table(PLAIN, hands={"A": [attack()]}, equip={"A": [copy_of("feathered-fan")],
                                                        "B": [copy_of("rattan-armor")]})
    s, _ = play(s, "A", "USE Fire Attack BY Feathered Fan WITH Attack S7 ON B")
    s, _ = answer(s, {})
    assert hp(s, "B") == 2  # fire through Rattan Armor: 1 + 1


def test_rock_cleaving_axe_forces_a_dodged_attack() -> None:
    """Rock Cleaving Axe: "When your [Attack] is offset by [Dodge], you may
    discard 2 cards to force the target to suffer damage"."""
    s = table(PLAIN, hands={"A": [attack(), copy_of("peach"), copy_of("wine")],
                            "B": [copy_of("dodge")]}, equip={"A": [copy_of("rock-cleaving-axe")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {"B": ["DODGE"]})
    assert open_ask(s)["kind"] == "cards" and open_ask(s)["roles"] == ["A"]
    s, _ = play(s, "A", "DISCARD Peach Wine")
    s, _ = pass_all_but(s, {})
    assert hp(s, "B") == 3


def test_frost_blade_prevents_the_damage_for_two_cards() -> None:
    """Frost Blade: "you may prevent the damage by discarding any 2 cards of
    your choice from that player"."""
    s = table(PLAIN, hands={"A": [attack()], "B": [copy_of("peach"), copy_of("wine")]},
              equip={"A": [copy_of("frost-blade")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    s, _ = play(s, "A", "USE Frost Blade")
    s, _ = play(s, "A", "TAKE HAND")
    s, _ = play(s, "A", "TAKE HAND")
    assert hp(s, "B") == 4 and s["p"]["B"]["hand"] == []


def test_kirin_bow_discards_a_mount() -> None:
    """Kirin Bow: "When your [Attack] deals damage to a target player, you may
    discard one of target's equipped mounts"."""
    horse = copy_of("red-hare")
    s = table(PLAIN, hands={"A": [attack()]}, equip={"A": [copy_of("kirin-bow")], "B": [horse]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    s, _ = play(s, "A", next(o for o in open_ask(s)["options"] if o != "PASS"))
    s, _ = pass_all_but(s, {})
    assert horse in s["discard"] and hp(s, "B") == 3


def test_two_bladed_trident_strikes_a_neighbour() -> None:
    """Two-bladed Trident: "you may discard a card in hand and choose another
    player within 1 physical distance from that target player, to deal 1
    damage to the chosen player"."""
    s = table(PLAIN, hands={"A": [attack(), copy_of("peach")]},
              equip={"A": [copy_of("two-bladed-trident")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all_but(s, {})
    assert open_ask(s)["kind"] == "choose" and "CHOOSE C" in open_ask(s)["options"]
    s, _ = play(s, "A", "CHOOSE C")
    s, _ = play(s, "A", "DISCARD Peach")
    s, _ = pass_all_but(s, {})
    assert (hp(s, "B"), hp(s, "C")) == (3, 3)


def test_yin_yang_swords_against_the_opposite_gender() -> None:
    """Yin-Yang Swords: "When you use [Attack] on a player's role of the
    opposite gender, target player must choose to discard a card from hand or
    let you draw a card" (hidden generals have no gender)."""
    gens = {**PLAIN, "B": ("lady-gan", "liu-bei")}
    s = table(gens, hands={"A": [attack()], "B": [copy_of("dodge")]},
              equip={"A": [copy_of("yin-yang-swords")]}, shown={"A": ["main"], "B": ["main"]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all_but(s, {}) if open_ask(s)["kind"] == "trigger" else (s, [])
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["roles"] == ["A"]
    s, _ = play(s, "A", "USE Yin-Yang Swords")
    s, _ = play(s, "B", "PASS")
    assert len(s["p"]["A"]["hand"]) == 1


def test_six_swords_of_wu_lengthens_the_kingdom_s_range() -> None:
    """Six Swords of Wu: "the attack range of all other players of your kingdom
    is increased by 1"."""
    from judge_games.kingdom_wars.table import Ctx

    gens = {"A": ("sun-quan", "zhou-tai"), "B": ("gan-ning", "lv-meng"),
            "C": ("cao-cao", "xu-chu"), "D": ("lv-bu", "diao-chan")}
    s = table(gens, equip={"B": [copy_of("six-swords-of-wu")]},
              shown={"A": ["main"], "B": ["main"]})
    g = Ctx(s)
    assert g.attack_range("A") == 2 and g.attack_range("B") == 2 and g.attack_range("C") == 1


def test_know_your_enemy_shows_a_hidden_general_to_the_user_only() -> None:
    """Know your Enemy: "You may view one of his hidden General cards" (to
    the user alone; the others learn only that it was viewed), and the user
    is remembered as knowing it."""
    s = table(PLAIN, hands={"A": [copy_of("know-your-enemy")]})
    s, _ = play(s, "A", "USE Know your Enemy ON C")
    s, _ = answer(s, {})
    s, ev = play(s, "A", "CHOOSE MAIN")
    named = [e for e in ev if "Sun Quan" in e.text]
    assert named and all(e.audience == frozenset({"A"}) for e in named)
    assert any("seat A views seat C's main general." in e.text for e in ev)
    assert s["p"]["C"]["seen_by"]["main"] == ["A"]
