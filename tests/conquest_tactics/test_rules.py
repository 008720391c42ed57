"""The rules of Conquest Tactics, one test per passage of the rulebook
(../shared/rules/conquest-tactics.txt), each quoting what it shows.

Spaces in these tests are in South's frame unless a test says otherwise
(North names them turned half round: its A1 is South's E5)."""

from __future__ import annotations

import pytest

from judge.game.engine import Action, IllegalLine, RuleError, State
from judge_games.conquest_tactics import GAME, rules
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.table import Ctx, tp_for_turn
from tests.conquest_tactics.scenario import act, at, control, hand, put, rng, table, texts, troop


def refused(state: State, role: str, line: str, *words: str) -> str:
    with pytest.raises(RuleError) as exc:
        GAME.parse(state, role, line)
    message = f"{exc.value.message} {exc.value.hint}"
    for w in words:
        assert w in message, message
    return message


# ------------------------------------------------------------------ the field


def test_frames_each_player_reads_from_its_own_edge() -> None:
    """Setup: "the edge closest to each of you" -- North's row 1 is its own
    deployment edge (South's row 5), and its column A is on its left."""
    assert F.from_frame("A1", "North") == "E5"
    assert F.to_frame("C2", "North") == "C4"
    assert F.localize("moves @B2 to @B3", "North") == "moves D4 to D3"
    assert F.localize("moves @B2 to @B3", None) == "moves B2 to B3"
    assert F.deployment_zone("North") == [s for s in F.spaces() if s[1] in "45"]


def test_distance_counts_no_diagonals() -> None:
    """Move: "Diagonal spaces are not considered adjacent"; the distance
    diagram counts spaces edge to edge."""
    assert F.distance("C1", "D2") == 2
    assert sorted(F.adjacent("C3")) == ["B3", "C2", "C4", "D3"]


def _gunget_position() -> State:
    """The line of sight page: South's Archers at C1 (range 2-4), North's
    Gunget around them, South's Footsoldiers at C2 in the last caption."""
    s = table()
    s["bases"]["South"]["at"] = "E1"
    s["bases"]["North"]["at"] = "E5"
    put(s, "South", "archers", "C1")
    return s


def test_line_of_sight_blocked_by_an_enemy() -> None:
    """Line of sight, caption 1: "The Archers may NOT attack this Noxious
    Gunget with a ranged attack as the line of sight is blocked by the Buff
    Gunget." """
    s = _gunget_position()
    put(s, "North", "buff-gunget", "C2")
    put(s, "North", "noxious-gunget", "C3")
    refused(s, "South", "ATTACK C1 C3", "no line of sight")


def test_line_of_sight_one_clear_shortest_count_is_enough() -> None:
    """Caption 2: "The Archers may attack this Exploding Gunget. Although one
    of the shortest paths to the troop is blocked, the other is not." """
    s = _gunget_position()
    put(s, "North", "buff-gunget", "C2")
    put(s, "North", "exploding-gunget", "D2")
    assert GAME.parse(s, "South", "ATTACK C1 D2").text == "ATTACK C1 D2"
    put(s, "North", "gunget-blob", "D1")  # now both shortest counts cross an enemy
    refused(s, "South", "ATTACK C1 D2", "no line of sight")


def test_line_of_sight_range_two() -> None:
    """Caption 3: "The Archers may attack this Gunget with a Sword with a
    range 2 attack as the line of sight is NOT blocked." """
    s = _gunget_position()
    put(s, "North", "gunget-with-a-sword", "B2")
    _, ev = act(s, "South", "ATTACK C1 B2")
    assert "ranged attack on B2" in texts(ev)


def test_line_of_sight_friendly_troops_do_not_block() -> None:
    """Caption 4: "The Archers may attack this Buff Gunget with a range 3
    attack as the line of sight is NOT blocked by the friendly Footsoliders." """
    s = _gunget_position()
    put(s, "South", "footsoldiers", "C2")
    put(s, "North", "buff-gunget", "C4")
    assert GAME.parse(s, "South", "ATTACK C1 C4").data["melee"] is False


# ------------------------------------------------------------------ set-up


def _forces() -> State:
    return GAME.setup({"south": "humans", "north": "malice"}, rng())


def test_starting_forces_limits() -> None:
    """Setup: "up to twenty Tactical Points worth", "any combination of Level
    0 and Level 1 Troops", "up to three Level 1 Spells and/or Skills"."""
    s = _forces()
    refused(s, "South", "TAKE Human Infantry 2", "level 2 troop")
    refused(s, "South", "TAKE Holy Smite", "level 1")
    held: list[Action] = []
    for line in ["TAKE archers"] * 3 + ["TAKE human-infantry-1"] * 3:
        a = GAME.parse(s, "South", line)
        GAME.check_held(s, "South", a, held)
        held.append(a)
    assert sum(POOL.card(str(a.data["card"])).cost for a in held) == 18
    with pytest.raises(IllegalLine, match="up to 20"):
        GAME.check_held(s, "South", GAME.parse(s, "South", "TAKE archers"), held)


def test_x_and_plus_y_costs_at_deployment() -> None:
    """Setup: "If the cost of a Spell is listed as "X", it will instead cost a
    number of Tactical Points equivalent to its level. If a Spell or Skill is
    cost "+Y" use Y as the cost for deployment." """
    shadow, aimed = POOL.card("shadow-bolt"), POOL.card("aimed-shot")
    assert (shadow.printed_cost, shadow.level, shadow.cost) == ("X", 1, 1)
    assert (aimed.printed_cost, aimed.cost) == ("+1", 1)
    flame = POOL.card("flame-lance")
    assert (flame.printed_cost, flame.cost) == ("X", 2)


