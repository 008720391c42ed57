"""The skills of the Wei generals (see skills/__init__.py for the hooks).

Each class cites its entry in the data file (kingdom-wars-skills.yaml, by the
data file's id); the rulebook wins where the two differ. Tasks of these
skills are named ``kw-wei-...``.

Rulings where the data file leaves the way open:

* Eye for an Eye is offered after any damage (with no source its judgement
  has no consequence, but Envy of Heaven may still take the card). A source
  with two hand cards or more answers ``CHOOSE DAMAGE`` or ``CHOOSE
  DISCARD``, then names the two cards.
* Last Stratagem names both receivers in one choice (``CHOOSE A C``: the
  first card to A, the second to C); Last Stratagem and Loyal unto Death offer
  each further point of the same damage as a choice of their owner.
* Cut Supplies: a Rations Depleted made by the skill reaches distance 2 even
  while Xu Huang is hidden (using it exposes him); a Rations Depleted card
  reaches 2 once he is exposed (a general with a passive skill may be
  exposed in the Play Phase).
* Goddess of the Luo keeps its black cards in the owner's pile
  ``goddess-of-the-luo`` until the judging ends.
* Drive the Tiger: the user names its Points Duel card in its line; it stays
  in the hand, unseen, until the target has chosen its own, then both are
  shown together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars import cards as K
from judge_games.kingdom_wars import flow
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars.commands import canonical, syntax
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

# --------------------------------------------------------------------------- helpers


def use_line(sid: str, cards: Sequence[str] = (), on: Sequence[str] = (),
             words: Sequence[str] = ()) -> str:
    """The canonical line that uses skill ``sid`` (``USE Payback``,
    ``USE Exile ON C``, ``USE Devilish Wit WITH Attack S7``)."""
    return canonical({"verb": "USE", "skill": sid, "cards": list(cards), "on": list(on),
                      "words": list(words)})


def _mine(seat: str, m: Moment) -> bool:
    """The moment is about ``seat`` itself."""
    return bool(m.get("seat") == seat)


def _hand_sorted(g: Ctx, seat: str) -> list[str]:
    return sorted(g.hand(seat), key=_order)


def _order(cid: str) -> tuple[str, int]:
    kind, _, n = cid.partition(".")
    return kind, int(n or 0)


def snatch(g: Ctx, taker: str, frm: str, why: str) -> None:
    """``taker`` takes a random card from ``frm``'s hand (Appendix I, Obtain:
    from a hand "you may only choose it randomly"); the card is named to the
    two of them only."""
    if not g.hand(frm) or not g.alive(frm):
        return
    assert g.rng is not None
    cid = g.rng.choice(sorted(g.hand(frm)), f"random:{why}")
    g.take_out(cid)
    g.hand(taker).append(cid)
    g.split([taker, frm], f"{seat_label(taker)} takes {label(cid)} from {seat_label(frm)}'s "
            f"hand ({why}).", f"{seat_label(taker)} takes a card from {seat_label(frm)}'s hand "
            f"({why}).")
    g.lost(frm, [cid], ["hand"])


def stack(g: Ctx, seat: str, why: str) -> None:
    """Turn ``seat``'s generals over (Appendix I, Stacked: stacked again, they
    are placed side by side instead)."""
    p = g.p(seat)
    p["stacked"] = not p["stacked"]
    if p["stacked"]:
        g.pub(f"{seat_label(seat)}'s generals are stacked ({why}): the next turn is skipped.")
    else:
        g.pub(f"{seat_label(seat)}'s generals are placed side by side again ({why}).")


def per_point_again(g: Ctx, sk: Skill, seat: str, m: Moment) -> None:
    """Skills used "for each point of damage" (Appendix I, 1-point Damage:
    they "can be activated multiple times"): after one use, offer the next
    point's use while points are left."""
    left = int(m.get("left", m.get("n", 1))) - 1
    if left > 0:
        g.push({"t": "kw-wei-again", "seat": seat, "skill": sk.id, "m": {**m, "left": left}})


@task("kw-wei-again")
def _again(g: Ctx, t: Task) -> None:
    sk = S.of(t["skill"])
    seat, m = t["seat"], t["m"]
    if sk is None or not g.alive(seat) or not sk.applies(g, seat, m):
        return
    options = sk.lines(g, seat, m)
    if not options:
        return
    flow.choose(g, seat, f"{sk.name}: use it for the next point of damage "
                f"({m['left']} left)?", ["PASS", *options],
                {"t": "kw-wei-again-go", "seat": seat, "skill": sk.id, "m": m})


