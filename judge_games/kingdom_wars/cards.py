"""The Game cards: who each may target (Description of Game Cards), the use
pipeline (notes, Using a card: declare, becoming targets, targets fixed, per
target a Negation window for spells, the effect, the discard) and every
card's effect, as a dispatch table (:data:`EFFECTS`, card id -> task).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars import flow, standing
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import (
    Ctx,
    Task,
    card,
    is_kind,
    label,
    name_of,
    seat_label,
    task,
    vcard,
    vlabel,
)

Rec = dict[str, Any]
EffectFn = Callable[[Ctx, Rec, str], None]
EFFECTS: dict[str, EffectFn] = {}

ATTACKS = ("attack", "fire-attack", "thunder-attack")
NATURE = {"fire-attack": "fire", "thunder-attack": "thunder"}
DELAYED = ("acedia", "rations-depleted", "lightning")
MULTI_ALL_OTHERS = ("raining-arrows", "barbarian-invasion")
MULTI_ALL = ("brotherhood", "bumper-harvest")


def effect(kind: str) -> Callable[[EffectFn], EffectFn]:
    def deco(fn: EffectFn) -> EffectFn:
        EFFECTS[kind] = fn
        return fn

    return deco


def describe(v: dict[str, Any]) -> str:
    return vlabel(v)


def card_type(kind: str) -> str:
    return str(DATA.cards[kind].type)


def is_trick(kind: str) -> bool:
    return card_type(kind) == "spell"


def is_delayed(kind: str) -> bool:
    return DATA.cards[kind].subtype == "time-delay"


# --------------------------------------------------------------------------- targets


def attack_limit(g: Ctx, seat: str) -> int:
    """"You may use [Attack] only once in the Play Phase", unless the Zhuge
    Crossbow or a skill says otherwise."""
    if g.weapon(seat) == "zhuge-crossbow":
        return 1_000
    return S.modify(g, "attack_limit", 1, src=seat)


def trick_reach(g: Ctx, seat: str, kind: str) -> int:
    """How far ``seat`` reaches with a spell of ``kind`` limited to distance 1
    (Stealing Sheep, Rations Depleted); skills may lengthen it."""
    return 1 + S.modify(g, "trick_distance", 0, src=seat, kind=kind)


def _forbidden(g: Ctx, seat: str, other: str, v: dict[str, Any]) -> str | None:
    return S.forbids(g, "target", src=seat, to=other, card=v)


def check_use(g: Ctx, seat: str, v: dict[str, Any], on: list[str], *,
              hints: bool = True) -> list[str]:
    """The targets of ``v`` used by ``seat`` in its Play Phase (filled in when
    the card has fixed ones), or IllegalLine."""
    kind = v["kind"]
    why = S.forbids(g, "use", src=seat, card=v)
    if why:
        raise IllegalLine(why)
    dead = [r for r in on if not g.alive(r)]
    if dead:
        raise IllegalLine(f"{seat_label(dead[0])} is out of the game")
    if len(set(on)) != len(on):
        raise IllegalLine("a player is named twice")
    if kind in ATTACKS:
        limit = S.modify(g, "attack_targets", 1, src=seat, card=v, on=list(on))
        if not on:
            raise IllegalLine("an Attack needs a target", hint=_hint_targets(g, seat, v, hints))
        if len(on) > limit:
            raise IllegalLine(f"an Attack has {limit} target{'s' * (limit != 1)}")
        if g.flag("attacks", 0) >= attack_limit(g, seat):
            raise IllegalLine("you have used your Attack of this Play Phase",
                              hint="only one Attack per Play Phase, unless a card or skill "
                                   "says otherwise")
        for r in on:
            if r == seat:
                raise IllegalLine("you cannot Attack yourself")
            if not in_attack_range(g, seat, r, v):
                raise IllegalLine(f"{seat_label(r)} is out of your attack range "
                                  f"(distance {g.distance(seat, r)}, range "
                                  f"{g.attack_range(seat)})", hint=_hint_targets(g, seat, v, hints))
            _check_forbid(g, seat, r, v)
        return list(on)
    if kind == "dodge" or kind in ("negation", "negation-force"):
        raise IllegalLine(f"a {DATA.cards[kind].name} is only used to answer",
                          hint="it is played when a window asks for it")
    if kind == "peach":
        _no_targets(on, seat, kind)
        if not g.wounded(seat):
            raise IllegalLine("you are at full health",
                              hint="in the Play Phase a Peach is used on yourself when wounded")
        return [seat]
    if kind == "wine":
        _no_targets(on, seat, kind)
        if g.flag("wine_used"):
            raise IllegalLine("Wine can only be used once per turn")
        return [seat]
    if card_type(kind) == "equipment":
        _no_targets(on, seat, kind)
        return [seat]
    if kind in ("something-out-of-nothing", "lightning"):
        _no_targets(on, seat, kind)
        if kind == "lightning" and _has_delayed(g, seat, kind):
            raise IllegalLine("there is a Lightning in your judgement zone already")
        _check_forbid(g, seat, seat, v)
        return [seat]
    if kind in MULTI_ALL_OTHERS:
        if on:
            raise IllegalLine(f"{DATA.cards[kind].name} targets all other players: name none")
        return [r for r in g.order_from(seat, include_first=False)
                if not _forbidden(g, seat, r, v)]
    if kind == "brotherhood":
        if on:
            raise IllegalLine("Brotherhood targets all players: name none")
        return [r for r in g.order_from(seat) if not _forbidden(g, seat, r, v)]
    if kind == "bumper-harvest":
        if on:
            raise IllegalLine("Bumper Harvest targets all players: name none")
        return [r for r in g.order_from(seat) if not _forbidden(g, seat, r, v)]
    if kind == "rest-and-reorganization":
        if on:
            raise IllegalLine("Rest and Reorganization targets you and your kingdom: name none")
        return [r for r in g.order_from(seat) if (r == seat or g.same_force(seat, r))
                and not _forbidden(g, seat, r, v)]
    if kind == "iron-chains":
        if not 1 <= len(on) <= 2:
            raise IllegalLine("Iron Chains targets 1 or 2 players",
                              hint="USE Iron Chains ON B C, or RECAST it")
        for r in on:
            _check_forbid(g, seat, r, v)
        return list(on)
    if kind == "borrowed-sword":
        if len(on) != 2:
            raise IllegalLine("Borrowed Sword names the player with a weapon, then the one "
                              "they must Attack", hint="USE Borrowed Sword ON B C")
        a, b = on
        if a == seat:
            raise IllegalLine("Borrowed Sword targets another player")
        if g.weapon(a) is None:
            raise IllegalLine(f"{seat_label(a)} has no weapon")
        if not in_attack_range(g, a, b, vcard("attack", [])):
            raise IllegalLine(f"{seat_label(b)} is not within {seat_label(a)}'s attack range")
        _check_forbid(g, seat, a, v)
        return [a, b]
    if len(on) != 1:
        raise IllegalLine(f"{DATA.cards[kind].name} needs one target",
                          hint=_hint_targets(g, seat, v, hints))
    (r,) = on
    if kind == "attack-by-fire":
        if not g.hand(r):
            raise IllegalLine(f"{seat_label(r)} has no hand card")
    elif r == seat:
        raise IllegalLine(f"{DATA.cards[kind].name} targets another player")
    if kind == "burning-bridges" and not g.has_cards(r, judge=True):
        raise IllegalLine(f"{seat_label(r)} has no card to discard")
    if kind == "stealing-sheep":
        if not g.has_cards(r, judge=True):
            raise IllegalLine(f"{seat_label(r)} has no card to take")
        if g.distance(seat, r) > trick_reach(g, seat, kind):
            raise IllegalLine(f"{seat_label(r)} is at distance {g.distance(seat, r)}: Stealing "
                              f"Sheep reaches {trick_reach(g, seat, kind)}")
    if kind == "rations-depleted" and g.distance(seat, r) > trick_reach(g, seat, kind):
        raise IllegalLine(f"{seat_label(r)} is at distance {g.distance(seat, r)}: Rations "
                          f"Depleted reaches {trick_reach(g, seat, kind)}")
    if kind in ("acedia", "rations-depleted") and _has_delayed(g, r, kind):
        raise IllegalLine(f"{seat_label(r)} has a {DATA.cards[kind].name} already",
                          hint="no two cards of one name in a judgement zone")
    if kind == "alliance" and not g.different_force(seat, r):
        raise IllegalLine("Alliance needs you and the target in different forces, both exposed")
    _check_forbid(g, seat, r, v)
    return [r]


def _no_targets(on: Sequence[str], seat: str, kind: str) -> None:
    if on and list(on) != [seat]:
        raise IllegalLine(f"{DATA.cards[kind].name} is used on yourself: name no target")


def _has_delayed(g: Ctx, seat: str, kind: str) -> bool:
    return any(j["as"] == kind for j in g.judges(seat))


def _check_forbid(g: Ctx, seat: str, r: str, v: dict[str, Any]) -> None:
    why = _forbidden(g, seat, r, v)
    if why:
        raise IllegalLine(why)


def in_attack_range(g: Ctx, seat: str, r: str, v: dict[str, Any]) -> bool:
    if S.modify(g, "attack_unlimited", 0, src=seat, to=r, card=v):
        return r != seat
    return g.in_range(seat, r)


def _hint_targets(g: Ctx, seat: str, v: dict[str, Any], hints: bool = True) -> str:
    if not hints:
        return ""
    ch = target_choices(g, seat, v)
    if not ch:
        return "nobody can be targeted with it now"
    return "you could target " + ", ".join(" ".join(t) for t in ch[:6])


def target_choices(g: Ctx, seat: str, v: dict[str, Any]) -> list[list[str]]:
    """Target lists ``check_use`` accepts for ``v`` now."""
    kind = v["kind"]
    fixed = ("peach", "wine", "something-out-of-nothing", "lightning",
             "rest-and-reorganization", *MULTI_ALL_OTHERS, *MULTI_ALL)
    if card_type(kind) == "equipment" or kind in fixed:
        try:
            check_use(g, seat, v, [], hints=False)
        except IllegalLine:
            return []
        return [[]]
    if kind in ("dodge", "negation", "negation-force"):
        return []
    living = g.living()
    combos: list[list[str]]
    if kind == "iron-chains":
        combos = [[r] for r in living] + [list(c) for c in itertools.combinations(living, 2)]
    elif kind == "borrowed-sword":
        combos = [[a, b] for a in living for b in living if a != b]
    else:
        combos = [[r] for r in living]
    out = []
    for c in combos:
        try:
            check_use(g, seat, v, c, hints=False)
        except IllegalLine:
            continue
        out.append(c)
    return out


# --------------------------------------------------------------------------- using


def use(g: Ctx, seat: str, v: dict[str, Any], targets: list[str]) -> None:
    """``seat`` uses ``v`` (checked) on ``targets``: the cards go to the
    processing area and its settlement is pushed (its suit and colour as its
    cards count for ``seat``)."""
    v = g.as_held(seat, v)
    kind = v["kind"]
    zones = []
    for c in v["cards"]:
        zones.append(g.where(c)[0])
        g.take_out(c)
        g.s["proc"].append(c)
    s = g.s
    uid = str(g.next_serial())
    rec: Rec = {"uid": uid, "user": seat, "card": v, "targets": list(targets), "cancel": [],
                "force_cancel": []}
    s["uses"][uid] = rec
    on = ""
    if targets and targets != [seat] and kind not in MULTI_ALL_OTHERS + MULTI_ALL:
        on = " on " + " and ".join(seat_label(r) for r in targets)
    g.pub(f"{seat_label(seat)} uses {describe(v)}{on}.", card=kind, user=seat,
          targets=list(targets))
    if v["cards"]:
        g.lost(seat, v["cards"], zones)
    if kind in ATTACKS:
        g.bump("attacks")
        if g.flag("wine"):
            rec["wine"] = 1
            g.set_flag("wine", False)
    if card_type(kind) == "equipment":
        g.push({"t": "equip", "seat": seat, "card": v["cards"][0], "uid": uid})
        return
    if is_delayed(kind):
        g.push({"t": "place_delayed", "uid": uid})
        return
    tasks: list[Task] = [{"t": "moment", "m": {"name": "card_used", "seat": seat, "uid": uid,
                                              "kind": kind}}]
    for r in targets:
        tasks.append({"t": "moment", "m": {"name": "targeted", "seat": r, "src": seat,
                                           "uid": uid, "kind": kind}})
    tasks.append({"t": "moment", "m": {"name": "targets_fixed", "seat": seat, "uid": uid,
                                       "kind": kind}})
    tasks.append({"t": "use_targets", "uid": uid})
    g.push(*tasks)


@task("use_targets")
def _use_targets(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    kind = rec["card"]["kind"]
    if kind == "bumper-harvest":
        n = len(g.living())
        rec["shown"] = g.peek(n)
        g.s["proc"].extend(rec["shown"])
        g.pub("Bumper Harvest shows " + ", ".join(label(c) for c in rec["shown"]) + ".")
    if kind == "borrowed-sword":
        g.push({"t": "use_target", "uid": t["uid"], "target": rec["targets"][0]},
               {"t": "use_end", "uid": t["uid"]})
        return
    g.push(*({"t": "use_target", "uid": t["uid"], "target": r} for r in list(rec["targets"])),
           {"t": "use_end", "uid": t["uid"]})


@task("use_target")
def _use_target(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    r = t["target"]
    if r in rec["cancel"] or r not in rec["targets"]:
        return
    if not g.alive(r) or (not g.alive(rec["user"]) and rec["card"]["kind"] in ATTACKS):
        return
    if any(g.kingdom(r) == k and g.same_force(r, f) for k, f in rec["force_cancel"]):
        g.pub(f"{describe(rec['card'])} is cancelled on {seat_label(r)} (Negation on the "
              "whole force).")
        return
    kind = rec["card"]["kind"]
    if kind == "brotherhood" and not g.wounded(r):
        return
    if is_trick(kind):
        flow.negation_window(g, rec["card"], rec["user"], r,
                             {"t": "effect", "uid": t["uid"], "target": r},
                             {"t": "trick_cancelled", "uid": t["uid"], "target": r})
        return
    g.push({"t": "effect", "uid": t["uid"], "target": r})


@task("trick_cancelled")
def _trick_cancelled(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].get(t["uid"])
    if rec is None:
        return
    if t.get("force") and g.kingdom(t["target"]) and not g.ambitionist(t["target"]):
        rec["force_cancel"].append([g.kingdom(t["target"]), t["target"]])


@task("effect")
def _effect(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].get(t["uid"])
    if rec is None or not g.alive(t["target"]):
        return
    EFFECTS[rec["card"]["kind"]](g, rec, t["target"])


@task("use_end")
def _use_end(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].pop(t["uid"], None)
    if rec is None:
        return
    left = [c for c in [*rec["card"]["cards"], *rec.get("shown", [])]
            if g.where(c)[0] == "proc"]
    taker = rec.get("taken_by")  # Great Elephant: the card goes to a hand, not the discard
    if left and taker and g.alive(taker):
        for c in left:
            g.take_out(c)
            g.hand(taker).append(c)
        g.pub(f"{seat_label(taker)} takes {', '.join(label(c) for c in left)}.")
        return
    if left:
        g.to_discard(left)


@task("equip")
def _equip(g: Ctx, t: Task) -> None:
    """Equipment: one weapon, one armour, one +1 and one -1 mount; a new one
    replaces the old, which is discarded."""
    seat, cid = t["seat"], t["card"]
    c = card(cid)
    slot = str(c.subtype)
    if c.subtype == "mount":
        slot = "plus" if (c.card.distance or 0) > 0 else "minus"
    g.take_out(cid)
    eq = g.p(seat)["equip"]
    old = eq[slot]
    eq[slot] = cid
    g.s["uses"].pop(t["uid"], None)
    g.pub(f"{seat_label(seat)} equips {label(cid)}.")
    if old:
        g.s["discard"].append(old)
        g.pub(f"{label(old)} is discarded.")
        flow.equip_lost(g, seat, [old])


@task("place_delayed")
def _place_delayed(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].pop(t["uid"])
    v = rec["card"]
    (target,) = rec["targets"]
    (cid,) = v["cards"]
    g.take_out(cid)
    g.judges(target).append({"card": cid, "as": v["kind"]})
    g.push({"t": "moment", "m": {"name": "targeted", "seat": target, "src": rec["user"],
                                 "uid": None, "kind": v["kind"], "card": cid}})


# --------------------------------------------------------------------------- basic cards


def _attack_effect(g: Ctx, rec: Rec, r: str) -> None:
    """Attack: 1 damage to the target unless it Dodges; armour first (Nio
    Shield: black Attacks; Rattan Armor: common Attacks), then the weapons."""
    user, v = rec["user"], rec["card"]
    armor = g.armor(r)
    ignore = flow.ignores_armor(g, user, r, {"via": "attack"})
    if armor == "nio-shield" and v["colour"] == "black" and not ignore:
        g.pub(f"The Nio Shield: the black Attack has no effect on {seat_label(r)}.")
        return
    if armor == "rattan-armor" and v["kind"] == "attack" and not ignore:
        g.pub(f"The Rattan Armor: the common Attack has no effect on {seat_label(r)}.")
        return
    g.push({"t": "attack_swords", "uid": rec["uid"], "target": r})


@task("attack_swords")
def _attack_swords(g: Ctx, t: Task) -> None:
    """Yin-Yang Swords: against a player of the opposite gender, the target
    discards a hand card or lets the attacker draw one."""
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    gu, gr = g.gender(user), g.gender(r)
    nxt = {"t": "attack_dodge", "uid": t["uid"], "target": r}
    if g.weapon(user) == "yin-yang-swords" and gu and gr and gu != gr:
        g.push(nxt)
        flow.choose(g, user, f"the Yin-Yang Swords against {seat_label(r)}?",
                    ["USE Yin-Yang Swords", "PASS"], {"t": "swords_used", "uid": t["uid"],
                                                      "target": r})
        return
    g.push(nxt)


@task("swords_used")
def _swords_used(g: Ctx, t: Task) -> None:
    if t["answer"] != "USE YIN-YANG SWORDS":
        return
    rec = g.s["uses"][t["uid"]]
    r = t["target"]
    g.pub(f"{seat_label(rec['user'])} uses the Yin-Yang Swords on {seat_label(r)}.")
    if not g.hand(r):
        g.draw(rec["user"], 1, "Yin-Yang Swords")
        return
    flow.ask_cards(g, r, "DISCARD", 0, 1, ["hand"],
                   f"the Yin-Yang Swords: discard a hand card, or PASS to let "
                   f"{seat_label(rec['user'])} draw one", {"t": "swords_answer", "uid": t["uid"],
                                                           "target": r})


@task("swords_answer")
def _swords_answer(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    if t["cards"]:
        flow.discard_cards(g, t["target"], t["cards"], "Yin-Yang Swords")
    else:
        g.draw(rec["user"], 1, "Yin-Yang Swords")


@task("attack_dodge")
def _attack_dodge(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    if not g.alive(r):
        return
    need = S.modify(g, "dodges_needed", 1, src=user, to=r, uid=t["uid"])
    hit = {"t": "attack_hit", "uid": t["uid"], "target": r}
    if need <= 0 or r in rec.get("no_dodge", []):
        g.push(hit)
        return
    flow.respond(g, "dodge", [r], f"{seat_label(user)}'s {describe(rec['card'])} on "
                 f"{seat_label(r)}: Dodge?", "dodge", need=need,
                 on_done={"t": "attack_dodged", "uid": t["uid"], "target": r},
                 on_fail=hit, ctx={"by": user, "card": rec["card"]["kind"], "target": r,
                                   "need": need})


@task("attack_dodged")
def _attack_dodged(g: Ctx, t: Task) -> None:
    """The Attack is offset by a Dodge; the Rock Cleaving Axe may force it."""
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    g.pub(f"{seat_label(r)} dodges the Attack.")
    g.push({"t": "moment", "m": {"name": "attack_dodged", "seat": user, "to": r,
                                 "uid": t["uid"]}})
    pool = [c for c in [*g.hand(user), *g.equips(user)] if name_of(c) != "rock-cleaving-axe"]
    if g.weapon(user) == "rock-cleaving-axe" and len(pool) >= 2 and g.alive(user):
        flow.ask_cards(g, user, "DISCARD", 0, 2, ["hand", "equip"],
                       "the Rock Cleaving Axe: discard 2 cards to make the Attack hit, or PASS",
                       {"t": "axe", "uid": t["uid"], "target": r},
                       filt={"not_kind": "rock-cleaving-axe"})


@task("axe")
def _axe(g: Ctx, t: Task) -> None:
    cids = t["cards"]
    if len(cids) != 2:
        return
    rec = g.s["uses"][t["uid"]]
    flow.discard_cards(g, rec["user"], cids, "Rock Cleaving Axe")
    g.pub("The Rock Cleaving Axe forces the Attack through.")
    g.push({"t": "attack_hit", "uid": t["uid"], "target": t["target"]})


@task("attack_hit")
def _attack_hit(g: Ctx, t: Task) -> None:
    """The Attack hits: 1 damage, +1 for Wine (and skills); the Frost Blade may
    prevent it for two of the target's cards; the Kirin Bow may discard a
    mount; the Two-bladed Trident strikes a neighbour afterwards."""
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    if not g.alive(r):
        return
    weapon = g.weapon(user) if g.alive(user) else None
    if weapon == "frost-blade" and g.has_cards(r) and not t.get("frost"):
        nxt = dict(t)
        nxt["frost"] = True
        g.push(nxt)
        flow.choose(g, user, f"the Frost Blade: prevent the damage to {seat_label(r)} and "
                    "discard two of their cards?", ["PASS", "USE Frost Blade"],
                    {"t": "frost", "uid": t["uid"], "target": r})
        return
    if t.get("prevented"):
        return
    mounts = [c for c in (g.p(r)["equip"]["plus"], g.p(r)["equip"]["minus"]) if c]
    if weapon == "kirin-bow" and mounts and not t.get("kirin"):
        nxt = dict(t)
        nxt["kirin"] = True
        g.push(nxt)
        flow.choose(g, user, f"the Kirin Bow: discard one of {seat_label(r)}'s mounts?",
                    ["PASS", *(f"TAKE {label(c).upper()}" for c in mounts)],
                    {"t": "kirin", "uid": t["uid"], "target": r})
        return
    n = 1 + int(rec.get("wine", 0))
    n = S.modify(g, "attack_damage", n, src=user, to=r, uid=t["uid"])
    nature = NATURE.get(rec["card"]["kind"])
    if weapon == "two-bladed-trident":
        # "After your [Attack] deals damage": below the damage on the stack,
        # so asked once the damage (and any rescue) is over and reported.
        g.push({"t": "trident", "uid": t["uid"], "target": r})
    flow.damage(g, user, r, n, nature, card=rec["card"], via="attack")


@task("frost")
def _frost(g: Ctx, t: Task) -> None:
    if t["answer"] != "USE FROST BLADE":
        return
    rec = g.s["uses"][t["uid"]]
    r = t["target"]
    g.pub(f"{seat_label(rec['user'])} uses the Frost Blade: the damage to {seat_label(r)} is "
          "prevented.")
    hit = g.find_frame("attack_hit", uid=t["uid"])
    if hit is not None:
        hit["prevented"] = True
    g.push({"t": "frost_take", "uid": t["uid"], "target": r, "left": 2})


@task("frost_take")
def _frost_take(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    r = t["target"]
    if t["left"] <= 0 or not g.has_cards(r):
        return
    pick_from(g, rec["user"], r, "discard", "Frost Blade", judge=False,
              then={"t": "frost_take", "uid": t["uid"], "target": r, "left": t["left"] - 1})


@task("kirin")
def _kirin(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    r = t["target"]
    for c in (g.p(r)["equip"]["plus"], g.p(r)["equip"]["minus"]):
        if c and f"TAKE {label(c).upper()}" == t["answer"]:
            flow.discard_cards(g, r, [c], "Kirin Bow")


@task("trident")
def _trident(g: Ctx, t: Task) -> None:
    """Two-bladed Trident: after the Attack's damage, discard a hand card to
    deal 1 damage to another player within distance 1 of the target (not if
    the target was eliminated)."""
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    if not g.alive(r) or not g.alive(user) or not g.hand(user):
        return
    near = [x for x in g.living() if x not in (r, user) and g.distance(r, x) <= 1]
    if not near:
        return
    flow.choose(g, user, "the Two-bladed Trident: discard a hand card to deal 1 damage to a "
                f"player next to {seat_label(r)}?",
                ["PASS", *(f"CHOOSE {x}" for x in near)], {"t": "trident_go", "uid": t["uid"]})


@task("trident_go")
def _trident_go(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    rec = g.s["uses"][t["uid"]]
    other = t["answer"].split()[-1]
    # "you may discard a card in hand": the user's choice of card, asked
    # (or written ahead: THEN DISCARD <card>), not left to its keep-order.
    flow.ask_cards(g, rec["user"], "DISCARD", 1, 1, ["hand"], "the Two-bladed Trident: "
                   f"discard a hand card to deal 1 damage to {seat_label(other)}",
                   {"t": "trident_hit", "uid": t["uid"], "to": other}, chosen=True)


@task("trident_hit")
def _trident_hit(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    flow.discard_cards(g, rec["user"], t["cards"], "Two-bladed Trident")
    flow.damage(g, rec["user"], t["to"], 1, None, via="trident")


for _k in ATTACKS:
    EFFECTS[_k] = _attack_effect


@effect("peach")
def _peach(g: Ctx, rec: Rec, r: str) -> None:
    flow.recover(g, r, 1, rec["user"])


@effect("wine")
def _wine(g: Ctx, rec: Rec, r: str) -> None:
    """Wine in the Play Phase: the next Attack this turn deals 1 more damage."""
    g.set_flag("wine_used", True)
    g.set_flag("wine", True)
    g.pub(f"{seat_label(r)} drinks: the next Attack this turn deals 1 more damage.")


# --------------------------------------------------------------------------- spells


@effect("something-out-of-nothing")
def _sooN(g: Ctx, rec: Rec, r: str) -> None:
    g.draw(r, 2, "Something out of Nothing")


@effect("brotherhood")
def _brotherhood(g: Ctx, rec: Rec, r: str) -> None:
    flow.recover(g, r, 1, rec["user"])


@effect("duel")
def _duel(g: Ctx, rec: Rec, r: str) -> None:
    """Duel: starting with the target, each in turn plays an Attack; the first
    who does not loses and takes 1 damage from the other."""
    g.push({"t": "duel_turn", "uid": rec["uid"], "asked": r, "other": rec["user"],
            "target": r})


@task("duel_turn")
def _duel_turn(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    asked, other = t["asked"], t["other"]
    if not g.alive(asked) or not g.alive(other):
        return
    need = S.modify(g, "attacks_needed", 1, src=other, to=asked, uid=t["uid"])
    flow.respond(g, "attack", [asked], f"Duel between {seat_label(rec['user'])} and "
                 f"{seat_label(t['target'])}: {seat_label(asked)} to play an Attack",
                 "attack", need=need,
                 on_done={"t": "duel_turn", "uid": t["uid"], "asked": other, "other": asked,
                          "target": t["target"]},
                 on_fail={"t": "duel_lost", "uid": t["uid"], "loser": asked, "winner": other},
                 ctx={"by": rec["user"], "card": "duel", "target": t["target"], "need": need})


@task("duel_lost")
def _duel_lost(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    g.pub(f"{seat_label(t['loser'])} loses the Duel.")
    n = S.modify(g, "duel_damage", 1, src=t["winner"], to=t["loser"], uid=t["uid"])
    flow.damage(g, t["winner"], t["loser"], n, None, card=rec["card"], via="duel")


def _mass_attack(want: str, verb: str) -> EffectFn:
    def fx(g: Ctx, rec: Rec, r: str) -> None:
        user = rec["user"]
        kind = rec["card"]["kind"]
        if g.armor(r) == "rattan-armor":
            g.pub(f"The Rattan Armor: {DATA.cards[kind].name} has no effect on {seat_label(r)}.")
            return
        flow.respond(g, want, [r], f"{describe(rec['card'])}: {seat_label(r)} to play "
                     f"{verb}", want, need=1,
                     on_done={"t": "noop"},
                     on_fail={"t": "mass_damage", "uid": rec["uid"], "target": r},
                     ctx={"by": user, "card": kind, "target": r, "need": 1})

    return fx


EFFECTS["raining-arrows"] = _mass_attack("dodge", "a Dodge")
EFFECTS["barbarian-invasion"] = _mass_attack("attack", "an Attack")


@task("mass_damage")
def _mass_damage(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    src = rec["user"]
    if rec.get("source"):  # Ringleader: another player is the source (none once dead)
        src = rec["source"] if g.alive(rec["source"]) else None
    flow.damage(g, src, t["target"], 1, None, card=rec["card"], via="trick")


def pick_from(g: Ctx, chooser: str, r: str, how: str, why: str, *, judge: bool,
              then: Task | None = None) -> None:
    """``chooser`` picks a card of ``r``'s zones: the hand blind (Appendix I,
    Obtain: "you may only choose it randomly"), or an equipment or judgement
    card by name; ``how`` is take or discard."""
    options = []
    if g.hand(r):
        options.append("TAKE HAND")
    options += [f"TAKE {label(c).upper()}" for c in g.equips(r)]
    if judge:
        options += [f"TAKE {label(j['card']).upper()}" for j in g.judges(r)]
    if not options:
        return
    flow.choose(g, chooser, f"{why}: choose a card of {seat_label(r)} to {how}", options,
                {"t": "picked", "chooser": chooser, "from": r, "how": how, "why": why,
                 "then": then})


@task("picked")
def _picked(g: Ctx, t: Task) -> None:
    r, chooser = t["from"], t["chooser"]
    ans = t["answer"]
    if ans == "TAKE HAND":
        if not g.hand(r):
            return
        assert g.rng is not None
        cid = g.rng.choice(sorted(g.hand(r)), f"random:{t['why']}")
        zone = "hand"
    else:
        found = [c for c in [*g.equips(r), *(j["card"] for j in g.judges(r))]
                 if f"TAKE {label(c).upper()}" == ans]
        if not found:
            return
        cid = found[0]
        zone = g.where(cid)[0]
    if t["how"] == "take":
        g.take_out(cid)
        g.hand(chooser).append(cid)
        if zone == "hand":
            g.split([chooser, r], f"{seat_label(chooser)} takes {label(cid)} from "
                    f"{seat_label(r)}'s hand ({t['why']}).",
                    f"{seat_label(chooser)} takes a card from {seat_label(r)}'s hand "
                    f"({t['why']}).")
        else:
            g.pub(f"{seat_label(chooser)} takes {label(cid)} from {seat_label(r)} ({t['why']}).")
    else:
        g.to_discard([cid])
        g.pub(f"{label(cid)} of {seat_label(r)} is discarded ({t['why']}).")
    if zone in ("hand", "equip"):
        g.lost(r, [cid], [zone])
        if t["how"] == "discard":  # discarded by another player (Courteous Yield watches)
            flow.moment(g, "discarded", seat=r, cards=[cid], zones=[zone])
    if t.get("then"):
        g.push(t["then"])


@effect("burning-bridges")
def _burning_bridges(g: Ctx, rec: Rec, r: str) -> None:
    pick_from(g, rec["user"], r, "discard", "Burning Bridges", judge=True)


@effect("stealing-sheep")
def _stealing_sheep(g: Ctx, rec: Rec, r: str) -> None:
    pick_from(g, rec["user"], r, "take", "Stealing Sheep", judge=True)


@effect("bumper-harvest")
def _bumper_harvest(g: Ctx, rec: Rec, r: str) -> None:
    shown = [c for c in rec.get("shown", []) if g.where(c)[0] == "proc"]
    if not shown:
        return
    # The seat's keep-order picks unless it asked to choose by hand (standing.py).
    best = standing.ranked(g.s, r, shown)[0]
    flow.choose(g, r, "Bumper Harvest: take one of the cards shown",
                [f"TAKE {label(c).upper()}" for c in shown],
                {"t": "harvest_take", "uid": rec["uid"], "seat": r},
                auto=f"TAKE {label(best).upper()}")


@task("harvest_take")
def _harvest_take(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    for c in rec["shown"]:
        if g.where(c)[0] == "proc" and f"TAKE {label(c).upper()}" == t["answer"]:
            g.take_out(c)
            g.hand(t["seat"]).append(c)
            g.pub(f"{seat_label(t['seat'])} takes {label(c)} (Bumper Harvest).")
            return


@effect("borrowed-sword")
def _borrowed_sword(g: Ctx, rec: Rec, a: str) -> None:
    """Borrowed Sword: A uses an Attack on B, or the user takes A's weapon."""
    b = rec["targets"][1]
    options = ["PASS"]
    if g.alive(b):
        for c in sorted(g.hand(a)):
            if is_kind(name_of(c), "attack"):
                options.append(f"USE {label(c)} ON {b}")
    flow.choose(g, a, f"Borrowed Sword: Attack {seat_label(b)}, or PASS and give your weapon "
                f"to {seat_label(rec['user'])}", list(dict.fromkeys(options)),
                {"t": "sword_answer", "uid": rec["uid"], "a": a, "b": b})


