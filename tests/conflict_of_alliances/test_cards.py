"""Every option of every card of both decks played face up (Player Aid card
texts; rulebook: Face-Up Play, Diplomacy "open diplomacy", Reinforcement
Operations). README.md, "Card rulings", states our reading where a text
leaves a choice open."""

from __future__ import annotations

import pytest

from judge.game.engine import AmbiguousLine, IllegalLine
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.data import slug
from tests.conflict_of_alliances.helpers import (
    A,
    L,
    State,
    counts,
    deal,
    empty,
    parse,
    play,
    put,
    stance,
    texts,
)


def _s(active: str = A) -> State:
    """Qin in Guanzhong, an Anti-Qin Zhao in Han Dan; the opponent of
    ``active`` holds one spare card, so that the action step goes on."""
    s = empty()
    s["active"] = active
    put(s, "guanzhong", "qin", 3)
    put(s, "han-dan", "zhao", 3)
    stance(s, "zhao", "anti-qin")
    if active == A:
        deal(s, L, "national-mobilization")
    else:
        deal(s, A, "double-recruitment")
    return s


def _pass_window(s: State, side: str) -> State:
    """Let the character-card window go by (the opponent passes)."""
    assert s["stage"] == "window" and s["window"]["kind"] == "character-card"
    s, _ = play(s, "Lianheng" if side == A else "Alliance", "PASS")
    return s


def hand(s: State, side: str) -> list[str]:
    return sorted(slug(c) for c in s["cards"][side]["hand"])


# --------------------------------------------------------------------------- diplomacy cards


@pytest.mark.parametrize("card", ["su-qin", "gongsun-yan"])
def test_su_qin_and_gongsun_yan(card: str) -> None:
    """a) "Move 1 state 2 in favour and lock" (a Received counter, toward
    Anti-Qin for the Alliance) or b) "Move 1 locked state 1 in favour"
    (Diplomacy: a Not Received counter "may only be moved when the card text
    clearly says it may. Gongsun Yan, Zhang Yi and Su Qin are examples")."""
    s = _s()
    stance(s, "qi", "neutral-2")
    stance(s, "wei", "neutral-1", received=False)
    deal(s, A, card, "mao-sui")
    deal(s, L, "fan-ju")
    with pytest.raises(IllegalLine, match="Not Received"):
        parse(s, A, f"PLAY {card} FACEUP A wei")
    s1, _events = play(s, A, f"PLAY {card} FACEUP A qi")
    s1 = _pass_window(s1, A)
    assert s1["diplomacy"]["qi"] == {"pos": 4, "received": False, "revenge": False}
    assert B.faction(s1, "qi") == A
    s2, _ = play(s, A, f"PLAY {card} FACEUP B wei")
    s2 = _pass_window(s2, A)
    assert s2["diplomacy"]["wei"] == {"pos": 2, "received": False, "revenge": False}


def test_zhang_yi_moves_toward_serve_qin() -> None:
    """Zhang Yi, the same texts for the Lianheng: "The Lianheng player always
    moves counters toward Serve Qin"; a Revenge Qin counter leaves its box."""
    s = _s(L)
    stance(s, "chu", "revenge-qin", received=False)
    stance(s, "qi", "neutral-1")
    deal(s, L, "zhang-yi", "fan-ju")
    deal(s, A, "su-qin")
    s1, _ = play(s, L, "PLAY zhang-yi FACEUP A qi")
    s1 = _pass_window(s1, L)
    assert s1["diplomacy"]["qi"]["pos"] == 0 and B.faction(s1, "qi") == L
    s2, _ = play(s, L, "PLAY zhang-yi FACEUP B chu")
    s2 = _pass_window(s2, L)
    assert s2["diplomacy"]["chu"] == {"pos": 4, "received": False, "revenge": False}
    assert B.stance_name(s2, "chu") == "Afraid of Qin"


@pytest.mark.parametrize(("card", "force"), [
    ("emissary-to-zhao", "zhao"), ("emissary-to-qi", "qi"), ("emissary-to-chu", "chu")])
