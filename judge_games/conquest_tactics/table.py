"""The state of a game of Conquest Tactics and its small moves: the field,
the troops and their stats, the piles, damage and destruction.

The state is plain JSON:

``p[role]``
    each player's piles: ``supply`` (face down, order hidden), ``hand``,
    ``discard`` (face up), ``removed`` (out of the game), ``knowledge`` (the
    Knowledge Pool: ``{"card", "up"}``), ``victories`` (``{"card", "done"}``,
    face up), ``trophy_pile`` and ``trophies`` (drawn, in hand, face up), the
    Tactical Points slider ``tp`` and its value ``slider`` at the beginning
    of the Resupply phase, ``credit`` (points made by discarding in this
    Mobilize phase), ``destroyed`` (points and count of enemy troops this
    player destroyed).
``troops``
    ``uid -> {"card", "under", "owner", "at", "damage", "equip", "buff",
    "debuff", "origin", "mods", "flags"}``: a troop on the field; ``card`` is
    the top card, ``under`` the cards it was upgraded from, ``origin`` the
    level it was first placed at.
``bases``
    ``role -> {"card", "at", "damage", "alive"}``.
``todo``, ``asks``
    the decision kernel's frames and asks (judge/game/flow.py; the states and
    answers are in turns.py). ``stage`` names the part of the turn the game
    is in, for the views and the reports; what comes next and who decides
    is kept by the kernel.

Every space is in South's frame (see field.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypedDict, cast

from judge.game import flow
from judge.game.engine import State, copy_state
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL, Card, Effect

Troop = dict[str, Any]


class Table(TypedDict):
    """The top level of a game's state (see above)."""

    stage: str
    options: dict[str, Any]
    turn: int
    initiative: str
    actor: str | None
    mover: str | None
    deployer: str | None
    passes: int
    serial: int
    """The number of the decision open (or last open): the reports name a
    decision by it, and the kernel's asks carry it."""
    uid: int
    follow: str | None
    action: dict[str, Any] | None
    window: dict[str, Any] | None
    p: dict[str, dict[str, Any]]
    troops: dict[str, Troop]
    bases: dict[str, dict[str, Any]]
    result: dict[str, Any] | None
    todo: list[flow.Frame]
    asks: list[flow.Ask]


def as_state(table: Table) -> State:
    """The typed top level as the plain JSON state the judge stores."""
    return cast(State, table)


def playing(state: State) -> bool:
    return bool(state["stage"] != "over")


WHAT = {"decks": "deck lists", "forces": "Base and starting forces", "deploy": "deployment",
        "up": "Up the Field", "mobilize": "Mobilize", "play": "Play",
        "follow": "Play (after a move)", "window": "an instant"}
"""What each kind of ask decides (the kernel's public ``what``)."""
ACTING = {"deploy": "deployer", "up": "mover", "play": "actor", "follow": "actor"}
"""The one player a decision of these kinds asks (a key of the state)."""


def current(s: State) -> State:
    """``s`` with the kernel's frames and asks: ``s`` itself, or, for a state
    saved before the game ran on the kernel (a ``stage`` and no frames), a
    copy with the frames and asks its stage stood for."""
    if "asks" in s:
        return s
    new = copy_state(s)
    restore(new)
    return new


def restore(s: State) -> None:
    """Give a state of the old shape the frames and asks of its ``stage``,
    as the kernel would have left them: the decision it waited for, under
    its own number; an instant window above the suspended action it answers
    (the action's own decision came just before the window at step 2, and
    before that window's at step 7, the Counterattack's)."""
    s["todo"], s["asks"] = [], []
    stage = s["stage"]
    serial = s["serial"]

    def asked(kind: str, roles: list[str], **spec: Any) -> None:
        s["asks"].append({"kind": kind, "roles": roles, "what": WHAT[kind], "serial": serial,
                          "open": True, **spec})

    if stage in ("decks", "forces"):
        asked(stage, list(F.ROLES))
    elif stage == "mobilize":
        asked(stage, [r for r in F.ROLES if not s["p"][r]["done"]])
    elif stage in ACTING:
        asked(stage, [s[ACTING[stage]]])
    elif stage == "window":
        kind = "follow" if s["follow"] else "play"
        under = serial - (2 if s["window"]["step"] == "counter" else 1)
        s["asks"].append({"kind": kind, "roles": [], "what": WHAT[kind], "serial": under,
                          "open": False})
        s["todo"].append({"t": flow.REOPEN, "serial": under})
        asked("window", [s["window"]["role"]], step=s["window"]["step"])
    elif stage == "halt":
        s["todo"].append({"t": "turn"})