def test_base_in_the_two_nearest_rows() -> None:
    """Setup: "Place your Base on the Field in any space in the two rows
    nearest to you." North names its rows from its own edge."""
    s = _forces()
    assert GAME.parse(s, "North", "BASE B2").data["at"] == "D4"
    refused(s, "South", "BASE C3", "two nearest rows")


def _resolve_forces(south: list[str], north: list[str]) -> tuple[State, str]:
    s = _forces()
    orders = {r: [GAME.parse(s, r, ln) for ln in lines]
              for r, lines in (("South", south), ("North", north))}
    new, events = GAME.resolve(s, orders, rng())
    return new, texts(events)


def test_initiative_to_the_smaller_total() -> None:
    """Setup: "The player with the least number of Tactical Points receives
    Initiative and deploys first." """
    s, ev = _resolve_forces(["BASE C1", "TAKE archers", "TAKE footsoldiers"],
                            ["BASE C1", "TAKE malice-thrall"])
    assert s["initiative"] == "North" and s["deployer"] == "North"
    assert "North chose fewer points" in ev
    assert s["bases"]["North"]["at"] == "C5"  # its C1, as North names it


def test_initiative_tie_is_a_committed_coin_flip() -> None:
    """Setup: "If both players have the same number of Tactical Points, flip a
    coin to determine who receives Initiative" -- a draw of the game's seed."""
    a, ev = _resolve_forces(["TAKE footsoldiers"], ["TAKE malice-thrall"])
    b, _ = _resolve_forces(["TAKE footsoldiers"], ["TAKE malice-thrall"])
    assert "the coin gives" in ev and a["initiative"] == b["initiative"]


def test_deployment_in_turn_one_troop_a_space_and_the_base_bonus() -> None:
    """Setup: the deployment zone "is made up of the two rows closest to each
    player ... only one Troop card in each space, although a Troop may be
    deployed on the Base. Troops that are positioned on the Base receive a +1
    Defense bonus"."""
    s, _ = _resolve_forces(["BASE C1", "TAKE human-infantry-1", "TAKE footsoldiers"],
                           ["BASE C1", "TAKE malice-thrall"])
    refused(s, "South", "DEPLOY footsoldiers C1", "nothing is asked")  # North deploys first
    s, _ = act(s, "North", "DEPLOY malice-thrall B2")
    assert at(s, "D4") is not None and s["deployer"] == "South"
    refused(s, "South", "DEPLOY footsoldiers C3", "deployment zone")
    s, _ = act(s, "South", "DEPLOY human-infantry-1 C1")
    refused(s, "South", "DEPLOY footsoldiers C1", "not open")
    t = at(s, "C1")
    assert t is not None and Ctx(s).stat(t, "defense") == POOL.card("human-infantry-1").defense + 1
    s, _ = act(s, "South", "DEPLOY footsoldiers C2")
    assert s["turn"] == 1 and s["stage"] in ("up", "mobilize")


# ------------------------------------------------------------------ T R I U


def test_tactical_points_resupply_initiative() -> None:
    """T: "five Tactical Points" in the first turn, "increases by two" each
    turn; R: draw "until they have a five card hand ... If you already have
    five or more cards in your hand, draw one more card" and flip the
    Knowledge Pool face up; I: the token passes (not in the first turn)."""
    assert [tp_for_turn(n) for n in (1, 2, 3)] == [5, 7, 9]
    s = table(turn=1, initiative="South")
    s["p"]["South"]["hand"] = s["p"]["South"]["supply"][:2]
    del s["p"]["South"]["supply"][:2]
    s["p"]["North"]["hand"] = s["p"]["North"]["supply"][:6]
    del s["p"]["North"]["supply"][:6]
    s["p"]["North"]["knowledge"] = [{"card": "shadow-bolt", "up": False}]
    g = Ctx(s, rng())
    rules.start_turn(g)
    assert s["turn"] == 2 and s["p"]["South"]["tp"] == 7 and s["p"]["North"]["tp"] == 7
    assert len(s["p"]["South"]["hand"]) == 5 and len(s["p"]["North"]["hand"]) == 7
    assert s["p"]["North"]["knowledge"][0]["up"] is True
    assert s["initiative"] == "North"


def test_up_the_field() -> None:
    """U: "Players alternate moving one troop directly towards their
    opponent's board edge without paying any Tactical Points. Each Troop can
    only be moved one space ... Troops also cannot move if another Troop or
    an opposing Base is blocking their path ... until both players pass
    consecutively or until no more Troops can move"."""
    s = table("up", tp=(5, 5))
    put(s, "South", "footsoldiers", "B2")
    put(s, "South", "footsoldiers", "C4")  # in front of North's base at C5
    put(s, "South", "footsoldiers", "E1")
    put(s, "North", "malice-thrall", "B5")  # North's D1
    refused(s, "South", "MOVE B2 C2", "straight ahead")
    refused(s, "South", "MOVE C4 C5", "blocked")
    s, _ = act(s, "South", "MOVE B2 B3")
    assert s["p"]["South"]["tp"] == 5 and s["mover"] == "North"
    refused(s, "North", "MOVE D1 D3", "straight ahead")
    s, _ = act(s, "North", "MOVE D1 D2")  # South's B5 to B4
    refused(s, "South", "MOVE B3 B4", "already")  # "only be moved one space in this phase"
    s, _ = act(s, "South", "PASS")  # North has nothing left to move: its pass ends it
    assert s["stage"] == "mobilize"


