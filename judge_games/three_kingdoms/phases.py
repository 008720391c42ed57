"""Playing the Great Turn: the set-up actions, the Military Campaign (with
status orders and broken alliances), retreats, centres taken, adjustments
and the end of the game. Pure functions of the board and the state,
the steps of the game's states table (``judge_games/three_kingdoms/game.py``):
each copies the state, the steps change that copy, and
the copy is returned with its events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.game.engine import (
    JSON,
    Action,
    Event,
    IllegalLine,
    Role,
    State,
    copy_state,
    public,
)
from judge.game.rng import Rng
from judge_games.diplomacy.variant import Piece
from judge_games.three_kingdoms.board import KINGDOMS, Board

from . import legality, rules
from .resolver import Campaign, adjudicate_campaign
from .rules import CIVIL_WAR_CENTRES, MILITIA_PER_PLAYER, centre_key, sort_pieces


def campaign(
    board: Board,
    may_stack: Callable[[State, Sequence[Piece]], bool],
    state: State,
    orders: Mapping[Role, Sequence[Action]],
    rng: Rng,
) -> tuple[State, list[Event]]:
    """Resolve a Military Campaign: status orders, claims and concessions,
    then the pieces' orders on the shared resolver, with ``may_stack`` (the
    record's stacking rule) saying which pieces may share a province."""
    return _campaign(board, copy_state(state), orders, may_stack)


def retreats(
    board: Board, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
) -> tuple[State, list[Event]]:
    """Resolve the retreats after a campaign."""
    return _retreats(board, copy_state(state), orders)


def adjust(
    board: Board, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
) -> tuple[State, list[Event]]:
    """Resolve the supply adjustments that end a Great Turn."""
    return _adjust(board, copy_state(state), orders)


def no_order_set(
    state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
) -> tuple[State, list[Event]]:
    """Set-up and the game's end take no order set."""
    raise IllegalLine("no order set is due now")