def test_emissaries_option_a(card: str, force: str) -> None:
    """Emissary to Zhao/Qi/Chu a) "Move [the kingdom] 2 in favour and lock"; the
    counter must be Received (Diplomacy: "when Zhao's counter is in the Not
    Received state, the player cannot play the face-up Emissary to Zhao card
    (either the Alliance or the Lianheng version)")."""
    for side, expect in ((A, 4), (L, 0)):
        s = _s(side)
        stance(s, force, "neutral-2")
        put(s, "song", force, 1)
        deal(s, side, card, "su-qin" if side == A else "fan-ju")
        s, _events = play(s, side, f"PLAY {card} FACEUP A")
        assert s["diplomacy"][force] == {"pos": expect, "received": False, "revenge": False}
        assert s["active"] != side  # not a character card: no window
        s = _s(side)
        stance(s, force, "neutral-2", received=False)
        deal(s, side, card)
        with pytest.raises(IllegalLine, match="Not Received"):
            parse(s, side, f"PLAY {card} FACEUP A")


def test_emissary_option_b_directs_the_friendly_kingdom() -> None:
    """Emissary b) "If Zhao friendly perform reinforcement, then military
    operation with them" -- for the Alliance an Afraid of Qin Zhao is friendly
    (the face-up card lets it be directed)."""
    s = _s()
    stance(s, "zhao", "afraid-qin")
    deal(s, A, "emissary-to-zhao")
    deal(s, L, "fan-ju")
    with pytest.raises(IllegalLine):
        parse(s, A, "PLAY emissary-to-zhao FACEDOWN MILITARY han-dan zhao 2 TO wei")
    s, _ = play(s, A, "PLAY emissary-to-zhao FACEUP B")
    assert s["stage"] == "step" and s["ask"]["kind"] == "reinforce"
    with pytest.raises(IllegalLine, match="for Zhao"):
        parse(s, A, "REINFORCE qin guanzhong")
    s, _ = play(s, A, "REINFORCE zhao han-dan")
    assert counts(s, "han-dan", "zhao") == (4, 0, {})
    assert s["ask"]["kind"] == "military"
    s, _ = play(s, A, "MILITARY han-dan zhao 4 TO wei")
    assert counts(s, "wei", "zhao") == (0, 4, {})
    assert s["active"] == L
    # Not when Zhao is Neutral.
    s = _s()
    stance(s, "zhao", "neutral-3")
    deal(s, A, "emissary-to-zhao")
    with pytest.raises(IllegalLine, match="not friendly"):
        parse(s, A, "PLAY emissary-to-zhao FACEUP B")


def test_emissary_to_minor_kingdom_names_its_kingdom() -> None:
    """Emissary to Minor Kingdom: a) "Move Wei, Han, Yan or Yiqu 2 in favour and
    lock or b) If Kingdom friendly perform reinforcement, then military
    operation with them"."""
    s = _s(L)
    stance(s, "han", "neutral-1")
    put(s, "han", "han", 2)
    deal(s, L, "emissary-to-minor-kingdom", "fan-ju")
    with pytest.raises(AmbiguousLine):
        parse(s, L, "PLAY emissary-to-minor-kingdom FACEUP A")
    with pytest.raises(IllegalLine, match="cannot move Qi"):
        parse(s, L, "PLAY emissary-to-minor-kingdom FACEUP A qi")
    s, _ = play(s, L, "PLAY emissary-to-minor-kingdom FACEUP A han")
    assert s["diplomacy"]["han"]["pos"] == 0
    s["active"] = L
    s["stage"] = "action"
    deal(s, L, "emissary-to-minor-kingdom")
    s, _ = play(s, L, "PLAY emissary-to-minor-kingdom FACEUP B han")
    s, _ = play(s, L, "REINFORCE han han")
    s, _ = play(s, L, "SKIP")
    assert counts(s, "han", "han") == (3, 0, {}) and s["active"] == A


def test_lord_xinling_option_a_and_mao_sui() -> None:
    """Lord Xinling a) "Move Wei 2 in favour and lock"; Mao Sui: "Move 1 state 1
    in favour and lock. Then perform military operation"."""
    s = _s()
    stance(s, "wei", "neutral-2")
    deal(s, A, "lord-xinling", "mao-sui")
    deal(s, L, "fan-ju")
    s1, _ = play(s, A, "PLAY lord-xinling FACEUP A")
    s1 = _pass_window(s1, A)
    assert s1["diplomacy"]["wei"]["pos"] == 4
    s2, _ = play(s, A, "PLAY mao-sui FACEUP wei")
    s2 = _pass_window(s2, A)
    assert s2["diplomacy"]["wei"]["pos"] == 3
    assert s2["stage"] == "step" and s2["ask"]["kind"] == "military"
    s2, _ = play(s2, A, "MILITARY han-dan zhao 2 TO wei")
    assert counts(s2, "wei", "zhao") == (0, 2, {})  # Wei has no counters there


