"""What each player may know of a game of Conquest Tactics.

Everything on the field, the Knowledge Pools, discard piles, Victory
Conditions and Trophies is face up, so every view shows it. A hand shows as
a count to the opponent, a supply pile as a count to everyone (its owner
sees the deck list only while choosing starting forces). The field is given
in the reader's frame (see field.py): ``grid`` is the board as the reader
sits at it, its own edge at the bottom.
"""

from __future__ import annotations

from typing import Any

from judge.game.engine import JSON, RuleError
from judge_games.conquest_tactics import commands, rules
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from judge_games.conquest_tactics.table import Ctx, card, hand_numbers


def _abbr(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[0].isalpha()]
    if len(words) == 1:
        return words[0][:4]
    return (words[0][:2] + words[-1][:2]) if len(words) == 2 else "".join(w[0] for w in words)[:4]


def _cell(g: Ctx, space: str) -> str:
    t = g.troop_at(space)
    base = g.base_at(space)
    if t is not None:
        c = card(t["card"])
        dmg = f"-{t['damage']}" if t["damage"] else ""
        star = "*" if base else ""
        return f"{t['owner'][0]}:{_abbr(c.name)}{c.level}{dmg}{star}"
    if base is not None:
        return f"{base[0][0]}:BASE-{base[1]['damage']}" if base[1]["damage"] else \
            f"{base[0][0]}:BASE"
    return "."


def grid(g: Ctx, role: str | None) -> list[str]:
    """The field as text, rows from the far edge down to the reader's own,
    columns A-E from its left."""
    frame = role or F.SOUTH
    out = ["      " + "".join(f"{c:^11}" for c in F.COLUMNS)]
    for r in range(F.SIZE, 0, -1):
        cells = []
        for c in F.COLUMNS:
            space = F.from_frame(f"{c}{r}", frame)
            assert space is not None
            cells.append(f"{_cell(g, space):^11}")
        out.append(f"  {r}   " + "".join(cells).rstrip())
    return out


def troop_view(g: Ctx, t: dict[str, Any], role: str | None) -> dict[str, JSON]:
    c = card(t["card"])
    lo, hi = g.range_of(t)
    return {
        "at": F.to_frame(t["at"], role), "owner": t["owner"], "card": c.id, "name": c.name,
        "level": c.level, "classification": c.classification,
        "damage": t["damage"], "health": g.stat(t, "health"),
        "defense": g.stat(t, "defense"), "attack": g.stat(t, "attack"),
        "attack_cost": g.stat(t, "attack_cost"), "counter": g.stat(t, "counter"),
        "range": f"{lo}" if lo == hi else f"{lo}-{hi}", "movement": g.stat(t, "movement"),
        "equipment": [card(e).name for e in t["equip"].values()],
        "buff": card(t["buff"]["card"]).name if t["buff"] else None,
        "debuff": card(t["debuff"]["card"]).name if t["debuff"] else None,
        "on_base": g.on_own_base(t), "under": [card(x).name for x in t["under"]],
    }


def _condition_text(c: Any) -> str:
    cond = c.condition
    if cond is None:
        return ""
    k = cond.kind
    return {
        "destroy_points": f"destroy {cond.n} points of enemy troops",
        "destroy_troops": f"destroy {cond.n} enemy troops",
        "destroy_base": "destroy the enemy base",
        "damage_base": f"deal {cond.n} damage to the enemy base",
        "raise_troop": f"raise a troop from level {cond.level_from} to level {cond.level_to}",
        "hold_spaces": f"hold {cond.n} spaces of the {cond.zone.replace('_', ' ')} at Halt",
        "knowledge": f"have {cond.n} cards in your Knowledge Pool",
        "field_troops": f"have {cond.n} troops on the field at Halt",
    }.get(k, str(k))