# ------------------------------------------------------------------ Mobilize


def _mobilize(tp: tuple[int, int] = (5, 5)) -> State:
    s = table("mobilize", south="kaborha", tp=tp)
    hand(s, "South", "kaborha-tier-1-contender", "kaborha-pit-whelp", "kaborha-runner",
         "kaborha-brawler", "kaborha-brawler")
    return s


@pytest.mark.parametrize(("discards", "left"), [("", 1), (" DISCARD 2", 3),
                                                (" DISCARD 2, 3", 5)])
def test_contender_example(discards: str, left: int) -> None:
    """Mobilize, example: "deploy a Kaborha Tier 1 Contender which costs four
    Tactical Points ... leaving them with one remaining Tactical Point ...
    Alternatively, the player may choose to discard one or two cards reducing
    the cost of deploying to two (2) or zero (0)"."""
    s = _mobilize()
    assert POOL.card("kaborha-tier-1-contender").cost == 4
    s, _ = act(s, "South", "DEPLOY kaborha-tier-1-contender B2" + discards)
    assert s["p"]["South"]["tp"] == left
    assert len(s["p"]["South"]["discard"]) == (discards.count(",") + 1 if discards else 0)


def test_discard_points_split_and_do_not_carry_over() -> None:
    """Mobilize: "three cards may be discarded to generate six (6) points that
    may then be used to deploy two cost three (3) cards"; "may not carry
    additional Tactical Points into the next phase"."""
    s = _mobilize()
    hand(s, "South", "kaborha-brawler", "kaborha-brawler", "kaborha-runner", "kaborha-pit-whelp",
         "kaborha-tier-1-contender")
    s, _ = act(s, "South", "DEPLOY kaborha-brawler A2 DISCARD 3, 4, 5")
    assert s["p"]["South"]["tp"] == 5 and s["p"]["South"]["credit"] == 3
    s, _ = act(s, "South", "DEPLOY kaborha-brawler B2")
    assert s["p"]["South"]["tp"] == 5 and s["p"]["South"]["credit"] == 0
    s = _mobilize()
    s, _ = act(s, "South", "DEPLOY kaborha-pit-whelp A2 DISCARD 4")  # 2 points for a cost 1
    assert s["p"]["South"]["credit"] == 1
    s, _ = act(s, "South", "DONE")
    s, _ = act(s, "North", "DONE")
    assert s["stage"] == "play" and s["p"]["South"]["tp"] == 5
    assert s["p"]["South"]["credit"] == 0


def test_slider_reset_at_the_end_of_mobilize() -> None:
    """Mobilize: "If at the end of the Mobilize phase, your Tactical Points
    slider is higher than it was at the beginning of the Resupply phase,
    reset your slider"."""
    s = _mobilize()
    hand(s, "South", "fresh-blood", "kaborha-runner")
    s, ev = act(s, "South", "PLAY fresh-blood DISCARD kaborha-runner")
    assert s["p"]["South"]["tp"] == 8
    s, _ = act(s, "South", "DONE")
    s, ev = act(s, "North", "DONE")
    assert s["p"]["South"]["tp"] == 5 and "slider is reset to 5" in texts(ev)


def test_not_enough_points_refused_and_nothing_changes() -> None:
    """Mobilize: "If there are not enough Tactical Points (meaning the slider
    would go below zero) you may not deploy the Troop"."""
    s = _mobilize(tp=(2, 5))
    before = repr(s)
    refused(s, "South", "DEPLOY kaborha-tier-1-contender B2", "costs 4", "DISCARD")
    assert repr(s) == before


def test_upgrade_path() -> None:
    """Mobilize: "a Level 1 Human Infantry can upgrade to a Level 2 Human
    Defensive Infantry, but a Level 1 Human Defensive Infantry cannot upgrade
    to a Level 2 Human Infantry. Troops must always upgrade in consecutive
    levels ... only one upgrade can be played on each Troop during a single
    Mobilize phase"; it costs one point and "remove half of the damage tokens
    ... (rounding down)"."""
    s = table("mobilize")
    put(s, "South", "human-infantry-1", "B2", damage=3)
    put(s, "South", "human-defensive-infantry-1", "C2")
    put(s, "South", "footsoldiers", "D2")
    hand(s, "South", "human-defensive-infantry-1", "human-defensive-infantry-2",
         "human-infantry-2")
    refused(s, "South", "UPGRADE C2 human-infantry-2", "cannot be reversed")
    refused(s, "South", "UPGRADE D2 human-infantry-2", "level 1 only")
    # The issue's own line: the name alone picks the level that fits (2).
    assert GAME.parse(s, "South", "UPGRADE B2 human-defensive-infantry").text == \
        "UPGRADE B2 human-defensive-infantry-2"
    s, ev = act(s, "South", "UPGRADE B2 Human Defensive Infantry 2")
    t = at(s, "B2")
    assert t is not None and t["card"] == "human-defensive-infantry-2"
    assert t["damage"] == 2 and t["under"] == ["human-infantry-1"] and t["origin"] == 1
    assert s["p"]["South"]["tp"] == 4 and "removing 1 damage" in texts(ev)
    hand(s, "South", "human-shield-captain")
    refused(s, "South", "UPGRADE B2 human-shield-captain", "only one upgrade")


