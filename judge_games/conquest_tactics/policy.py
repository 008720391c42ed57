"""The instant window of Conquest Tactics and its standing answers.

Combat, step 2: "After declaring an action, your opponent has the option to
play one instant card, Defensive Spell, or Defensive Skill before attack
damage is dealt"; step 7: the attacker's before the Counterattack. The window
is offered at every action directed at an enemy, whatever the answering
player holds, and stays open its minimum time, so its timing tells nothing.
Each player starts with "DEFEND when the blow is lethal or brings 3 or
more damage, else pass" (:func:`defaults`); ``POLICY instant ASK WHEN CAN``
style answers change it (conditions below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from judge.game.engine import JSON, Decision, IllegalLine, PolicyCondition, WindowSpec, conjuncts
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics import rules
from judge_games.conquest_tactics.table import Ctx, card

if TYPE_CHECKING:
    from judge.game.spec import GameSpec as Game

WINDOWS: tuple[WindowSpec, ...] = (
    WindowSpec("instant", "an enemy action is declared against you (or, as the attacker, a "
               "Counterattack is coming): answer with one instant",
               ("CAST <instant spell> FROM <troop>", "USE <instant skill> FROM <troop>",
                "PLAY <instant circumstance> [DISCARD <cards>]"),
               (PolicyCondition("CAN", "", "I have an instant ready and the points for it "
                                "(chooses an answer only)", private=True),
                PolicyCondition("INCOMING", "<n>", "the incoming damage is at least n"),
                PolicyCondition("LETHAL", "", "the incoming damage would destroy my card"),
                PolicyCondition("STEP", "DEFEND|COUNTER",
                                "before the damage of an action on me, or before the "
                                "Counterattack on my attacker"))),
)


def defaults() -> list[tuple[str, str, str]]:
    """Each player's standing answers until it sends its own: DEFEND (the
    cheapest instant that fits) when the blow would destroy its card or
    brings 3 or more damage, else let it go. Nobody is asked by hand unless
    it asks to be (``POLICY instant ASK``). Whether a seat is asked may not
    depend on what it holds (judge/game/timing.py): ``CAN`` chooses an answer, never a question."""
    return [("instant", "DEFEND", "CAN AND LETHAL"), ("instant", "DEFEND", "CAN AND INCOMING 3"),
            ("instant", "PASS", "")]


def _facts(state: Mapping[str, Any], role: str) -> dict[str, Any]:
    g = Ctx(dict(state))
    a = state["action"]
    step = a["step"]
    if step == "counter":
        d = state["troops"].get(a.get("defender", ""))
        src = state["troops"].get(a.get("source", ""))
        n = g.stat(d, "counter") if d else 0
        space = src["at"] if src else None
        hp = g.health_left(src) if src else 0
        defense = g.stat(src, "defense") if src else 0
    else:
        n = rules.incoming(g, a)
        space = a.get("at")
        t = g.troop_at(space) if space else None
        base = g.base_at(space) if space else None
        if t is not None:
            hp, defense = g.health_left(t), g.stat(t, "defense")
        elif base is not None:
            hp = card(base[1]["card"]).health - base[1]["damage"]
            defense = card(base[1]["card"]).defense
        else:
            hp, defense = 0, 0
    what = "an attack" if a["verb"] == "ATTACK" else card(a["card"]).name
    return {"step": step, "incoming": n, "lethal": n - defense >= hp > 0,
            "what": what, "at": F.to_frame(space, role) if space else None}


def context(state: Mapping[str, Any], role: str) -> dict[str, JSON]:
    """What the window shows the player it asks: public facts only."""
    f = _facts(state, role)
    return {"want": "instant", "step": f["step"], "incoming": f["incoming"],
            "lethal": f["lethal"], "what": f["what"], "at": f["at"]}


def prompt(state: Mapping[str, Any], role: str) -> str:
    f = _facts(state, role)
    where = f" on your card at {f['at']}" if f["at"] else ""
    head = ("the Counterattack" if f["step"] == "counter" else f"{f['what']}") + where
    return (f"{head}, {f['incoming']} incoming damage: CAST or USE an instant FROM a troop, "
            "PLAY an instant circumstance, or PASS")


def condition(game: Game, window: str, words: Sequence[str]) -> str:
    spec = game.window(window)
    if spec is None:
        raise IllegalLine(f"there is no {window} window")
    hint = "conditions: " + ", ".join(f"{c.word} {c.args}".strip() for c in spec.conditions)
    out = []
    for clause in conjuncts(words):
        word = clause[0].upper()
        args = clause[1:]
        if word in ("CAN", "LETHAL") and not args:
            out.append(word)
        elif word == "INCOMING" and len(args) == 1 and args[0].isdigit():
            out.append(f"INCOMING {int(args[0])}")
        elif word == "STEP" and len(args) == 1 and args[0].upper() in ("DEFEND", "COUNTER"):
            out.append(f"STEP {args[0].upper()}")
        else:
            raise IllegalLine(f"{' '.join(clause)!r} is not a condition of {window} windows",
                              hint=hint)
    return " AND ".join(out)


def holds(view: Mapping[str, JSON], decision: Decision, cond: str) -> bool:
    return all(_clause(view, decision, c) for c in cond.split(" AND "))


def _clause(view: Mapping[str, JSON], d: Decision, clause: str) -> bool:
    word, _, arg = clause.partition(" ")
    ctx = d.context
    if word == "CAN":
        you = view.get("you")
        return bool(isinstance(you, Mapping) and you.get("instants"))
    if word == "INCOMING":
        return int(str(ctx.get("incoming", 0))) >= int(arg)
    if word == "LETHAL":
        return bool(ctx.get("lethal"))
    if word == "STEP":
        return str(ctx.get("step", "")).upper() == arg
    return False