def player_view(g: Ctx, role: str, reader: str | None) -> dict[str, JSON]:
    p = g.p(role)
    b = g.s["bases"].get(role)
    base: dict[str, JSON] | None = None
    if b:
        bc = card(b["card"])
        base = {"card": bc.id, "name": bc.name, "damage": b["damage"], "health": bc.health,
                "defense": bc.defense, "alive": b["alive"],
                "at": F.to_frame(b["at"], reader) if b["at"] else None}
    return {
        "role": role, "faction": p["faction"], "deck": p["deck"], "tp": p["tp"],
        "hand": len(p["hand"]), "supply": len(p["supply"]),
        "discard": [card(c).name for c in p["discard"]],
        "removed": [card(c).name for c in p["removed"]],
        "knowledge": [{"card": k["card"], "name": card(k["card"]).name, "up": k["up"]}
                      for k in p["knowledge"]],
        "victories": [{"card": v["card"], "name": card(v["card"]).name, "done": v["done"],
                       "condition": _condition_text(card(v["card"]))} for v in p["victories"]],
        "trophies": [card(c).name for c in p["trophies"]],
        "trophy_pile": [card(c).name for c in p["trophy_pile"]],
        "destroyed": dict(p["destroyed"]), "base": base,
        # Setup: the starting forces stay face down until placed ("the other
        # player follows the same procedure" after): the other side sees a count.
        "forces": [card(c).name for c in (p["forces"] or [])] if reader == role else [],
        "forces_left": len(p["forces"] or []),
        "mobilized": p["done"],
    }


def view(state: dict[str, Any], role: str | None, phase: str) -> dict[str, JSON]:
    g = Ctx(state)
    players = [player_view(g, r, role) for r in F.ROLES if r in state["p"]]
    out: dict[str, JSON] = {
        "game": "conquest_tactics", "phase": phase, "role": role,
        "frame": role or F.SOUTH, "stage": state["stage"], "turn": state["turn"],
        "initiative": state["initiative"],
        "acting": _acting(state),
        "grid": grid(g, role) if state["bases"] else [],
        "troops": [troop_view(g, t, role) for t in sorted(
            g.troops(), key=lambda t: (F.rank(t["at"], role or F.SOUTH), t["at"]))],
        "players": players,
        "action": _action(g, role),
        "result": state["result"],
    }
    if role in F.ROLES and role in state["p"]:
        p = g.p(role)
        you: dict[str, JSON] = {
            "hand": [{"n": n, "card": c, "name": card(c).name, "type": card(c).type,
                      "cost": card(c).cost, "level": card(c).level}
                     for n, c in hand_numbers(p)],
            "instants": (_instants(g, role) if state["stage"] == "window"
                         and state["window"]["role"] == role else []),
        }
        if state["stage"] == "mobilize":  # held face down until both have mobilized
            you["held"] = list(p.get("held", []))
        if state["stage"] == "decks":
            faction = str(state["options"]["south" if role == F.SOUTH else "north"])
            you["starter"] = {"faction": faction, "deck": POOL.starters[faction].name,
                              "others": sorted(f for f in POOL.starters if f != faction)}
        if state["stage"] in ("decks", "forces"):
            counts: dict[str, int] = {}
            for c in p["supply"]:
                counts[c] = counts.get(c, 0) + 1
            you["deck"] = [{"card": c, "name": card(c).name, "count": n, "type": card(c).type,
                            "level": card(c).level, "cost": card(c).cost}
                           for c, n in counts.items()]
        out["you"] = you
    return out


def _instants(g: Ctx, role: str) -> list[JSON]:
    """The instants the reader could answer with now (its own cards only),
    each as the window would take it."""
    out: list[JSON] = []
    for line in rules.instant_lines(g, role)[1:]:
        try:
            out.append(commands.canonical(rules.check_instant(g, role, commands.syntax(line))))
        except RuleError:
            continue
    return out


def _acting(state: dict[str, Any]) -> JSON:
    stage = state["stage"]
    if stage == "mobilize":
        return [r for r in F.ROLES if not state["p"][r]["done"]]
    who = {"deploy": state["deployer"], "up": state["mover"], "play": state["actor"],
           "follow": state["actor"], "window": (state["window"] or {}).get("role")}.get(stage)
    return [who] if who else []


def _action(g: Ctx, role: str | None) -> JSON:
    """The action being settled: who, what, the acting troop's space
    (``from``, None for a player's own card) and the target's (``at``)."""
    a = g.s["action"]
    if not a:
        return None
    src = g.s["troops"].get(a.get("source") or "")
    return {"by": a["role"], "verb": a["verb"],
            "card": card(a["card"]).name if a.get("card") else None,
            "from": F.to_frame(src["at"], role) if src else None,
            "at": F.to_frame(a["at"], role) if a.get("at") else None, "step": a["step"]}