def test_equipment_one_of_each_type() -> None:
    """Equipment: "An individual troop card may only equip one of each
    type"."""
    s = table("mobilize")
    put(s, "South", "human-infantry-1", "B2")
    hand(s, "South", "longsword", "longsword")
    s, _ = act(s, "South", "EQUIP longsword B2")
    t = at(s, "B2")
    assert t is not None and list(t["equip"].values()) == ["longsword"]
    refused(s, "South", "EQUIP longsword B2", "weapon already")


# ------------------------------------------------------------------ Play


def test_control_goes_to_the_most_points_ties_to_initiative() -> None:
    """Play: "The player with control is always the player with the most
    Tactical Points (if both players have the same number of Tactical
    Points, the player with Initiative has control)"."""
    assert rules.control(Ctx(table(tp=(3, 5), initiative="South"))) == "North"
    assert rules.control(Ctx(table(tp=(4, 4), initiative="North"))) == "North"


def test_pass_gives_one_action_and_two_passes_end_the_phase() -> None:
    """Play: "Pass, which shifts control to their opponent for one action";
    "The Play phase is over when ... both of you have passed consecutively"."""
    s = table(tp=(5, 3), initiative="South")
    put(s, "North", "malice-thrall", "C4")
    s, _ = act(s, "South", "PASS")
    assert s["actor"] == "North"
    s, ev = act(s, "North", "MOVE C2 C3")  # North's C2 and C3 are South's C4 and C3
    # Nothing in reach after the move: STOP is forced, so it is not asked.
    assert "can do nothing after its move" in texts(ev)
    assert s["actor"] == "South"  # control returns to the player with more points
    s, _ = act(s, "South", "PASS")
    s, ev = act(s, "North", "PASS")
    assert "Halt (turn 1)" in texts(ev) and s["turn"] == 2


def test_move_costs_one_point_then_the_troop_may_act() -> None:
    """Move: "at a cost of one Tactical Point ... Units may only move to open,
    adjacent spaces ... Troops cannot "jump" other units"; "After moving,
    your chosen Troop may perform one of the following actions even if the
    cost of movement put you below your opponent's number of Tactical
    Points"."""
    s = table(tp=(3, 3), initiative="South")
    put(s, "South", "kaborha-runner", "B2")  # movement 2
    put(s, "South", "footsoldiers", "B3")
    put(s, "North", "malice-thrall", "A4")
    refused(s, "South", "MOVE B2 B4", "cannot reach")  # through B3, no jumping
    s, _ = act(s, "South", "MOVE B2 A3")
    assert s["p"]["South"]["tp"] == 2 < s["p"]["North"]["tp"]
    assert s["stage"] == "follow" and s["actor"] == "South"
    refused(s, "South", "ATTACK B3 B4", "only the troop that moved")
    s, _ = act(s, "South", "ATTACK A3 A4")
    assert s["stage"] == "window" and s["window"]["role"] == "North"


def test_jumping_troops() -> None:
    """Move: troops cannot jump "unless otherwise specified" (the Kaborha
    Outrider's card says it may)."""
    s = table(tp=(5, 5))
    put(s, "South", "kaborha-outrider", "B1")
    put(s, "South", "footsoldiers", "B2")
    s, _ = act(s, "South", "MOVE B1 B3")
    assert at(s, "B3") is not None


def _duel(attacker: str, defender: str, tp: tuple[int, int] = (5, 5)) -> State:
    s = table(tp=tp)
    put(s, "South", attacker, "C3")
    put(s, "North", defender, "C4")
    return s


def test_melee_with_counterattack() -> None:
    """Melee Attack: "The Troop will then deal the amount of damage listed on
    their card for attack; however, the defending card will retaliate by
    dealing the amount ... for Counterattack"; Dealing Damage: "subtract its
    Defense ... from the incoming damage"."""
    s = _duel("footsoldiers", "malice-ghoul")
    s, _ = act(s, "South", "ATTACK C3 C4")
    assert s["p"]["South"]["tp"] == 4  # paid at declaration
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 1
    assert s["stage"] == "window" and s["window"] == {"role": "South", "step": "counter"}
    s, ev = act(s, "South", "PASS")
    assert troop(s, "C3")["damage"] == 1
    assert "counterattack" in texts(ev)


def test_defense_is_subtracted_from_every_damage() -> None:
    """Dealing Damage: "if (3) damage is directed at a unit with (1) Defense,
    the attack would deal a total of two damage"."""
    s = _duel("kaborha-tier-1-contender", "malice-dread-guard")  # 3 attack; defense 2
    s, _ = act(s, "South", "ATTACK C3 C4")
    s, ev = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 1
    assert "3 incoming, defense 2" in texts(ev)


def test_ranged_troops_may_not_melee_but_counter() -> None:
    """Melee Attack: "troops with ranged skill have an attack range of 2-4,
    which specifically excludes Range 1. These troops may not melee attack";
    Ranged Attack: "they still deal Counterattack damage if attacked in
    melee"."""
    s = _duel("archers", "malice-ghoul")
    refused(s, "South", "ATTACK C3 C4", "excludes range 1")
    control(s, "North")
    s, _ = act(s, "North", "ATTACK C2 C3")  # North's C2 is South's C4
    s, _ = act(s, "South", "PASS")
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 1  # the Archers' counter 1


