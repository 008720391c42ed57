"""The skills of the Shu generals (see skills/__init__.py for the hooks).

One class per skill, registered by its id in skills.yaml; each docstring
names the entry of the data file (kingdom-wars-skills.yaml, by its
``source-id``) whose mechanics it follows. Horsemanship, which Ma Chao shares
with generals of other kingdoms, is implemented here once for all of them.

Tasks are named ``kw-shu-...``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars import cards as K
from judge_games.kingdom_wars import flow
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.skills import Cmd, Moment, Skill, register
from judge_games.kingdom_wars.state import general_of
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
)

ATTACK_OR_DUEL = (*K.ATTACKS, "duel")


def _mine(seat: str, m: Moment) -> bool:
    """The moment is about ``seat`` (its ``seat``)."""
    return bool(m.get("seat") == seat)


def _use(g: Ctx, m: Moment) -> dict[str, Any] | None:
    """The use record of the card a moment is about (None once settled)."""
    uid = m.get("uid")
    if uid is None:
        return None
    rec: dict[str, Any] | None = g.s["uses"].get(uid)
    return rec


def _real(v: Mapping[str, Any]) -> bool:
    """A card used as itself, not made from another card (a conversion whose
    one card is of the same name counts as real)."""
    cids = list(v["cards"])
    return len(cids) == 1 and is_kind(name_of(cids[0]), v["kind"])


def _in_hand(g: Ctx, seat: str, cids: Sequence[str]) -> bool:
    return all(c in g.hand(seat) for c in cids)


def _target_lines(name: str, targets: Sequence[str]) -> list[str]:
    """``USE <name> ON X`` for each target, and for all of them together."""
    out = [f"USE {name} ON {r}" for r in targets]
    if len(targets) > 1:
        out.append(f"USE {name} ON {' '.join(targets)}")
    return out


# --------------------------------------------------------------------------- modifiers


@register
class Horsemanship(Skill):
    """mashu: "Your distance to every other player is reduced by 1 (never
    below 1)" (the table's distance keeps the minimum of 1)."""

    id = "horsemanship"
    compulsory = True

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what == "distance" and kw.get("src") == seat:
            return value - 1
        return value


@register
class Berserk(Skill):
    """paoxiao: "There is no limit on how many Attacks you may use in a Play
    Phase" (the rulebook's own example of the Ultimate Principle). Hidden,
    Zhang Fei may be exposed in the Play Phase for it (a passive skill)."""

    id = "berserk"
    compulsory = True

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what == "attack_limit" and kw.get("src") == seat:
            return max(value, 1_000)
        return value


@register
class RareTalent(Skill):
    """qicai: "Trick cards you use ignore distance limits (e.g. Stealing
    Sheep, Rations Depleted)"."""

    id = "rare-talent"
    compulsory = True

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        if what == "trick_distance" and kw.get("src") == seat:
            return value + 1_000
        return value


# --------------------------------------------------------------------------- becoming a target


