"""Reading and checking a player's lines (set-up, campaign, status, retreat
and adjustment orders) and listing the legal ones: pure functions of the
board and the state over the grammar of :mod:`judge_games.three_kingdoms.orders`.
"""

from __future__ import annotations

from typing import Any

from judge.game.engine import (
    Action,
    IllegalLine,
    InvalidLine,
    Role,
    RuleError,
    State,
)
from judge_games.diplomacy import spelling
from judge_games.diplomacy.geography import normalize
from judge_games.three_kingdoms import orders as grammar
from judge_games.three_kingdoms.board import KINGDOMS, Board

from . import rules


def parse(board: Board, state: State, role: Role, line: str) -> Action:
    try:
        return _bind(board, state, role, grammar.read(line))
    except grammar.ProvinceName as exc:
        choices = [text for _, text in _renumbered(board, state, role, exc)]
        choices = choices[: spelling.MAX_SUGGESTIONS]
        # No order fits: at least the numbers of the provinces so called.
        named = _named(board, exc.tokens[exc.index])
        numbers = [
            f"{board.provinces[n].name} is {n}"
            for d, n in named[: spelling.MAX_SUGGESTIONS]
            if d == named[0][0]
        ]
        raise grammar.ProvinceName(
            exc.message,
            line=line,
            hint=spelling.hint(choices) or "; ".join(numbers) or exc.hint,
            tokens=exc.tokens,
            index=exc.index,
            choices=choices,
        ) from None
    except RuleError as exc:
        raise exc.with_line(line) from None


def _named(board: Board, word: str) -> list[tuple[int, int]]:
    """(distance, number) of the provinces whose name is ``word`` or close
    to it, nearest first."""
    names = {normalize(p.name): (n,) for n, p in board.provinces.items()}
    return spelling.nearest(normalize(word), names)


def _renumbered(
    board: Board, state: State, role: Role, exc: grammar.ProvinceName, depth: int = 0
) -> list[tuple[int, str]]:
    """What a line naming a province where its number belongs may have
    meant: the canonical texts of the orders ``parse`` accepts now with
    the number of a province whose name is that word, or close to it
    (:func:`spelling.close`), in its place (and, once more, for the next
    such word), each with its edit distance, nearest first."""
    found: dict[str, int] = {}
    for d, n in _named(board, exc.tokens[exc.index])[:5]:
        tokens = [*exc.tokens[: exc.index], str(n), *exc.tokens[exc.index + 1 :]]
        try:
            text = _bind(board, state, role, grammar.read(" ".join(tokens))).text
        except grammar.ProvinceName as again:
            if depth < 1:
                for d2, text in _renumbered(board, state, role, again, depth + 1):
                    if d + d2 < found.get(text, d + d2 + 1):
                        found[text] = d + d2
            continue
        except RuleError:
            continue
        if d < found.get(text, d + 1):
            found[text] = d
    order = {text: i for i, text in enumerate(found)}
    return sorted(((d, t) for t, d in found.items()), key=lambda dt: (dt[0], order[dt[1]]))


def _action(draft: dict[str, Any], key: str | None) -> Action:
    return Action(grammar.canonical(draft), key, draft)


def _target(state: State, role: Role, words: str) -> str:
    """A player (by role or character name) or a kingdom named in an order."""
    want = words.replace(" ", "").lower()
    for r in state["players"]:
        if want in (r.lower(), str(state["characters"][r]["name"]).replace(" ", "").lower()):
            return str(r)
    for k in KINGDOMS:
        if want == k.lower():
            return k
    raise InvalidLine(
        f"no player or kingdom called {words.lower()!r}",
        hint=", ".join([*state["players"], *KINGDOMS]),
    )