def test_ranged_attack_draws_no_counterattack() -> None:
    """Ranged Attack: "the target does not deal Counterattack damage, even if
    they are also ranged units"."""
    s = table()
    put(s, "South", "archers", "C2")
    put(s, "North", "malice-ghoul", "C4")
    s, _ = act(s, "South", "ATTACK C2 C4")
    s, _ = act(s, "North", "PASS")
    assert s["stage"] == "play" and troop(s, "C2")["damage"] == 0


def test_the_base_takes_no_damage_under_a_troop() -> None:
    """Setup: "damage cannot be dealt to the Base until the troop occupying
    the Base is destroyed"."""
    s = table(initiative="North")
    control(s, "North")
    put(s, "South", "footsoldiers", "C1")  # on South's base
    put(s, "North", "malice-ghoul", "C2")
    s, _ = act(s, "North", "ATTACK C4 C5")  # North names C2 as C4 and C1 as C5
    s, _ = act(s, "South", "PASS")
    assert troop(s, "C1")["damage"] == 1  # 2 less defense 0+1
    assert s["bases"]["South"]["damage"] == 0


def test_combat_order_and_one_instant_per_window() -> None:
    """Dealing Damage, steps 1 to 8: the defender declares an instant before
    the damage is marked; the attacker may answer before the Counterattack;
    Cast Spell: "Only one Instant Spell may be cast each time an action takes
    place"."""
    s = table(initiative="North", tp=(5, 5))
    control(s, "North")
    put(s, "South", "human-infantry-1", "C3")  # defense 1, arms 1
    put(s, "North", "malice-ghoul", "C4")
    hand(s, "South", "shield-wall", "shield-wall")
    s, _ = act(s, "North", "ATTACK C2 C3")
    v = GAME.view(s, "South")
    assert v["you"]["instants"] == ["USE shield-wall FROM C3"]
    s, _ = act(s, "South", "USE shield-wall FROM C3")
    assert s["p"]["South"]["tp"] == 4
    assert troop(s, "C3")["damage"] == 0  # 2 - shield 2
    assert s["window"]["role"] == "North"  # the attacker's window before the counter
    refused(s, "South", "USE shield-wall FROM C3", "nothing is asked")
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 1


def test_a_cancelled_action_keeps_its_cost() -> None:
    """Play Circumstance: an instant's effects "are resolved before the action
    performed by the other player, but after the other player has paid the
    cost in Tactical Points"."""
    s = _duel("footsoldiers", "malice-ghoul")
    hand(s, "North", "sudden-darkness", "malice-thrall")
    s, _ = act(s, "South", "ATTACK C3 C4")
    s, ev = act(s, "North", "PLAY sudden-darkness DISCARD malice-thrall")
    assert "no effect" in texts(ev) and troop(s, "C4")["damage"] == 0
    assert s["p"]["South"]["tp"] == 4 and s["p"]["North"]["tp"] == 3


def test_circumstance_discards_required() -> None:
    """Play Circumstance: "If you do not have enough cards in your hand to
    discard the proper amount, the Circumstance may not be played"."""
    s = _duel("kaborha-brawler", "malice-ghoul")
    hand(s, "South", "trample")
    refused(s, "South", "PLAY trample ON C4", "may not be played")


# ------------------------------------------------------------------ spells and skills


def _caster(troop: str, *spells: str) -> State:
    s = table(south="humans", north="malice", tp=(9, 9), initiative="North")
    control(s, "North")
    put(s, "North", troop, "C4")
    put(s, "South", "human-infantry-1", "C2")
    hand(s, "North", *spells)
    return s


def test_spell_level_example_1() -> None:
    """Cast Spell, example 1: "A Level 2 Veteran Heretic Fire Mage knows Fire
    Magic and is Level 2. Therefore it knows all Level 1 and Level 2 Fire
    Spells ... a Level 1 Malice Convert has knowledge of dark magic but can
    only cast Level 1 Dark Magic Spells." (North casts: C4 is its C2.)"""
    s = _caster("veteran-heretic-fire-mage", "fireball", "flame-lance")
    for spell in ("fireball", "flame-lance"):
        assert GAME.parse(s, "North", f"CAST {spell} C4 FROM C2").data["card"] == spell
    s = _caster("malice-convert", "shadow-bolt", "wither")
    assert GAME.parse(s, "North", "CAST shadow-bolt C4 FROM C2")
    refused(s, "North", "CAST wither C4 FROM C2", "level 1", "Wither is level 2")


def test_spell_level_example_2_demonhunter() -> None:
    """Cast Spell, example 2: "A Level 3 Demonhunter knows Fire Magic, but the
    card states that he only knows Level 2 Fire Magic ... can only cast Level
    1 and Level 2 Spells despite being Level 3." """
    d = POOL.card("demonhunter")
    assert d.level == 3 and d.knows("fire") == 2
    s = table(tp=(9, 9))
    put(s, "South", "demonhunter", "C2")
    put(s, "North", "malice-ghoul", "C4")
    hand(s, "South", "flame-lance")
    assert GAME.parse(s, "South", "CAST flame-lance C4 FROM C2")
    t = at(s, "C2")
    assert t is not None and rules.knows(Ctx(s), t, POOL.card("flame-lance")) == 2


