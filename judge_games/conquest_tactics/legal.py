"""Candidate lines for a player's decision, for random playthroughs, the
fuzzer and HELP (game.py keeps those the rules accept)."""

from __future__ import annotations

from typing import Any

from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics import rules
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.decks import canonical
from judge_games.conquest_tactics.table import Ctx, card


def candidates(state: dict[str, Any], role: str) -> list[str]:
    g = Ctx(state)
    stage = state["stage"]
    p = state["p"].get(role)
    if p is None or stage == "over":
        return []
    if stage == "decks":
        return ["STARTER", *(f"STARTER {f}" for f in POOL.starters),
                *(canonical(d) for d in POOL.starters.values())]
    if stage == "forces":
        out = [f"BASE {s}" for s in ("C1", "B1", "D2")]
        return out + [f"TAKE {c}" for c in dict.fromkeys(p["supply"])
                      if card(c).type in ("troop", "spell", "skill")]
    if stage == "deploy":
        return ["DEPLOY ALL", *(f"DEPLOY {c} {s}" for c in dict.fromkeys(p["forces"])
                for s in ("A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2", "E2"))]
    if stage == "up":
        # Up the Field: "if a player is done moving the Troops he wants to
        # during this phase, he may Pass"; a Mobilize line written now passes
        # and is held for the Mobilize, so the request lists those too.
        return rules.up_lines(g, role) + mobilize_lines(state, role)[1:]
    if stage == "window":
        return rules.instant_lines(g, role)
    if stage == "mobilize":
        return mobilize_lines(state, role)
    return _play_lines(state, role)


def mobilize_lines(state: dict[str, Any], role: str) -> list[str]:
    """Mobilize: DONE, then what the hand could deploy, upgrade, equip,
    learn or play (each also with a discard), as the field stands now."""
    g = Ctx(state)
    p = state["p"][role]
    mine = [t for t in g.troops(role)]
    foes = [t for t in g.troops(F.other(role))]
    hand = list(dict.fromkeys(p["hand"]))
    zone = [F.to_frame(s, role) for s in F.deployment_zone(role)]
    out = ["DONE"]
    for c in hand:
        k = card(c)
        spare = [x for x in p["hand"] if x != c]
        dis = f" DISCARD {spare[0]}" if spare else ""
        if k.type == "troop":
            out += [f"DEPLOY {c} {s}{d}" for s in zone for d in ("", dis)]
            out += [f"UPGRADE {F.to_frame(t['at'], role)} {c}{d}" for t in mine
                    for d in ("", dis)]
        elif k.type == "equipment":
            out += [f"EQUIP {c} {F.to_frame(t['at'], role)}{d}" for t in mine
                    for d in ("", dis)]
        elif k.type in ("spell", "skill"):
            out += [f"LEARN {c}{d}" for d in ("", dis)]
        elif k.type == "circumstance" and k.kind == "mobilization":
            out.append(_circ(c, p["hand"], mine + foes, role))
    return out


def _play_lines(state: dict[str, Any], role: str) -> list[str]:
    g = Ctx(state)
    stage = state["stage"]
    p = state["p"][role]
    mine = [t for t in g.troops(role)]
    foes = [t for t in g.troops(F.other(role))]
    hand = list(dict.fromkeys(p["hand"]))
    follow = state["follow"] if stage == "follow" else None
    actors = [t for t in mine if follow is None or t["uid"] == follow]
    out = ["STOP"] if follow else ["PASS", "PASS ALL"]
    targets = [F.to_frame(t["at"], role) for t in foes]
    for b in state["bases"].values():
        if b["alive"] and b["at"] and b is not state["bases"][role]:
            targets.append(F.to_frame(b["at"], role))
    friends = [F.to_frame(t["at"], role) for t in mine]
    ready = [k["card"] for k in p["knowledge"] if k["up"]]
    for t in actors:
        a = F.to_frame(t["at"], role)
        if follow is None and p["tp"] >= 1:
            steps = g.stat(t, "movement")
            jump = g.jumps(t)
            for sp in F.spaces():
                if sp != t["at"] and F.distance(sp, t["at"]) <= steps and g.open_for(role, sp) \
                        and F.path_exists(t["at"], sp, steps, (lambda x: True) if jump else
                                          (lambda x: g.open_for(role, x))):
                    out.append(f"MOVE {a} {F.to_frame(sp, role)}")
        out += [f"ATTACK {a} {s}" for s in targets]
        for c in dict.fromkeys([*ready, *hand]):
            k = card(c)
            if k.type not in ("spell", "skill") or k.kind == "instant" \
                    or rules.knows(g, t, k) < k.level:
                continue
            verb = "CAST" if k.type == "spell" else "USE"
            aims = targets if k.kind in ("offensive", "debuff") else friends
            out += [f"{verb} {c} {s} FROM {a}" for s in aims]
    for c in hand:
        k = card(c)
        if k.type == "circumstance" and k.kind in ("control", "instant"):
            out.append(_circ(c, p["hand"], mine + foes, role))  # the rules keep those that fit
    if follow is None:
        for c in p["trophies"]:
            for verb in ("REDEEM", "RECYCLE"):
                out.append(f"{verb} {c}")
                out += [f"{verb} {c} ON {F.to_frame(t['at'], role)}" for t in mine + foes]
    return out


def _circ(c: str, hand: list[str], troops: list[dict[str, Any]], role: str) -> str:
    k = card(c)
    spare = [x for x in hand if x != c][:k.discard]
    tail = (" DISCARD " + ", ".join(spare)) if k.discard else ""
    on = ""
    if any(e.on in ("target", "friendly", "enemy") for e in k.effects) and troops:
        want_enemy = any(e.on == "enemy" or e.kind == "damage" for e in k.effects)
        pick = [t for t in troops if (t["owner"] != role) == want_enemy] or troops
        on = f" ON {F.to_frame(pick[0]['at'], role)}"
    return f"PLAY {c}{on}{tail}"