@task("kw-wei-again-go")
def _again_go(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    sk = S.of(t["skill"])
    assert sk is not None
    seat = t["seat"]
    g.pub(f"{seat_label(seat)} uses {sk.name} again.")
    cmd = syntax(t["answer"])
    sk.fire(g, seat, t["m"], {"verb": "USE", "skill": sk.id, "on": cmd.get("on", []),
                              "cards": [], "words": []})


# --------------------------------------------------------------------------- Cao Cao


@register
class SchemersProfit(Skill):
    """kingdom-wars-skills.yaml, jianxiong: after you take damage from a card
    whose physical cards are all still in the processing area, put them into
    your hand."""

    id = "schemers-profit"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        v = m.get("card")
        if not _mine(seat, m) or not g.alive(seat) or not v or not v.get("cards"):
            return False
        return all(g.where(c)[0] == "proc" for c in v["cards"])

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        cids = list(m["card"]["cards"])
        for c in cids:
            g.take_out(c)
            g.hand(seat).append(c)
        g.pub(f"{seat_label(seat)} takes {', '.join(label(c) for c in cids)} into its hand "
              f"({self.name}).")


# --------------------------------------------------------------------------- Sima Yi


@register
class Payback(Skill):
    """kingdom-wars-skills.yaml, fankui: after you take damage whose source
    has a card in hand or equipment, take one of them (a hand card blind)."""

    id = "payback"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        src = m.get("src")
        return (_mine(seat, m) and g.alive(seat) and isinstance(src, str) and g.alive(src)
                and g.has_cards(src))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        K.pick_from(g, seat, m["src"], "take", self.name, judge=False)


@register
class DevilishWit(Skill):
    """kingdom-wars-skills.yaml, guicai: in the retrial window of any
    player's judgement, play a hand card to replace the judgement card (the old
    one is discarded)."""

    id = "devilish-wit"
    moments = ("retrial",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return g.alive(seat) and bool(g.hand(seat)) and bool(g.s["judging"])

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, [c]) for c in _hand_sorted(g, seat)]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        (cid,) = cmd["cards"]
        flow.retrial(g, seat, cid, keep_old=False)


# --------------------------------------------------------------------------- Xu Chu


@register
class BareChested(Skill):
    """kingdom-wars-skills.yaml, luoyi: when the cards you draw in your Draw
    Phase are counted, draw one fewer; until the end of the turn the damage
    of Attacks and Duels you use is 1 more."""

    id = "bare-chested"
    moments = ("draw_count",)
    FLAG = "kw-wei-bare-chested"

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat) and int(g.flag("draw_count", 0)) > 0

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_count", int(g.flag("draw_count", 0)) - 1)
        g.set_flag(self.FLAG, seat)
        g.pub(f"{seat_label(seat)} draws one card fewer: its Attacks and Duels deal 1 more "
              "damage this turn.")

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what not in ("attack_damage", "duel_damage") or g.flag(self.FLAG) != seat:
            return value
        if kw.get("src") != seat or g.s["current"] != seat:
            return value
        rec = g.s["uses"].get(str(kw.get("uid")))
        if rec is None or rec["user"] != seat:
            return value  # only a card seat used itself (not a Duel it was the target of)
        g.pub(f"{self.name}: the damage is 1 more.")
        return value + 1


# --------------------------------------------------------------------------- Xiahou Dun


@register
class EyeForAnEye(Skill):
    """kingdom-wars-skills.yaml, ganglie: after you take damage, judge; unless
    it is a Heart, the source discards two hand cards or takes 1 damage from
    you, as it chooses (with fewer than two hand cards it takes the damage)."""

    id = "eye-for-an-eye"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        flow.judge(g, seat, self.name, {"t": "kw-wei-eye", "seat": seat, "src": m.get("src")})


@task("kw-wei-eye")
def _eye(g: Ctx, t: Task) -> None:
    seat, src = t["seat"], t["src"]
    if card(t["judgement"]).suit == "hearts":
        g.pub("Eye for an Eye: a Heart, nothing happens.")
        return
    if src is None or not g.alive(src):
        return
    if len(g.hand(src)) < 2:
        g.pub(f"Eye for an Eye: {seat_label(src)} takes 1 damage.")
        flow.damage(g, seat, src, 1, None, via="eye-for-an-eye")
        return
    flow.choose(g, src, f"Eye for an Eye of {seat_label(seat)}: take 1 damage, or discard two "
                "hand cards", ["CHOOSE DAMAGE", "CHOOSE DISCARD"],
                {"t": "kw-wei-eye-choice", "seat": seat, "src": src})