def test_spells_once_a_turn_and_face_down_after_use() -> None:
    """Cast Spell: cast from the hand "place the card face-down in your
    Knowledge Pool ... Each Spell card can only be cast once per turn"; the
    Resupply phase flips the pool face up."""
    s = _caster("malice-convert", "shadow-bolt")
    s, _ = act(s, "North", "CAST shadow-bolt C4 FROM C2")
    s, _ = act(s, "South", "PASS")
    assert s["p"]["North"]["knowledge"] == [{"card": "shadow-bolt", "up": False}]
    bolt, infantry = POOL.card("shadow-bolt"), POOL.card("human-infantry-1")
    assert troop(s, "C2")["damage"] == bolt.damage - infantry.defense
    control(s, "North")
    refused(s, "North", "CAST shadow-bolt C4 FROM C2", "no spell")


def test_an_offensive_spell_at_distance_1_draws_the_counterattack() -> None:
    """Cast Spell: "All Spells are subject to the same line of sight rules as
    Ranged Attacks, and Offensive Spells deal damage in the same manner";
    Ranged Attack: "In instances where ranged units are attacking an adjacent
    unit, melee rules should be used and the attacker will receive
    Counterattack damage". A Shadow Bolt (range 1-3) cast on an adjacent
    troop draws its Counterattack; cast from two spaces away it does not."""
    s = _caster("malice-convert", "shadow-bolt")
    troop(s, "C2")["at"] = "C3"  # South's infantry next to the caster
    s, _ = act(s, "North", "CAST shadow-bolt C3 FROM C2")  # North's C3 is South's C3
    s, _ = act(s, "South", "PASS")
    infantry = at(s, "C3")
    assert infantry is not None and infantry["damage"] == 3 - 1  # the bolt, less defense 1
    assert s["stage"] == "window" and s["window"] == {"role": "North", "step": "counter"}
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 1  # the infantry's counter 1
    far = _caster("malice-convert", "shadow-bolt")
    far, _ = act(far, "North", "CAST shadow-bolt C4 FROM C2")
    far, _ = act(far, "South", "PASS")
    assert far["stage"] == "play" and troop(far, "C4")["damage"] == 0


def test_x_cost_of_a_cast_is_its_level() -> None:
    """Setup and Mobilize: an "X" cost is "the level of that card"."""
    s = _caster("veteran-heretic-fire-mage", "flame-lance")
    assert GAME.parse(s, "North", "CAST flame-lance C4 FROM C2").data["cost"] == 2


def test_plus_y_skill_cost_is_the_attack_cost_plus_y() -> None:
    """Use Skill: "Some Skills list their Cost, Range, or Attack Damage as
    "+1" ... the Troop's Attack Cost, Range, or Attack Damage is used along
    with the listed modifier"."""
    s = table(tp=(9, 9))
    put(s, "South", "archers", "C2")
    put(s, "North", "malice-ghoul", "C4")
    hand(s, "South", "aimed-shot")
    a = GAME.parse(s, "South", "USE aimed-shot C4 FROM C2")
    assert a.data["cost"] == POOL.card("archers").attack_cost + 1
    s, _ = act(s, "South", "USE aimed-shot C4 FROM C2")
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == POOL.card("archers").attack + 1


def test_one_buff_at_a_time() -> None:
    """Cast Spell: "If a Troop with a Buff attached to it is targeted by
    another Buff spell, the previous Buff is removed and the new one is
    attached"."""
    s = table(tp=(9, 0))
    put(s, "South", "human-acolyte", "C2")  # light 1
    put(s, "South", "human-infantry-1", "C3")
    hand(s, "South", "blessing-of-valor", "blessing-of-valor")
    s, _ = act(s, "South", "CAST blessing-of-valor C3 FROM C2")
    t = at(s, "C3")
    assert t is not None and t["buff"]["card"] == "blessing-of-valor"
    assert Ctx(s).stat(t, "attack") == POOL.card("human-infantry-1").attack + 1
    s, ev = act(s, "South", "CAST blessing-of-valor C3 FROM C2")
    assert "leaves" in texts(ev)
    assert s["p"]["South"]["knowledge"] == [{"card": "blessing-of-valor", "up": False}]


# ------------------------------------------------------------------ Halt and victory


def _victories(s: State, role: str, *cards: str, done: int = 0) -> None:
    s["p"][role]["victories"] = [{"card": c, "done": i < done} for i, c in enumerate(cards)]


def test_halt_victory_condition_and_trophy() -> None:
    """Victory: "the Victory Condition is flipped face down and a Trophy is
    drawn from the Trophy card pile"; H: victories are tallied."""
    s = table(tp=(0, 0))
    _victories(s, "South", "standing-army", "siege-breaker", "hold-the-field", "knights-oath")
    for sp in ("A1", "B1", "D1", "A2", "B2", "C2"):
        put(s, "South", "footsoldiers", sp)
    pile = list(s["p"]["South"]["trophy_pile"])
    g = Ctx(s, rng())
    rules.halt(g)
    assert s["p"]["South"]["victories"][0]["done"] is True
    assert s["p"]["South"]["trophies"] == pile[:1]
    assert "achieves the Victory Condition Standing Army" in texts(g.events)


@pytest.mark.parametrize(("north_done", "result"), [
    (0, "South wins 3-0: Massacre"), (1, "South wins 3-1: Sound Victory/Firm Defeat"),
    (2, "South wins 3-2: Narrow Victory/Strategic Retreat")])
def test_result_table(north_done: int, result: str) -> None:
    """Victory: "achieved by tallying three (3) Victory Conditions"; the table
    3-2 Narrow Victory/Strategic Retreat, 3-1 Sound Victory/Firm Defeat, 3-0
    Massacre."""
    s = table(tp=(0, 0))
    _victories(s, "South", "standing-army", "siege-breaker", "hold-the-field", "knights-oath",
               done=3)
    _victories(s, "North", "harvest-of-souls", "raze-the-walls", "dark-ascension",
               "circle-of-knowledge", done=north_done)
    rules.halt(Ctx(s, rng()))
    out = GAME.outcome(s)
    assert out is not None and out.reason == result and out.winners == ("South",)