RULES: flow.Rules[Ctx] = flow.Rules("Conquest Tactics", playing=playing, current=current)
"""The turn as the decision kernel runs it: states and answers in turns.py."""

HAND_SIZE = 5
"""Resupply: "until they have a five card hand (excluding Trophies)"."""
VICTORIES_TO_WIN = 3
"""Victory: "achieve three Victory Conditions before your opponent"."""
DISCARD_POINTS = 2
"""Mobilize: "Each card discarded is worth two Tactical Points"."""
BASE_DEFENSE_BONUS = 1
"""Setup: "Troops that are positioned on the Base receive a +1 Defense bonus"."""


def card(cid: str) -> Card:
    return POOL.card(cid)


def tp_for_turn(turn: int) -> int:
    """T - Tactical Points: five in the first turn, two more each turn after."""
    return 5 + 2 * (turn - 1)


class Ctx(flow.Ctx):
    """A state being changed, the randomness for it and the events it makes:
    the kernel's context (frames, asks, the one event writer) with the
    game's small moves."""

    rules = RULES

    def everyone(self) -> list[str]:
        return list(F.ROLES)

    def next_serial(self) -> int:
        """An ask carries the number of its decision (``serial``, counted on
        as each decision begins: rules.new_decision), which the reports show."""
        serial: int = self.s["serial"]
        return serial

    # ------------------------------------------------------------ lookups

    def p(self, role: str) -> dict[str, Any]:
        player: dict[str, Any] = self.s["p"][role]
        return player

    def troops(self, role: str | None = None) -> Iterator[Troop]:
        """The troops (of ``role``) in the order they were placed, whatever
        the order of the state's keys (a stored state's keys come back
        sorted as text, "t10" before "t9"; a replay keeps them as made):
        what depends on the order (debuffs going home at the Halt) is the
        same both ways."""
        for t in sorted(self.s["troops"].values(), key=lambda t: int(t["uid"][1:])):
            if role is None or t["owner"] == role:
                yield t

    def troop_at(self, space: str) -> Troop | None:
        for t in self.s["troops"].values():
            if t["at"] == space:
                found: Troop = t
                return found
        return None

    def base_at(self, space: str) -> tuple[str, dict[str, Any]] | None:
        for role, b in self.s["bases"].items():
            if b["alive"] and b["at"] == space:
                return role, b
        return None

    def on_own_base(self, t: Troop) -> bool:
        b = self.s["bases"].get(t["owner"])
        return bool(b and b["alive"] and b["at"] == t["at"])

    def open_for(self, role: str, space: str) -> bool:
        """Move: "Units may only move to open, adjacent spaces or onto a
        friendly base"; an opposing base blocks the path (Up the Field)."""
        if self.troop_at(space) is not None:
            return False
        base = self.base_at(space)
        return base is None or base[0] == role

    def blocked_for(self, role: str) -> Any:
        """Line of sight for ``role``: spaces holding an enemy troop block it
        ("Friendly units do not block line of sight")."""
        def blocked(space: str) -> bool:
            t = self.troop_at(space)
            return t is not None and t["owner"] != role
        return blocked

    # ------------------------------------------------------------ stats

    def effects_on(self, t: Troop) -> Iterator[Effect]:
        """Every modifier that applies to a troop now: its own static
        abilities, its equipment, its buff and debuff, the turn's modifiers
        from circumstances and trophies, and its base's abilities."""
        c = card(t["card"])
        for ab in c.abilities:
            if ab.when == "static" or (ab.when == "on_base" and self.on_own_base(t)):
                yield from (e for e in ab.effects if e.on == "self")
        for eid in t["equip"].values():
            yield from card(eid).effects
        for slot in ("buff", "debuff"):
            if t[slot]:
                yield from card(t[slot]["card"]).effects
        for m in t["mods"]:
            yield Effect("modify", "self", stat=m["stat"], by=m["by"])
        b = self.s["bases"].get(t["owner"])
        if b and b["alive"]:
            for ab in card(b["card"]).abilities:
                if ab.when == "static" or (ab.when == "on_base" and b["at"] == t["at"]):
                    yield from (e for e in ab.effects if e.on in ("all_friendly", "self"))

    def stat(self, t: Troop, name: str) -> int:
        c = card(t["card"])
        value = {"health": c.health, "defense": c.defense, "attack": c.attack,
                 "counter": c.counter, "attack_cost": c.attack_cost,
                 "range": c.range_max, "movement": c.movement}[name]
        for e in self.effects_on(t):
            if e.kind == "modify" and e.stat == name:
                value += e.by
        if name == "defense" and self.on_own_base(t):
            value += BASE_DEFENSE_BONUS
        floor = 1 if name == "health" else 0
        return max(floor, value)

    def range_of(self, t: Troop) -> tuple[int, int]:
        c = card(t["card"])
        top = self.stat(t, "range")
        return min(c.range_min, top), top

    def jumps(self, t: Troop) -> bool:
        return any(e.kind == "jump" for e in self.effects_on(t)) or any(
            e.kind == "jump" for ab in card(t["card"]).abilities for e in ab.effects)

    def health_left(self, t: Troop) -> int:
        return self.stat(t, "health") - int(t["damage"])

    # ------------------------------------------------------------ labels

    def label(self, t: Troop) -> str:
        c = card(t["card"])
        return f"{t['owner']}'s {c.name} (level {c.level}) at {F.mark(t['at'])}"

    # ------------------------------------------------------------ piles

    def draw(self, role: str, n: int) -> int:
        """Draw ``n`` cards from the supply pile (fewer if it runs out: the
        rulebook does not reshuffle the discard pile, nor do we)."""
        p = self.p(role)
        got = []
        for _ in range(n):
            if not p["supply"]:
                break
            got.append(p["supply"].pop(0))
        p["hand"].extend(got)
        if got:
            self.only(role, "You draw " + ", ".join(card(x).name for x in got) + ".")
        return len(got)

    def new_uid(self) -> str:
        self.s["uid"] += 1
        return f"t{self.s['uid']}"

    def place(self, role: str, cid: str, space: str) -> Troop:
        c = card(cid)
        t: Troop = {"uid": self.new_uid(), "card": cid, "under": [], "owner": role,
                    "at": space, "damage": 0, "equip": {}, "buff": None, "debuff": None,
                    "origin": c.level, "mods": [], "flags": {}}
        self.s["troops"][t["uid"]] = t
        for ab in c.abilities:
            if ab.when == "deploy":
                for e in ab.effects:
                    self.apply_simple(role, e, t, self.pick(role, e.on, space) or t)
        return t

    def pick(self, role: str, on: str, origin: str) -> Troop | None:
        """The one troop an ability without a named target acts on (ours:
        the rulebook leaves it to the card): ``enemy``, the enemy troop nearest
        to ``origin``; ``friendly``, the most damaged own troop; ties go to the
        space first in A1, B1 ... order."""
        if on == "enemy":
            foes = list(self.troops(F.other(role)))
            if not foes:
                return None
            return min(foes, key=lambda t: (F.distance(origin, t["at"]), F.xy(t["at"])[::-1]))
        if on == "friendly":
            mine = list(self.troops(role))
            if not mine:
                return None
            return min(mine, key=lambda t: (-int(t["damage"]), F.xy(t["at"])[::-1]))
        return None

    # ------------------------------------------------------------ damage

    def defense_of(self, space: str) -> int:
        t = self.troop_at(space)
        if t is not None:
            return self.stat(t, "defense")
        base = self.base_at(space)
        return card(base[1]["card"]).defense if base else 0

    def deal(self, by: str, space: str, incoming: int, *, pierce: bool = False,
             what: str = "") -> int:
        """Dealing Damage: the unit "should subtract its Defense ... from the
        incoming damage"; damage reaches a Base only once no troop stands on
        it (Setup). Returns the damage dealt."""
        t = self.troop_at(space)
        base = self.base_at(space)
        defense = 0 if pierce else self.defense_of(space)
        dealt = max(0, incoming - defense)
        tail = f" ({what})" if what else ""
        if t is not None:
            t["damage"] += dealt
            self.pub(f"{self.label(t)} takes {dealt} damage{tail}: {incoming} incoming"
                     + ("" if pierce else f", defense {defense}") + ".")
            if self.health_left(t) <= 0:
                self.destroy(t, by)
        elif base is not None:
            owner, b = base
            b["damage"] += dealt
            hp = card(b["card"]).health
            self.pub(f"{owner}'s base at {F.mark(space)} takes {dealt} damage{tail}: "
                     f"{b['damage']} of {hp}.")
            if b["damage"] >= hp:
                b["alive"] = False
                self.pub(f"{owner}'s base is destroyed.")
        return dealt

    def destroy(self, t: Troop, by: str) -> None:
        """A destroyed troop's cards go to its owner's discard pile, its
        Equipment "is destroyed as well", its Buff and Debuff "return to the
        Knowledge Pool" of whoever cast them (Cast Spell)."""
        owner = t["owner"]
        p = self.p(owner)
        p["discard"].extend([*t["under"], t["card"], *t["equip"].values()])
        for slot in ("buff", "debuff"):
            if t[slot]:
                self.p(t[slot]["by"])["knowledge"].append({"card": t[slot]["card"], "up": False})
        del self.s["troops"][t["uid"]]
        self.pub(f"{owner}'s {card(t['card']).name} at {F.mark(t['at'])} is destroyed.")
        if by != owner:
            d = self.p(by)["destroyed"]
            d["points"] += card(t["card"]).cost
            d["troops"] += 1

    def heal(self, t: Troop, amount: int) -> None:
        healed = min(amount, int(t["damage"]))
        t["damage"] -= healed
        if healed:
            self.pub(f"{self.label(t)} heals {healed}.")

    def push_back(self, t: Troop) -> None:
        """The push effect: one space towards its owner's edge, if open."""
        x, y = F.xy(t["at"])
        y += -1 if t["owner"] == F.SOUTH else 1
        if F.on_field(x, y) and self.open_for(t["owner"], F.name(x, y)):
            t["at"] = F.name(x, y)
            self.pub(f"{t['owner']}'s {card(t['card']).name} is pushed back to "
                     f"{F.mark(t['at'])}.")

    def apply_simple(self, role: str, e: Effect, source: Troop | None,
                     target: Troop | None) -> None:
        """An effect that needs no window: heal, modify (for the turn), tp,
        draw, push. Damage and the instants' effects are settled by the
        combat steps (rules.py)."""
        whom = self.whom(role, e, source, target)
        if e.kind == "tp":
            self.p(role)["tp"] += e.amount
            self.pub(f"{role} gains {e.amount} Tactical Points ({self.p(role)['tp']}).")
        elif e.kind == "draw":
            n = self.draw(role, e.amount)
            self.pub(f"{role} draws {n} card{'s' if n != 1 else ''}.")
        for t in whom:
            if e.kind == "heal":
                self.heal(t, e.amount)
            elif e.kind == "modify":
                t["mods"].append({"stat": e.stat, "by": e.by})
                self.pub(f"{self.label(t)}: {e.stat.replace('_', ' ')} {e.by:+d} this turn.")
            elif e.kind == "push":
                self.push_back(t)

    def whom(self, role: str, e: Effect, source: Troop | None,
             target: Troop | None) -> list[Troop]:
        if e.on == "self":
            return [source] if source is not None else []
        if e.on in ("target", "friendly", "enemy"):
            return [target] if target is not None else []
        if e.on == "all_friendly":
            return list(self.troops(role))
        if e.on == "all_enemy":
            return list(self.troops(F.other(role)))
        return []

    # ------------------------------------------------------------ knowledge

    def pool_entry(self, role: str, cid: str, *, up: bool = True) -> dict[str, Any] | None:
        for k in self.p(role)["knowledge"]:
            if k["card"] == cid and (k["up"] or not up):
                entry: dict[str, Any] = k
                return entry
        return None


def hand_numbers(p: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The hand as the player's reports number it: ``listed`` is the hand as
    it stood when the player's current decision began (the request listed
    it so), and each card keeps that number while the decision lasts, though
    cards before it leave the hand (DISCARD 2 after DISCARD 1 in one mail is
    still the report's second card); a card that came to the hand since is
    numbered after them."""
    hand = list(p["hand"])
    left = list(hand)
    out: list[tuple[int, str]] = []
    listed = p.get("listed")
    if listed is None:
        listed = hand
    for i, cid in enumerate(listed, 1):
        if cid in left:
            left.remove(cid)
            out.append((i, cid))
    n = len(listed)
    for cid in left:
        n += 1
        out.append((n, cid))
    return out


def fresh_player(faction: str, deck_name: str) -> dict[str, Any]:
    return {"faction": faction, "deck": deck_name, "supply": [], "hand": [], "discard": [],
            "removed": [], "knowledge": [], "victories": [], "trophy_pile": [],
            "trophies": [], "tp": 0, "slider": 0, "credit": 0, "forces": None,
            "destroyed": {"points": 0, "troops": 0}, "done": False}


def jsonable(value: Mapping[str, Any]) -> dict[str, Any]:
    return dict(value)