@task("kw-wei-eye-choice")
def _eye_choice(g: Ctx, t: Task) -> None:
    seat, src = t["seat"], t["src"]
    if t["answer"] == "CHOOSE DISCARD" and len(g.hand(src)) >= 2:
        flow.ask_cards(g, src, "DISCARD", 2, 2, ["hand"], "Eye for an Eye: discard two hand "
                       "cards", {"t": "kw-wei-eye-discard", "seat": src})
        return
    g.pub(f"Eye for an Eye: {seat_label(src)} takes 1 damage.")
    flow.damage(g, seat, src, 1, None, via="eye-for-an-eye")


@task("kw-wei-eye-discard")
def _eye_discard(g: Ctx, t: Task) -> None:
    flow.discard_cards(g, t["seat"], t["cards"], "Eye for an Eye")


# --------------------------------------------------------------------------- Zhang Liao


def _raid_lines(g: Ctx, sid: str, seat: str) -> list[str]:
    """Lines naming one or two other players with a hand card (seat order)."""
    others = sorted((r for r in g.living() if r != seat and g.hand(r)), key=g.s["seats"].index)
    out = [use_line(sid, on=[r]) for r in others]
    out += [use_line(sid, on=[a, b]) for i, a in enumerate(others) for b in others[i + 1:]]
    return out


def _check_raid(g: Ctx, seat: str, on: Sequence[str], name: str) -> list[str]:
    if not 1 <= len(on) <= 2 or len(set(on)) != len(on):
        raise IllegalLine(f"{name} names one or two other players", hint=f"USE {name} ON B C")
    for r in on:
        if r == seat or not g.alive(r):
            raise IllegalLine(f"{name} takes from other players in the game")
        if not g.hand(r):
            raise IllegalLine(f"{seat_label(r)} has no hand card")
    return sorted(on, key=g.s["seats"].index)


@register
class SurpriseRaid(Skill):
    """kingdom-wars-skills.yaml, tuxi: at the start of your Draw Phase, draw
    nothing and take a random hand card from each of one or two other
    players."""

    id = "surprise-raid"
    moments = ("draw_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return (_mine(seat, m) and g.alive(seat)
                and any(g.hand(r) for r in g.living() if r != seat))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return _raid_lines(g, self.id, seat)

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        if cmd.get("cards") or cmd.get("words"):
            raise IllegalLine(f"{self.name} takes no cards", hint=f"USE {self.name} ON B C")
        return {**cmd, "on": _check_raid(g, seat, cmd.get("on", []), self.name)}

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_replaced", True)
        for r in cmd["on"]:
            snatch(g, seat, r, self.name)


# --------------------------------------------------------------------------- Guo Jia