def test_three_all_is_a_draw() -> None:
    """Victory: "3-3 Draw"."""
    s = table(tp=(0, 0))
    _victories(s, "South", "standing-army", "siege-breaker", "hold-the-field", done=3)
    _victories(s, "North", "harvest-of-souls", "raze-the-walls", "dark-ascension", done=3)
    rules.halt(Ctx(s, rng()))
    out = GAME.outcome(s)
    assert out is not None and out.draw and out.reason == "3-3 Draw"


def test_halt_abilities_come_first() -> None:
    """H: "Some card effects occur during this phase and must be resolved
    first" (the Gunget Blob recovers 1, the Human Keep repairs 1)."""
    s = table(tp=(0, 0))
    put(s, "South", "gunget-blob", "B2", damage=2)
    s["bases"]["South"]["damage"] = 3
    rules.halt(Ctx(s, rng()))
    assert troop(s, "B2")["damage"] == 1
    assert s["bases"]["South"]["damage"] == 2


# ------------------------------------------------------------------ views


def test_views_hide_hands_and_turn_the_board() -> None:
    """Privacy: a hand reaches only its owner; North's grid has its own edge
    at the bottom."""
    s = table()
    put(s, "South", "archers", "A1")
    hand(s, "North", "shadow-bolt")
    south, north, public = (GAME.view(s, r) for r in ("South", "North", None))
    assert "you" not in public and north["you"]["hand"][0]["card"] == "shadow-bolt"
    assert "shadow-bolt" not in repr(south)
    assert south["troops"][0]["at"] == "A1" and north["troops"][0]["at"] == "E5"
    assert "S:Arch1" in north["grid"][1] and "S:Arch1" in south["grid"][-1]


def test_a_pass_to_a_player_without_points_ends_the_play_phase() -> None:
    """Play: "Once both players have either used all of their Tactical Points
    or Passed, the Play Phase ends"."""
    s = table(tp=(3, 0), initiative="South")
    s, ev = act(s, "South", "PASS")
    assert "Halt (turn 1)" in texts(ev)


def test_two_copies_of_a_victory_condition_flip_when_its_condition_is_met() -> None:
    """Victory: "A Victory is achieved when a condition on a Victory
    Condition card is met. At this time, the Victory Condition is flipped
    face down and a Trophy is drawn"; "A Victory Condition card can only be
    achieved once per game but multiple copies of a Victory Condition can be
    carried": both copies of a condition met at a Halt flip there, each with
    its Trophy, and neither again."""
    s = table(tp=(0, 0))
    _victories(s, "South", "standing-army", "standing-army", "siege-breaker", "hold-the-field")
    for sp in ("A1", "B1", "D1", "A2", "B2", "C2"):
        put(s, "South", "footsoldiers", sp)
    trophies = len(s["p"]["South"]["trophies"])
    rules.halt(Ctx(s, rng()))
    assert [v["done"] for v in s["p"]["South"]["victories"]] == [True, True, False, False]
    assert len(s["p"]["South"]["trophies"]) == trophies + 2
    rules.halt(Ctx(s, rng()))
    assert [v["done"] for v in s["p"]["South"]["victories"]] == [True, True, False, False]
    assert len(s["p"]["South"]["trophies"]) == trophies + 2


# ------------------------------------------------------------------ each effect kind


def test_effect_push_and_damage_of_a_control_circumstance() -> None:
    """Play Circumstance: "Control Circumstances are used in the Play phase by
    the player who has control"; Trample deals 3 and pushes the target back
    (the damage and push effects), after its discard."""
    s = table(south="kaborha", tp=(5, 0))
    put(s, "North", "malice-ghoul", "C3")
    hand(s, "South", "trample", "kaborha-runner")
    s, _ = act(s, "South", "PLAY trample ON C3 DISCARD kaborha-runner")
    assert s["p"]["South"]["discard"] == ["kaborha-runner"]
    s, _ = act(s, "North", "PASS")
    t = at(s, "C4")
    assert t is not None and t["damage"] == 3 and at(s, "C3") is None
    assert "trample" in s["p"]["South"]["removed"]  # "removed from the game"


def test_an_instant_circumstance_played_by_the_player_with_control() -> None:
    """Play Circumstance: "Control Circumstances are used in the Play phase by
    the player who has control. Other Circumstances are Instants and may be
    played at any time": in the Play phase the player with control plays an
    instant as its action (Second Wind heals a troop of its own 3; Spiteful
    Retort deals 2 to an enemy, which may answer). An instant that only
    shields or cancels an action has none to act on there and is refused,
    saying where it is played."""
    s = table(south="kaborha", tp=(5, 5))
    put(s, "South", "kaborha-brawler", "C2", damage=3)
    put(s, "North", "malice-ghoul", "C4")
    hand(s, "South", "second-wind", "spiteful-retort", "hold-the-line")
    s, _ = act(s, "South", "PLAY second-wind ON C2")
    assert troop(s, "C2")["damage"] == 0
    assert s["p"]["South"]["tp"] == 4 and "second-wind" in s["p"]["South"]["removed"]
    control(s, "South")
    s, _ = act(s, "South", "PLAY spiteful-retort ON C4")
    assert s["stage"] == "window" and s["window"]["role"] == "North"
    s, _ = act(s, "North", "PASS")
    assert troop(s, "C4")["damage"] == 2  # defense 0
    control(s, "South")
    refused(s, "South", "PLAY hold-the-line", "with none to answer", "instant window")


