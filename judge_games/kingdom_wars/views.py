"""What one seat (or an observer) may know of a Kingdom Wars table.

Public: every seat's health, hand count, equipment, judgement zone, the
cards its skills set face up on its generals (piles), exposed
generals, kingdom, markers, chains and stacking, the seat order and the
distances, the discard deck, the processing area. Private: a seat's own hand
and generals (and any general it has viewed). When the game is over,
everything is shown (DESIGN.md, Privacy: the history is released at the end).
"""

from __future__ import annotations

from judge.game.engine import JSON, State
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import EQUIP_SLOTS, SLOTS, Ctx, card, code, label, name_of


def _card(cid: str) -> dict[str, JSON]:
    c = card(cid)
    return {"id": cid, "label": label(cid), "kind": c.card.id, "name": c.name,
            "suit": c.suit, "rank": c.rank, "code": code(cid)}


def _general(gid: str) -> dict[str, JSON]:
    g = DATA.generals[gid]
    return {"id": gid, "name": g.name, "kingdom": g.kingdom, "gender": g.gender,
            "half_circles": g.half_circles,
            "skills": [DATA.skills[s].name for s in g.skills]}


def view(state: State, role: str | None, phase: str) -> dict[str, JSON]:
    over = state["stage"] == "over"
    out: dict[str, JSON] = {
        "game": "kingdom_wars", "phase": phase, "role": role, "stage": state["stage"],
        "players": state["n"], "round": state["round"], "current": state["current"],
        "turn_phase": state["phase"], "start": state["start"],
        "death_match": state["death_match"], "deck": len(state["deck"]),
        "discard": [label(c) for c in state["discard"][-8:]],
        "discard_count": len(state["discard"]),
        "processing": [label(c) for c in state["proc"]],
        "variation": state["variation"], "end": state["end"],
        "winners": list(state["winners"]),
    }
    if state["stage"] == "generals":
        out["seats"] = [{"seat": r, "alive": True} for r in state["seats"]]
        if role is not None and role in state["dealt"]:
            out["you"] = {"dealt": [_general(x) for x in state["dealt"][role]]}
        return out
    g = Ctx.reading(state)
    ranges = {r: g.attack_range(r) for r in g.living()}
    me_alive = (role is not None and not over and role in state["p"]
                and state["p"][role]["alive"])
    seats: list[dict[str, JSON]] = []
    for r in state["seats"]:
        p = state["p"][r]
        gens = []
        for i, slot in enumerate(SLOTS):
            known = (p["shown"][i] or over or role == r
                     or (role is not None and role in p["seen_by"][slot]))
            gens.append({"slot": slot, "exposed": bool(p["shown"][i]),
                         "general": DATA.generals[p[slot]].name if known else None})
        seat: dict[str, JSON] = {
            "seat": r, "alive": p["alive"], "hp": p["hp"], "max_hp": p["max_hp"],
            "hand": len(p["hand"]),
            "equip": [label(p["equip"][s]) for s in EQUIP_SLOTS if p["equip"][s]],
            "judge": [{"card": label(j["card"]), "as": DATA.cards[j["as"]].name}
                      for j in p["judge"]],
            "piles": {k: [label(c) for c in v] for k, v in p["piles"].items() if v},
            "generals": gens, "kingdom": p["kingdom"], "ambitionist": p["ambitionist"],
            "gender": g.gender(r) if p["alive"] else None,
            "markers": dict(p["markers"]), "chained": p["chained"], "stacked": p["stacked"],
            "attack_range": ranges.get(r, 0),
        }
        if me_alive and p["alive"]:
            assert role is not None
            d = g.distance(role, r)
            seat["distance"] = d
            seat["within_reach"] = r != role and d <= ranges[role]
        if over:
            seat["hand_cards"] = [label(c) for c in sorted(p["hand"])]
        seats.append(seat)
    out["seats"] = seats
    if role is not None and role in state["p"] and not over:
        p = state["p"][role]
        kingdom = DATA.generals[p["main"]].kingdom
        out["you"] = {
            "hand": [_card(c) for c in sorted(p["hand"], key=_order)],
            "generals": [{"slot": s, "exposed": bool(p["shown"][i]), **_general(p[s])}
                         for i, s in enumerate(SLOTS)],
            "skill_ids": g.skills(role, hidden=True),
            "kingdom_of_generals": kingdom,
            "equip": [_card(c) for c in g.equips(role)],
            "markers": dict(p["markers"]),
            "not_chosen": [_general(x) for x in state["dealt"].get(role, [])],
            "known": [{"seat": r, "slot": s, "general": DATA.generals[q[s]].name}
                      for r, q in state["p"].items() if r != role for i, s in enumerate(SLOTS)
                      if not q["shown"][i] and role in q["seen_by"][s]],
            "attacks_used": state["turn_flags"].get("attacks", 0)
            if state["current"] == role else 0,
        }
    if over:
        out["seed_released"] = True
    return out


def _order(cid: str) -> tuple[str, int]:
    kind, _, n = cid.partition(".")
    return name_of(cid) if kind else "", int(n or 0)