def test_mi_yue() -> None:
    """Mi Yue: a) "Move Yiqu to Qin and lock" or b) "If Yiqu allied perform
    reinforcement and military operation with Qin and Yiqu"."""
    s = _s(L)
    stance(s, "yiqu", "afraid-qin")
    put(s, "longxi", "yiqu", 2)
    deal(s, L, "mi-yue", "fan-ju")
    deal(s, A, "su-qin")
    with pytest.raises(IllegalLine, match="not friendly"):
        parse(s, L, "PLAY mi-yue FACEUP B")
    s, _ = play(s, L, "PLAY mi-yue FACEUP A")
    s = _pass_window(s, L)
    assert s["diplomacy"]["yiqu"] == {"pos": 0, "received": False, "revenge": False}
    s["active"] = L
    s["stage"] = "action"
    deal(s, L, "mi-yue")
    s, _ = play(s, L, "PLAY mi-yue FACEUP B")
    s = _pass_window(s, L)
    s, _ = play(s, L, "REINFORCE yiqu longxi")
    with pytest.raises(IllegalLine, match="different forces"):
        parse(s, L, "REINFORCE yiqu longxi")
    s, _ = play(s, L, "REINFORCE qin guanzhong")
    s, _ = play(s, L, "MILITARY longxi yiqu 3 TO yiqu")
    assert counts(s, "yiqu", "yiqu") == (0, 3, {}) and counts(s, "guanzhong", "qin") == (4, 0, {})


# --------------------------------------------------------------------------- military cards


def test_mounted_attack_rides_on_after_a_won_battle() -> None:
    """Mounted Attack: "Perform military operation. May move and fight multiple
    times with +1 DRM (Up to total MA)"."""
    s = _s(L)
    put(s, "xiao-han", "han", 1)
    put(s, "han", "han", 1)
    stance(s, "han", "neutral-2")
    deal(s, L, "mounted-attack", "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY mounted-attack FACEUP")
    s, _ = play(s, L, "MILITARY guanzhong qin 3 TO xiao-han han")
    s, events = play(s, A, "PASS", dice=[5, 1])
    assert "attacker rolls 5 (+1 = 6)" in texts(events)
    assert s["stage"] == "continue" and GAME.legal(s, L) == ["ADVANCE", "STAY"]
    s, _ = play(s, L, "ADVANCE")
    assert s["stage"] == "window"
    s, _ = play(s, A, "PASS", dice=[5, 1])
    assert B.controller(s, "han") == "qin" and counts(s, "han", "qin") == (0, 3, {})
    assert B.controller(s, "xiao-han") is None


def test_double_operation_gives_two_military_operations() -> None:
    s = _s(L)
    put(s, "hanzhong", "qin", 2)
    deal(s, L, "double-operation", "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY double-operation FACEUP")
    s, _ = play(s, L, "MILITARY guanzhong qin 3 TO xiao-han")
    assert s["stage"] == "step"
    s, _ = play(s, L, "MILITARY hanzhong qin 2 TO ba-shu")
    assert counts(s, "ba-shu", "qin") == (0, 2, {}) and s["active"] == A


def test_bolster_morale_readies_then_operates_from_that_area() -> None:
    """Bolster Morale: "Ready up to 4 exhausted units in an area and perform
    military operation with them"."""
    s = _s(L)
    put(s, "hanzhong", "qin", 0, 5)
    deal(s, L, "bolster-morale", "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY bolster-morale FACEUP hanzhong")
    assert counts(s, "hanzhong", "qin") == (4, 1, {})
    with pytest.raises(IllegalLine, match="must start from Hanzhong"):
        parse(s, L, "MILITARY guanzhong qin 2 TO xiao-han")
    s, _ = play(s, L, "MILITARY hanzhong qin 4 TO ba-shu")
    assert counts(s, "ba-shu", "qin") == (0, 4, {})