def _bind(board: Board, state: State, role: Role, d: dict[str, Any]) -> Action:
    stage = state["stage"]
    verb = d["verb"]
    if role not in state["players"]:
        raise IllegalLine(f"{role} does not play in this game")
    if stage == "over":
        raise IllegalLine("the game is over")
    if verb == "name":
        # "Players may name their characters as they please": during the set-up,
        # on one's turn to place, with a name no other player or kingdom has.
        if stage not in ("capital", "militia"):
            raise IllegalLine("characters are named during the set-up")
        if role != rules._setup_role(state):
            raise IllegalLine(f"it is {rules._setup_role(state)}'s turn in the set-up")
        taken = {k.lower() for k in KINGDOMS} | {r.lower() for r in state["players"]}
        taken |= {
            str(c["name"]).replace(" ", "").lower()
            for r, c in state["characters"].items()
            if r != role
        }
        if d["name"].replace(" ", "").lower() in taken:
            raise IllegalLine(f"the name {d['name']} is taken")
        return _action(d, "name")
    if stage in ("capital", "militia"):
        if verb != stage:
            raise IllegalLine(f"the set-up asks for {stage.upper()} <centre> now")
        if role != rules._setup_role(state):
            raise IllegalLine(f"it is {rules._setup_role(state)}'s turn to place")
        n = int(d["at"])
        if n not in rules._free_centres(board, state, role):
            raise IllegalLine(
                f"{n} is not a free support centre of {rules.kingdom_of(state, role)}",
                hint=" ".join(map(str, rules._free_centres(board, state, role))),
            )
        return _action(d, "setup")
    if stage == "adjust":
        return _bind_adjust(board, state, role, d)
    if stage == "retreat":
        return _bind_retreat(state, role, d)
    return _bind_campaign(board, state, role, d)


def _own_piece(board: Board, state: State, role: Role, kind: str, n: int) -> dict[str, Any]:
    if n not in board.provinces:
        raise InvalidLine(f"there is no province {n}")
    for p in rules.pieces_at(state, n):
        if p["owner"] == role and (p["kind"] == kind):
            return p
    mine = [p for p in rules.pieces_at(state, n) if p["owner"] == role]
    have = ", ".join(f"{p['kind']}{n}" for p in mine)
    raise IllegalLine(f"you have no {kind}{n}", hint=f"you have {have}" if have else "")


def _bind_campaign(board: Board, state: State, role: Role, d: dict[str, Any]) -> Action:
    verb = d["verb"]
    if verb == "militia":  # "MILITIA 6" outside the set-up: that militia defends
        d = {"verb": "defend", "kind": "M", "at": d["at"]}
        verb = "defend"
    if verb == "capital":
        raise IllegalLine("capitals are chosen during the set-up")
    if verb in ("build", "remove", "waive"):
        raise IllegalLine("builds and removals belong to the supply adjustment")
    if verb == "status":
        return _bind_status(state, role, d)
    if verb == "claim":
        return _action(d, "claim")
    if verb == "concede":
        to = _target(state, role, d["to"])
        if to not in state["players"] or to == role:
            raise IllegalLine("concede to another player")
        return _action({**d, "to": to}, "concede")
    if verb == "disband":
        raise IllegalLine("only a dislodged militia disbands, in the retreat phase")
    piece = _own_piece(board, state, role, d["kind"], int(d["at"]))
    key = ("L" if piece["kind"] == "L" else "U") + str(piece["at"])
    n = int(d["at"])
    if verb == "destroy":
        if not state["options"]["capital_destruction"]:
            raise IllegalLine("destruction of a capital is optional rule 5, not in play")
        if piece["kind"] != "A" or n not in state["capital"].values() or n in state["destroyed"]:
            raise IllegalLine("only an army in a capital may destroy it")
        return _action(d, key)
    if verb == "move":
        dest = int(d["to"])
        if not board.adjacent(n, dest):
            raise IllegalLine(f"{dest} is not adjacent to {n}")
        return _action(d, key)
    if verb == "support":
        into = d.get("to")
        tat = int(d["tat"])
        if tat not in board.provinces:
            raise InvalidLine(f"there is no province {tat}")
        targets = [p for p in rules.pieces_at(state, tat) if p["kind"] == d["tkind"]]
        if not targets:
            raise IllegalLine(f"there is no {d['tkind']}{tat} to support")
        if into is None:
            if not board.adjacent(n, tat):
                raise IllegalLine(f"{tat} is not adjacent to {n}")
        else:
            if not board.adjacent(tat, int(into)):
                raise IllegalLine(f"{d['tkind']}{tat} cannot move to {into}")
            if not board.adjacent(n, int(into)):
                raise IllegalLine(
                    f"support is given into an adjacent province: {into} is not adjacent to {n}"
                )
        return _action(d, key)
    return _action(d, key)


