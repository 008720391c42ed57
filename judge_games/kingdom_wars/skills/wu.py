"""The skills of the Wu generals (see skills/__init__.py for the hooks).

Each class cites its entry in the skills data (kingdom-wars-skills.yaml, by
the data's id); the rulebook's Appendix I gives the terms (Points Duel, Give,
Obtain at random from a hand, Cancel).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars import flow
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.cards import ATTACKS
from judge_games.kingdom_wars.commands import canonical
from judge_games.kingdom_wars.skills import Cmd, Moment, Skill, register
from judge_games.kingdom_wars.table import (
    EQUIP_SLOTS,
    Ctx,
    Task,
    card,
    label,
    seat_label,
    task,
    vcard,
)

SUITS = ("spades", "hearts", "clubs", "diamonds")
SAMPLE = 24
"""At most this many lines of one skill offered as legal lines (a fair sample)."""


# --------------------------------------------------------------------------- helpers


def _order(cid: str) -> tuple[str, int]:
    kind, _, n = cid.partition(".")
    return kind, int(n or 0)


def _cards_of(g: Ctx, seat: str, *, equip: bool = True) -> list[str]:
    pool = list(g.hand(seat)) + (g.equips(seat) if equip else [])
    return sorted(pool, key=_order)


def _line(sk: Skill, cards: Sequence[str] = (), on: Sequence[str] = (),
          words: Sequence[str] = ()) -> str:
    return canonical({"verb": "USE", "skill": sk.id, "cards": list(cards), "on": list(on),
                      "words": list(words)})


def _others(g: Ctx, seat: str) -> list[str]:
    return g.order_from(seat, include_first=False)


def _used(g: Ctx, sk: Skill) -> bool:
    return bool(g.flag(f"kw-wu:{sk.id}"))


def _mark_used(g: Ctx, sk: Skill, value: Any = True) -> None:
    g.set_flag(f"kw-wu:{sk.id}", value)


def _no_cards(sk: Skill, cmd: Cmd) -> None:
    if cmd.get("cards"):
        raise IllegalLine(f"{sk.name} takes no cards", hint=_line(sk, on=cmd.get("on", [])))


def _one_target(g: Ctx, seat: str, sk: Skill, cmd: Cmd) -> str:
    on = list(cmd.get("on", []))
    if len(on) != 1:
        raise IllegalLine(f"{sk.name} names one other player", hint=f"USE {sk.name} ON <seat>")
    r = str(on[0])
    if r == seat:
        raise IllegalLine(f"{sk.name} names another player")
    if not g.alive(r):
        raise IllegalLine(f"{seat_label(r)} is out of the game")
    return r


@task("kw-wu-draw")
def _draw(g: Ctx, t: Task) -> None:
    """Draw cards if still in the game (a skill's effect after its cost)."""
    if g.alive(t["seat"]):
        g.draw(t["seat"], int(t["n"]), t.get("why", ""))


@task("kw-wu-discard")
def _discard(g: Ctx, t: Task) -> None:
    """Discard the cards chosen (hand or equipment)."""
    cids = [c for c in t["cards"] if g.where(c)[1] == t["seat"]]
    flow.discard_cards(g, t["seat"], cids, t.get("why", ""))


@task("kw-wu-discard-ask")
def _discard_ask(g: Ctx, t: Task) -> None:
    """A forced discard of ``n`` cards (all of them if fewer)."""
    seat = t["seat"]
    if not g.alive(seat):
        return
    n = min(int(t["n"]), len(g.hand(seat)) + len(g.equips(seat)))
    if n <= 0:
        return
    zones = list(t.get("zones", ["hand", "equip"]))
    flow.ask_cards(g, seat, "DISCARD", n, n, zones,
                   f"{t['why']}: discard {n} card{'s' * (n != 1)}",
                   {"t": "kw-wu-discard", "seat": seat, "why": t["why"]})


def _give(g: Ctx, giver: str, to: str, cids: Sequence[str], why: str) -> None:
    """Give cards face down (Appendix I, Give): named to the two seats only."""
    if not cids:
        return
    for c in cids:
        g.take_out(c)
        g.hand(to).append(c)
    names = ", ".join(label(c) for c in cids)
    n = len(cids)
    g.split([giver, to], f"{seat_label(giver)} gives {names} to {seat_label(to)} ({why}).",
            f"{seat_label(giver)} gives {n} card{'s' * (n != 1)} to {seat_label(to)} ({why}).")
    g.lost(giver, list(cids), ["hand"] * n)


# --------------------------------------------------------------------------- points duel


def points_duel(g: Ctx, a: str, b: str, why: str, then: Task) -> None:
    """Points Duel (Appendix I): both place a hand card face down, then
    display them together; the larger number wins; both go to the discard
    deck. ``then`` runs with ``won`` (whether ``a`` won)."""
    g.pub(f"{seat_label(a)} and {seat_label(b)} have a Points Duel ({why}).")
    g.push({"t": "kw-wu-duel-a", "a": a, "b": b, "why": why, "then": dict(then)})


@task("kw-wu-duel-a")
def _duel_a(g: Ctx, t: Task) -> None:
    a, b = t["a"], t["b"]
    if not (g.alive(a) and g.alive(b) and g.hand(a) and g.hand(b)):
        g.pub("The Points Duel does not take place: a hand is empty.")
        return
    flow.ask_cards(g, a, "PUT", 1, 1, ["hand"], f"Points Duel with {seat_label(b)}: put a "
                   "hand card face down", {"t": "kw-wu-duel-b", **_keep(t)})


def _keep(t: Task) -> dict[str, Any]:
    return {k: v for k, v in t.items() if k not in ("t", "cards", "answer")}


@task("kw-wu-duel-b")
def _duel_b(g: Ctx, t: Task) -> None:
    b = t["b"]
    nxt = {"t": "kw-wu-duel-show", **_keep(t), "card_a": t["cards"][0]}
    if not g.alive(b) or not g.hand(b):
        return
    g.pub(f"{seat_label(t['a'])} puts a card face down.")
    flow.ask_cards(g, b, "PUT", 1, 1, ["hand"], f"Points Duel with {seat_label(t['a'])}: put a "
                   "hand card face down", nxt)


@task("kw-wu-duel-show")
def _duel_show(g: Ctx, t: Task) -> None:
    a, b = t["a"], t["b"]
    ca, cb = t["card_a"], t["cards"][0]
    if g.where(ca) != ("hand", a) or g.where(cb) != ("hand", b):
        return
    won = card(ca).rank > card(cb).rank
    g.to_discard([ca, cb])
    g.pub(f"Points Duel: {seat_label(a)} shows {label(ca)}, {seat_label(b)} shows {label(cb)}; "
          f"{seat_label(a if won else b)} wins.")
    then = dict(t["then"])
    then["won"] = won
    g.push(then)
    g.lost(b, [cb], ["hand"])
    g.lost(a, [ca], ["hand"])


# --------------------------------------------------------------------------- Sun Quan


@register
class BalanceOfPower(Skill):
    """kingdom-wars-skills.yaml, zhiheng: once per Play Phase, discard 1 to X
    cards (hand or equipment, X your maximum health) and draw as many."""

    id = "balance-of-power"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        pool = _cards_of(g, seat)
        if _used(g, self) or not pool:
            return []
        most = min(g.p(seat)["max_hp"], len(pool))
        out = [_line(self, [c]) for c in pool]
        out.append(_line(self, pool[:most]))
        return list(dict.fromkeys(out))[:SAMPLE]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if _used(g, self):
            raise IllegalLine(f"{self.name} is used once per Play Phase")
        most = g.p(seat)["max_hp"]
        if not 1 <= len(cmd["cards"]) <= most:
            raise IllegalLine(f"{self.name} discards 1 to {most} of your cards",
                              hint=f"USE {self.name} WITH <cards>")
        if cmd.get("on"):
            raise IllegalLine(f"{self.name} names no player")
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        _mark_used(g, self)
        n = len(cmd["cards"])
        g.push({"t": "kw-wu-draw", "seat": seat, "n": n, "why": self.name})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


# --------------------------------------------------------------------------- Gan Ning


class _OneCardAs(Skill):
    """A view-as skill: one card that ``fits`` used as ``produces[0]`` in its
    owner's Play Phase."""

    equip_too = True

    def fits(self, g: Ctx, seat: str, cid: str) -> bool:
        raise NotImplementedError

    def may_now(self, g: Ctx, seat: str) -> bool:
        return True

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        if need != "play" or kind != self.produces[0] or len(cids) != 1:
            return None
        (cid,) = cids
        if cid not in _cards_of(g, seat, equip=self.equip_too):
            return None
        if not self.fits(g, seat, cid) or not self.may_now(g, seat):
            return None
        return g.as_held(seat, vcard(kind, [cid], self.id))

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if need != "play" or kind != self.produces[0] or not self.may_now(g, seat):
            return []
        return [[c] for c in _cards_of(g, seat, equip=self.equip_too) if self.fits(g, seat, c)]


@register
class NightRaid(_OneCardAs):
    """kingdom-wars-skills.yaml, qixi: a black card (hand or equipment) used
    as Burning Bridges in the Play Phase."""

    id = "night-raid"
    produces = ("burning-bridges",)

    def fits(self, g: Ctx, seat: str, cid: str) -> bool:
        return g.colour(seat, cid) == "black"


# --------------------------------------------------------------------------- Lv Meng


@register
class SelfRestraint(Skill):
    """kingdom-wars-skills.yaml, keji: just before the Discard Phase, if this
    turn's Play Phase saw no Attack used or played by its owner, skip the
    Discard Phase."""

    id = "self-restraint"
    moments = ("before_discard",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return (m.get("seat") == seat and not g.flag("attacks", 0)
                and not g.flag("attacks_played", 0))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        flow.skip_phase(g, "discard")


# --------------------------------------------------------------------------- Huang Gai


@register
class SelfInjuryRuse(Skill):
    """kingdom-wars-skills.yaml, kurou: in the Play Phase, any number of times,
    lose 1 health, then (if still alive: the rescue first) draw two cards."""

    id = "self-injury-ruse"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        return [_line(self)] if g.p(seat)["hp"] > 0 else []

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.push({"t": "kw-wu-draw", "seat": seat, "n": 2, "why": self.name})
        flow.lose_hp(g, seat, 1)


# --------------------------------------------------------------------------- Zhou Yu


@register
class HeroicBearing(Skill):
    """kingdom-wars-skills.yaml, yingzi: in the Draw Phase, when the number
    of cards to draw is fixed, draw one more."""

    id = "heroic-bearing"
    moments = ("draw_count",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_count", int(g.flag("draw_count", 2)) + 1)


@register
class SowDiscord(Skill):
    """kingdom-wars-skills.yaml, fanjian: once per Play Phase, with a hand
    card, pick another player: they name a suit, take one of your hand cards
    blind and show it; if its suit is not the one named, 1 damage to them.
    They keep the card."""

    id = "sow-discord"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if _used(g, self) or not g.hand(seat):
            return []
        return [_line(self, on=[r]) for r in _others(g, seat)]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        _mark_used(g, self)
        r = cmd["on"][0]
        flow.choose(g, r, f"{self.name}: name a suit, then take one of {seat_label(seat)}'s "
                    "hand cards at random", [f"CHOOSE {s.upper()}" for s in SUITS],
                    {"t": "kw-wu-sow", "seat": seat, "to": r})


@task("kw-wu-sow")
def _sow(g: Ctx, t: Task) -> None:
    seat, r = t["seat"], t["to"]
    named = t["answer"].split()[-1].lower()
    g.pub(f"{seat_label(r)} names {named.capitalize()}.")
    if not g.hand(seat) or not g.alive(r):
        return
    assert g.rng is not None
    cid = g.rng.choice(sorted(g.hand(seat)), "random:Sow Discord")
    suit = g.suit(seat, cid)  # the suit it counts as in its owner's hand
    g.take_out(cid)
    g.hand(r).append(cid)
    g.pub(f"{seat_label(r)} takes {label(cid)} from {seat_label(seat)}'s hand and shows it "
          "(Sow Discord).")
    if suit != named:
        flow.damage(g, seat, r, 1, None, via="skill")
    g.lost(seat, [cid], ["hand"])


# --------------------------------------------------------------------------- Da Qiao


@register
class NationalBeauty(_OneCardAs):
    """kingdom-wars-skills.yaml, guose: a Diamonds card (hand or equipment)
    used as Acedia in the Play Phase."""

    id = "national-beauty"
    produces = ("acedia",)

    def fits(self, g: Ctx, seat: str, cid: str) -> bool:
        return g.suit(seat, cid) == "diamonds"


def _range_without(g: Ctx, seat: str, cid: str | None, to: str) -> bool:
    """Whether ``to`` is within ``seat``'s attack range once ``cid`` (about to
    be discarded) has left its equipment."""
    eq = g.p(seat)["equip"]
    slot = next((s for s in EQUIP_SLOTS if cid is not None and eq[s] == cid), None)
    if slot is None:
        return g.in_range(seat, to)
    eq[slot] = None
    try:
        return g.in_range(seat, to)
    finally:
        eq[slot] = cid


@register
class Deflect(Skill):
    """kingdom-wars-skills.yaml, liuli: when an Attack targets you, discard a
    card (hand or equipment) to make another player within your attack range,
    not the Attack's user, its target instead (the range counted without the
    card discarded)."""

    id = "deflect"
    moments = ("targeted",)

    def _rec(self, g: Ctx, seat: str, m: Moment) -> dict[str, Any] | None:
        if m.get("seat") != seat or m.get("kind") not in ATTACKS:
            return None
        rec: dict[str, Any] | None = g.s["uses"].get(m.get("uid") or "")
        if rec is None or seat not in rec["targets"]:
            return None
        return rec

    def _candidates(self, g: Ctx, seat: str, rec: Mapping[str, Any],
                    cid: str | None) -> list[str]:
        out = []
        for r in _others(g, seat):
            if r == rec["user"] or r in rec["targets"]:
                continue
            if not _range_without(g, seat, cid, r):
                continue
            if S.forbids(g, "target", src=rec["user"], to=r, card=rec["card"]):
                continue
            out.append(r)
        return out

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        rec = self._rec(g, seat, m)
        if rec is None or not (g.hand(seat) or g.equips(seat)):
            return False
        if any(self._candidates(g, seat, rec, c) for c in g.equips(seat)):
            return True
        return bool(g.hand(seat)) and bool(self._candidates(g, seat, rec, None))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        rec = self._rec(g, seat, m)
        if rec is None:
            return []
        out = []
        for c in _cards_of(g, seat):
            for r in self._candidates(g, seat, rec, c):
                out.append(_line(self, [c], [r]))
        return out[:SAMPLE]

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        rec = self._rec(g, seat, m)
        if rec is None:
            raise IllegalLine(f"{self.name} answers an Attack that targets you")
        if len(cmd.get("cards", [])) != 1:
            raise IllegalLine(f"{self.name} discards one of your cards",
                              hint=f"USE {self.name} WITH <card> ON <seat>")
        on = list(cmd.get("on", []))
        ok = self._candidates(g, seat, rec, cmd["cards"][0])
        if len(on) != 1 or on[0] not in ok:
            raise IllegalLine(f"{self.name} passes the Attack to one other player within your "
                              "attack range who is not its user",
                              hint=" or ".join(_line(self, cmd["cards"], [r]) for r in ok)
                              or "PASS")
        return cmd

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        rec = self._rec(g, seat, m)
        if rec is None:
            return
        r = cmd["on"][0]
        rec["targets"] = [r if x == seat else x for x in rec["targets"]]
        g.pub(f"{seat_label(seat)} deflects the Attack to {seat_label(r)}.")
        g.push({"t": "moment", "m": {"name": "targeted", "seat": r, "src": rec["user"],
                                     "uid": rec["uid"], "kind": rec["card"]["kind"]}})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


# --------------------------------------------------------------------------- Lu Xun


@register
class Modesty(Skill):
    """kingdom-wars-skills.yaml, qianxun: a Stealing Sheep or an Acedia
    (converted ones too) that targets you drops you from its targets; an
    Acedia with no target left goes to the discard deck (Appendix I,
    Cancel)."""

    id = "modesty"
    moments = ("targeted",)
    compulsory = True

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if m.get("seat") != seat:
            return False
        if m.get("kind") == "stealing-sheep":
            rec = g.s["uses"].get(m.get("uid") or "")
            return rec is not None and seat in rec["targets"]
        if m.get("kind") == "acedia":
            return any(j["card"] == m.get("card") for j in g.judges(seat))
        return False

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        if m["kind"] == "stealing-sheep":
            rec = g.s["uses"][m["uid"]]
            rec["targets"] = [r for r in rec["targets"] if r != seat]
            g.pub(f"Modesty: {seat_label(seat)} is no longer a target of Stealing Sheep.")
            return
        g.to_discard([m["card"]])
        g.pub(f"Modesty: the Acedia on {seat_label(seat)} is cancelled and discarded.")


@register
class ReadTheTide(_OneCardAs):
    """kingdom-wars-skills.yaml, duoshi: up to four times per Play Phase, a
    red card from the hand used as Rest and Reorganization."""

    id = "read-the-tide"
    produces = ("rest-and-reorganization",)
    equip_too = False

    def fits(self, g: Ctx, seat: str, cid: str) -> bool:
        return g.colour(seat, cid) == "red"

    def may_now(self, g: Ctx, seat: str) -> bool:
        return int(g.flag(f"used:{self.id}", 0)) < 4


# --------------------------------------------------------------------------- Sun Shangxiang


@register
class MarriageAlliance(Skill):
    """kingdom-wars-skills.yaml, jieyin: once per Play Phase, discard two hand
    cards: you and another wounded male player each recover 1 health (in turn
    order, you first; a player with no exposed general has no gender)."""

    id = "marriage-alliance"

    def _ok(self, g: Ctx, seat: str, r: str) -> bool:
        return r != seat and g.alive(r) and g.wounded(r) and g.gender(r) == "male"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        hand = _cards_of(g, seat, equip=False)
        if _used(g, self) or len(hand) < 2:
            return []
        return [_line(self, hand[:2], [r]) for r in _others(g, seat) if self._ok(g, seat, r)]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if _used(g, self):
            raise IllegalLine(f"{self.name} is used once per Play Phase")
        cids = cmd["cards"]
        if len(cids) != 2 or any(c not in g.hand(seat) for c in cids):
            raise IllegalLine(f"{self.name} discards two hand cards",
                              hint=f"USE {self.name} WITH <card> <card> ON <seat>")
        r = _one_target(g, seat, self, cmd)
        if not self._ok(g, seat, r):
            raise IllegalLine(f"{self.name} needs a wounded male player",
                              hint="; ".join(self.active_lines(g, seat)) or "none now")
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        _mark_used(g, self)
        flow.recover(g, cmd["on"][0], 1, seat)
        flow.recover(g, seat, 1, seat)
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@register
class WarriorPrincess(Skill):
    """kingdom-wars-skills.yaml, xiaoji: after cards leave your equipment
    zone (once per such movement), draw two cards."""

    id = "warrior-princess"
    moments = ("equip_lost",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.draw(seat, 2, self.name)


# --------------------------------------------------------------------------- Xiao Qiao


@register
class RosyCheeks(Skill):
    """kingdom-wars-skills.yaml, hongyan: your Spades cards, and the card of
    a judgement of yours, count as Hearts. Hidden, it is offered when your
    own judgement turns up a Spade (exposing it then makes it a Heart)."""

    id = "rosy-cheeks"
    moments = ("retrial",)
    compulsory = True

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        judging = g.s["judging"]
        return (m.get("seat") == seat and bool(judging)
                and card(judging[-1]["card"]).suit == "spades")

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.pub(f"Rosy Cheeks: the Spade counts as a Heart for {seat_label(seat)}.")

    def card_suit(self, g: Ctx, seat: str, cid: str, suit: str) -> str:
        return "hearts" if suit == "spades" else suit


@register
class HeavenlyFragrance(Skill):
    """kingdom-wars-skills.yaml, tianxiang: when you are about to take damage,
    discard a Hearts card from your hand (a Spade counts, Rosy Cheeks) to have
    another player take that damage instead (same source, amount, nature);
    once it is settled they draw one card per health point they have lost."""

    id = "heavenly-fragrance"
    moments = ("taking_damage",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        d = flow.current_damage(g)
        return (m.get("seat") == seat and d is not None and d["to"] == seat
                and bool(g.hand(seat)) and bool(_others(g, seat)))

    def _hearts(self, g: Ctx, seat: str) -> list[str]:
        return [c for c in _cards_of(g, seat, equip=False)
                if g.suit(seat, c) == "hearts" or (card(c).suit == "spades" and (
                    "rosy-cheeks" in g.skills(seat, hidden=True)))]

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        hearts = self._hearts(g, seat)
        others = _others(g, seat)
        if not hearts or not others:
            return []
        out = [_line(self, [hearts[0]], [r]) for r in others]
        out += [_line(self, [c], [others[0]]) for c in hearts[1:]]
        return out[:SAMPLE]

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        cids = cmd.get("cards", [])
        if len(cids) != 1 or cids[0] not in self._hearts(g, seat):
            raise IllegalLine(f"{self.name} discards a Hearts card from your hand",
                              hint=" or ".join(self.lines(g, seat, m)[:3]) or "PASS")
        _one_target(g, seat, self, cmd)
        return cmd

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        d = flow.current_damage(g)
        if d is None:
            return
        r = cmd["on"][0]
        cid = cmd["cards"][0]
        if card(cid).suit == "spades" and "rosy-cheeks" not in g.skills(seat):
            slot = g.slot_of_skill(seat, "rosy-cheeks")
            if slot is not None:  # the Spade is a Heart only with Rosy Cheeks exposed
                flow.reveal(g, seat, [slot], "for Rosy Cheeks")
        d["prevented"] = True
        g.pub(f"{seat_label(r)} takes the damage instead of {seat_label(seat)} "
              "(Heavenly Fragrance).")
        g.push({"t": "kw-wu-fragrance-draw", "seat": r})
        flow.damage(g, d["src"], r, int(d["n"]), d["nature"], card=d["card"],
                    chained=bool(d["chained"]), via=d["via"])
        flow.discard_cards(g, seat, [cid], self.name)


@task("kw-wu-fragrance-draw")
def _fragrance_draw(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if g.alive(seat):
        p = g.p(seat)
        n = int(p["max_hp"]) - int(p["hp"])
        if n > 0:
            g.draw(seat, n, "Heavenly Fragrance")


# --------------------------------------------------------------------------- Zhou Tai

SCARS = "scars"


def _scars(g: Ctx, seat: str) -> list[str]:
    """The Scars on ``seat``'s general (read only: queries never add the pile)."""
    scars: list[str] = g.p(seat)["piles"].get(SCARS, [])
    return scars


def _distinct(cids: Sequence[str]) -> bool:
    ranks = [card(c).rank for c in cids]
    return len(ranks) == len(set(ranks))


@register
class Unyielding(Skill):
    """kingdom-wars-skills.yaml, buqu: when your health falls below 1, turn
    cards from the deck face up onto the general as Scars until there are
    1 - health of them; while no two Scars share a number you neither enter
    dying nor die (after a rescue, the Scars left decide). Regaining health
    discards Scars down to 1 - health (those sharing a number first), all of
    them at 1 or more."""

    id = "unyielding"
    moments = ("hp_lost", "recovered")
    forced_moments = ("recovered",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if m.get("seat") != seat:
            return False
        hp = int(g.p(seat)["hp"])
        if m["name"] == "recovered":
            return len(_scars(g, seat)) > max(0, 1 - hp)
        return hp < 1

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        hp = int(g.p(seat)["hp"])
        scars: list[str] = g.p(seat)["piles"].setdefault(SCARS, [])
        if m["name"] == "recovered":
            keep = max(0, 1 - hp)
            kept: list[str] = []
            for c in scars:  # keep one of each number first
                if len(kept) < keep and all(card(k).rank != card(c).rank for k in kept):
                    kept.append(c)
            for c in scars:
                if len(kept) < keep and c not in kept:
                    kept.append(c)
            gone = [c for c in scars if c not in kept]
            scars[:] = kept
            g.to_discard(gone)
            g.pub(f"{seat_label(seat)} discards the Scars {', '.join(label(c) for c in gone)}.")
            return
        new = g.peek(max(0, 1 - hp - len(scars)))
        scars.extend(new)
        if new:
            g.pub(f"{seat_label(seat)} turns up Scars: {', '.join(label(c) for c in new)} "
                  f"(Scars: {', '.join(label(c) for c in scars)}).")
        if _distinct(scars):
            g.pub(f"No two Scars share a number: {seat_label(seat)} does not enter dying.")
        else:
            g.pub(f"Two Scars share a number: {seat_label(seat)} enters dying.")

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        if what != "dying" or kw.get("to") != seat:
            return None
        hp = int(g.p(seat)["hp"])
        scars = _scars(g, seat)
        if hp < 1 and len(scars) == 1 - hp and _distinct(scars):
            return self.name
        return None


# --------------------------------------------------------------------------- Lu Su


@register
class Generosity(Skill):
    """kingdom-wars-skills.yaml, haoshi: in the Draw Phase, draw two more
    cards; afterwards, with more than five hand cards, give half of them
    (rounded down) to the other player with the fewest (you choose among
    ties)."""

    id = "generosity"
    moments = ("draw_count",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_count", int(g.flag("draw_count", 2)) + 2)
        give = {"t": "kw-wu-generosity", "seat": seat}
        draw = g.find_frame("draw_now", seat=seat)
        if draw is not None:
            g.call_after(draw, give)  # runs right after the draw
        else:
            g.push(give)


@task("kw-wu-generosity")
def _generosity(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if not g.alive(seat) or len(g.hand(seat)) <= 5:
        return
    others = _others(g, seat)
    if not others:
        return
    fewest = min(len(g.hand(r)) for r in others)
    ties = [r for r in others if len(g.hand(r)) == fewest]
    if len(ties) == 1:
        g.push({"t": "kw-wu-generosity-to", "seat": seat, "answer": f"CHOOSE {ties[0]}"})
        return
    flow.choose(g, seat, "Generosity: choose who of those with the fewest hand cards receives "
                "half of your hand", [f"CHOOSE {r}" for r in ties],
                {"t": "kw-wu-generosity-to", "seat": seat})


@task("kw-wu-generosity-to")
def _generosity_to(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    r = t["answer"].split()[-1]
    n = len(g.hand(seat)) // 2
    flow.ask_cards(g, seat, "GIVE", n, n, ["hand"], f"Generosity: give {n} hand cards to "
                   f"{seat_label(r)}", {"t": "kw-wu-generosity-give", "seat": seat, "to": r})


@task("kw-wu-generosity-give")
def _generosity_give(g: Ctx, t: Task) -> None:
    if g.alive(t["to"]):
        _give(g, t["seat"], t["to"], t["cards"], "Generosity")


@register
class ForgeAlliance(Skill):
    """kingdom-wars-skills.yaml, dimeng: once per Play Phase, discard as many
    cards (hand or equipment) as the difference between two other players'
    hand sizes (none when equal) to make those two swap hands."""

    id = "forge-alliance"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if _used(g, self):
            return []
        pool = _cards_of(g, seat)
        out = []
        for a, b in itertools.combinations(_others(g, seat), 2):
            x = abs(len(g.hand(a)) - len(g.hand(b)))
            if x <= len(pool):
                out.append(_line(self, pool[:x], [a, b]))
        return out[:SAMPLE]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if _used(g, self):
            raise IllegalLine(f"{self.name} is used once per Play Phase")
        on = list(cmd.get("on", []))
        if len(on) != 2 or len(set(on)) != 2 or seat in on:
            raise IllegalLine(f"{self.name} names two other players",
                              hint=f"USE {self.name} [WITH <cards>] ON <seat> <seat>")
        for r in on:
            if not g.alive(r):
                raise IllegalLine(f"{seat_label(r)} is out of the game")
        x = abs(len(g.hand(on[0])) - len(g.hand(on[1])))
        if len(cmd["cards"]) != x:
            raise IllegalLine(f"their hands differ by {x}: discard {x} card{'s' * (x != 1)}",
                              hint=_line(self, _cards_of(g, seat)[:x], on))
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        _mark_used(g, self)
        a, b = cmd["on"]
        g.push({"t": "kw-wu-swap", "a": a, "b": b})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task("kw-wu-swap")
def _swap(g: Ctx, t: Task) -> None:
    a, b = t["a"], t["b"]
    if not (g.alive(a) and g.alive(b)):
        return
    ha, hb = list(g.hand(a)), list(g.hand(b))
    g.p(a)["hand"], g.p(b)["hand"] = hb, ha
    g.pub(f"{seat_label(a)} and {seat_label(b)} swap hands ({len(ha)} and {len(hb)} cards, "
          "Forge Alliance).")
    for who, got in ((a, hb), (b, ha)):
        g.only(who, f"You receive {', '.join(label(c) for c in got) or 'no cards'}.")
    if ha:
        g.lost(a, ha, ["hand"] * len(ha))
    if hb:
        g.lost(b, hb, ["hand"] * len(hb))


# --------------------------------------------------------------------------- Sun Jian


@register
class HeroicSoul(Skill):
    """kingdom-wars-skills.yaml, yinghun: at the start of your Preparation
    Phase, if wounded, choose another player; with X your lost health, they
    draw one card and discard X, or draw X and discard one, as you decide
    (X = 1: draw one, discard one). Discards may come from the hand or the
    equipment; with fewer cards, they discard them all."""

    id = "heroic-soul"
    moments = ("prep_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat and g.wounded(seat) and bool(_others(g, seat))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [_line(self, on=[r]) for r in _others(g, seat)]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        r = cmd["on"][0]
        x = int(g.p(seat)["max_hp"]) - int(g.p(seat)["hp"])
        if x <= 1:
            g.push({"t": "kw-wu-soul", "seat": seat, "to": r, "draw": 1, "discard": 1})
            return
        flow.choose(g, seat, f"Heroic Soul: {seat_label(r)} draws 1 and discards {x}, or draws "
                    f"{x} and discards 1", ["CHOOSE DRAW 1", f"CHOOSE DRAW {x}"],
                    {"t": "kw-wu-soul-mode", "seat": seat, "to": r, "x": x})


@task("kw-wu-soul-mode")
def _soul_mode(g: Ctx, t: Task) -> None:
    x = int(t["x"])
    many = t["answer"].split()[-1] != "1"
    g.push({"t": "kw-wu-soul", "seat": t["seat"], "to": t["to"], "draw": x if many else 1,
            "discard": 1 if many else x})


@task("kw-wu-soul")
def _soul(g: Ctx, t: Task) -> None:
    r = t["to"]
    g.pub(f"Heroic Soul: {seat_label(r)} draws {t['draw']} and discards {t['discard']}.")
    g.push({"t": "kw-wu-draw", "seat": r, "n": t["draw"], "why": "Heroic Soul"},
           {"t": "kw-wu-discard-ask", "seat": r, "n": t["discard"], "why": "Heroic Soul"})


# --------------------------------------------------------------------------- Taishi Ci


@register
class RighteousChallenge(Skill):
    """kingdom-wars-skills.yaml, tianyi: once per Play Phase, Points Duel
    another player with a hand card. Won: for the rest of the turn one more
    Attack, Attacks ignore distance and may take one more target. Not won: no
    more Attacks this turn."""

    id = "righteous-challenge"

    def _result(self, g: Ctx, seat: str) -> str:
        return str(g.flag(f"kw-wu:{self.id}", "")) if g.s["current"] == seat else ""

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if _used(g, self) or not g.hand(seat):
            return []
        return [_line(self, on=[r]) for r in _others(g, seat) if g.hand(r)]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        _mark_used(g, self, "pending")
        points_duel(g, seat, cmd["on"][0], self.name,
                    {"t": "kw-wu-challenge", "seat": seat})

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if kw.get("src") != seat or self._result(g, seat) != "won":
            return value
        if what in ("attack_limit", "attack_targets"):
            return value + 1
        if what == "attack_unlimited":
            return 1
        return value

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        if (what == "use" and kw.get("src") == seat and self._result(g, seat) == "lost"
                and kw["card"]["kind"] in ATTACKS):
            return "you lost the Points Duel of Righteous Challenge: no more Attacks this turn"
        return None


@task("kw-wu-challenge")
def _challenge(g: Ctx, t: Task) -> None:
    won = bool(t["won"])
    g.set_flag("kw-wu:righteous-challenge", "won" if won else "lost")
    if won:
        g.pub(f"{seat_label(t['seat'])} wins Righteous Challenge: one more Attack this turn, "
              "Attacks ignore distance and may take one more target.")
    else:
        g.pub(f"{seat_label(t['seat'])} loses Righteous Challenge: no more Attacks this turn.")


# ------------------------------------------------------------------ Zhang Zhao and Zhang Hong


@register
class FrankCounsel(Skill):
    """kingdom-wars-skills.yaml, zhijian: in the Play Phase, any number of
    times, put an equipment card from your hand into another player's empty
    slot of its kind, then draw a card."""

    id = "frank-counsel"

    @staticmethod
    def _slot(cid: str) -> str | None:
        c = card(cid)
        if c.type != "equipment":
            return None
        if c.subtype == "mount":
            return "plus" if (c.card.distance or 0) > 0 else "minus"
        return str(c.subtype)

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        out = []
        for c in _cards_of(g, seat, equip=False):
            slot = self._slot(c)
            if slot is None:
                continue
            for r in _others(g, seat):
                if not g.p(r)["equip"][slot]:
                    out.append(_line(self, [c], [r]))
        return out[:SAMPLE]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        cids = cmd["cards"]
        if len(cids) != 1 or cids[0] not in g.hand(seat) or self._slot(cids[0]) is None:
            raise IllegalLine(f"{self.name} puts one equipment card from your hand",
                              hint=f"USE {self.name} WITH <equipment> ON <seat>")
        r = _one_target(g, seat, self, cmd)
        slot = self._slot(cids[0])
        assert slot is not None
        if g.p(r)["equip"][slot]:
            raise IllegalLine(f"{seat_label(r)} has a card in that equipment slot already")
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        (cid,) = cmd["cards"]
        r = cmd["on"][0]
        slot = self._slot(cid)
        assert slot is not None
        g.take_out(cid)
        g.p(r)["equip"][slot] = cid
        g.pub(f"{seat_label(seat)} puts {label(cid)} into {seat_label(r)}'s equipment zone.")
        g.push({"t": "kw-wu-draw", "seat": seat, "n": 1, "why": self.name})
        g.lost(seat, [cid], ["hand"])


@register
class SteadyGovernment(Skill):
    """kingdom-wars-skills.yaml, guzheng: at the end of another player's
    Discard Phase, give back to them one of the cards they discarded in it
    (still in the discard deck); then you may take the other cards discarded
    in that phase."""

    id = "steady-government"
    moments = ("discard_end",)

    @staticmethod
    def _left(g: Ctx) -> list[str]:
        return [c for c in g.flag("discarded", []) if c in g.s["discard"]]

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        other = m.get("seat")
        return (other is not None and other != seat and g.alive(other)
                and bool(self._left(g)))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        left = self._left(g)
        flow.choose(g, seat, f"Steady Government: give back one card to {seat_label(m['seat'])}",
                    [f"TAKE {label(c).upper()}" for c in left],
                    {"t": "kw-wu-steady", "seat": seat, "to": m["seat"]})


@task("kw-wu-steady")
def _steady(g: Ctx, t: Task) -> None:
    seat, r = t["seat"], t["to"]
    left = SteadyGovernment._left(g)
    back = next((c for c in left if f"TAKE {label(c).upper()}" == t["answer"]), None)
    if back is None or not g.alive(r):
        return
    g.take_out(back)
    g.hand(r).append(back)
    g.pub(f"{seat_label(seat)} gives {label(back)} back to {seat_label(r)} (Steady Government).")
    rest = [c for c in left if c != back]
    if rest:
        flow.choose(g, seat, "Steady Government: take the other cards discarded ("
                    + ", ".join(label(c) for c in rest) + ")?", ["PASS", "TAKE ALL"],
                    {"t": "kw-wu-steady-rest", "seat": seat, "cards": rest})


@task("kw-wu-steady-rest")
def _steady_rest(g: Ctx, t: Task) -> None:
    if t["answer"] != "TAKE ALL":
        return
    got = [c for c in t["cards"] if c in g.s["discard"]]
    for c in got:
        g.take_out(c)
        g.hand(t["seat"]).append(c)
    if got:
        g.pub(f"{seat_label(t['seat'])} takes {', '.join(label(c) for c in got)} (Steady "
              "Government).")


# --------------------------------------------------------------------------- Ding Feng


@register
class CloseQuarters(Skill):
    """kingdom-wars-skills.yaml, duanbing: your Attack may take one extra
    target at distance 1 from you."""

    id = "close-quarters"
    compulsory = True

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what != "attack_targets" or kw.get("src") != seat:
            return value
        on = list(kw.get("on", []))
        if len(on) <= value or any(g.distance(seat, r) == 1 for r in on):
            return value + 1
        return value


@register
class LightningDash(Skill):
    """kingdom-wars-skills.yaml, fenxun: once per Play Phase, discard a card
    (hand or equipment): your distance to a player of your choice is 1 until
    the end of the turn."""

    id = "lightning-dash"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        pool = _cards_of(g, seat)
        if _used(g, self) or not pool:
            return []
        out = [_line(self, [pool[0]], [r]) for r in _others(g, seat)]
        out += [_line(self, [c], [_others(g, seat)[0]]) for c in pool[1:]]
        return out[:SAMPLE]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if _used(g, self):
            raise IllegalLine(f"{self.name} is used once per Play Phase")
        if len(cmd["cards"]) != 1:
            raise IllegalLine(f"{self.name} discards one card",
                              hint=f"USE {self.name} WITH <card> ON <seat>")
        _one_target(g, seat, self, cmd)
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        r = cmd["on"][0]
        _mark_used(g, self, r)
        g.pub(f"{seat_label(seat)}'s distance to {seat_label(r)} is 1 this turn.")
        flow.discard_cards(g, seat, cmd["cards"], self.name)

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if (what == "fixed_distance" and kw.get("src") == seat and g.s["current"] == seat
                and g.flag(f"kw-wu:{self.id}") == kw.get("to")):
            return 1
        return value

