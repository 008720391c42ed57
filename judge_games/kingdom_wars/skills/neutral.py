"""The skills of the Neutral generals (see skills/__init__.py for the hooks).

Each class cites its entry in the shared data file kingdom-wars-skills.yaml
(by the data file's id); the rulebook wins where they differ. Horsemanship is
shared with Ma Chao and lives with the Shu skills.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars import cards as K
from judge_games.kingdom_wars import flow
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.commands import canonical
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.skills import Cmd, Moment, Skill, register
from judge_games.kingdom_wars.state import general_of
from judge_games.kingdom_wars.table import (
    SLOTS,
    Ctx,
    Task,
    card,
    label,
    seat_label,
    task,
    vcard,
)

PREFIX = "kw-neutral-"


def _hidden(g: Ctx, seat: str, skill: str) -> bool:
    """Whether the general carrying ``skill`` is still face down."""
    slot = g.slot_of_skill(seat, skill)
    return slot is not None and slot in g.hidden_slots(seat)


def _cards_of(g: Ctx, seat: str) -> list[str]:
    return [*g.hand(seat), *g.equips(seat)]


def _refuse(sk: Skill, why: str, hint: Sequence[str] = ()) -> IllegalLine:
    return IllegalLine(f"{sk.name}: {why}", hint=(hint[0] if hint else ""))


def _equip_slot(cid: str) -> str:
    c = card(cid)
    if c.subtype == "mount":
        return "plus" if (c.card.distance or 0) > 0 else "minus"
    return str(c.subtype)


def _would_be_friend(g: Ctx, seat: str, other: str) -> bool:
    """``other`` is of ``seat``'s force, or would be once ``seat`` exposes the
    general carrying the skill (the data's "willBeFriendWith"): ``seat`` is
    hidden, ``other`` exposed, of the kingdom ``seat``'s generals share, and
    exposing would not make ``seat`` an Ambitionist. (Only asked of the
    owner's own trigger options, which nobody else sees.)"""
    if g.kingdom(seat) is not None:
        return g.same_force(seat, other)
    k = DATA.generals[g.p(seat)["main"]].kingdom
    if g.kingdom(other) != k or g.ambitionist(other):
        return False
    members = [r for r in g.s["seats"] if g.kingdom(r) == k and not g.ambitionist(r)]
    return bool((len(members) + 1) * 2 <= int(g.s["n"]))


# --------------------------------------------------------------------------- Lv Bu


@register
class Peerless(Skill):
    """kingdom-wars-skills.yaml, wushuang: "each target must use two Dodges ...
    to cancel" your Attack; in a Duel with you "each time your opponent has to
    play an Attack, they must play two in a row". Hidden, it does not apply:
    "If the General card was remains in the concealed state, these skills
    cannot be activated. General cards with such skills can be exposed in the
    Play Phase" (Passive Skills and Limited Skills), which is how a hidden Lv
    Bu relies on it for his own Attack."""

    id = "peerless"
    compulsory = True

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what == "dodges_needed" and kw.get("src") == seat and value > 0:
            return max(value, 2)
        if what == "attacks_needed" and kw.get("src") == seat and value > 0:
            return max(value, 2)
        return value


# --------------------------------------------------------------------------- Diao Chan


@register
class Estrange(Skill):
    """kingdom-wars-skills.yaml, lijian: once per Play Phase, discard a card
    and choose two other male players; "the SECOND chosen player is treated as
    using a Duel against the FIRST" (Negation may answer it; if that use would
    be illegal, nothing happens). Hidden generals have no gender, so only
    players with an exposed male general can be chosen."""

    id = "estrange"
    FLAG = PREFIX + "estrange"

    def _males(self, g: Ctx, seat: str) -> list[str]:
        return [r for r in g.living() if r != seat and g.gender(r) == "male"]

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if g.flag(self.FLAG):
            return []
        males = self._males(g, seat)
        cids = sorted(_cards_of(g, seat))
        if len(males) < 2 or not cids:
            return []
        out = []
        for first in males:
            for second in males:
                if first != second:
                    out.append(canonical({"verb": "USE", "skill": self.id, "cards": [cids[0]],
                                          "on": [first, second]}))
        return out

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if g.flag(self.FLAG):
            raise _refuse(self, "once per Play Phase")
        if len(cmd["cards"]) != 1:
            raise _refuse(self, "discard one card", self.active_lines(g, seat))
        on = list(cmd.get("on", []))
        if len(on) != 2 or len(set(on)) != 2:
            raise _refuse(self, "name two players: the first is challenged by the second",
                          self.active_lines(g, seat))
        for r in on:
            if r == seat or not g.alive(r):
                raise _refuse(self, f"{seat_label(r)} cannot be chosen")
            if g.gender(r) != "male":
                raise _refuse(self, f"{seat_label(r)} has no exposed male general")
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.set_flag(self.FLAG, True)
        first, second = cmd["on"]
        g.push({"t": PREFIX + "estrange", "first": first, "second": second})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task(PREFIX + "estrange")
def _estrange(g: Ctx, t: Task) -> None:
    first, second = t["first"], t["second"]
    if not (g.alive(first) and g.alive(second)):
        return
    v = vcard("duel", [], "estrange")
    why = S.forbids(g, "use", src=second, card=v) or S.forbids(
        g, "target", src=second, to=first, card=v)
    if why:
        g.pub(f"Estrange: {seat_label(second)} cannot use that Duel ({why}).")
        return
    K.use(g, second, v, [first])


@register
class EclipseTheMoon(Skill):
    """kingdom-wars-skills.yaml, biyue: "Start of your Final Phase. Draw one card"."""

    id = "eclipse-the-moon"
    moments = ("final_start",)
    only_own = True

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.draw(seat, 1, self.name)


# --------------------------------------------------------------------------- Zhang Jiao


@register
class SummonThunder(Skill):
    """kingdom-wars-skills.yaml, leiji: when you use or play a Dodge (Eight
    Trigrams' too), "the target performs a judgement; if the result is a
    Spade, you deal 2 thunder damage to them"."""

    id = "summon-thunder"
    moments = ("played_dodge",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [f"USE {self.name} ON {r}" for r in g.living()]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        (to,) = cmd["on"]
        flow.judge(g, to, self.name, {"t": PREFIX + "thunder", "seat": seat, "to": to})


@task(PREFIX + "thunder")
def _thunder(g: Ctx, t: Task) -> None:
    if card(t["judgement"]).suit == "spades":
        g.pub(f"Summon Thunder: a Spade, thunder strikes {seat_label(t['to'])}.")
        flow.damage(g, t["seat"], t["to"], 2, "thunder", via="summon-thunder")
    else:
        g.pub("Summon Thunder: not a Spade, nothing happens.")


@register
class DarkArts(Skill):
    """kingdom-wars-skills.yaml, guidao: in the retrial window of any player's
    judgement, "play one black card (hand/equip)": it becomes the judgement
    card and you take the replaced card into your hand. Asked of an exposed
    Zhang Jiao whenever he has a card at all (the hand's colours are his own
    business)."""

    id = "dark-arts"
    moments = ("retrial",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return bool(g.s["judging"]) and bool(g.hand(seat) or any(
            card(c).colour == "black" for c in g.equips(seat)))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [f"USE {self.name} WITH {label(c)}" for c in sorted(_cards_of(g, seat))
                if card(c).colour == "black"]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        flow.retrial(g, seat, cmd["cards"][0], keep_old=True)


# --------------------------------------------------------------------------- Jia Xu


@register
class NoMercy(Skill):
    """kingdom-wars-skills.yaml, wansha: during your turn "only you and the
    dying player may use Peach ... to save that player"; "while hidden you are
    offered to reveal when someone enters dying during your turn"."""

    id = "no-mercy"
    compulsory = True
    moments = ("dying",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return g.s["current"] == seat and _hidden(g, seat, self.id)

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        if what == "rescue" and g.s["current"] == seat and kw.get("src") not in (
                seat, kw.get("to")):
            return f"No Mercy: in {seat_label(seat)}'s turn only they and the dying player " \
                   "may use a Peach"
        return None


def _black_trick(v: Mapping[str, Any]) -> bool:
    return bool(K.is_trick(v["kind"]) and v.get("colour") == "black")


@register
class BehindTheCurtain(Skill):
    """kingdom-wars-skills.yaml, weimu: "When you become a target of a black
    trick card (ordinary or delayed). You are removed from that card's targets
    (a Lightning moving to you passes on instead)". Exposed, nobody can target
    Jia Xu with a black spell; hidden, he is offered to expose the general as
    he becomes its target."""

    id = "behind-the-curtain"
    compulsory = True
    moments = ("targeted",)

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        if what == "target" and kw.get("to") == seat and _black_trick(kw["card"]):
            return f"Behind the Curtain: a black spell cannot target {seat_label(seat)}"
        return None

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if m.get("seat") != seat or not _hidden(g, seat, self.id):
            return False
        uid = m.get("uid")
        if uid is None:
            cid = m.get("card")
            return isinstance(cid, str) and any(
                j["card"] == cid for j in g.judges(seat)) and _black_trick(vcard(m["kind"], [cid]))
        rec = g.s["uses"].get(uid)
        if rec is None or not _black_trick(rec["card"]):
            return False
        return bool(rec["targets"][0] == seat if rec["card"]["kind"] == "borrowed-sword"
                    else seat in rec["targets"])

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        uid = m.get("uid")
        if uid is None:
            g.pub(f"Behind the Curtain: {label(m['card'])} leaves {seat_label(seat)}'s "
                  "judgement zone.")
            g.to_discard([m["card"]])
            return
        rec = g.s["uses"][uid]
        rec["cancel"].append(seat)
        g.pub(f"Behind the Curtain: {seat_label(seat)} is no longer a target of "
              f"{K.describe(rec['card'])}.")


@register
class Chaos(Skill):
    """kingdom-wars-skills.yaml, luanwu: once per game in your Play Phase,
    every other player in turn order "must use an Attack against one of the
    players at the smallest distance from them ... (including attack range).
    Anyone who does not, or cannot, loses 1 HP"; those Attacks count toward no
    limit."""

    id = "chaos"
    limited = True

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if self.id in g.p(seat)["limited_used"]:
            return []
        return [f"USE {self.name}"]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.p(seat)["limited_used"].append(self.id)
        g.push(*({"t": PREFIX + "chaos", "seat": r, "by": seat}
                 for r in g.order_from(seat, include_first=False)))


def _chaos_targets(g: Ctx, seat: str, v: dict[str, Any]) -> list[str]:
    others = [r for r in g.living() if r != seat]
    if not others:
        return []
    nearest = min(g.distance(seat, r) for r in others)
    return [r for r in others if g.distance(seat, r) == nearest
            and K.in_attack_range(g, seat, r, v)
            and not S.forbids(g, "target", src=seat, to=r, card=v)]


@task(PREFIX + "chaos")
def _chaos(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if not g.alive(seat):
        return
    options = ["PASS"]
    for cid in sorted(g.hand(seat)):
        kind = card(cid).card.id
        if kind in K.ATTACKS:
            for r in _chaos_targets(g, seat, vcard(kind, [cid])):
                options.append(f"USE {label(cid)} ON {r}")
    flow.choose(g, seat, f"Chaos ({seat_label(t['by'])}): use an Attack on one of the players "
                "nearest to you, or PASS and lose 1 health", list(dict.fromkeys(options)),
                {"t": PREFIX + "chaos-answer", "seat": seat})


@task(PREFIX + "chaos-answer")
def _chaos_answer(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    for cid in g.hand(seat):
        for r in g.living():
            if f"USE {label(cid)} ON {r}".upper() == t["answer"]:
                K.use(g, seat, vcard(card(cid).card.id, [cid]), [r])
                g.bump("attacks", -1)  # counts toward nobody's limit
                return
    g.pub(f"{seat_label(seat)} does not Attack (Chaos).")
    flow.lose_hp(g, seat, 1)


# --------------------------------------------------------------------------- Pang De


@register
class RelentlessAdvance(Skill):
    """kingdom-wars-skills.yaml, mengjin: "When an Attack you used is cancelled
    by the target's Dodge", if the target is alive with a card in hand or
    equipment: "discard one of their cards (hand card blind, or an equipment
    card)"."""

    id = "relentless-advance"
    moments = ("attack_dodged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        to = m.get("to")
        return m.get("seat") == seat and isinstance(to, str) and g.alive(to) and g.has_cards(to)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        K.pick_from(g, seat, m["to"], "discard", self.name, judge=False)


# --------------------------------------------------------------------------- Yuan Shao


@register
class RandomVolley(Skill):
    """kingdom-wars-skills.yaml, luanji: in your Play Phase, "two hand cards of
    the same suit": "use them together as Raining Arrows"."""

    id = "random-volley"
    produces = ("raining-arrows",)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        if kind != "raining-arrows" or need != "play" or len(cids) != 2:
            return None
        if any(c not in g.hand(seat) for c in cids):
            return None
        if card(cids[0]).suit != card(cids[1]).suit:
            return None
        return vcard("raining-arrows", cids, self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if kind != "raining-arrows" or need != "play":
            return []
        return [list(pair) for pair in combinations(sorted(g.hand(seat)), 2)
                if card(pair[0]).suit == card(pair[1]).suit]


# --------------------------------------------------------------------------- Yan Liang & Wen Chou


@register
class TwinHeroes(Skill):
    """kingdom-wars-skills.yaml, shuangxiong: at the start of your Draw Phase
    you may draw nothing and "perform a judgement; once it takes effect, take
    the judgement card into your hand. For the rest of this turn you may use
    any hand card whose colour differs from that judgement card's colour as a
    Duel"."""

    id = "twin-heroes"
    moments = ("draw_start",)
    produces = ("duel",)
    FLAG = PREFIX + "twin-heroes"

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat and not g.flag("draw_replaced")

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_replaced", True)
        flow.judge(g, seat, self.name, {"t": PREFIX + "twin-heroes", "seat": seat})

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        colour = g.flag(self.FLAG, None)
        if kind != "duel" or need != "play" or colour is None or g.s["current"] != seat:
            return None
        if len(cids) != 1 or cids[0] not in g.hand(seat) or card(cids[0]).colour == colour:
            return None
        return vcard("duel", cids, self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        return [[c] for c in sorted(g.hand(seat))
                if self.convert(g, seat, kind, [c], need) is not None]


@task(PREFIX + "twin-heroes")
def _twin_heroes(g: Ctx, t: Task) -> None:
    seat, j = t["seat"], t["judgement"]
    colour = card(j).colour
    g.set_flag(TwinHeroes.FLAG, colour)
    if g.where(j)[0] == "proc" and g.alive(seat):
        g.take_out(j)
        g.hand(seat).append(j)
        g.pub(f"{seat_label(seat)} takes the judgement card {label(j)} (Twin Heroes): this "
              f"turn a hand card that is not {colour} may be used as a Duel.")


# --------------------------------------------------------------------------- Cai Wenji


@register
class Elegy(Skill):
    """kingdom-wars-skills.yaml, beige: after any player takes damage from an
    Attack and is still alive, discard a card (hand/equip) to make them judge:
    "Hearts: they recover 1 HP. Diamonds: they draw two cards. Clubs: the
    damage source, if alive, discards two cards (hand/equip; all if fewer).
    Spades: the damage source, if alive, turns their generals over"."""

    id = "elegy"
    moments = ("attack_damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        to = m.get("seat")
        return isinstance(to, str) and g.alive(to) and g.has_cards(seat)

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [f"USE {self.name} WITH {label(c)}" for c in sorted(_cards_of(g, seat))]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        flow.judge(g, m["seat"], self.name,
                   {"t": PREFIX + "elegy", "to": m["seat"], "src": m.get("src")})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task(PREFIX + "elegy")
def _elegy(g: Ctx, t: Task) -> None:
    suit = card(t["judgement"]).suit
    to, src = t["to"], t["src"]
    if suit == "hearts":
        flow.recover(g, to, 1)
    elif suit == "diamonds":
        if g.alive(to):
            g.draw(to, 2, "Elegy")
    elif src is not None and g.alive(src):
        if suit == "clubs":
            n = min(2, len(_cards_of(g, src)))
            if n:
                flow.ask_cards(g, src, "DISCARD", n, n, ["hand", "equip"],
                               f"Elegy: discard {n} card{'s' * (n != 1)}",
                               {"t": PREFIX + "elegy-discard", "seat": src})
        else:
            p = g.p(src)
            p["stacked"] = not p["stacked"]
            g.pub(f"Elegy: {seat_label(src)}'s generals are "
                  f"{'stacked' if p['stacked'] else 'placed side by side again'}.")


@task(PREFIX + "elegy-discard")
def _elegy_discard(g: Ctx, t: Task) -> None:
    flow.discard_cards(g, t["seat"], t["cards"], "Elegy")


@register
class Heartbreak(Skill):
    """kingdom-wars-skills.yaml, duanchang: when you die killed by a player,
    "you choose one of the killer's two general cards (main or deputy; hidden
    ones may be chosen blind); the killer permanently loses every skill
    printed on that general"."""

    id = "heartbreak"
    compulsory = True
    moments = ("death",)
    only_own = True

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        killer = m.get("killer")
        return m.get("seat") == seat and isinstance(killer, str) and killer != seat \
            and g.alive(killer)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        killer = m["killer"]
        flow.choose(g, seat, f"Heartbreak: choose one of {seat_label(killer)}'s generals to "
                    "lose its skills", ["CHOOSE MAIN", "CHOOSE DEPUTY"],
                    {"t": PREFIX + "heartbreak", "seat": seat, "killer": killer})


@task(PREFIX + "heartbreak")
def _heartbreak(g: Ctx, t: Task) -> None:
    killer = t["killer"]
    slot = "main" if t["answer"] == "CHOOSE MAIN" else "deputy"
    p = g.p(killer)
    lost: list[str] = p["lost_skills"]
    lost.extend(s for s in DATA.generals[general_of(p, slot)].skills if s not in lost)
    which = "main" if slot == "main" else "supporting"
    name = DATA.generals[general_of(p, slot)].name if p["shown"][SLOTS.index(slot)] else "hidden"
    g.pub(f"Heartbreak: {seat_label(killer)}'s {which} general ({name}) loses its skills for "
          "the rest of the game.")


# --------------------------------------------------------------------------- Kong Rong


@register
class RenownedScholar(Skill):
    """kingdom-wars-skills.yaml, mingshi: "When you are about to take damage"
    and "the damage source still has at least one hidden general": "reduce
    that damage by 1; at 0 it is prevented entirely"."""

    id = "renowned-scholar"
    compulsory = True
    moments = ("taking_damage",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        src = m.get("src")
        return m.get("seat") == seat and isinstance(src, str) and bool(g.hidden_slots(src))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        d = flow.current_damage(g)
        if d is None or d.get("to") != seat:
            return
        d["n"] = int(d["n"]) - 1
        if d["n"] <= 0:
            d["prevented"] = True
            g.pub(f"Renowned Scholar: the damage to {seat_label(seat)} is prevented.")
        else:
            g.pub(f"Renowned Scholar: the damage to {seat_label(seat)} is reduced by 1.")


@register
class CourteousYield(Skill):
    """kingdom-wars-skills.yaml, lirang: "After one or more of your cards,
    discarded from your hand or equipment zone, reach the discard pile", you
    may "give any number of those cards to other players, split among them as
    you like"."""

    id = "courteous-yield"
    moments = ("discarded",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat and any(
            g.where(c)[0] == "discard" for c in m.get("cards", ())) and len(g.living()) > 1

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.push({"t": PREFIX + "yield", "seat": seat, "cards": list(m["cards"])})


def _yield_option(cid: str, r: str) -> str:
    return f"CHOOSE {label(cid).upper()} FOR {r}"


@task(PREFIX + "yield")
def _yield(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    left = [c for c in t["cards"] if g.where(c)[0] == "discard"]
    others = [r for r in g.living() if r != seat]
    if not left or not others or not g.alive(seat):
        return
    options = ["PASS"] + [_yield_option(c, r) for c in left for r in others]
    flow.choose(g, seat, "Courteous Yield: give one of the discarded cards to another player, "
                "or PASS to keep the rest where they are", options,
                {"t": PREFIX + "yield-give", "seat": seat, "cards": left})


@task(PREFIX + "yield-give")
def _yield_give(g: Ctx, t: Task) -> None:
    for c in t["cards"]:
        for r in g.living():
            if _yield_option(c, r) == t["answer"] and g.where(c)[0] == "discard":
                g.take_out(c)
                g.hand(r).append(c)
                g.pub(f"{seat_label(t['seat'])} gives {label(c)} to {seat_label(r)} "
                      "(Courteous Yield).")
                g.push({"t": PREFIX + "yield", "seat": t["seat"], "cards": t["cards"]})
                return


# --------------------------------------------------------------------------- Lady Zou


@register
class FemmeFatale(Skill):
    """kingdom-wars-skills.yaml, huoshui: "During your Play Phase you may reveal
    this general at no cost. While it is revealed, during your turn no other
    player may reveal any of their generals -- so hidden generals' skills
    cannot be used during your turn either"."""

    id = "femme-fatale"
    compulsory = True

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        return [f"USE {self.name}"] if _hidden(g, seat, self.id) else []

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        if what == "reveal" and g.s["current"] == seat and kw.get("src") != seat:
            return f"Femme Fatale: nobody else may expose a general in {seat_label(seat)}'s turn"
        return None


@register
class CityTopplingCharm(Skill):
    """kingdom-wars-skills.yaml, qingcheng: in your Play Phase, any number of
    times, discard an equipment card (hand/equip) to choose one general of
    another player with both generals revealed and "turn it face down
    (concealed). Its skills stop working until it is revealed again; the
    player's kingdom is kept". (Everyone has seen it, so it stays known to
    all.)"""

    id = "city-toppling-charm"

    def _targets(self, g: Ctx, seat: str) -> list[str]:
        return [r for r in g.living() if r != seat and all(g.p(r)["shown"])]

    def _costs(self, g: Ctx, seat: str) -> list[str]:
        return sorted(c for c in _cards_of(g, seat) if card(c).type == "equipment")

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        costs = self._costs(g, seat)
        if not costs:
            return []
        return [canonical({"verb": "USE", "skill": self.id, "words": [slot.upper()],
                           "cards": [costs[0]], "on": [r]})
                for r in self._targets(g, seat) for slot in SLOTS]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        lines = self.active_lines(g, seat)
        words = [w.upper() for w in cmd.get("words", [])]
        if words == ["SUPPORTING"]:
            words = ["DEPUTY"]
        if len(cmd["cards"]) != 1 or card(cmd["cards"][0]).type != "equipment":
            raise _refuse(self, "discard one equipment card", lines)
        on = list(cmd.get("on", []))
        if len(on) != 1 or on[0] not in self._targets(g, seat):
            raise _refuse(self, "name another player whose two generals are both exposed",
                          lines)
        if words not in (["MAIN"], ["DEPUTY"]):
            raise _refuse(self, "say MAIN or DEPUTY: the general to turn face down", lines)
        out = dict(cmd)
        out["words"] = words
        return out

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        (r,) = cmd["on"]
        slot = cmd["words"][0].lower()
        g.push({"t": PREFIX + "charm", "seat": seat, "to": r, "slot": slot})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task(PREFIX + "charm")
def _charm(g: Ctx, t: Task) -> None:
    r, slot = t["to"], t["slot"]
    p = g.p(r)
    i = SLOTS.index(slot)
    if not g.alive(r) or not p["shown"][i]:
        return
    p["shown"][i] = False
    seen: list[str] = p["seen_by"][slot]
    seen.extend(x for x in g.s["seats"] if x != r and x not in seen)
    which = "main" if slot == "main" else "supporting"
    g.pub(f"City-Toppling Charm: {seat_label(r)}'s {which} general, "
          f"{DATA.generals[general_of(p, slot)].name}, is turned face down.")


# --------------------------------------------------------------------------- Ma Teng


def _force_sizes(g: Ctx) -> tuple[dict[str, int], list[int]]:
    """Living exposed players by force: the kingdoms' counts, and one per
    Ambitionist."""
    kingdoms: dict[str, int] = {}
    loners: list[int] = []
    for r in g.living():
        k = g.kingdom(r)
        if k is None:
            continue
        if g.ambitionist(r):
            loners.append(1)
        else:
            kingdoms[k] = kingdoms.get(k, 0) + 1
    return kingdoms, loners


@register
class RallyTheWest(Skill):
    """kingdom-wars-skills.yaml, xiongyi: once per game in your Play Phase, you
    and every living player of your force draw three cards (in turn order);
    "then, if no kingdom that has at least one revealed living member has fewer
    such members than your force, you recover 1 HP. (An Ambitionist's force
    counts as 1.)\""""

    id = "rally-the-west"
    limited = True

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if self.id in g.p(seat)["limited_used"]:
            return []
        return [f"USE {self.name}"]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.p(seat)["limited_used"].append(self.id)
        for r in g.order_from(seat):
            if r == seat or g.same_force(seat, r):
                g.draw(r, 3, self.name)
        kingdoms, loners = _force_sizes(g)
        k = g.kingdom(seat)
        mine = 1 if g.ambitionist(seat) or k is None else kingdoms.get(k, 1)
        if all(n >= mine for n in [*kingdoms.values(), *loners]):
            flow.recover(g, seat, 1)


# --------------------------------------------------------------------------- Pan Feng


@register
class MadAxe(Skill):
    """kingdom-wars-skills.yaml, kuangfu: after an Attack you used deals damage
    to its target (not spread by Chains), "choose one card in their equipment
    zone; either move it into your own equipment zone (only if your slot of
    that type is empty) or discard it"."""

    id = "mad-axe"
    moments = ("damage_dealt",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        to = m.get("to")
        return (m.get("seat") == seat and m.get("via") == "attack" and isinstance(to, str)
                and to != seat and g.alive(to) and bool(g.equips(to)))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        to = m["to"]
        options = []
        for c in g.equips(to):
            if not g.p(seat)["equip"][_equip_slot(c)]:
                options.append(f"TAKE {label(c).upper()}")
            options.append(f"DISCARD {label(c).upper()}")
        flow.choose(g, seat, f"Mad Axe: TAKE one of {seat_label(to)}'s equipment cards into "
                    "your equipment zone, or DISCARD it", options,
                    {"t": PREFIX + "axe", "seat": seat, "to": to})


@task(PREFIX + "axe")
def _axe(g: Ctx, t: Task) -> None:
    seat, to = t["seat"], t["to"]
    for c in g.equips(to):
        if t["answer"] == f"DISCARD {label(c).upper()}":
            flow.discard_cards(g, to, [c], "Mad Axe")
            return
        if t["answer"] == f"TAKE {label(c).upper()}":
            slot = _equip_slot(c)
            if g.p(seat)["equip"][slot]:
                return
            g.take_out(c)
            g.p(seat)["equip"][slot] = c
            g.pub(f"{seat_label(seat)} moves {label(c)} from {seat_label(to)} into their own "
                  "equipment zone (Mad Axe).")
            g.lost(to, [c], ["equip"])
            return


# --------------------------------------------------------------------------- Ji Ling


@register
class TwinBlades(Skill):
    """kingdom-wars-skills.yaml, shuangren: at the start of your Play Phase,
    Points Duel another player with a hand card. "If you win: choose the loser
    or another player of the loser's force ...; you are treated as using an
    Attack (no suit) on them, ignoring distance; it does not count toward your
    Attack limit. If you do not win: your Play Phase ends at once"."""

    id = "twin-blades"
    moments = ("play_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat and bool(g.hand(seat)) and any(
            g.hand(r) for r in g.living() if r != seat)

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [f"USE {self.name} ON {r}" for r in g.living() if r != seat and g.hand(r)]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        (to,) = cmd["on"]
        flow.points_duel(g, seat, to, self.name, {"t": PREFIX + "blades", "seat": seat,
                                                  "to": to})


@task(PREFIX + "blades")
def _blades(g: Ctx, t: Task) -> None:
    seat, to = t["seat"], t["to"]
    if t["winner"] != seat:
        g.set_flag("play_over", True)
        g.pub(f"Twin Blades: {seat_label(seat)} did not win, and the Play Phase ends.")
        return
    if not g.alive(seat):
        return
    v = vcard("attack", [], "twin-blades")
    pool = [r for r in g.living() if r != seat and (r == to or g.same_force(to, r))]
    pool = [r for r in pool if not S.forbids(g, "target", src=seat, to=r, card=v)]
    if not pool:
        return
    flow.choose(g, seat, "Twin Blades: choose the player you Attack", [f"CHOOSE {r}"
                                                                     for r in pool],
                {"t": PREFIX + "blades-attack", "seat": seat})


@task(PREFIX + "blades-attack")
def _blades_attack(g: Ctx, t: Task) -> None:
    r = t["answer"].split()[-1]
    if not g.alive(r) or not g.alive(t["seat"]):
        return
    K.use(g, t["seat"], vcard("attack", [], "twin-blades"), [r])
    g.bump("attacks", -1)  # not counted toward the Attack limit


# --------------------------------------------------------------------------- Tian Feng


@register
class DyingRemonstrance(Skill):
    """kingdom-wars-skills.yaml, sijian: "After you lose your last hand card",
    choose another player with a card in hand or equipment and "discard one of
    their cards (hand card blind, or an equipment card)"."""

    id = "dying-remonstrance"
    moments = ("hand_emptied",)

    def _victims(self, g: Ctx, seat: str) -> list[str]:
        return [r for r in g.living() if r != seat and g.has_cards(r)]

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return m.get("seat") == seat and g.alive(seat) and bool(self._victims(g, seat))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [f"USE {self.name} ON {r}" for r in self._victims(g, seat)]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        (to,) = cmd["on"]
        K.pick_from(g, seat, to, "discard", self.name, judge=False)


@register
class FollowTheTide(Skill):
    """kingdom-wars-skills.yaml, suishi: "(a) When another player enters dying
    because of damage" whose source is of your force (or would be), draw one
    card. "(b) When another player dies" of your force, lose 1 HP. Hidden, it
    may be declined by staying hidden; (b) is a drawback, so revealing for it
    is never offered."""

    id = "follow-the-tide"
    compulsory = True
    moments = ("dying_by_damage", "death")

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        other = m.get("seat")
        if other == seat or not isinstance(other, str) or not g.alive(seat):
            return False
        if m["name"] == "dying_by_damage":
            killer = m.get("killer")
            return isinstance(killer, str) and g.alive(killer) and _would_be_friend(
                g, seat, killer)
        return not _hidden(g, seat, self.id) and g.same_force(seat, other)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        if m["name"] == "dying_by_damage":
            g.draw(seat, 1, self.name)
        else:
            g.pub(f"Follow the Tide: a player of {seat_label(seat)}'s force died.")
            flow.lose_hp(g, seat, 1)


# --------------------------------------------------------------------------- Hua Tuo


@register
class GreenSatchel(Skill):
    """kingdom-wars-skills.yaml, qingnang: once per Play Phase, "discard one hand
    card": "one wounded player (yourself allowed)" "recovers 1 HP"."""

    id = "green-satchel"
    FLAG = PREFIX + "green-satchel"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if g.flag(self.FLAG) or not g.hand(seat):
            return []
        first = sorted(g.hand(seat))[0]
        return [canonical({"verb": "USE", "skill": self.id, "cards": [first], "on": [r]})
                for r in g.living() if g.wounded(r)]

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        if g.flag(self.FLAG):
            raise _refuse(self, "once per Play Phase")
        lines = self.active_lines(g, seat)
        if len(cmd["cards"]) != 1 or cmd["cards"][0] not in g.hand(seat):
            raise _refuse(self, "discard one hand card", lines)
        on = list(cmd.get("on", []))
        if len(on) != 1 or not g.alive(on[0]) or not g.wounded(on[0]):
            raise _refuse(self, "name one wounded player", lines)
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.set_flag(self.FLAG, True)
        flow.recover(g, cmd["on"][0], 1, seat)
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@register
class FirstAid(Skill):
    """kingdom-wars-skills.yaml, jijiu: "Outside your own turn, whenever you
    could use a Peach", one red card (hand/equip): "use it as a Peach"."""

    id = "first-aid"
    produces = ("peach",)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        if kind != "peach" or need == "play" or g.s["current"] == seat or len(cids) != 1:
            return None
        if cids[0] not in _cards_of(g, seat) or card(cids[0]).colour != "red":
            return None
        return vcard("peach", cids, self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        return [[c] for c in sorted(_cards_of(g, seat))
                if self.convert(g, seat, kind, [c], need) is not None]