def test_elite_crossbowmen_option_a_alliance_may_direct_afraid_of_qin() -> None:
    """Elite Crossbowmen (Alliance) a) "Perform military operation. May use
    'Afraid of Qin' factions. Attacker fires first with +2 DRM"."""
    s = _s()
    put(s, "yan", "yan", 2)
    put(s, "dai", "qin", 2)
    stance(s, "yan", "afraid-qin")
    deal(s, A, "elite-crossbowmen")
    deal(s, L, "fan-ju")
    s, _ = play(s, A, "PLAY elite-crossbowmen FACEUP A")
    s, _ = play(s, A, "MILITARY yan yan 2 TO dai")
    s, events = play(s, L, "PASS", dice=[3, 6])
    log = texts(events)
    # Yan 2 at 3+2 = 5 -> 1, first; Qin then 1 left in the city, strength 2 at 6 -> 1+.
    assert "The attacker fires first." in log
    assert "attacker rolls 3 (+2 = 5)" in log
    assert counts(s, "dai", "qin")[0] == 1


def test_elite_crossbowmen_option_a_lianheng_directs_qin_only() -> None:
    s = _s(L)
    put(s, "han", "han", 2)
    stance(s, "han", "serve-qin")
    deal(s, L, "elite-crossbowmen")
    s, _ = play(s, L, "PLAY elite-crossbowmen FACEUP A")
    with pytest.raises(IllegalLine, match="may not direct Han"):
        parse(s, L, "MILITARY han han 2 TO wei")


def test_emergency_mobilization_option_a() -> None:
    """Emergency Mobilization a) "Perform reinforcement operation, then perform
    military operation" (Alliance: "May use 'Afraid of Qin' factions")."""
    s = _s()
    put(s, "yan", "yan", 2)
    stance(s, "yan", "afraid-qin")
    deal(s, A, "emergency-mobilization")
    s, _ = play(s, A, "PLAY emergency-mobilization FACEUP A")
    s, _ = play(s, A, "REINFORCE yan yan")
    s, _ = play(s, A, "MILITARY yan yan 3 TO dai")
    assert counts(s, "dai", "yan") == (0, 3, {})


def test_double_recruitment_two_different_forces() -> None:
    """Double Recruitment: "Perform reinforcement operation for any 2 different
    forces"."""
    s = _s()
    deal(s, A, "double-recruitment")
    s, _ = play(s, A, "PLAY double-recruitment FACEUP")
    s, _ = play(s, A, "REINFORCE zhao han-dan")
    with pytest.raises(IllegalLine, match="different forces"):
        parse(s, A, "REINFORCE zhao han-dan")
    s, _ = play(s, A, "REINFORCE qin guanzhong")
    assert counts(s, "guanzhong", "qin") == (4, 0, {})


def test_national_mobilization_priority_to_fewer_units() -> None:
    """National Mobilization: "Place in 2 controlled areas 1 Qin army. Priority
    to areas with fewer units"."""
    s = _s(L)
    put(s, "hanzhong", "qin", 1)
    put(s, "longxi", "qin", 2)
    deal(s, L, "national-mobilization")
    with pytest.raises(IllegalLine, match="fewer"):
        parse(s, L, "PLAY national-mobilization FACEUP guanzhong hanzhong")
    s, _events = play(s, L, "PLAY national-mobilization FACEUP hanzhong longxi")
    assert counts(s, "hanzhong", "qin") == (2, 0, {}) and counts(s, "longxi", "qin") == (3, 0, {})


# --------------------------------------------------------------------------- generals


def test_legendary_general_option_a() -> None:
    """Legendary General a) "Receive 1x general"; "Either: Not Wei leader Wei
    Wuji" -- a general of a friendly force, where that force has counters."""
    s = _s()
    stance(s, "wei", "anti-qin")
    put(s, "wei", "wei", 1)
    deal(s, A, "legendary-general")
    with pytest.raises(IllegalLine, match="cannot be received"):
        parse(s, A, "PLAY legendary-general FACEUP A GENERAL wei-wuji wei")
    with pytest.raises(IllegalLine, match="cannot be received"):
        parse(s, A, "PLAY legendary-general FACEUP A GENERAL tian-dan han-dan")  # Qi not friendly
    with pytest.raises(IllegalLine, match="must join"):
        parse(s, A, "PLAY legendary-general FACEUP A GENERAL li-mu guanzhong")
    s, _ = play(s, A, "PLAY legendary-general FACEUP A GENERAL li-mu han-dan")
    assert counts(s, "han-dan", "zhao") == (3, 0, {"li-mu": True})