def _bind_status(state: State, role: Role, d: dict[str, Any]) -> Action:
    if state["options"]["free_style"]:
        raise IllegalLine("free style diplomacy (optional rule 3): there is no status")
    target = _target(state, role, d["target"])
    status = d["status"]
    if target == role or target == rules.kingdom_of(state, role):
        raise IllegalLine("a status order names another player or a foreign kingdom")
    if target in KINGDOMS and status not in ("war", "neutral"):
        raise IllegalLine("towards a kingdom one is at war or neutral")
    if status == "civil war" and (
        target in KINGDOMS or rules.kingdom_of(state, target) != rules.kingdom_of(state, role)
    ):
        raise IllegalLine("civil war is war with the other player of one's own kingdom")
    if target in state["players"] and sorted([role, target]) in state["civil_war"]:
        # "Once Civil War is declared there can be no peace within the kingdom."
        raise IllegalLine(f"{role} and {target} are in civil war for the rest of the game")
    return _action({**d, "target": target}, f"status:{target}")


def legal(board: Board, state: State, role: Role) -> list[str]:
    stage = state["stage"]
    if stage in ("capital", "militia"):
        if role != rules._setup_role(state):
            return []
        return [f"{stage.upper()} {c}" for c in rules._free_centres(board, state, role)]
    if stage == "campaign":
        return _campaign_lines(board, state, role) if role in rules.active(state) else []
    if stage == "retreat":
        return _retreat_lines(state, role)
    if stage == "adjust":
        return _adjust_lines(board, state, role)
    return []


def _campaign_lines(board: Board, state: State, role: Role) -> list[str]:
    out: list[str] = []
    for p in state["pieces"]:
        if p["owner"] != role:
            continue
        n = p["at"]
        code = f"{p['kind']}{n}"
        out.append(f"{code} D")
        for m in sorted(board.neighbours[n]):
            if rules.entry_refused(board, state, role, m) is None:
                out.append(f"{code}->{m}")
            for q in rules.pieces_at(state, m):
                if not rules.allied(state, role, q["owner"]) and not state["options"]["free_style"]:
                    continue
                out.append(f"{code} S {q['kind']}{m}")
                for t in sorted(board.neighbours[m] & board.neighbours[n]):
                    out.append(f"{code} S {q['kind']}{m}->{t}")
        if (
            p["kind"] == "A"
            and state["options"]["capital_destruction"]
            and n in state["capital"].values()
            and n not in state["destroyed"]
        ):
            out.append(f"{code} DESTROY")
    if not state["options"]["free_style"]:
        for other in state["players"]:
            if other == role or other not in rules.active(state):
                continue
            if sorted([role, other]) in state["civil_war"]:
                continue
            for word in ("WAR", "NEUTRAL", "ALLIANCE"):
                if state["stance"][role].get(other) != word.lower():
                    out.append(f"{word} {other}")
            if rules.kingdom_of(state, other) == rules.kingdom_of(state, role):
                out.append(f"CIVIL WAR {other}")
        for k in KINGDOMS:
            if k != rules.kingdom_of(state, role):
                now = state["stance"][role].get(k)
                out.append(f"NEUTRAL {k}" if now == "war" else f"WAR {k}")
    for v in rules.victories(board, state, role):
        out.append(f"CLAIM {v.upper()}")
    return out