@task("sword_answer")
def _sword_answer(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    a, b = t["a"], t["b"]
    if t["answer"] == "PASS":
        w = g.p(a)["equip"]["weapon"]
        if w and g.alive(rec["user"]):
            g.take_out(w)
            g.hand(rec["user"]).append(w)
            g.pub(f"{seat_label(a)} gives {label(w)} to {seat_label(rec['user'])}.")
            g.lost(a, [w], ["equip"])
        return
    cid = next(c for c in g.hand(a) if f"USE {label(c)} ON {b}".upper() == t["answer"])
    use(g, a, vcard(name_of(cid), [cid]), [b])
    g.bump("attacks", -1)  # not A's Play Phase Attack


@effect("iron-chains")
def _iron_chains(g: Ctx, rec: Rec, r: str) -> None:
    p = g.p(r)
    p["chained"] = not p["chained"]
    g.pub(f"{seat_label(r)} is {'now in' if p['chained'] else 'released from'} Chains.")


@effect("attack-by-fire")
def _attack_by_fire(g: Ctx, rec: Rec, r: str) -> None:
    """Attack by Fire: the target shows a hand card; the user may discard a
    card of the same suit to deal 1 fire damage."""
    if not g.hand(r):
        return
    flow.ask_cards(g, r, "SHOW", 1, 1, ["hand"], "Attack by Fire: show a hand card",
                   {"t": "fire_shown", "uid": rec["uid"], "target": r})


@task("fire_shown")
def _fire_shown(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    (cid,) = t["cards"]
    g.pub(f"{seat_label(t['target'])} shows {label(cid)}.")
    suit = g.suit(t["target"], cid)
    if not any(g.suit(rec["user"], c) == suit for c in g.hand(rec["user"])):
        return
    flow.ask_cards(g, rec["user"], "DISCARD", 0, 1, ["hand"],
                   f"Attack by Fire: discard a {suit[:-1]} card to deal 1 fire damage, or PASS",
                   {"t": "fire_hit", "uid": t["uid"], "target": t["target"]},
                   filt={"suit": suit})


@task("fire_hit")
def _fire_hit(g: Ctx, t: Task) -> None:
    if not t["cards"]:
        return
    rec = g.s["uses"][t["uid"]]
    flow.discard_cards(g, rec["user"], t["cards"], "Attack by Fire")
    flow.damage(g, rec["user"], t["target"], 1, "fire", card=rec["card"], via="trick")


@effect("rest-and-reorganization")
def _rest(g: Ctx, rec: Rec, r: str) -> None:
    g.draw(r, 2, "Rest and Reorganization")
    n = min(2, len(g.hand(r)) + len(g.equips(r)))
    if n:
        flow.ask_cards(g, r, "DISCARD", n, n, ["hand", "equip"],
                       f"Rest and Reorganization: discard {n} cards",
                       {"t": "rest_discard", "seat": r})


@task("rest_discard")
def _rest_discard(g: Ctx, t: Task) -> None:
    flow.discard_cards(g, t["seat"], t["cards"], "Rest and Reorganization")


@effect("know-your-enemy")
def _know(g: Ctx, rec: Rec, r: str) -> None:
    options = ["CHOOSE HAND"] + [f"CHOOSE {slot.upper()}" for slot in g.hidden_slots(r)]
    flow.choose(g, rec["user"], f"Know your Enemy: view {seat_label(r)}'s hand or a hidden "
                "general", options, {"t": "know_view", "uid": rec["uid"], "target": r})


@task("know_view")
def _know_view(g: Ctx, t: Task) -> None:
    rec = g.s["uses"][t["uid"]]
    user, r = rec["user"], t["target"]
    what = t["answer"].split()[-1].lower()
    if what == "hand":
        cards_ = ", ".join(label(c) for c in sorted(g.hand(r))) or "no cards"
        g.split(user, f"You view {seat_label(r)}'s hand: {cards_}.",
                f"{seat_label(user)} views {seat_label(r)}'s hand.")
    elif what in g.hidden_slots(r):
        flow.view_general(g, user, r, what)


@effect("alliance")
def _alliance(g: Ctx, rec: Rec, r: str) -> None:
    g.draw(r, 1, "Alliance")
    g.draw(rec["user"], 3, "Alliance")


def negation_kinds() -> tuple[str, ...]:
    return ("negation", "negation-force")


__all__ = [
    "EFFECTS",
    "attack_limit",
    "check_use",
    "describe",
    "in_attack_range",
    "is_delayed",
    "is_trick",
    "label",
    "pick_from",
    "target_choices",
    "use",
]