def test_legendary_general_option_b() -> None:
    """Legendary General b) "If no own general present and 2 cards in hand
    discard 1 card to gain 2x generals in separate areas"."""
    s = _s()
    put(s, "taiyuan", "zhao", 1)
    deal(s, A, "legendary-general", "su-qin")
    s1, events = play(s, A, "PLAY legendary-general FACEUP B GENERAL li-mu han-dan "
                            "GENERAL lian-po taiyuan DISCARD su-qin")
    assert counts(s1, "taiyuan", "zhao") == (1, 0, {"lian-po": True})
    assert s1["cards"][A]["hand"] == []
    assert s1["cards"][A]["discard"][-1] == ["su-qin.1", False]
    assert "discards a card face down" in texts(events)
    with pytest.raises(IllegalLine, match="two different"):
        parse(s, A, "PLAY legendary-general FACEUP B GENERAL li-mu han-dan "
                    "GENERAL lian-po han-dan DISCARD su-qin")
    put(s, "taiyuan", "zhao", generals=["zhao-she"])
    with pytest.raises(IllegalLine, match="no friendly general"):
        parse(s, A, "PLAY legendary-general FACEUP B GENERAL li-mu han-dan "
                    "GENERAL lian-po taiyuan DISCARD su-qin")


def test_fan_ju_removes_a_general() -> None:
    """Fan Ju: "Remove 1x general from the map" (off the board)."""
    s = _s(L)
    put(s, "han-dan", "zhao", generals=["li-mu"])
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEUP li-mu")
    s = _pass_window(s, L)
    assert counts(s, "han-dan", "zhao") == (3, 0, {}) and s["generals"]["li-mu"] == "off"


# --------------------------------------------------------------------------- cards and hands


def test_king_of_qin_chooses_a_card_from_the_deck() -> None:
    """King of Qin: "Choose a card from your deck. Then reshuffle"."""
    s = _s(L)
    deal(s, L, "king-of-qin")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY king-of-qin FACEUP")
    s = _pass_window(s, L)
    assert s["stage"] == "choose"
    view = GAME.view(s, L)
    assert "mounted-attack" in view["choice"]["cards"]
    assert "choice" not in GAME.view(s, A)
    s, events = play(s, L, "TAKE mounted-attack")
    assert hand(s, L) == ["mounted-attack"]
    assert len(s["cards"][L]["deck"]) == 21
    assert "You take Mounted Attack" in texts(events, L)
    assert "Mounted Attack" not in texts(events, A)


@pytest.mark.parametrize(("card", "force"), [("guo-wei", "yan"), ("lord-mengchang", "qi")])
def test_guo_wei_and_lord_mengchang(card: str, force: str) -> None:
    """"If Yan [Qi] is neutral draw a card. If Yan [Qi] is friendly choose a card
    and reshuffle"."""
    s = _s()
    stance(s, force, "neutral-2")
    put(s, "song", force, 1)
    deal(s, A, card)
    deal(s, L, "fan-ju")
    s1, _ = play(s, A, f"PLAY {card} FACEUP")
    s1 = _pass_window(s1, A)
    assert len(s1["cards"][A]["hand"]) == 1
    stance(s, force, "afraid-qin")
    s2, _ = play(s, A, f"PLAY {card} FACEUP")
    s2 = _pass_window(s2, A)
    assert s2["stage"] == "choose"
    s2, _ = play(s2, A, "TAKE su-qin")
    assert hand(s2, A) == ["su-qin"]
    stance(s, force, "serve-qin")
    with pytest.raises(IllegalLine, match="neither Neutral nor friendly"):
        parse(s, A, f"PLAY {card} FACEUP")