def _retreat_lines(state: State, role: Role) -> list[str]:
    if state["stage"] != "retreat":
        return []
    out: list[str] = []
    for d in state["dislodged"]:
        with_army = any(p["kind"] == "A" for p in d["pieces"])
        for p in d["pieces"]:
            if p["owner"] != role or (p["kind"] == "L" and with_army):
                continue  # a leader retreats with the army it is with
            code = f"{p['kind']}{d['at']}"
            out += [f"{code}->{m}" for m in d["options"]]
            if p["kind"] == "M":
                out.append(f"{code} DISBAND")
    return out


def _bind_retreat(state: State, role: Role, d: dict[str, Any]) -> Action:
    if d["verb"] not in ("move", "disband"):
        raise IllegalLine(
            "in the retreat phase a dislodged piece retreats (A8->4) or a "
            "militia disbands (M8 DISBAND)"
        )
    at = int(d["at"])
    group = next((g for g in state["dislodged"] if g["at"] == at), None)
    if group is None or not any(
        p["owner"] == role and p["kind"] == d["kind"] for p in group["pieces"]
    ):
        raise IllegalLine(f"you have no dislodged {d['kind']}{at}")
    army = next((p for p in group["pieces"] if p["kind"] == "A"), None)
    if d["kind"] == "L" and army is not None:
        # "If there is a Leader Character then the player must retreat the Leader
        # Character to the same space as the unit it is with"; "Army pieces that
        # have a possible retreat will always take that retreat carrying any
        # Leader Character with them."
        whose = "your" if army["owner"] == role else f"{army['owner']}'s"
        raise IllegalLine(
            f"the leader dislodged from {at} retreats with {whose} army there, "
            "not by an order of its own",
            hint=(
                "the leader retreats with the army: order the army's retreat, "
                + " or ".join(f'"A{at}->{m}"' for m in group["options"])
                if army["owner"] == role
                else f"the leader retreats with the army, where {army['owner']} retreats it"
            ),
        )
    if d["verb"] == "disband" and d["kind"] != "M":
        # "Army pieces that have a possible retreat will always take that retreat";
        # "A militia may elect to be removed from retreat".
        raise IllegalLine("only a militia may be removed instead of retreating")
    if d["verb"] == "move" and int(d["to"]) not in group["options"]:
        raise IllegalLine(
            f"{d['kind']}{at} cannot retreat to {d['to']}",
            hint="retreats: " + " ".join(map(str, group["options"])),
        )
    key = ("L" if d["kind"] == "L" else "U") + str(at)
    return _action(d, key)


def _adjust_lines(board: Board, state: State, role: Role) -> list[str]:
    if state["stage"] != "adjust":
        return []
    b = rules.balance(state, role)
    if b > 0:
        sites = rules.build_sites(board, state, role)
        lines = [f"BUILD {k}{n}" for n, kinds in sorted(sites.items()) for k in kinds]
        return [*lines, "WAIVE"] if lines else []
    if b < 0:
        return [f"REMOVE {p['kind']}{p['at']}" for p in rules.units_of(state, role)]
    return []


def _bind_adjust(board: Board, state: State, role: Role, d: dict[str, Any]) -> Action:
    verb = d["verb"]
    b = rules.balance(state, role)
    if verb == "waive":
        if b <= 0:
            raise IllegalLine("you have no build to waive")
        return _action(d, "waive")
    if verb == "build":
        if b <= 0:
            raise IllegalLine("you have no centre without a unit: no build")
        n = int(d["at"])
        kinds = rules.build_sites(board, state, role).get(n)
        if not kinds or d["kind"] not in kinds:
            raise IllegalLine(
                f"you may not build {d['kind']}{n}",
                hint="builds: "
                + " ".join(
                    f"{k}{m}"
                    for m, ks in sorted(rules.build_sites(board, state, role).items())
                    for k in ks
                ),
            )
        return _action(d, f"build:{n}")
    if verb == "remove":
        if b >= 0:
            raise IllegalLine("you have no unit too many")
        _own_piece(board, state, role, d["kind"], int(d["at"]))
        return _action(d, f"remove:{d['at']}")
    raise IllegalLine("the supply adjustment takes BUILD, REMOVE or WAIVE")