@register
class EnvyOfHeaven(Skill):
    """kingdom-wars-skills.yaml, tiandu: after one of your judgements takes
    effect, take its judgement card into your hand."""

    id = "envy-of-heaven"
    moments = ("judged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat) and g.where(m["card"])[0] == "proc"

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.take_out(m["card"])
        g.hand(seat).append(m["card"])
        g.pub(f"{seat_label(seat)} takes the judgement card {label(m['card'])} ({self.name}).")


@register
class LastStratagem(Skill):
    """kingdom-wars-skills.yaml, yiji: for each point of damage you take, look
    at the top two cards of the deck and give each to a player of your choice
    (yourself included)."""

    id = "last-stratagem"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        per_point_again(g, self, seat, m)
        got = g.peek(2)
        if not got:
            return
        g.split(seat, f"You look at {', '.join(label(c) for c in got)} ({self.name}): name who "
                "gets the first, then who gets the second.",
                f"{seat_label(seat)} looks at the top {len(got)} cards of the deck "
                f"({self.name}).")
        people = [seat, *(r for r in g.living() if r != seat)]
        if len(got) == 1:
            options = [f"CHOOSE {a}" for a in people]
        else:
            options = [f"CHOOSE {a} {b}" for a in people for b in people]
        flow.choose(g, seat, f"{self.name}: who gets the cards you looked at", options,
                    {"t": "kw-wei-yiji-give", "seat": seat, "cards": got})


@task("kw-wei-yiji-give")
def _yiji_give(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    who = t["answer"].split()[1:]
    for cid, r in zip(t["cards"], who, strict=True):
        if not g.alive(r):
            r = seat
        g.hand(r).append(cid)
        if r == seat:
            g.split(seat, f"You keep {label(cid)} (Last Stratagem).",
                    f"{seat_label(seat)} keeps a card (Last Stratagem).")
        else:
            g.split([seat, r], f"{seat_label(seat)} gives {label(cid)} to {seat_label(r)} "
                    "(Last Stratagem).", f"{seat_label(seat)} gives a card to {seat_label(r)} "
                    "(Last Stratagem).")


# --------------------------------------------------------------------------- Lady Zhen


@register
class GoddessOfTheLuo(Skill):
    """kingdom-wars-skills.yaml, luoshen: at the start of your Preparation
    Phase, judge; while the card is black you may judge again. Black cards are
    set aside, a red one is discarded; then take the set-aside cards."""

    id = "goddess-of-the-luo"
    moments = ("prep_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.p(seat)["piles"].setdefault(self.id, [])
        luoshen_judge(g, seat)


def luoshen_judge(g: Ctx, seat: str) -> None:
    g.push({"t": "kw-wei-luoshen-next", "seat": seat})
    flow.judge(g, seat, "Goddess of the Luo", {"t": "kw-wei-luoshen", "seat": seat})


@task("kw-wei-luoshen")
def _luoshen(g: Ctx, t: Task) -> None:
    seat, c = t["seat"], t["judgement"]
    black = card(c).colour == "black"
    g.set_flag("kw-wei-luoshen-black", black)
    if black:
        g.take_out(c)
        g.p(seat)["piles"].setdefault("goddess-of-the-luo", []).append(c)
        g.pub(f"Goddess of the Luo: {label(c)} is black and set aside.")
    else:
        g.pub(f"Goddess of the Luo: {label(c)} is red; the judging ends.")


@task("kw-wei-luoshen-next")
def _luoshen_next(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if g.alive(seat) and g.flag("kw-wei-luoshen-black"):
        g.set_flag("kw-wei-luoshen-black", False)
        flow.choose(g, seat, "Goddess of the Luo: judge again?",
                    ["USE Goddess of the Luo", "PASS"],
                    {"t": "kw-wei-luoshen-again", "seat": seat})
        return
    kept = g.p(seat)["piles"].pop("goddess-of-the-luo", [])
    if kept and g.alive(seat):
        g.hand(seat).extend(kept)
        g.pub(f"{seat_label(seat)} takes {', '.join(label(c) for c in kept)} "
              "(Goddess of the Luo).")
    elif kept:
        g.s["discard"].extend(kept)


@task("kw-wei-luoshen-again")
def _luoshen_again(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        g.push({"t": "kw-wei-luoshen-next", "seat": t["seat"]})
        return
    luoshen_judge(g, t["seat"])


@register
class EnthrallingBeauty(Skill):
    """kingdom-wars-skills.yaml, qingguo: use or play any black hand card as a
    Dodge."""

    id = "enthralling-beauty"
    produces = ("dodge",)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        if kind != "dodge" or len(cids) != 1 or cids[0] not in g.hand(seat):
            return None
        if card(cids[0]).colour != "black":
            return None
        return vcard("dodge", cids, self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if kind != "dodge":
            return []
        return [[c] for c in _hand_sorted(g, seat) if card(c).colour == "black"]


# --------------------------------------------------------------------------- Cao Ren


@register
class HoldTheFort(Skill):
    """kingdom-wars-skills.yaml, jushou: at the start of your Final Phase, draw
    three cards, then turn your generals over (Stacked)."""

    id = "hold-the-fort"
    moments = ("final_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.draw(seat, 3, self.name)
        stack(g, seat, self.name)


# --------------------------------------------------------------------------- Xiahou Yuan


@register
class Godspeed(Skill):
    """kingdom-wars-skills.yaml, shensu: just before your Judgement Phase, skip
    it and the Draw Phase; just before your Play Phase, skip it and discard an
    equipment card; either time you count as using an Attack (no suit, no
    colour) on targets of your choice at any distance, outside the Attack
    limit."""

    id = "godspeed"
    moments = ("before_judgement", "before_play")

    def _attack(self) -> dict[str, Any]:
        return vcard("attack", [], self.id)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if not _mine(seat, m) or not g.alive(seat):
            return False
        if S.forbids(g, "use", src=seat, card=self._attack()):
            return False
        if m["name"] == "before_judgement":
            return not flow.skipped(g, "judgement") and not flow.skipped(g, "draw")
        return not flow.skipped(g, "play") and (bool(g.hand(seat)) or bool(g.equips(seat)))

    def _targets(self, g: Ctx, seat: str) -> list[str]:
        v = self._attack()
        return [r for r in g.living() if r != seat
                and not S.forbids(g, "target", src=seat, to=r, card=v)]

    def _costs(self, g: Ctx, seat: str, m: Moment) -> list[list[str]]:
        if m["name"] == "before_judgement":
            return [[]]
        pool = [*_hand_sorted(g, seat), *g.equips(seat)]
        return [[c] for c in pool if card(c).type == "equipment"]

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, cost, on=[r]) for cost in self._costs(g, seat, m)
                for r in self._targets(g, seat)]

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        cost = list(cmd.get("cards", []))
        hint = self.lines(g, seat, m)[:1] or ["PASS"]
        if cost not in self._costs(g, seat, m):
            if m["name"] == "before_judgement":
                raise IllegalLine("before the Judgement Phase Godspeed takes no card",
                                  hint=hint[0])
            raise IllegalLine("before the Play Phase Godspeed discards one equipment card",
                              hint=hint[0])
        on = list(cmd.get("on", []))
        limit = S.modify(g, "attack_targets", 1, src=seat, card=self._attack())
        if not 1 <= len(on) <= limit or len(set(on)) != len(on):
            raise IllegalLine(f"Godspeed's Attack has 1 to {limit} target"
                              f"{'s' * (limit != 1)}", hint=hint[0])
        targets = self._targets(g, seat)
        for r in on:
            if r not in targets:
                raise IllegalLine(f"{seat_label(r)} cannot be the target of your Attack",
                                  hint=hint[0])
        return {**cmd, "cards": cost, "on": on, "words": []}

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.push({"t": "kw-wei-godspeed", "seat": seat, "on": list(cmd["on"])})
        if m["name"] == "before_judgement":
            flow.skip_phase(g, "judgement")
            flow.skip_phase(g, "draw")
            g.pub(f"{seat_label(seat)} skips the Judgement and Draw Phases ({self.name}).")
        else:
            flow.skip_phase(g, "play")
            g.pub(f"{seat_label(seat)} skips the Play Phase ({self.name}).")
            flow.discard_cards(g, seat, cmd["cards"], self.name)


@task("kw-wei-godspeed")
def _godspeed(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    on = [r for r in t["on"] if g.alive(r)]
    if g.alive(seat) and on:
        K.use(g, seat, vcard("attack", [], "godspeed"), on)


# --------------------------------------------------------------------------- Xu Huang


@register
class CutSupplies(Skill):
    """kingdom-wars-skills.yaml, duanliang: in your Play Phase, use a black
    basic or black equipment card (hand or equipment) as Rations Depleted;
    your Rations Depleted reach a player at distance 2."""

    id = "cut-supplies"
    produces = ("rations-depleted",)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        if kind != "rations-depleted" or need != "play" or len(cids) != 1:
            return None
        c = card(cids[0])
        if c.colour != "black" or c.type not in ("basic", "equipment"):
            return None
        if cids[0] not in g.hand(seat) and cids[0] not in g.equips(seat):
            return None
        return vcard("rations-depleted", cids, self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if kind != "rations-depleted" or need != "play":
            return []
        pool = [*_hand_sorted(g, seat), *g.equips(seat)]
        return [[c] for c in pool if self.convert(g, seat, kind, [c], need) is not None]

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what == "trick_distance" and kw.get("src") == seat and kw.get(
                "kind") == "rations-depleted":
            return value + 1
        return value


# --------------------------------------------------------------------------- Cao Pi


@register
class FuneralRites(Skill):
    """kingdom-wars-skills.yaml, xingshang: when another player dies, before
    their cards are discarded, take every card of their hand and equipment
    zone."""

    id = "funeral-rites"
    moments = ("death",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        dead = m.get("seat")
        return (isinstance(dead, str) and dead != seat and g.alive(seat)
                and g.has_cards(dead))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        dead = m["seat"]
        hand, equips = list(g.hand(dead)), list(g.equips(dead))
        for c in [*hand, *equips]:
            g.take_out(c)
            g.hand(seat).append(c)
        shown = ", ".join(label(c) for c in equips)
        tail = f" and {shown}" if shown else ""
        g.split([seat, dead], f"{seat_label(seat)} takes {seat_label(dead)}'s cards: "
                f"{', '.join(label(c) for c in [*hand, *equips])} ({self.name}).",
                f"{seat_label(seat)} takes {seat_label(dead)}'s {len(hand)} hand "
                f"card{'s' * (len(hand) != 1)}{tail} ({self.name}).")
        g.lost(dead, [*hand, *equips], ["hand"] * len(hand) + ["equip"] * len(equips))


@register
class Exile(Skill):
    """kingdom-wars-skills.yaml, fangzhu: after you take damage, another player
    draws as many cards as the health you have lost, then turns its generals
    over (Stacked, or side by side again if it was)."""

    id = "exile"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat) and len(g.living()) > 1

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, on=[r]) for r in g.living() if r != seat]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        (r,) = cmd["on"]
        p = g.p(seat)
        lost = max(0, int(p["max_hp"]) - int(p["hp"]))
        if lost:
            g.draw(r, lost, self.name)
        stack(g, r, self.name)


# --------------------------------------------------------------------------- Dian Wei


def _in_range_without(g: Ctx, seat: str, r: str, weapon: str | None) -> bool:
    """Whether ``r`` is in ``seat``'s attack range, with ``weapon`` (an
    equipped card about to be discarded) counted as gone already."""
    eq = g.p(seat)["equip"]
    if weapon is None or eq["weapon"] != weapon:
        return g.in_range(seat, r)
    eq["weapon"] = None
    try:
        return g.in_range(seat, r)
    finally:
        eq["weapon"] = weapon


@register
class FerociousAssault(Skill):
    """kingdom-wars-skills.yaml, qiangxi: once per Play Phase, lose 1 health or
    discard a weapon card (hand or equipment) to deal 1 damage to a player in
    your attack range (range counted without a discarded equipped weapon)."""

    id = "ferocious-assault"
    FLAG = "kw-wei-ferocious-assault"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if g.flag(self.FLAG):
            return []
        weapons = [c for c in [*_hand_sorted(g, seat), *g.equips(seat)]
                   if card(c).subtype == "weapon"]
        out = []
        for cost in [None, *weapons]:
            for r in g.living():
                if r != seat and _in_range_without(g, seat, r, cost):
                    out.append(use_line(self.id, [cost] if cost else [], on=[r]))
        return out

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.set_flag(self.FLAG, True)
        (r,) = cmd["on"]
        g.push({"t": "kw-wei-qiangxi-hit", "seat": seat, "to": r})
        if cmd["cards"]:
            flow.discard_cards(g, seat, cmd["cards"], self.name)
        else:
            flow.lose_hp(g, seat, 1)


@task("kw-wei-qiangxi-hit")
def _qiangxi_hit(g: Ctx, t: Task) -> None:
    if g.alive(t["seat"]) and g.alive(t["to"]):
        flow.damage(g, t["seat"], t["to"], 1, None, via="ferocious-assault")


# --------------------------------------------------------------------------- Xun Yu


@register
class DriveTheTiger(Skill):
    """kingdom-wars-skills.yaml, quhu: once per Play Phase, Points Duel a
    player whose health is higher than yours. Win: they deal 1 damage to a
    player of your choice in their attack range; otherwise they deal 1 damage
    to you."""

    id = "drive-the-tiger"
    FLAG = "kw-wei-drive-the-tiger"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        if g.flag(self.FLAG):
            return []
        hp = g.p(seat)["hp"]
        targets = [r for r in g.living() if r != seat and g.hand(r) and g.p(r)["hp"] > hp]
        return [use_line(self.id, [c], on=[r]) for c in _hand_sorted(g, seat) for r in targets]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        g.set_flag(self.FLAG, True)
        (r,) = cmd["on"]
        (mine,) = cmd["cards"]
        g.pub(f"{seat_label(seat)} starts a Points Duel with {seat_label(r)} ({self.name}).")
        flow.ask_cards(g, r, "SHOW", 1, 1, ["hand"],
                       f"Points Duel with {seat_label(seat)} ({self.name}): your card",
                       {"t": "kw-wei-quhu-shown", "seat": seat, "to": r, "mine": mine})


@task("kw-wei-quhu-shown")
def _quhu_shown(g: Ctx, t: Task) -> None:
    seat, r, mine = t["seat"], t["to"], t["mine"]
    (theirs,) = t["cards"]
    if mine not in g.hand(seat) or theirs not in g.hand(r):
        return
    g.pub(f"Points Duel: {seat_label(seat)} shows {label(mine)}, {seat_label(r)} shows "
          f"{label(theirs)}.")
    for who, c in ((seat, mine), (r, theirs)):
        g.to_discard([c])
        g.lost(who, [c], ["hand"])
    if card(mine).rank > card(theirs).rank:
        g.pub(f"{seat_label(seat)} wins the Points Duel.")
        victims = [x for x in g.living() if x != r and g.in_range(r, x)]
        if not victims:
            g.pub(f"Nobody is in {seat_label(r)}'s attack range.")
            return
        flow.choose(g, seat, f"Drive the Tiger: whom {seat_label(r)} damages",
                    [f"CHOOSE {x}" for x in victims], {"t": "kw-wei-quhu-hit", "src": r})
        return
    g.pub(f"{seat_label(seat)} does not win the Points Duel.")
    flow.damage(g, r, seat, 1, None, via="drive-the-tiger")


@task("kw-wei-quhu-hit")
def _quhu_hit(g: Ctx, t: Task) -> None:
    src = t["src"]
    to = t["answer"].split()[-1]
    if g.alive(src) and g.alive(to):
        flow.damage(g, src, to, 1, None, via="drive-the-tiger")


@register
class LoyalUntoDeath(Skill):
    """kingdom-wars-skills.yaml, jieming: for each point of damage you take,
    choose a player, who draws until its hand holds as many cards as its
    maximum health (at most five)."""

    id = "loyal-unto-death"
    moments = ("damaged",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.alive(seat)

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, on=[r]) for r in g.living()]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        per_point_again(g, self, seat, m)
        (r,) = cmd["on"]
        if not g.alive(r):
            return
        n = min(int(g.p(r)["max_hp"]), 5) - len(g.hand(r))
        if n > 0:
            g.draw(r, n, self.name)
        else:
            g.pub(f"{seat_label(r)} holds enough cards already ({self.name}).")


# --------------------------------------------------------------------------- Zhang He


@register
class CleverShift(Skill):
    """kingdom-wars-skills.yaml, qiaobian: just before your Judgement, Draw,
    Play or Discard Phase, discard a hand card to skip it. A skipped Draw
    Phase lets you take a random hand card from each of one or two other
    players; a skipped Play Phase lets you move a card of an equipment or
    judgement zone to the same zone of another player."""

    id = "clever-shift"
    moments = ("before_judgement", "before_draw", "before_play", "before_discard")

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        phase = m["name"].removeprefix("before_")
        return (_mine(seat, m) and g.alive(seat) and bool(g.hand(seat))
                and not flow.skipped(g, phase))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, [c]) for c in _hand_sorted(g, seat)]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        phase = m["name"].removeprefix("before_")
        flow.skip_phase(g, phase)
        g.pub(f"{seat_label(seat)} skips the {phase.capitalize()} Phase ({self.name}).")
        if phase in ("draw", "play"):
            g.push({"t": f"kw-wei-qiaobian-{phase}", "seat": seat})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task("kw-wei-qiaobian-draw")
def _qiaobian_draw(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    others = sorted((r for r in g.living() if r != seat and g.hand(r)), key=g.s["seats"].index)
    if not others or not g.alive(seat):
        return
    options = [f"CHOOSE {r}" for r in others]
    options += [f"CHOOSE {a} {b}" for i, a in enumerate(others) for b in others[i + 1:]]
    flow.choose(g, seat, "Clever Shift: take a random hand card from one or two other players?",
                ["PASS", *options], {"t": "kw-wei-qiaobian-raid", "seat": seat})


@task("kw-wei-qiaobian-raid")
def _qiaobian_raid(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    for r in t["answer"].split()[1:]:
        snatch(g, t["seat"], r, "Clever Shift")


def _move_targets(g: Ctx, cid: str) -> list[str]:
    """Who may receive ``cid`` (an equipment or judgement-zone card) by Clever
    Shift: an empty slot of its kind; no time-delay spell of the same name,
    and one the receiver could be targeted with."""
    zone, owner = g.where(cid)
    out = []
    if zone == "equip":
        slot = next(s for s in EQUIP_SLOTS if g.p(str(owner))["equip"][s] == cid)
        out = [r for r in g.living() if r != owner and not g.p(r)["equip"][slot]]
    elif zone == "judge":
        kind = next(j["as"] for j in g.judges(str(owner)) if j["card"] == cid)
        v = vcard(kind, [cid])
        out = [r for r in g.living() if r != owner
               and not any(j["as"] == kind for j in g.judges(r))
               and not S.forbids(g, "target", src=g.s["current"], to=r, card=v)]
    return out


def _movable(g: Ctx) -> list[str]:
    pool = [c for r in g.living() for c in [*g.equips(r), *(j["card"] for j in g.judges(r))]]
    return [c for c in pool if _move_targets(g, c)]


@task("kw-wei-qiaobian-play")
def _qiaobian_play(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    pool = _movable(g)
    if not pool or not g.alive(seat):
        return
    flow.choose(g, seat, "Clever Shift: move a card of an equipment or judgement zone?",
                ["PASS", *(f"TAKE {label(c).upper()}" for c in pool)],
                {"t": "kw-wei-qiaobian-pick", "seat": seat})


@task("kw-wei-qiaobian-pick")
def _qiaobian_pick(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    cid = next((c for c in _movable(g) if f"TAKE {label(c).upper()}" == t["answer"]), None)
    if cid is None:
        return
    flow.choose(g, t["seat"], f"Clever Shift: who receives {label(cid)}",
                [f"CHOOSE {r}" for r in _move_targets(g, cid)],
                {"t": "kw-wei-qiaobian-move", "seat": t["seat"], "card": cid})


@task("kw-wei-qiaobian-move")
def _qiaobian_move(g: Ctx, t: Task) -> None:
    cid, to = t["card"], t["answer"].split()[-1]
    if to not in _move_targets(g, cid):
        return
    zone, owner = g.where(cid)
    assert owner is not None
    if zone == "equip":
        slot = next(s for s in EQUIP_SLOTS if g.p(owner)["equip"][s] == cid)
        g.take_out(cid)
        g.p(to)["equip"][slot] = cid
        g.pub(f"{seat_label(t['seat'])} moves {label(cid)} from {seat_label(owner)}'s "
              f"equipment to {seat_label(to)}'s (Clever Shift).")
        g.lost(owner, [cid], ["equip"])
        return
    kind = next(j["as"] for j in g.judges(owner) if j["card"] == cid)
    g.take_out(cid)
    g.judges(to).append({"card": cid, "as": kind})
    g.pub(f"{seat_label(t['seat'])} moves {label(cid)} from {seat_label(owner)}'s judgement "
          f"zone to {seat_label(to)}'s (Clever Shift).")
    g.push({"t": "moment", "m": {"name": "targeted", "seat": to, "src": t["seat"], "uid": None,
                                 "kind": kind, "card": cid}})


# --------------------------------------------------------------------------- Yue Jin


@register
class ValiantStrike(Skill):
    """kingdom-wars-skills.yaml, xiaoguo: at the start of another player's
    Final Phase, discard a basic hand card; that player discards an equipment
    card (hand or equipment) or takes 1 damage from you."""

    id = "valiant-strike"
    moments = ("final_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        cur = m.get("seat")
        return (isinstance(cur, str) and cur != seat and g.alive(seat) and g.alive(cur)
                and bool(g.hand(seat)))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return [use_line(self.id, [c]) for c in _hand_sorted(g, seat)
                if card(c).type == "basic"]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.push({"t": "kw-wei-xiaoguo", "seat": seat, "to": m["seat"]})
        flow.discard_cards(g, seat, cmd["cards"], self.name)


@task("kw-wei-xiaoguo")
def _xiaoguo(g: Ctx, t: Task) -> None:
    seat, r = t["seat"], t["to"]
    if not g.alive(r):
        return
    if not g.has_cards(r):
        flow.damage(g, seat, r, 1, None, via="valiant-strike")
        return
    flow.ask_cards(g, r, "DISCARD", 0, 1, ["hand", "equip"],
                   f"Valiant Strike of {seat_label(seat)}: discard an equipment card, or PASS "
                   "to take 1 damage", {"t": "kw-wei-xiaoguo-answer", "seat": seat, "to": r},
                   filt={"type": "equipment"})


@task("kw-wei-xiaoguo-answer")
def _xiaoguo_answer(g: Ctx, t: Task) -> None:
    if t["cards"]:
        flow.discard_cards(g, t["to"], t["cards"], "Valiant Strike")
        return
    if g.alive(t["seat"]):
        flow.damage(g, t["seat"], t["to"], 1, None, via="valiant-strike")