def test_lord_chunshen_draws_three_keeps_two() -> None:
    """Lord Chunshen: "Play if Chu friendly and not more cards than enemy. Draw 3
    cards and keep 2"; Face-Up Play: the condition "is judged before the card is
    played"."""
    s = _s()
    stance(s, "chu", "afraid-qin")
    put(s, "nan-jun", "chu", 1)
    deal(s, A, "lord-chunshen", "su-qin")
    deal(s, L, "fan-ju", "han-fei")
    s1, _ = play(s, A, "PLAY lord-chunshen FACEUP")
    s1 = _pass_window(s1, A)
    assert s1["stage"] == "choose"
    drawn = GAME.view(s1, A)["choice"]["cards"]
    assert len(drawn) == 3
    s1, _ = play(s1, A, f"DISCARD {drawn[0]}")
    assert len(s1["cards"][A]["hand"]) == 3
    assert s1["cards"][A]["discard"][-1][1] is False
    deal(s, A, "mao-sui", "guo-wei")  # 4 cards against 3
    with pytest.raises(IllegalLine, match="more cards"):
        parse(s, A, "PLAY lord-chunshen FACEUP")


def test_han_fei_and_lyu_buwei() -> None:
    """Han Fei: "Play if not more cards than enemy. Draw 2 cards"; Lyu Buwei:
    "Play if not more cards then enemy. Discard 1 more card, then draw 3"."""
    s = _s(L)
    deal(s, L, "han-fei", "lyu-buwei", "fan-ju")
    deal(s, A, "su-qin", "mao-sui", "guo-wei")
    s1, _ = play(s, L, "PLAY han-fei FACEUP")
    s1 = _pass_window(s1, L)
    assert len(s1["cards"][L]["hand"]) == 4
    s2, _ = play(s, L, "PLAY lyu-buwei FACEUP DISCARD fan-ju")
    s2 = _pass_window(s2, L)
    assert len(s2["cards"][L]["hand"]) == 4 and "fan-ju" not in hand(s2, L)
    deal(s, L, "zhang-yi", "king-of-qin")  # 5 cards against 4
    with pytest.raises(IllegalLine, match="more cards"):
        parse(s, L, "PLAY han-fei FACEUP")


def test_cards_of_an_eliminated_force_are_face_down_only() -> None:
    """Elimination: "After Chu is eliminated, the cards Lord Chunshen and the two
    Chu 'Emissary to Chu' cards (the Alliance and Lianheng versions) can only be
    played face down"."""
    s = _s()
    s["eliminated"].append("chu")
    del s["diplomacy"]["chu"]
    deal(s, A, "lord-chunshen", "emissary-to-chu")
    for line in ("PLAY lord-chunshen FACEUP", "PLAY emissary-to-chu FACEUP A"):
        with pytest.raises(IllegalLine, match="face down"):
            parse(s, A, line)
    parse(s, A, "PLAY emissary-to-chu FACEDOWN WEATHER")


def test_printed_card_art_variants() -> None:
    """Translator's notes: the printed Chinese card art gives Elite Crossbowmen A
    as "a military operation directed at a Revenge Qin or Anti-Qin force, with
    the attacker firing first", its B as the defender firing first with "+1"
    for the Han army, and Emergency Mobilization A "on any Revenge Qin or
    Anti-Qin force" (option card_text=printed)."""
    s = _s()
    s["printed"] = True
    put(s, "yan", "yan", 2)
    put(s, "dai", "qin", 2)
    stance(s, "yan", "afraid-qin")
    deal(s, A, "elite-crossbowmen", "emergency-mobilization", "su-qin")
    s1, _ = play(s, A, "PLAY elite-crossbowmen FACEUP A")
    with pytest.raises(IllegalLine, match="may not direct Yan"):
        parse(s1, A, "MILITARY yan yan 2 TO dai")
    s1, _ = play(s1, A, "MILITARY han-dan zhao 2 TO wei")
    s2, _ = play(s, A, "PLAY emergency-mobilization FACEUP A")
    s2, _ = play(s2, A, "REINFORCE yan yan")
    with pytest.raises(IllegalLine, match="may not direct Yan"):
        parse(s2, A, "MILITARY yan yan 3 TO dai")
    # B: Qin attacks a Han army; the Alliance's crossbows fire first with +1.
    s3 = empty()
    s3["printed"] = True
    put(s3, "guanzhong", "qin", 2)
    put(s3, "xiao-han", "han", 2)
    stance(s3, "han", "anti-qin")
    deal(s3, L, "fan-ju")
    deal(s3, A, "elite-crossbowmen", "su-qin")
    s3, _ = play(s3, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    s3, events = play(s3, A, "RESPOND elite-crossbowmen")
    assert s3["battle"]["def_first"] and s3["battle"]["def_drm"] == 1
    assert "The defender will fire first, +1 to its die." in texts(events)