@register
class EmptyFort(Skill):
    """kongcheng: "When you become a target of an Attack or a Duel", with no
    hand cards: "You are removed from that card's targets"."""

    id = "empty-fort"
    compulsory = True
    moments = ("targeted",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        rec = _use(g, m)
        return (_mine(seat, m) and rec is not None and m.get("kind") in ATTACK_OR_DUEL
                and seat in rec["targets"] and not g.hand(seat))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        rec = _use(g, m)
        assert rec is not None
        rec["targets"].remove(seat)
        g.pub(f"Empty Fort: {seat_label(seat)} holds no hand card and is no longer a target "
              f"of {K.describe(rec['card'])}.")


@register
class EasyLiving(Skill):
    """xiangle: when you become a target of another player's Attack, "The
    Attack's user must discard one basic card; if they do not (or cannot, or
    are dead), that Attack has no effect on you"."""

    id = "easy-living"
    compulsory = True
    moments = ("targeted",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        rec = _use(g, m)
        return (_mine(seat, m) and rec is not None and m.get("kind") in K.ATTACKS
                and m.get("src") not in (None, seat) and seat in rec["targets"])

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        src = str(m["src"])
        then = {"t": "kw-shu-easy-living", "uid": m["uid"], "seat": seat, "src": src,
                "cards": []}
        if not g.alive(src) or not g.hand(src):
            g.push(then)
            return
        flow.ask_cards(g, src, "DISCARD", 0, 1, ["hand"],
                       f"Easy Living: discard a basic card, or PASS and your Attack has no "
                       f"effect on {seat_label(seat)}", then, filt={"type": "basic"})


@task("kw-shu-easy-living")
def _easy_living(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].get(t["uid"])
    if rec is None:
        return
    if t["cards"]:
        flow.discard_cards(g, t["src"], t["cards"], "Easy Living")
        return
    rec["cancel"].append(t["seat"])
    g.pub(f"Easy Living: {K.describe(rec['card'])} has no effect on {seat_label(t['seat'])}.")


def _barbarian(g: Ctx, seat: str, m: Moment) -> dict[str, Any] | None:
    """Another player's Barbarian Invasion that targets ``seat``."""
    rec = _use(g, m)
    if (rec is None or not _mine(seat, m) or m.get("kind") != "barbarian-invasion"
            or m.get("src") == seat or seat not in rec["targets"]):
        return None
    return rec


@register
class Ringleader(Skill):
    """huoshou: "(a) [Barbarian Invasion] has no effect on you. (b) You
    become the source of all damage that Barbarian Invasion deals (if you are
    dead when damage happens, that damage has no source)" -- for another
    player's Barbarian Invasion, settled when it targets Meng Huo."""

    id = "ringleader"
    compulsory = True
    moments = ("targeted",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _barbarian(g, seat, m) is not None

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        rec = _use(g, m)
        assert rec is not None
        rec["cancel"].append(seat)
        rec["source"] = seat
        g.pub(f"Ringleader: Barbarian Invasion has no effect on {seat_label(seat)}, who is the "
              "source of the damage it deals.")


@register
class GreatElephant(Skill):
    """juxiang: "(a) It has no effect on you. (b) Take that card into your
    hand" once another player's Barbarian Invasion (a real one) has resolved."""

    id = "great-elephant"
    compulsory = True
    moments = ("targeted",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _barbarian(g, seat, m) is not None

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        rec = _use(g, m)
        assert rec is not None
        rec["cancel"].append(seat)
        if _real(rec["card"]) and not rec.get("taken_by"):
            rec["taken_by"] = seat
        g.pub(f"Great Elephant: Barbarian Invasion has no effect on {seat_label(seat)}.")


# --------------------------------------------------------------------------- Attacks


def _attack_targets(g: Ctx, seat: str, m: Moment) -> list[str]:
    """The living targets of ``seat``'s Attack whose targets are fixed."""
    rec = _use(g, m)
    if rec is None or not _mine(seat, m) or m.get("kind") not in K.ATTACKS:
        return []
    return [r for r in rec["targets"] if g.alive(r) and r != seat]


def _targets_check(sk: Skill, g: Ctx, seat: str, m: Moment, cmd: Cmd,
                   allowed: Sequence[str]) -> Cmd:
    on = list(cmd.get("on", []))
    if not on or len(set(on)) != len(on) or any(r not in allowed for r in on):
        raise IllegalLine(f"{sk.name} names targets of this Attack",
                          hint=" or ".join(_target_lines(sk.name, allowed)) or "PASS")
    return cmd


@register
class IronCavalry(Skill):
    """tieqi: after you use an Attack and its targets are fixed, for each
    target: "Perform a judgement; if red, that target cannot use Dodge
    against this Attack"."""

    id = "iron-cavalry"
    moments = ("targets_fixed",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return bool(_attack_targets(g, seat, m))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return _target_lines(self.name, _attack_targets(g, seat, m))

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        return _targets_check(self, g, seat, m, cmd, _attack_targets(g, seat, m))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        for r in reversed(list(cmd["on"])):
            flow.judge(g, seat, f"Iron Cavalry against {seat_label(r)}",
                       {"t": "kw-shu-iron-cavalry", "uid": m["uid"], "target": r})


@task("kw-shu-iron-cavalry")
def _iron_cavalry(g: Ctx, t: Task) -> None:
    rec = g.s["uses"].get(t["uid"])
    if rec is None:
        return
    if card(t["judgement"]).colour == "red":
        rec.setdefault("no_dodge", []).append(t["target"])
        g.pub(f"Iron Cavalry: red, {seat_label(t['target'])} cannot Dodge this Attack.")
    else:
        g.pub("Iron Cavalry: black, the Attack may be dodged.")


@register
class FierceBow(Skill):
    """liegong: in your Play Phase, after your Attack's targets are fixed,
    for a target whose "hand size is at least your current HP, or at most your
    attack range": "That target cannot use Dodge against this Attack"."""

    id = "fierce-bow"
    moments = ("targets_fixed",)

    def _open(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        if g.s["current"] != seat or g.s["phase"] != "play":
            return []
        hp, reach = int(g.p(seat)["hp"]), g.attack_range(seat)
        return [r for r in _attack_targets(g, seat, m)
                if len(g.hand(r)) >= hp or len(g.hand(r)) <= reach]

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return bool(self._open(g, seat, m))

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        return _target_lines(self.name, self._open(g, seat, m))

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        return _targets_check(self, g, seat, m, cmd, self._open(g, seat, m))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        rec = _use(g, m)
        assert rec is not None
        for r in cmd["on"]:
            rec.setdefault("no_dodge", []).append(r)
        g.pub(f"Fierce Bow: {' and '.join(seat_label(r) for r in cmd['on'])} cannot Dodge "
              "this Attack.")


@register
class BlazingBlade(Skill):
    """lieren: "After an Attack you used deals damage to its target (not
    Chain-spread or redirected damage)", both with hand cards: "Points Duel
    with them; if you win, take one card from their hand (blind) or equipment
    zone"."""

    id = "blazing-blade"
    moments = ("damage_dealt",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        to = m.get("to")
        return (_mine(seat, m) and m.get("via") == "attack" and not m.get("chained")
                and isinstance(to, str) and to != seat and g.alive(to)
                and bool(g.hand(seat)) and bool(g.hand(to)))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        to = str(m["to"])
        flow.points_duel(g, seat, to, "Blazing Blade",
                         {"t": "kw-shu-blazing-blade", "seat": seat, "to": to})


@task("kw-shu-blazing-blade")
def _blazing_blade(g: Ctx, t: Task) -> None:
    seat, to = t["seat"], t["to"]
    if t["winner"] == seat and g.alive(seat) and g.alive(to) and g.has_cards(to):
        K.pick_from(g, seat, to, "take", "Blazing Blade", judge=False)


# --------------------------------------------------------------------------- damage and health


@register
class WildBones(Skill):
    """kuanggu: after you deal damage to a player "at distance 1 or less from
    you, measured just before their HP was reduced", while wounded: "Recover
    1 HP for each point of that damage"."""

    id = "wild-bones"
    compulsory = True
    moments = ("damage_dealt",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        d = m.get("distance")
        return _mine(seat, m) and d is not None and int(d) <= 1 and g.wounded(seat)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.pub(f"Wild Bones: {seat_label(seat)} recovers from the damage dealt.")
        flow.recover(g, seat, int(m["n"]), seat)


def _force_others(g: Ctx, seat: str, skill: str) -> list[str]:
    """The other living players of ``seat``'s force; while ``seat`` is hidden,
    of the force its general carrying ``skill`` would join (seen only by
    ``seat``)."""
    kingdom = g.kingdom(seat)
    if kingdom is None:
        slot = g.slot_of_skill(seat, skill)
        if slot is None:
            return []
        kingdom = DATA.generals[general_of(g.p(seat), slot)].kingdom
    elif g.ambitionist(seat):
        return []
    return [r for r in g.living() if r != seat and g.kingdom(r) == kingdom
            and not g.ambitionist(r)]


@register
class VirtuousCare(Skill):
    """shushen: "After you recover HP -- once per point recovered": "one
    other player of your force" draws one card."""

    id = "virtuous-care"
    moments = ("recovered",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and bool(_force_others(g, seat, self.id))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.push({"t": "kw-shu-virtuous-care", "seat": seat, "left": int(m.get("n", 1))})


@task("kw-shu-virtuous-care")
def _virtuous_care(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    friends = _force_others(g, seat, "virtuous-care")
    if t["left"] <= 0 or not friends or not g.alive(seat):
        return
    g.push({"t": "kw-shu-virtuous-care", "seat": seat, "left": t["left"] - 1})
    flow.choose(g, seat, "Virtuous Care: a player of your force draws a card",
                [*(f"CHOOSE {r}" for r in friends), "PASS"],
                {"t": "kw-shu-virtuous-draw", "seat": seat})


@task("kw-shu-virtuous-draw")
def _virtuous_draw(g: Ctx, t: Task) -> None:
    if t["answer"] == "PASS":
        return
    other = t["answer"].split()[-1]
    if g.alive(other):
        g.draw(other, 1, "Virtuous Care")


@register
class Nirvana(Skill):
    """niepan (limited): while you are dying, when asked for your own rescue:
    "Discard every card in your hand, equipment and judgement zones; recover
    HP up to 3 (or to your max HP if lower); draw three cards; if you are in
    Chains, leave them; if you are Stacked, restore"."""

    id = "nirvana"
    limited = True
    moments = ("respond_peach",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return (m.get("name") == "respond_peach" and m.get("dying") == seat
                and self.id not in g.p(seat)["limited_used"])

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.p(seat)["limited_used"].append(self.id)
        # The recovery is counted once the discards are settled (a Silver Lion
        # Helmet leaving heals first), so it runs after them.
        g.push({"t": "kw-shu-nirvana", "seat": seat, "serial": m["ask"]})
        flow.discard_cards(g, seat, [*g.hand(seat), *g.equips(seat)], "Nirvana")
        zone = [j["card"] for j in g.judges(seat)]
        if zone:
            g.to_discard(zone)
            g.pub(f"{seat_label(seat)}'s judgement zone is discarded: "
                  f"{', '.join(label(c) for c in zone)} (Nirvana).")


@task("kw-shu-nirvana")
def _nirvana(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    p = g.p(seat)
    p["chained"] = False
    p["stacked"] = False
    n = min(3, int(p["max_hp"])) - int(p["hp"])
    g.push({"t": "recover", "seat": seat, "n": n, "src": seat},
           {"t": "kw-shu-nirvana-draw", "seat": seat},
           {"t": "rescue_check", "serial": t["serial"], "seat": seat})


@task("kw-shu-nirvana-draw")
def _nirvana_draw(g: Ctx, t: Task) -> None:
    g.draw(t["seat"], 3, "Nirvana")


# --------------------------------------------------------------------------- phases


@register
class Stargazing(Skill):
    """guanxing: at the start of your Preparation Phase, "Look at the top X
    cards of the draw pile (X = number of living players, at most 5). Put any
    of them back on top in any order and the rest on the bottom in any
    order"."""

    id = "stargazing"
    moments = ("prep_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        looked = g.peek(min(5, len(g.living())))
        if not looked:
            return
        g.split(seat, f"You look at the top {len(looked)} cards of the deck: "
                f"{', '.join(label(c) for c in looked)} (Stargazing).",
                f"{seat_label(seat)} looks at the top {len(looked)} cards of the deck "
                "(Stargazing).")
        flow.ask_cards(g, seat, "PUT", 0, len(looked), ["pool"],
                       "Stargazing: PUT the cards that go back on top of the deck, the top one "
                       "first (the others go to the bottom; PASS puts them all there)",
                       {"t": "kw-shu-stargazing-top", "seat": seat, "looked": looked},
                       pool=looked)


@task("kw-shu-stargazing-top")
def _stargazing_top(g: Ctx, t: Task) -> None:
    seat, top = t["seat"], list(t["cards"])
    g.s["deck"].extend(reversed(top))  # the deck's top is its end
    rest = [c for c in t["looked"] if c not in top]
    g.pub(f"{seat_label(seat)} puts {len(top)} card{'s' * (len(top) != 1)} on top of the deck "
          f"and {len(rest)} at the bottom (Stargazing).")
    if len(rest) > 1:
        flow.ask_cards(g, seat, "PUT", len(rest), len(rest), ["pool"],
                       "Stargazing: PUT the cards that go to the bottom of the deck, in order "
                       "(the last named lies at the very bottom)",
                       {"t": "kw-shu-stargazing-bottom"}, pool=rest)
    else:
        g.s["deck"][:0] = rest


@task("kw-shu-stargazing-bottom")
def _stargazing_bottom(g: Ctx, t: Task) -> None:
    g.s["deck"][:0] = list(reversed(t["cards"]))


@register
class ClearMind(Skill):
    """shenzhi: at the start of your Preparation Phase, with a hand card:
    "Discard your entire hand"; "If the number of cards discarded is at
    least your current HP, recover 1 HP"."""

    id = "clear-mind"
    moments = ("prep_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and bool(g.hand(seat))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        hand = list(g.hand(seat))
        enough = len(hand) >= int(g.p(seat)["hp"])
        flow.discard_cards(g, seat, hand, "Clear Mind")
        if enough:
            flow.recover(g, seat, 1, seat)


@register
class RiseAgain(Skill):
    """zaiqi: at the start of your Draw Phase, if wounded, you draw nothing;
    "Reveal the top X cards of the draw pile (X = your lost HP). Recover HP
    equal to the number of Hearts among them; discard those Hearts; take the
    other cards into your hand"."""

    id = "rise-again"
    moments = ("draw_start",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        return _mine(seat, m) and g.wounded(seat) and not g.flag("draw_replaced")

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.set_flag("draw_replaced", True)
        p = g.p(seat)
        shown = g.peek(int(p["max_hp"]) - int(p["hp"]))
        if not shown:
            return
        g.pub(f"Rise Again: {seat_label(seat)} turns up {', '.join(label(c) for c in shown)}.",
              shown=list(shown))
        hearts = [c for c in shown if card(c).suit == "hearts"]
        rest = [c for c in shown if c not in hearts]
        g.hand(seat).extend(rest)
        if rest:
            g.pub(f"{seat_label(seat)} takes {', '.join(label(c) for c in rest)}.")
        if hearts:
            g.s["discard"].extend(hearts)
            flow.recover(g, seat, len(hearts), seat)


@register
class DelegatePower(Skill):
    """fangquan: "just before your Play Phase would begin" you may skip it;
    if you did, "at the end of that same turn" you may discard a hand card:
    "the chosen player then takes one extra turn immediately after the current
    turn"."""

    id = "delegate-power"
    moments = ("before_play", "turn_end")

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if not _mine(seat, m) or g.s["current"] != seat:
            return False
        if m["name"] == "before_play":
            return not flow.skipped(g, "play") and not g.flag("kw-shu-delegated")
        return bool(g.flag("kw-shu-delegated")) and bool(g.hand(seat)) and len(g.living()) > 1

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        if m["name"] == "before_play":
            return [f"USE {self.name}"]
        return [f"USE {self.name} ON {r}" for r in g.living() if r != seat]

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        if m["name"] == "before_play":
            flow.skip_phase(g, "play")
            g.set_flag("kw-shu-delegated", True)
            return
        (other,) = cmd["on"]
        flow.ask_cards(g, seat, "DISCARD", 1, 1, ["hand"],
                       f"Delegate Power: discard a hand card to give {seat_label(other)} an "
                       "extra turn", {"t": "kw-shu-delegate", "seat": seat, "to": other})


@task("kw-shu-delegate")
def _delegate(g: Ctx, t: Task) -> None:
    flow.discard_cards(g, t["seat"], t["cards"], "Delegate Power")
    g.set_flag("extra_turn", t["to"])
    g.pub(f"{seat_label(t['to'])} takes an extra turn after this one (Delegate Power).")


# --------------------------------------------------------------------------- cards used


@register
class GatheredWisdom(Skill):
    """jizhi: "When you use a non-delayed trick card" that is not a
    conversion ("A Negation used in response counts"): "Draw one card"."""

    id = "gathered-wisdom"
    moments = ("card_used", "negation_used")

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        if not _mine(seat, m):
            return False
        if m["name"] == "negation_used":
            return _real(m["card"])
        rec = _use(g, m)
        if rec is None:
            return False
        v = rec["card"]
        return K.is_trick(v["kind"]) and not K.is_delayed(v["kind"]) and _real(v)

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        g.draw(seat, 1, "Gathered Wisdom")


# --------------------------------------------------------------------------- active


@register
class Benevolence(Skill):
    """rende: in your Play Phase, any number of times, "Give one or more of
    your hand cards to the target"; "the moment the total first reaches 3 or
    more, you recover 1 HP (at most once per phase; no recovery if you are
    unwounded at that moment)"."""

    id = "benevolence"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        hand = sorted(g.hand(seat))
        out = []
        for r in g.living():
            if r == seat:
                continue
            out += [f"USE {self.name} WITH {label(c)} ON {r}" for c in hand]
            if len(hand) > 1:
                out.append(f"USE {self.name} WITH {' '.join(label(c) for c in hand)} ON {r}")
        return out

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        on = list(cmd.get("on", []))
        hint = f"USE {self.name} WITH <hand cards> ON <seat>"
        if not cmd["cards"] or not _in_hand(g, seat, cmd["cards"]):
            raise IllegalLine(f"{self.name} gives cards from your hand", hint=hint)
        if len(on) != 1 or on[0] == seat or not g.alive(on[0]):
            raise IllegalLine(f"{self.name} gives cards to one other player", hint=hint)
        if cmd.get("words"):
            raise IllegalLine(f"{self.name} takes no words", hint=hint)
        return cmd

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        (other,) = cmd["on"]
        cids = list(cmd["cards"])
        for c in cids:
            g.take_out(c)
            g.hand(other).append(c)
        g.split([seat, other], f"{seat_label(seat)} gives {', '.join(label(c) for c in cids)} "
                f"to {seat_label(other)} (Benevolence).",
                f"{seat_label(seat)} gives {len(cids)} card{'s' * (len(cids) != 1)} to "
                f"{seat_label(other)} (Benevolence).")
        total = g.bump("kw-shu-benevolence", len(cids))
        if total >= 3 and not g.flag("kw-shu-benevolence-healed"):
            g.set_flag("kw-shu-benevolence-healed", True)
            if g.wounded(seat):
                flow.recover(g, seat, 1, seat)
        g.lost(seat, cids, ["hand"] * len(cids))


# --------------------------------------------------------------------------- view-as


def _one(cids: Sequence[str]) -> str | None:
    return cids[0] if len(cids) == 1 else None


@register
class SaintOfWar(Skill):
    """wusheng: "one red card (hand/equip)" "is used/played as a plain Attack
    keeping its suit and rank"."""

    id = "saint-of-war"
    produces = ("attack",)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        c = _one(cids)
        if (kind != "attack" or c is None or c not in [*g.hand(seat), *g.equips(seat)]
                or card(c).colour != "red"):
            return None
        return vcard("attack", [c], self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if kind != "attack":
            return []
        return [[c] for c in sorted([*g.hand(seat), *g.equips(seat)])
                if card(c).colour == "red"]


@register
class DragonsCourage(Skill):
    """longdan: "An Attack card may be used/played as a Dodge; a Dodge card
    may be used/played as a plain Attack. Suit and rank are kept" (hand cards
    only)."""

    id = "dragons-courage"
    produces = ("attack", "dodge")

    @staticmethod
    def _source(kind: str) -> str | None:
        return {"attack": "dodge", "dodge": "attack"}.get(kind)

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        c = _one(cids)
        want = self._source(kind)
        if want is None or c is None or c not in g.hand(seat) or not is_kind(name_of(c), want):
            return None
        return vcard(kind, [c], self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        want = self._source(kind)
        if want is None or (kind == "dodge" and need == "play"):
            return []
        return [[c] for c in sorted(g.hand(seat)) if is_kind(name_of(c), want)]


class _HandCardAs(Skill):
    """A view-as skill turning one hand card of a colour or suit into a spell
    of kind ``makes`` (only in the owner's Play Phase if ``play_only``)."""

    makes: str = ""
    colour: str | None = None
    suit: str | None = None
    play_only: bool = True

    def _fits(self, g: Ctx, seat: str, c: str) -> bool:
        found = card(c)
        return (c in g.hand(seat) and (self.colour is None or found.colour == self.colour)
                and (self.suit is None or found.suit == self.suit))

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        c = _one(cids)
        if (kind != self.makes or c is None or not self._fits(g, seat, c)
                or (self.play_only and need != "play")):
            return None
        return vcard(kind, [c], self.id)

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        if kind != self.makes or (self.play_only and need != "play"):
            return []
        return [[c] for c in sorted(g.hand(seat)) if self._fits(g, seat, c)]


@register
class FireStratagem(_HandCardAs):
    """huoji: in your Play Phase, "one red card from your hand": "Use it as
    Attack by Fire (the trick)"."""

    id = "fire-stratagem"
    produces = ("attack-by-fire",)
    makes = "attack-by-fire"
    colour = "red"


@register
class SeeThrough(_HandCardAs):
    """kanpo: "Whenever you could use a Negation", "one black card from your
    hand": "Use it as a plain Negation"."""

    id = "see-through"
    produces = ("negation",)
    makes = "negation"
    colour = "black"
    play_only = False


@register
class LinkedChains(_HandCardAs):
    """lianhuan: in your Play Phase, "one Club card from your hand": "Use it
    as Iron Chains, or recast it (discard it and draw one card) as Iron Chains
    may be recast" -- ``USE Iron Chains BY Linked Chains WITH <club> ON ...``
    uses it, ``USE Linked Chains WITH <club>`` recasts it."""

    id = "linked-chains"
    produces = ("iron-chains",)
    makes = "iron-chains"
    suit = "clubs"

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        return [f"USE {self.name} WITH {label(c)}" for c in sorted(g.hand(seat))
                if self._fits(g, seat, c)]

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        (cid,) = cmd["cards"]
        g.to_discard([cid])
        g.pub(f"{seat_label(seat)} recasts {label(cid)} as Iron Chains (Linked Chains).")
        g.lost(seat, [cid], ["hand"])
        g.draw(seat, 1, "recast")


@register
class EightFormations(Skill):
    """bazhen: "You have no armor equipped": "You are treated as wearing
    Eight Trigrams Formation. Effects that ignore or disable armor (e.g. Blue
    Blade) ignore this too"; hidden, "you are offered to reveal when you are
    asked for a Dodge" (``USE Eight Formations`` answers the window)."""

    id = "eight-formations"
    compulsory = True
    moments = ("respond_dodge",)

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        ask = g.ask_of(int(m.get("ask", -1)))
        if m.get("name") != "respond_dodge" or ask is None or g.armor(seat) is not None:
            return False
        if ask.get("trigrams", {}).get(seat):
            return False
        ctx = ask.get("ctx", {})
        by = ctx.get("by")
        return not (ctx.get("card") in K.ATTACKS and isinstance(by, str)
                    and flow.ignores_armor(g, by, seat, {"via": "attack"}))

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        ask = g.ask_of(int(m["ask"]))
        assert ask is not None
        ask.setdefault("trigrams", {})[seat] = True
        flow.judge(g, seat, "Eight Formations",
                   {"t": "kw-shu-eight-formations", "seat": seat, "serial": ask["serial"]})


@task("kw-shu-eight-formations")
def _eight_formations(g: Ctx, t: Task) -> None:
    if card(t["judgement"]).colour != "red":
        g.pub("Black: Eight Formations gives no Dodge.")
        return
    seat = t["seat"]
    v = vcard("dodge", [], "eight-formations")
    g.pub(f"Red: {seat_label(seat)} is deemed to have played a Dodge (Eight Formations).")
    g.push({"t": "moment", "m": {"name": "played_dodge", "seat": seat, "card": v,
                                 "ask": t["serial"]}},
           {"t": "counted", "serial": t["serial"]})