def test_effect_draw() -> None:
    """A Mobilization circumstance that draws (Call to the Pits: draw 2)."""
    s = table("mobilize", south="kaborha")
    hand(s, "South", "call-to-the-pits")
    top = s["p"]["South"]["supply"][:2]
    s, _ = act(s, "South", "PLAY call-to-the-pits")
    assert s["p"]["South"]["hand"] == top and s["p"]["South"]["tp"] == 4


def test_effect_splash_and_pierce_at_halt() -> None:
    """The Exploding Gunget "takes 1 damage and deals 1 to every enemy next to
    it" each Halt: damage on itself, splash around, defense ignored."""
    s = table(tp=(0, 0))
    put(s, "South", "exploding-gunget", "C3")
    put(s, "North", "malice-dread-guard", "C4")  # defense 2, ignored
    put(s, "North", "malice-thrall", "B3")
    put(s, "North", "malice-thrall", "A1")  # not next to it
    rules.halt(Ctx(s, rng()))
    assert troop(s, "C3")["damage"] == 1
    assert troop(s, "C4")["damage"] == 1 and troop(s, "B3")["damage"] == 1
    assert troop(s, "A1")["damage"] == 0


def test_effect_no_counter_of_the_assassin() -> None:
    """The Malice Assassin: "Its attacks draw no counterattack"."""
    s = table(initiative="North", tp=(0, 5))
    control(s, "North")
    put(s, "North", "malice-assassin", "C4")
    put(s, "South", "human-defensive-infantry-1", "C3")  # counter 2
    s, _ = act(s, "North", "ATTACK C2 C3")
    s, _ = act(s, "South", "PASS")
    assert s["stage"] != "window" and troop(s, "C4")["damage"] == 0


def test_effect_deploy_abilities() -> None:
    """Deploy abilities: the Kaborha Earthshaker shoves the nearest enemy back
    one space; the Warlord gives every friendly troop +1 attack this turn."""
    s = table("mobilize", south="kaborha", tp=(12, 5))
    put(s, "North", "malice-thrall", "B3")
    put(s, "South", "kaborha-brawler", "A2")
    hand(s, "South", "kaborha-earthshaker", "kaborha-warlord")
    s, _ = act(s, "South", "DEPLOY kaborha-earthshaker B2")
    assert at(s, "B4") is not None and at(s, "B3") is None
    s, _ = act(s, "South", "DEPLOY kaborha-warlord C2")
    brawler = at(s, "A2")
    assert brawler is not None
    assert Ctx(s).stat(brawler, "attack") == POOL.card("kaborha-brawler").attack + 1


def test_effect_on_base_ability() -> None:
    """The Kaborha Fighting Pits: "A troop standing on the Pits has +1
    attack", besides the base's +1 defense (Setup)."""
    s = table(south="kaborha")
    t = put(s, "South", "kaborha-brawler", "C1")
    c = POOL.card("kaborha-brawler")
    assert Ctx(s).stat(t, "attack") == c.attack + 1
    assert Ctx(s).stat(t, "defense") == c.defense + 1


def test_effect_debuff_and_its_expiry() -> None:
    """A Debuff "imparting a negative effect" (Curse of Weakness: attack and
    counter -1) stays attached until the Halt, then returns to its caster's
    Knowledge Pool (Cast Spell: "return to the Knowledge Pool when the target
    dies or the effect expires")."""
    s = table(initiative="North", tp=(0, 5))
    control(s, "North")
    put(s, "North", "malice-convert", "C4")
    put(s, "South", "human-infantry-1", "C2")
    hand(s, "North", "curse-of-weakness")
    s, _ = act(s, "North", "CAST curse-of-weakness C4 FROM C2")
    s, _ = act(s, "South", "PASS")
    cursed = at(s, "C2")
    assert cursed is not None and cursed["debuff"]["card"] == "curse-of-weakness"
    assert Ctx(s).stat(cursed, "attack") == POOL.card("human-infantry-1").attack - 1
    rules.halt(Ctx(s, rng()))
    assert troop(s, "C2")["debuff"] is None
    assert {"card": "curse-of-weakness", "up": False} in s["p"]["North"]["knowledge"]


def test_trophies_redeem_and_recycle() -> None:
    """Trophies: "Redeem allows you to use a powerful effect but removes the
    Trophy from the game. Recycle results in a less powerful effect but
    allows you to shuffle the Trophy into your supply pile"."""
    s = table(south="kaborha", tp=(3, 0))
    s["p"]["South"]["trophies"] = ["purse-of-pit-gold", "arena-horn"]
    s, _ = act(s, "South", "REDEEM purse-of-pit-gold")
    trophy = POOL.card("purse-of-pit-gold")
    assert s["p"]["South"]["tp"] == 3 + trophy.redeem[0].amount
    assert "purse-of-pit-gold" in s["p"]["South"]["removed"]
    n = len(s["p"]["South"]["supply"])
    s, _ = act(s, "South", "RECYCLE arena-horn")
    assert "arena-horn" in s["p"]["South"]["supply"]
    drawn = POOL.card("arena-horn").recycle[0].amount
    assert len(s["p"]["South"]["supply"]) == n + 1 - drawn