def no_action(state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
    """Only the set-up takes single actions."""
    raise IllegalLine("no single action is due now", line=action.text)


def act(
    board: Board, state: State, role: Role, action: Action, rng: Rng
) -> tuple[State, list[Event]]:
    s = copy_state(state)
    d = dict(action.data)
    if s["stage"] not in ("capital", "militia"):
        raise IllegalLine("no single action is due now", line=action.text)
    legality.parse(board, s, role, action.text)  # still legal here? (raises if not)
    if d["verb"] == "name":
        s["characters"][role]["name"] = d["name"]
        return s, [public(f"{role} names the character {d['name']}.")]
    events: list[Event] = []
    n = int(d["at"])
    if s["stage"] == "capital":
        # "The player then immediately places the character and an Army piece under
        # it in one of the centers of that character's kingdom. This is the
        # player's capital."
        s["pieces"] += [
            {"kind": "L", "owner": role, "at": n, "marked": False},
            {"kind": "A", "owner": role, "at": n, "marked": False},
        ]
        s["capital"][role] = n
        s["owner"][centre_key(n)] = role
        s["setup_turn"] += 1
        text = f"{role} ({s['characters'][role]['name']}) takes {n} as capital."
        if s["setup_turn"] == len(s["players"]):
            s["stage"], s["setup_turn"] = "militia", 0
    else:
        # "the youngest player then places a Militia unit in one of the centers in his
        # kingdom. This is repeated until each player has 2 militia".
        s["pieces"].append({"kind": "M", "owner": role, "at": n, "marked": False})
        s["owner"][centre_key(n)] = role
        s["setup_turn"] += 1
        text = f"{role} places a militia in {n}."
        if s["setup_turn"] == MILITIA_PER_PLAYER * len(s["players"]):
            events = _start_great_turn(s)
            events.append(public("The set-up is complete: Great Turn 1 begins."))
    sort_pieces(s)
    return s, [public(text), *events]


def _start_great_turn(s: State) -> list[Event]:
    s["turn"] += 1
    s["campaign"] = 1
    s["stage"] = "campaign"
    return _automatic_civil_war(s)


def _automatic_civil_war(s: State) -> list[Event]:
    """ "if at the start of the first negotiation phase a faction in a kingdom reaches
    6 centers there is an automatic state of Civil War in that kingdom"."""
    events: list[Event] = []
    if s["options"]["free_style"]:
        return events
    for k in KINGDOMS:
        faction = [r for r in s["players"] if s["characters"][r]["kingdom"] == k]
        if not any(len(rules.centres_of(s, r)) >= CIVIL_WAR_CENTRES for r in faction):
            continue
        for i, a in enumerate(faction):
            for b in faction[i + 1 :]:
                if sorted([a, b]) not in s["civil_war"]:
                    was = rules.status(s, a, b)
                    s["civil_war"].append(sorted([a, b]))
                    events.append(public(f"Civil war in {k}: {a} and {b}.", kind="civil war"))
                    if was == "alliance":
                        events += _broken_alliance(s, a, b)
    s["civil_war"].sort()
    return events


def _campaign(
    board: Board,
    s: State,
    orders: Mapping[Role, Sequence[Action]],
    may_stack: Callable[[State, Sequence[Piece]], bool],
) -> tuple[State, list[Event]]:
    events: list[Event] = []
    active = rules.active(s)
    # Claims and concessions are judged on the position the orders were written on.
    claims = {
        r: str(a.data["victory"])
        for r, acts in orders.items()
        for a in acts
        if a.data.get("verb") == "claim" and r in active
    }
    valid = {r: v for r, v in claims.items() if v in rules.victories(board, s, r)}
    for r, v in sorted(claims.items()):
        if r not in valid:
            events.append(public(f"{r} claims a {v} victory, which does not hold.", kind="ignored"))
    if valid:
        rank = {"legendary": 0, "unification": 1, "destined": 2}
        best = min(rank[v] for v in valid.values())
        winners = tuple(sorted(r for r, v in valid.items() if rank[v] == best))
        kind = next(v for v in valid.values() if rank[v] == best)
        return _end(s, winners, f"{kind} victory claimed", events)
    conceded = {
        r: str(a.data["to"])
        for r, acts in orders.items()
        for a in acts
        if a.data.get("verb") == "concede" and r in active
    }
    for to in sorted(set(conceded.values())):
        others = [r for r in active if r != to]
        if to in active and others and all(conceded.get(r) == to for r in others):
            return _end(s, (to,), "unanimous concession", events)
    if conceded:
        events.append(public("Concessions were made but not by all: the game goes on."))
    events += _status_orders(s, orders)
    piece_orders: dict[int, dict[str, Any]] = {}
    texts: dict[int, tuple[Role, str]] = {}
    index = {(p["owner"], p["kind"], p["at"]): i for i, p in enumerate(s["pieces"])}
    for role, acts in orders.items():
        for a in acts:
            d = a.data
            if d.get("verb") not in ("move", "support", "defend", "destroy"):
                continue
            i = index.get((role, d["kind"], d["at"]))
            if i is None:
                continue
            why = _order_refused(board, s, role, d)
            texts[i] = (role, a.text)
            if why:
                events.append(
                    public(
                        f"{role}: {a.text} is not carried out ({why}); the piece defends.",
                        kind="ignored",
                    )
                )
                piece_orders[i] = {"verb": "defend"}
                continue
            piece_orders[i] = _resolver_order(s, role, d)
    res = adjudicate_campaign(
        s["pieces"],
        piece_orders,
        s["players"],
        defence=lambda p: rules.defence(board, s, p),
        may_stack=lambda group: may_stack(s, group),
        army_supremacy=bool(s["options"]["army_supremacy"]),
    )
    entries = _report_entries(s, texts, piece_orders, res)
    events += _apply_campaign(board, s, piece_orders, res)
    s["last"] = {"title": rules._phase(s), "entries": entries}
    events.append(public(f"{rules._phase(s)} resolved.", kind="resolved"))
    if s["dislodged"]:
        s["stage"] = "retreat"
        return s, events
    events += _after_campaign(board, s)
    return s, events


def _order_refused(board: Board, s: State, role: Role, d: Mapping[str, Any]) -> str | None:
    if d["verb"] == "move":
        return rules.entry_refused(board, s, role, int(d["to"]))
    if d["verb"] == "support":
        target = _support_target(s, role, d)
        if target is None:
            return "nothing to support"
        to = d.get("to")
        helped = s["pieces"][target]["owner"]
        return rules.support_refused(s, role, helped, None if to is None else int(to))
    return None


def _support_target(s: State, role: Role, d: Mapping[str, Any]) -> int | None:
    """The piece a support names: ``role``'s own when it has one of that kind
    there (two leaders may share a province under optional rule 7), else the
    first in board order."""
    found = [
        i for i, p in enumerate(s["pieces"]) if p["at"] == d["tat"] and p["kind"] == d["tkind"]
    ]
    own = [i for i in found if s["pieces"][i]["owner"] == role]
    pick = own or found
    return pick[0] if pick else None


def _resolver_order(s: State, role: Role, d: Mapping[str, Any]) -> dict[str, Any]:
    if d["verb"] == "move":
        return {"verb": "move", "to": int(d["to"])}
    if d["verb"] == "support":
        return {
            "verb": "support",
            "target": _support_target(s, role, d),
            "to": d.get("to"),
        }
    return {"verb": "defend", "destroy": d["verb"] == "destroy"}


def _report_entries(
    s: State,
    texts: Mapping[int, tuple[Role, str]],
    orders: Mapping[int, Mapping[str, Any]],
    res: Campaign,
) -> list[JSON]:
    out: list[JSON] = []
    for i, p in enumerate(s["pieces"]):
        role, text = texts.get(i, (p["owner"], f"{p['kind']}{p['at']} D (no order)"))
        results = []
        if i in res.moved:
            results.append("moves")
        if i in res.bounced:
            results.append("bounced")
        if i in res.cut:
            results.append("cut")
        if i in res.void:
            results.append("void")
        if i in res.dislodged:
            results.append(f"dislodged from {res.dislodged[i]}")
        if i in res.removed:
            results.append("removed by the army")
        out.append({"player": role, "order": text, "results": results})
    seats = s["players"]
    out.sort(key=lambda e: seats.index(e["player"]))  # by player, each in board order
    return out


def _apply_campaign(
    board: Board, s: State, orders: Mapping[int, Mapping[str, Any]], res: Campaign
) -> list[Event]:
    events: list[Event] = []
    old = s["pieces"]
    stay: list[dict[str, Any]] = []
    dislodged: dict[int, list[dict[str, Any]]] = {}
    attackers: dict[int, int] = {}
    for i, p in enumerate(old):
        if i in res.removed:
            events.append(
                public(
                    f"{p['owner']}'s militia in {p['at']} is removed by army supremacy.",
                    kind="removed",
                )
            )
            continue
        if i in res.dislodged:
            dislodged.setdefault(p["at"], []).append(dict(p))
            attackers[p["at"]] = res.dislodged[i]
            continue
        q = dict(p)
        q["at"] = res.moved.get(i, p["at"])
        stay.append(q)
    s["pieces"] = stay
    # Optional rule 5: "an army (friend or foe) that sits for two consecutive orders
    # with a destruction order (new order) may destroy the capital".
    destroying: dict[str, JSON] = {}
    for i, o in orders.items():
        p = old[i]
        if o.get("destroy") and i not in res.dislodged and i not in res.removed:
            before = s["destroying"].get(centre_key(p["at"]))
            count = before["count"] + 1 if before and before["owner"] == p["owner"] else 1
            if count >= 2:
                events += _destroy_capital(board, s, int(p["at"]))
            else:
                destroying[centre_key(p["at"])] = {"owner": p["owner"], "count": count}
    s["destroying"] = destroying
    s["dislodged"] = []
    for at, group in sorted(dislodged.items()):
        opts = _retreat_options(board, s, group, at, attackers[at], res.standoffs)
        if opts:
            s["dislodged"].append(
                {"at": at, "from": attackers[at], "pieces": group, "options": opts}
            )
        else:
            events += _destroy(s, group, "dislodged with nowhere to retreat")
    sort_pieces(s)
    return events


def _destroy_capital(board: Board, s: State, n: int) -> list[Event]:
    s["destroyed"] = sorted({*s["destroyed"], n})
    s["owner"].pop(centre_key(n), None)
    return [
        public(
            f"The capital {n} ({board.provinces[n].name}) is destroyed and is no "
            "longer a support centre.",
            kind="destroyed",
        )
    ]


def _retreat_options(
    board: Board,
    s: State,
    group: Sequence[Mapping[str, Any]],
    at: int,
    attacker: int,
    standoffs: set[int],
) -> list[int]:
    """ "A piece that is dislodged must retreat to an adjacent province": an empty
    one, not the attacker's, not one left empty by a bounce, and one diplomacy
    lets its owner enter."""
    owner = next((p["owner"] for p in group if p["kind"] != "L"), group[0]["owner"])
    return [
        m
        for m in sorted(board.neighbours[at])
        if m != attacker
        and m not in standoffs
        and not rules.pieces_at(s, m)
        and rules.entry_refused(board, s, owner, m) is None
    ]


def _destroy(s: State, group: Sequence[Mapping[str, Any]], why: str) -> list[Event]:
    events: list[Event] = []
    for p in group:
        if p["kind"] == "L" and _heroic_escape(s, p):
            events.append(
                public(
                    f"{p['owner']}'s leader makes a heroic escape to the "
                    f"capital {s['capital'][p['owner']]}.",
                    kind="escape",
                )
            )
            continue
        what = {"A": "army", "M": "militia", "L": "leader"}[p["kind"]]
        events.append(
            public(f"{p['owner']}'s {what} in {p['at']} is destroyed ({why}).", kind="destroyed")
        )
        if p["kind"] == "L":
            events.append(
                public(
                    f"{s['characters'][p['owner']]['name']} ({p['owner']}) is killed.",
                    kind="killed",
                )
            )
    return events


def _heroic_escape(s: State, leader: Mapping[str, Any]) -> bool:
    """Optional rule 1: "Each character is allowed one historic escape from certain
    death if he owns his capital ... The character is then returned to his
    capital only if it is still owned by him." Where he lands must hold him."""
    role = leader["owner"]
    cap = s["capital"][role]
    if not s["options"]["heroic_escape"] or role in s["escaped"] or cap is None:
        return False
    if s["owner"].get(centre_key(cap)) != role or cap in s["destroyed"]:
        return False
    if not rules.may_stack(s, [*rules.pieces_at(s, cap), leader]):
        return False
    s["escaped"] = sorted({*s["escaped"], role})
    s["pieces"].append({**leader, "at": cap})
    sort_pieces(s)
    return True


def _status_orders(s: State, orders: Mapping[Role, Sequence[Action]]) -> list[Event]:
    """Status orders take effect at the start of the campaign they are written in.
    "When one player in an Alliance issues a 'Neutral or War' status order in his
    military campaign the alliance is over.\""""
    events: list[Event] = []
    before = {(a, b): rules.status(s, a, b) for a in s["players"] for b in s["players"] if a < b}
    for role in sorted(orders):
        for a in orders[role]:
            d = a.data
            if d.get("verb") != "status" or role not in rules.active(s):
                continue
            target = str(d["target"])
            if d["status"] == "civil war":
                pair = sorted([role, target])
                if pair not in s["civil_war"]:
                    s["civil_war"].append(pair)
                    s["civil_war"].sort()
                s["stance"][role][target] = "war"
            elif target in s["players"] and sorted([role, target]) in s["civil_war"]:
                continue
            else:
                s["stance"][role][target] = d["status"]
            events.append(public(f"{role} declares {d['status']} towards {target}.", kind="status"))
    for (a, b), was in sorted(before.items()):
        now = rules.status(s, a, b)
        if now != was:
            events.append(
                public(
                    f"{a} and {b} are now at {now}."
                    if now in ("war", "civil war")
                    else f"{a} and {b} are now {'allied' if now == 'alliance' else now}.",
                    kind="status",
                )
            )
        if was == "alliance" and now != "alliance":
            events += _broken_alliance(s, a, b)
    return events


def _broken_alliance(s: State, a: Role, b: Role) -> list[Event]:
    """Optional rule 7: "in the event of one side breaking the alliance the player
    owning the militia or army automatically kills the other leader ... If both
    leaders are alone, then both leaders are sent to their own capital and the
    one without a capital is killed.\""""
    events: list[Event] = []
    for n in sorted({p["at"] for p in s["pieces"]}):
        here = rules.pieces_at(s, n)
        leaders = [p for p in here if p["kind"] == "L" and p["owner"] in (a, b)]
        if len(leaders) < 2:
            continue
        unit = rules.unit_at(s, n)
        if unit is not None:
            victim = next(p for p in leaders if p["owner"] != unit["owner"])
            s["pieces"].remove(victim)
            events += _destroy(s, [victim], f"killed by {unit['owner']} as the alliance broke")
            continue
        for p in leaders:
            s["pieces"].remove(p)
        for p in leaders:
            cap = s["capital"][p["owner"]]
            if (
                cap is not None
                and s["owner"].get(centre_key(cap)) == p["owner"]
                and rules.may_stack(s, [*rules.pieces_at(s, cap), p])
            ):
                s["pieces"].append({**p, "at": cap})
                events.append(public(f"{p['owner']}'s leader returns to the capital {cap}."))
            else:
                events += _destroy(s, [p], "no capital to return to")
    sort_pieces(s)
    return events


def _retreats(
    board: Board, s: State, orders: Mapping[Role, Sequence[Action]]
) -> tuple[State, list[Event]]:
    events: list[Event] = []
    # What became of each dislodged piece, kept with the campaign it
    # followed (``last["retreats"]``) for the report's picture.
    done: list[dict[str, Any]] = []
    chosen: dict[tuple[int, str], dict[str, Any]] = {}
    for role, acts in orders.items():
        for a in acts:
            d = a.data
            chosen[
                (
                    int(d["at"]),
                    "L" if d["kind"] == "L" else "U",
                )
            ] = {**d, "owner": role}
    moving: list[tuple[int, list[dict[str, Any]]]] = []
    for g in s["dislodged"]:
        at, opts = g["at"], g["options"]
        unit = next((p for p in g["pieces"] if p["kind"] != "L"), None)
        leaders = [p for p in g["pieces"] if p["kind"] == "L"]
        u_order = chosen.get((at, "U"))
        if unit is not None and u_order and u_order["verb"] == "disband":
            events.append(
                public(f"{unit['owner']}'s militia in {at} is disbanded.", kind="disbanded")
            )
            done.append(_retreat_entry(unit, at, None, "disbanded"))
            # "This is the only way a Leader Character and a retreating militia may be
            # separated on a retreat."
            for ldr in leaders:
                lo = chosen.get((at, "L"))
                to = int(lo["to"]) if lo and lo["verb"] == "move" else opts[0]
                moving.append((to, [ldr]))
            continue
        if unit is not None:
            # "the player must retreat the Leader Character to the same space as the unit".
            to = int(u_order["to"]) if u_order and u_order["verb"] == "move" else opts[0]
            moving.append((to, [unit, *leaders]))
            continue
        lo = chosen.get((at, "L"))
        to = int(lo["to"]) if lo and lo["verb"] == "move" else opts[0]
        moving.append((to, leaders))
    targets = [to for to, _ in moving]
    for to, group in moving:
        if targets.count(to) > 1:
            events += _destroy(s, group, f"retreats collide in {to}")
            done += [_retreat_entry(p, p["at"], to, "destroyed") for p in group]
            continue
        for p in group:
            done.append(_retreat_entry(p, p["at"], to, "retreats"))
            s["pieces"].append({**p, "at": to})
            events.append(
                public(
                    f"{p['owner']}: {p['kind']}{group[0]['at']} retreats to {to}.",
                    kind="retreat",
                )
            )
    s["dislodged"] = []
    if s["last"] is not None:
        s["last"]["retreats"] = done
    sort_pieces(s)
    events += _after_campaign(board, s)
    return s, events


def _after_campaign(board: Board, s: State) -> list[Event]:
    events = _take_centres(board, s)
    if s["campaign"] == 1:
        s["campaign"] = 2
        s["stage"] = "campaign"
        return events
    # "Supply Adjustments are done after each of the second Military Campaign phases."
    events += _militia_disband(board, s)
    s["stage"] = "adjust"
    if not any(legality._adjust_lines(board, s, r) for r in s["players"]):
        events += _end_great_turn(s)
    return events


def _take_centres(board: Board, s: State) -> list[Event]:
    """An army or militia standing in a support centre takes it for its owner;
    "Players that are allied may have their units in each other's support centers
    without taking control over them"."""
    events: list[Event] = []
    for p in s["pieces"]:
        n = p["at"]
        if p["kind"] == "L" or not rules.is_centre(board, s, n):
            continue
        was = s["owner"].get(centre_key(n))
        if was == p["owner"] or (
            was is not None and rules.status(s, p["owner"], was) == "alliance"
        ):
            continue
        s["owner"][centre_key(n)] = p["owner"]
        events.append(
            public(
                f"{p['owner']} takes {n} ({board.provinces[n].name})"
                + (f" from {was}." if was else "."),
                kind="centre",
            )
        )
    return events


def _militia_disband(board: Board, s: State) -> list[Event]:
    """Optional rule 2: militia outside their kingdom are marked at the first
    adjustment that finds them there and removed at the second, "before the
    ratio of units on board to support centers is made"."""
    events: list[Event] = []
    if not s["options"]["militia_disband"]:
        return events
    keep = []
    for p in s["pieces"]:
        outside = p["kind"] == "M" and board.kingdom_of(p["at"]) != rules.kingdom_of(s, p["owner"])
        if outside and p["marked"]:
            events.append(
                public(
                    f"{p['owner']}'s militia in {p['at']} goes home (disbanded).",
                    kind="disbanded",
                )
            )
            continue
        if outside:
            p["marked"] = True
            events.append(
                public(
                    f"{p['owner']}'s militia in {p['at']} is marked as outside its kingdom.",
                    kind="marked",
                )
            )
        keep.append(p)
    s["pieces"] = keep
    return events


def _adjust(
    board: Board, s: State, orders: Mapping[Role, Sequence[Action]]
) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for role in s["players"]:
        b = rules.balance(s, role)
        acts = [a.data for a in orders.get(role, [])]
        if b > 0:
            armies = 0
            for d in acts:
                if d["verb"] != "build" or b <= 0:
                    continue
                n = int(d["at"])
                if d["kind"] not in rules.build_sites(board, s, role).get(n, []):
                    continue
                if d["kind"] == "A":
                    # "Only one army unit may be built a turn".
                    if armies:
                        continue
                    armies += 1
                s["pieces"].append({"kind": d["kind"], "owner": role, "at": n, "marked": False})
                b -= 1
                events.append(public(f"{role} builds {d['kind']}{n}.", kind="build"))
        elif b < 0:
            for d in acts:
                if d["verb"] != "remove" or b >= 0:
                    continue
                p = next(
                    (
                        q
                        for q in rules.units_of(s, role)
                        if q["kind"] == d["kind"] and q["at"] == d["at"]
                    ),
                    None,
                )
                if p is not None:
                    s["pieces"].remove(p)
                    b += 1
                    events.append(public(f"{role} removes {d['kind']}{d['at']}.", kind="remove"))
            while b < 0:
                # Our rule for removals not ordered: militia before armies, the
                # highest-numbered province first.
                units = sorted(rules.units_of(s, role), key=lambda q: (q["kind"] == "A", -q["at"]))
                s["pieces"].remove(units[0])
                b += 1
                events.append(
                    public(
                        f"{role} removes {units[0]['kind']}{units[0]['at']} (not ordered).",
                        kind="remove",
                    )
                )
    sort_pieces(s)
    events += _end_great_turn(s)
    return s, events


def _end_great_turn(s: State) -> list[Event]:
    s["adjustments"] += 1
    # "A game may be played until ... an agreed time or turn (suggested is three
    # hours or 10 Adjustment periods)." Unsettled Victory: "have the most supply
    # centers at the end of the game."
    if s["adjustments"] >= int(s["options"]["length"]):
        counts = {r: len(rules.centres_of(s, r)) for r in s["players"]}
        top = max(counts.values())
        winners = tuple(r for r in s["players"] if counts[r] == top)
        _, events = _end(s, winners, "unsettled victory: most centres at the agreed end", [])
        return events
    return _start_great_turn(s)


def _end(
    s: State, winners: tuple[Role, ...], reason: str, events: list[Event]
) -> tuple[State, list[Event]]:
    s["stage"] = "over"
    s["dislodged"] = []
    s["result"] = {"winners": list(winners), "draw": len(winners) > 1, "reason": reason}
    events.append(public(f"Game over: {reason}; " + ", ".join(winners) + ".", kind="end"))
    return s, events


def agreed_draw(state: State, roles: Sequence[Role]) -> State:
    """End the game in a draw shared by ``roles`` (all survivors voted DRAW)."""
    s = copy_state(state)
    _end(s, tuple(sorted(roles)), "draw agreed by all survivors", [])
    return s


def _retreat_entry(
    piece: Mapping[str, Any], at: int, to: int | None, result: str
) -> dict[str, Any]:
    """One line of ``last["retreats"]``: ``piece`` dislodged from ``at`` went
    to ``to`` (``retreats``), was destroyed there with another retreating into
    the same province (``destroyed``), or was disbanded (``disbanded``, no
    ``to``)."""
    return {
        "player": piece["owner"],
        "piece": f"{piece['kind']}{at}",
        "from": at,
        "to": to,
        "result": result,
    }
