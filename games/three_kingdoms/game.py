"""Diplomacy of the Three Kingdoms (Edi Birsan): the judge's game contract.

The rulebook is ``three-kingdoms-diplomacy.txt``; comments quote it. Where it is
silent the choice made here is written in README.md ("Our readings").

State (plain JSON):

* ``players``: roles ``Player1``..``PlayerN`` in the rulebook's order of play
  ("starting with the youngest player": Player1 is the youngest);
* ``characters``: role -> ``{"name", "kingdom"}`` drawn at random at set-up;
* ``pieces``: ``[{"kind": "A"|"M"|"L", "owner", "at", "marked"}]``;
* ``owner``: centre (as a string) -> role; ``capital``: role -> centre;
* ``stance``: role -> {player or kingdom -> "alliance"|"neutral"|"war"}, what
  each player has declared; ``civil_war``: pairs of roles, never revoked;
* ``stage``: ``capital``, ``militia``, ``campaign``, ``retreat``, ``adjust``, ``over``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.diplomacy import spelling
from games.diplomacy.geography import normalize
from games.diplomacy.orders import MOVE, SUPPORT
from games.diplomacy.resolver import Force, Stacking, Strengths, adjudicate_forces
from games.three_kingdoms import orders as grammar
from games.three_kingdoms.board import BOARD, KINGDOMS, Board
from judge.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    GameBase,
    IllegalLine,
    InvalidLine,
    OptionSpec,
    Outcome,
    Role,
    RuleError,
    State,
    VerbSpec,
    copy_state,
    public,
)
from judge.rng import Rng

SUGGESTED: dict[str, tuple[str, str]] = {
    # "the following is suggested: Wei: Cao Cao, Lv Bu; Shu: Liu Bei, Ma Chao;
    # Wu: Sun Quan, Taishi Ci"
    "Wei": ("Cao Cao", "Lv Bu"),
    "Shu": ("Liu Bei", "Ma Chao"),
    "Wu": ("Sun Quan", "Taishi Ci"),
}
POOL: dict[int, dict[str, int]] = {
    # "For three players use one player from each kingdom. For four player games use
    # two for Wei and one for each of Wu and Shu. For five player games use two for
    # Wei, Wu and one for Shu. For six player games use two for each kingdom."
    3: {"Wei": 1, "Shu": 1, "Wu": 1},
    4: {"Wei": 2, "Shu": 1, "Wu": 1},
    5: {"Wei": 2, "Shu": 1, "Wu": 2},
    6: {"Wei": 2, "Shu": 2, "Wu": 2},
}
STRENGTH = {"A": 2, "M": 1, "L": 1}
"""Army 2, militia 1, leader 1 on attack and support (rulebook, "Move")."""
UNIFICATION = {"Wei": 6, "Shu": 5, "Wu": 5}
""""Six in Wei and 5 in each of the other two Kingdoms"."""
CIVIL_WAR_CENTRES = 6
MILITIA_PER_PLAYER = 2

OPTIONAL_RULES: tuple[tuple[str, str], ...] = (
    ("heroic_escape", "optional rule 1: a leader escapes certain death once, to his capital"),
    ("militia_disband", "optional rule 2: militia outside their kingdom at two adjustments go"),
    ("free_style", "optional rule 3: no alliances, neutrality, war or civil war"),
    ("army_supremacy", "optional rule 4: an army moving onto a friendly militia removes it"),
    ("capital_destruction", "optional rule 5: an army may destroy a capital in two orders"),
    ("neutral_zone_battles", "optional rule 6: neutrals may fight in provinces nobody owns"),
    ("combined_leaders", "optional rule 7: two allied leaders may share a unit's province"),
)


def _key(n: int) -> str:
    return str(n)


@dataclass
class Campaign:
    """What one Military Campaign did to the pieces (by index in ``pieces``)."""

    moved: dict[int, int] = field(default_factory=dict)
    """Piece -> the province it entered."""
    dislodged: dict[int, int] = field(default_factory=dict)
    """Piece -> the province the dislodging force came from."""
    removed: set[int] = field(default_factory=set)
    """Militia removed by army supremacy (optional rule 4)."""
    bounced: set[int] = field(default_factory=set)
    cut: set[int] = field(default_factory=set)
    """Supporting pieces whose support was cut."""
    void: set[int] = field(default_factory=set)
    """Supporting pieces whose support matched no order."""
    standoffs: set[int] = field(default_factory=set)
    """Provinces left empty because movers bounced there (no retreat into them)."""


Piece = Mapping[str, Any]


class _Stacks(Stacking):
    """When a force joins the pieces staying where it moves (the shared
    resolver's hook): when they may share the province, or under optional rule
    4 when an army removes its owner's militia there."""

    def __init__(
        self,
        pieces: Sequence[Piece],
        members: Sequence[Sequence[int]],
        may_stack: Callable[[Sequence[Piece]], bool],
        army_supremacy: bool,
    ) -> None:
        self.pieces = pieces
        self.members = members
        self.may_stack = may_stack
        self.army_supremacy = army_supremacy

    def _split(self, mover: int, staying: Sequence[int]) -> tuple[list[Piece], list[Piece]]:
        moving = [self.pieces[i] for i in self.members[mover]]
        stay = [self.pieces[i] for f in staying for i in self.members[f]]
        return moving, stay

    def joins(self, mover: int, staying: Sequence[int]) -> bool:
        moving, stay = self._split(mover, staying)
        return self.may_stack([*moving, *stay]) or bool(self.supremacy(moving, stay))

    def supremacy(self, moving: Sequence[Piece], stay: Sequence[Piece]) -> list[Piece]:
        """Optional rule 4: "an army moving into a space with a friendly militia will
        dislodge the militia to take dominance in the space": the militia it removes
        (none when the rule is off or the move may not end there even so)."""
        if not self.army_supremacy or not any(p["kind"] == "A" for p in moving):
            return []
        owner = moving[0]["owner"]
        militia = [p for p in stay if p["kind"] == "M" and p["owner"] == owner]
        rest = [p for p in stay if not (p["kind"] == "M" and p["owner"] == owner)]
        return militia if militia and self.may_stack([*moving, *rest]) else []


def adjudicate_campaign(
    pieces: Sequence[Piece],
    orders: Mapping[int, Mapping[str, Any]],
    powers: Sequence[Role],
    defence: Callable[[Piece], int],
    may_stack: Callable[[Sequence[Piece]], bool],
    army_supremacy: bool = False,
) -> Campaign:
    """Resolve one campaign on the shared Diplomacy resolver.

    ``orders`` maps a piece's index to its status-checked order (``{"verb":
    "move", "to": n}``, ``{"verb": "support", "target": piece, "to": n | None}``,
    anything else defends; a piece without one defends). Pieces of one owner in
    one province with the same order form one force: "Pieces move with the power
    of their force (2 for an army, 1 for militia and 1 for a Leader Character)",
    a leader moving with its army adds its strength, and a support given by both
    counts both. ``powers`` numbers the owners; ``defence`` is a piece's strength
    defending; ``may_stack`` says whether pieces may share a province.
    """
    keys: dict[tuple[Any, ...], int] = {}
    members: list[list[int]] = []
    force_of: list[int] = []
    for i, p in enumerate(pieces):
        o = orders.get(i, {})
        verb = o.get("verb")
        if verb == "move":
            key: tuple[Any, ...] = (p["at"], p["owner"], verb, int(o["to"]))
        elif verb == "support":
            to = o.get("to")
            key = (p["at"], p["owner"], verb, int(o["target"]), -1 if to is None else int(to))
        else:
            key = (p["at"], p["owner"])
        f = keys.setdefault(key, len(members))
        if f == len(members):
            members.append([])
        members[f].append(i)
        force_of.append(f)
    forces: list[Force] = []
    for key in keys:
        at, power = int(key[0]), powers.index(key[1])
        if len(key) == 2:
            forces.append(Force(at, power))
        elif key[2] == "move":
            forces.append(Force(at, power, MOVE, key[3]))
        else:
            forces.append(Force(at, power, SUPPORT, key[4], force_of[key[3]]))
    attack = [sum(STRENGTH[str(pieces[i]["kind"])] for i in m) for m in members]
    strengths = Strengths(
        base=[sum(defence(pieces[i]) for i in m) for m in members],
        move_base=attack,
        weight=attack,
        # "A piece that is blocked in its move returns to its space of origin and
        # defends that space."
        beaten_defends=True,
        # "If there are equal forces moving on to a space then that space is not
        # entered into by any of the movers", even by one beaten head to head.
        beaten_prevents=True,
    )
    stacks = _Stacks(pieces, members, may_stack, army_supremacy)
    res = adjudicate_forces(forces, strengths, stacks)
    out = Campaign(standoffs=set(res.contested))
    for f, m in enumerate(members):
        for i in m:
            if f in res.moved:
                out.moved[i] = forces[f].dest
            elif f in res.bounced:
                out.bounced.add(i)
            if f in res.cut:
                out.cut.add(i)
            if f in res.void:
                out.void.add(i)
            if f in res.dislodged:
                out.dislodged[i] = res.dislodged[f]
    for w, staying in res.joined.items():
        moving, stay = stacks._split(w, staying)
        if not may_stack([*moving, *stay]):
            gone = stacks.supremacy(moving, stay)
            out.removed.update(
                i for f in staying for i in members[f] if any(pieces[i] is g for g in gone)
            )
    return out


class ThreeKingdomsGame(GameBase):
    """The game object the registry finds as ``games.three_kingdoms.GAME``."""

    id = "three_kingdoms"
    title = "Diplomacy of the Three Kingdoms"
    aliases: tuple[str, ...] = ("3k", "threekingdoms", "three-kingdoms")
    options: tuple[OptionSpec, ...] = (
        OptionSpec("players", 6, "number of players (3-6)", (3, 4, 5, 6)),
        OptionSpec("length", 10, "adjustment periods before an unsettled victory"),
        OptionSpec("destined", 14, "centres for a Destined Victor"),
        *(OptionSpec(name, False, text) for name, text in OPTIONAL_RULES),
    )
    verbs: tuple[VerbSpec, ...] = (
        VerbSpec(
            "CAPITAL <centre>", "set-up: place your leader and army (your capital)", "CAPITAL 8"
        ),
        VerbSpec(
            "MILITIA <centre>", "set-up: place a militia in a centre of your kingdom", "MILITIA 6"
        ),
        VerbSpec("NAME <name>", "set-up: rename your character", "NAME Cao Mengde"),
        VerbSpec("<piece><p>-><q>", "move a piece (A army, M militia, L leader)", "A8->5"),
        VerbSpec("<piece><p> S <piece><q>[-><r>]", "support a move or a defender", "L8 S M7->6"),
        VerbSpec("<piece><p> D", "defend (the default)", "A8 D"),
        VerbSpec("<piece><p> DISBAND", "retreat phase: remove a dislodged militia", "M7 DISBAND"),
        VerbSpec(
            "A<p> DESTROY", "optional rule 5: destroy the capital the army sits in", "A8 DESTROY"
        ),
        VerbSpec(
            "WAR|NEUTRAL|ALLIANCE|CIVIL WAR <player or kingdom>",
            "a status order, in effect from this campaign",
            "WAR Player2",
        ),
        VerbSpec(
            "CLAIM LEGENDARY|UNIFICATION|DESTINED", "claim a victory that holds", "CLAIM DESTINED"
        ),
        VerbSpec("CONCEDE <player>", "concede the game to a player", "CONCEDE Player1"),
        VerbSpec("BUILD A|M<centre>", "adjustment: build a unit", "BUILD M6"),
        VerbSpec("REMOVE A|M<p>", "adjustment: remove a unit", "REMOVE M7"),
        VerbSpec("WAIVE", "adjustment: build nothing", "WAIVE"),
    )
    view_schema = "three-kingdoms-view.schema.json"
    playthrough_options: Mapping[str, JSON] = {"length": 3}
    # The contract suite plays each number of players to a victory. Random
    # orders rarely reach 14 centres, so those runs lower the Destined mark
    # (an option of the game) and play longer: most end in a claimed Destined
    # victory, the rest in an unsettled one.
    victory_playthroughs: tuple[Mapping[str, JSON], ...] = tuple(
        {"players": n, "length": 12, "destined": 7} for n in (3, 4, 5, 6)
    )

    def __init__(self, board: Board = BOARD) -> None:
        self.board = board

    # ================================================================== set-up

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        """The Standard Start: characters are drawn at random (the committed seed
        stands for the bag), then players place capitals and militia in turn."""
        opts = {o.name: options.get(o.name, o.default) for o in self.options}
        n = int(opts["players"])
        if n not in POOL:
            raise ValueError("Diplomacy of the Three Kingdoms takes 3 to 6 players")
        if int(opts["length"]) < 1 or int(opts["destined"]) < 1:
            raise ValueError("length and destined must be at least 1")
        players = [f"Player{i}" for i in range(1, n + 1)]
        # "Each of the players pick one character at random starting with the youngest."
        bag: list[tuple[str, int]] = []
        for k in KINGDOMS:
            if POOL[n][k] == 2:
                bag += [(k, 0), (k, 1)]
            else:  # which of the kingdom's two characters goes into the bag
                bag.append((k, rng.below(2, "characters")))
        rng.shuffle(bag, "characters")
        characters = {
            r: {"name": SUGGESTED[k][i], "kingdom": k}
            for r, (k, i) in zip(players, bag, strict=True)
        }
        stance: dict[str, dict[str, str]] = {}
        for r in players:
            stance[r] = {}
            for o in players:
                if o != r:
                    # "When there are 2 players in the same kingdom, the players start
                    # in this status [alliance] automatically."
                    same = characters[r]["kingdom"] == characters[o]["kingdom"]
                    stance[r][o] = "alliance" if same else "neutral"
            for k in KINGDOMS:
                if k != characters[r]["kingdom"]:
                    stance[r][k] = "neutral"
        return {
            "options": opts,
            "players": players,
            "characters": characters,
            "stage": "capital",
            "setup_turn": 0,
            "turn": 0,
            "campaign": 0,
            "pieces": [],
            "owner": {},
            "capital": {r: None for r in players},
            "stance": stance,
            "civil_war": [],
            "dislodged": [],
            "escaped": [],
            "destroying": {},
            "destroyed": [],
            "adjustments": 0,
            "last": None,
            "result": None,
        }

    def roles(self, state: State) -> list[Role]:
        return list(state["players"])

    # ================================================================== queries

    def kingdom(self, state: State, role: Role) -> str:
        return str(state["characters"][role]["kingdom"])

    def centres_of(self, state: State, role: Role) -> list[int]:
        return sorted(int(c) for c, r in state["owner"].items() if r == role)

    def is_centre(self, state: State, n: int) -> bool:
        return self.board.provinces[n].centre and n not in state["destroyed"]

    def pieces_at(self, state: State, n: int) -> list[dict[str, Any]]:
        return [p for p in state["pieces"] if p["at"] == n]

    def unit_at(self, state: State, n: int) -> dict[str, Any] | None:
        return next((p for p in state["pieces"] if p["at"] == n and p["kind"] != "L"), None)

    def leader_of(self, state: State, role: Role) -> dict[str, Any] | None:
        return next((p for p in state["pieces"] if p["kind"] == "L" and p["owner"] == role), None)

    def active(self, state: State) -> list[Role]:
        """Players still in the game: with a piece or a centre."""
        have = {p["owner"] for p in state["pieces"]} | set(state["owner"].values())
        return [r for r in state["players"] if r in have]

    def status(self, state: State, a: Role, b: Role) -> str:
        """The status between two players: ``civil war``, ``war``, ``alliance`` or
        ``neutral``. "Both players must have the allied status to each other";
        a declaration of war by either side makes war."""
        if state["options"]["free_style"]:
            return "free"
        if sorted([a, b]) in state["civil_war"]:
            return "civil war"
        sa, sb = state["stance"][a].get(b), state["stance"][b].get(a)
        if "war" in (sa, sb):
            return "war"
        if sa == sb == "alliance":
            return "alliance"
        return "neutral"

    def allied(self, state: State, a: Role, b: Role) -> bool:
        return a == b or self.status(state, a, b) == "alliance"

    def kingdom_open(self, state: State, role: Role, kingdom: str) -> bool:
        """May ``role`` enter the unowned provinces of ``kingdom``? "For a Wu player to
        enter the Kingdom of Wei and take control over those centers he must be at
        War with Wei. Once all the Kingdom's support centers are controlled by
        players, then it is no longer necessary to be at War with Wei"."""
        if state["options"]["free_style"] or kingdom == self.kingdom(state, role):
            return True
        if state["stance"][role].get(kingdom) == "war":
            return True
        return all(
            _key(c) in state["owner"]
            for c in self.board.centres(kingdom)
            if self.is_centre(state, c)
        )

    def entry_refused(self, state: State, role: Role, n: int) -> str | None:
        """Why diplomacy forbids ``role`` to move into province ``n`` (None: it may)."""
        if state["options"]["free_style"]:
            return None
        owner = state["owner"].get(_key(n))
        occupants = {p["owner"] for p in self.pieces_at(state, n)}
        for other in sorted(({owner} if owner else set()) | occupants):
            if other == role:
                continue
            st = self.status(state, role, other)
            if st == "neutral":
                # Optional rule 6: "Players may be neutral to each other and still attack
                # and dislodge non-allies in the Neutral provinces".
                if state["options"]["neutral_zone_battles"] and owner != other:
                    continue
                # "Player may not move into the provinces of the neutral power."
                return f"{role} is neutral towards {other}"
        kingdom = self.board.kingdom_of(n)
        if owner is None and kingdom is not None and not self.kingdom_open(state, role, kingdom):
            return f"{role} is not at war with the kingdom of {kingdom}"
        return None

    def support_refused(
        self, state: State, role: Role, helped: Role, into: int | None
    ) -> str | None:
        """Why diplomacy forbids ``role`` to support a piece of ``helped`` (moving
        ``into`` a province, or defending when None)."""
        if state["options"]["free_style"]:
            return None
        if helped != role and self.status(state, role, helped) != "alliance":
            # Neutral: "may not receive or give support"; War: "may not support or
            # receive support from the hostile player".
            return f"{role} is not allied to {helped}"
        if into is not None:
            owner = state["owner"].get(_key(into))
            # "Allies may not support an attack on a province that is owned by another
            # player that they are neutral or allied to."
            if (
                owner
                and owner not in (role, helped)
                and self.status(state, role, owner) in ("neutral", "alliance")
            ):
                return f"{role} may not support an attack on a province of {owner}"
        return None

    def defence(self, state: State, piece: Mapping[str, Any]) -> int:
        """ "The power of unit in defending is 2 for an Army, 2 for a militia in its own
        original Kingdom's support provinces, 1 for a militia in any other
        province, 1 for a Leader Character"."""
        if piece["kind"] == "M":
            n = int(piece["at"])
            home = self.board.kingdom_of(n) == self.kingdom(state, piece["owner"])
            return 2 if home and self.is_centre(state, n) else 1
        return STRENGTH[str(piece["kind"])]

    def may_stack(self, state: State, pieces: Sequence[Mapping[str, Any]]) -> bool:
        """ "There can only be one army or militia piece in a space at a time. There
        can only be one character in a province and he may only be in a province
        with one of his own pieces." Optional rule 7 lets two allied leaders share a
        province with an army or militia of one of them."""
        units = [p for p in pieces if p["kind"] != "L"]
        leaders = [p for p in pieces if p["kind"] == "L"]
        owners = {p["owner"] for p in leaders}
        if len(units) > 1:
            return False
        if not leaders:
            return True
        if len(leaders) == 1:
            return not units or units[0]["owner"] == leaders[0]["owner"]
        if len(leaders) == 2 and len(owners) == 2 and state["options"]["combined_leaders"]:
            a, b = sorted(owners)
            return self.allied(state, a, b) and (not units or units[0]["owner"] in owners)
        return False

    # ================================================================== decisions

    def _phase(self, state: State) -> str:
        stage = state["stage"]
        if stage == "capital":
            return f"set-up: {state['players'][state['setup_turn']]} places a capital"
        if stage == "militia":
            n = len(state["players"])
            who = state["players"][state["setup_turn"] % n]
            return f"set-up: {who} places militia {state['setup_turn'] // n + 1}"
        if stage == "over":
            return "game over"
        base = f"Great Turn {state['turn']}"
        if stage == "adjust":
            return f"{base}, supply adjustments"
        name = f"{base}, campaign {state['campaign']}"
        return name + (", retreats" if stage == "retreat" else "")

    def _setup_role(self, state: State) -> Role:
        return str(state["players"][state["setup_turn"] % len(state["players"])])

    def pending(self, state: State) -> list[Decision]:
        stage = state["stage"]
        phase = self._phase(state)
        if stage == "capital":
            return [
                Decision(
                    DecisionKind.ACTION,
                    (self._setup_role(state),),
                    phase,
                    prompt="CAPITAL <centre of your kingdom>",
                    default="the lowest-numbered free centre",
                )
            ]
        if stage == "militia":
            return [
                Decision(
                    DecisionKind.ACTION,
                    (self._setup_role(state),),
                    phase,
                    prompt="MILITIA <centre of your kingdom>",
                    default="the lowest-numbered free centre",
                )
            ]
        if stage == "campaign":
            roles = tuple(r for r in self.active(state) if self._campaign_lines(state, r))
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="orders for your pieces and status orders",
                    default="every piece defends",
                )
            ]
        if stage == "retreat":
            roles = tuple(r for r in state["players"] if self._retreat_lines(state, r))
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="retreat your dislodged pieces",
                    default="each piece takes its first retreat",
                )
            ]
        if stage == "adjust":
            roles = tuple(r for r in state["players"] if self._adjust_lines(state, r))
            return [
                Decision(
                    DecisionKind.ORDERS,
                    roles,
                    phase,
                    prompt="build or remove units",
                    default="builds waived, removals chosen by the judge",
                )
            ]
        return []

    def default(self, state: State, decision: Decision, role: Role) -> Action | None:
        if state["stage"] in ("capital", "militia") and role == self._setup_role(state):
            free = self._free_centres(state, role)
            if free:
                return self.parse(state, role, f"{state['stage'].upper()} {free[0]}")
        return None

    def _free_centres(self, state: State, role: Role) -> list[int]:
        """Centres of ``role``'s kingdom where set-up may place a piece."""
        if state["stage"] == "capital":
            return [
                c
                for c in self.board.centres(self.kingdom(state, role))
                if not self.pieces_at(state, c)
            ]
        return [
            c
            for c in self.board.centres(self.kingdom(state, role))
            if self.unit_at(state, c) is None
            and all(p["owner"] == role for p in self.pieces_at(state, c))
        ]

    # ================================================================== parsing

    def parse(self, state: State, role: Role, line: str) -> Action:
        try:
            return self._bind(state, role, grammar.read(line))
        except grammar.ProvinceName as exc:
            choices = [text for _, text in self._renumbered(state, role, exc)]
            choices = choices[: spelling.MAX_SUGGESTIONS]
            # No order fits: at least the numbers of the provinces so called.
            named = self._named(exc.tokens[exc.index])
            numbers = [
                f"{self.board.provinces[n].name} is {n}"
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

    def _named(self, word: str) -> list[tuple[int, int]]:
        """(distance, number) of the provinces whose name is ``word`` or close
        to it, nearest first."""
        names = {normalize(p.name): (n,) for n, p in self.board.provinces.items()}
        return spelling.nearest(normalize(word), names)

    def _renumbered(
        self, state: State, role: Role, exc: grammar.ProvinceName, depth: int = 0
    ) -> list[tuple[int, str]]:
        """What a line naming a province where its number belongs may have
        meant: the canonical texts of the orders ``parse`` accepts now with
        the number of a province whose name is that word, or close to it
        (:func:`spelling.close`), in its place (and, once more, for the next
        such word), each with its edit distance, nearest first."""
        found: dict[str, int] = {}
        for d, n in self._named(exc.tokens[exc.index])[:5]:
            tokens = [*exc.tokens[: exc.index], str(n), *exc.tokens[exc.index + 1 :]]
            try:
                text = self._bind(state, role, grammar.read(" ".join(tokens))).text
            except grammar.ProvinceName as again:
                if depth < 1:
                    for d2, text in self._renumbered(state, role, again, depth + 1):
                        if d + d2 < found.get(text, d + d2 + 1):
                            found[text] = d + d2
                continue
            except RuleError:
                continue
            if d < found.get(text, d + 1):
                found[text] = d
        order = {text: i for i, text in enumerate(found)}
        return sorted(((d, t) for t, d in found.items()), key=lambda dt: (dt[0], order[dt[1]]))

    def _action(self, draft: dict[str, Any], key: str | None) -> Action:
        return Action(grammar.canonical(draft), key, draft)

    def _target(self, state: State, role: Role, words: str) -> str:
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

    def _bind(self, state: State, role: Role, d: dict[str, Any]) -> Action:
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
            if role != self._setup_role(state):
                raise IllegalLine(f"it is {self._setup_role(state)}'s turn in the set-up")
            taken = {k.lower() for k in KINGDOMS} | {r.lower() for r in state["players"]}
            taken |= {
                str(c["name"]).replace(" ", "").lower()
                for r, c in state["characters"].items()
                if r != role
            }
            if d["name"].replace(" ", "").lower() in taken:
                raise IllegalLine(f"the name {d['name']} is taken")
            return self._action(d, "name")
        if stage in ("capital", "militia"):
            if verb != stage:
                raise IllegalLine(f"the set-up asks for {stage.upper()} <centre> now")
            if role != self._setup_role(state):
                raise IllegalLine(f"it is {self._setup_role(state)}'s turn to place")
            n = int(d["at"])
            if n not in self._free_centres(state, role):
                raise IllegalLine(
                    f"{n} is not a free support centre of {self.kingdom(state, role)}",
                    hint=" ".join(map(str, self._free_centres(state, role))),
                )
            return self._action(d, "setup")
        if stage == "adjust":
            return self._bind_adjust(state, role, d)
        if stage == "retreat":
            return self._bind_retreat(state, role, d)
        return self._bind_campaign(state, role, d)

    def _own_piece(self, state: State, role: Role, kind: str, n: int) -> dict[str, Any]:
        if n not in self.board.provinces:
            raise InvalidLine(f"there is no province {n}")
        for p in self.pieces_at(state, n):
            if p["owner"] == role and (p["kind"] == kind):
                return p
        mine = [p for p in self.pieces_at(state, n) if p["owner"] == role]
        have = ", ".join(f"{p['kind']}{n}" for p in mine)
        raise IllegalLine(f"you have no {kind}{n}", hint=f"you have {have}" if have else "")

    def _bind_campaign(self, state: State, role: Role, d: dict[str, Any]) -> Action:
        verb = d["verb"]
        if verb == "militia":  # "MILITIA 6" outside the set-up: that militia defends
            d = {"verb": "defend", "kind": "M", "at": d["at"]}
            verb = "defend"
        if verb == "capital":
            raise IllegalLine("capitals are chosen during the set-up")
        if verb in ("build", "remove", "waive"):
            raise IllegalLine("builds and removals belong to the supply adjustment")
        if verb == "status":
            return self._bind_status(state, role, d)
        if verb == "claim":
            return self._action(d, "claim")
        if verb == "concede":
            to = self._target(state, role, d["to"])
            if to not in state["players"] or to == role:
                raise IllegalLine("concede to another player")
            return self._action({**d, "to": to}, "concede")
        if verb == "disband":
            raise IllegalLine("only a dislodged militia disbands, in the retreat phase")
        piece = self._own_piece(state, role, d["kind"], int(d["at"]))
        key = ("L" if piece["kind"] == "L" else "U") + str(piece["at"])
        n = int(d["at"])
        if verb == "destroy":
            if not state["options"]["capital_destruction"]:
                raise IllegalLine("destruction of a capital is optional rule 5, not in play")
            if (
                piece["kind"] != "A"
                or n not in state["capital"].values()
                or n in state["destroyed"]
            ):
                raise IllegalLine("only an army in a capital may destroy it")
            return self._action(d, key)
        if verb == "move":
            dest = int(d["to"])
            if not self.board.adjacent(n, dest):
                raise IllegalLine(f"{dest} is not adjacent to {n}")
            return self._action(d, key)
        if verb == "support":
            into = d.get("to")
            tat = int(d["tat"])
            if tat not in self.board.provinces:
                raise InvalidLine(f"there is no province {tat}")
            targets = [p for p in self.pieces_at(state, tat) if p["kind"] == d["tkind"]]
            if not targets:
                raise IllegalLine(f"there is no {d['tkind']}{tat} to support")
            if into is None:
                if not self.board.adjacent(n, tat):
                    raise IllegalLine(f"{tat} is not adjacent to {n}")
            else:
                if not self.board.adjacent(tat, int(into)):
                    raise IllegalLine(f"{d['tkind']}{tat} cannot move to {into}")
                if not self.board.adjacent(n, int(into)):
                    raise IllegalLine(
                        f"support is given into an adjacent province: {into} is not adjacent to {n}"
                    )
            return self._action(d, key)
        return self._action(d, key)

    def _bind_status(self, state: State, role: Role, d: dict[str, Any]) -> Action:
        if state["options"]["free_style"]:
            raise IllegalLine("free style diplomacy (optional rule 3): there is no status")
        target = self._target(state, role, d["target"])
        status = d["status"]
        if target == role or target == self.kingdom(state, role):
            raise IllegalLine("a status order names another player or a foreign kingdom")
        if target in KINGDOMS and status not in ("war", "neutral"):
            raise IllegalLine("towards a kingdom one is at war or neutral")
        if status == "civil war" and (
            target in KINGDOMS or self.kingdom(state, target) != self.kingdom(state, role)
        ):
            raise IllegalLine("civil war is war with the other player of one's own kingdom")
        if target in state["players"] and sorted([role, target]) in state["civil_war"]:
            # "Once Civil War is declared there can be no peace within the kingdom."
            raise IllegalLine(f"{role} and {target} are in civil war for the rest of the game")
        return self._action({**d, "target": target}, f"status:{target}")

    # ================================================================== legal lines

    def legal(self, state: State, role: Role) -> list[str]:
        stage = state["stage"]
        if stage in ("capital", "militia"):
            if role != self._setup_role(state):
                return []
            return [f"{stage.upper()} {c}" for c in self._free_centres(state, role)]
        if stage == "campaign":
            return self._campaign_lines(state, role) if role in self.active(state) else []
        if stage == "retreat":
            return self._retreat_lines(state, role)
        if stage == "adjust":
            return self._adjust_lines(state, role)
        return []

    def _campaign_lines(self, state: State, role: Role) -> list[str]:
        out: list[str] = []
        for p in state["pieces"]:
            if p["owner"] != role:
                continue
            n = p["at"]
            code = f"{p['kind']}{n}"
            out.append(f"{code} D")
            for m in sorted(self.board.neighbours[n]):
                if self.entry_refused(state, role, m) is None:
                    out.append(f"{code}->{m}")
                for q in self.pieces_at(state, m):
                    if (
                        not self.allied(state, role, q["owner"])
                        and not state["options"]["free_style"]
                    ):
                        continue
                    out.append(f"{code} S {q['kind']}{m}")
                    for t in sorted(self.board.neighbours[m] & self.board.neighbours[n]):
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
                if other == role or other not in self.active(state):
                    continue
                if sorted([role, other]) in state["civil_war"]:
                    continue
                for word in ("WAR", "NEUTRAL", "ALLIANCE"):
                    if state["stance"][role].get(other) != word.lower():
                        out.append(f"{word} {other}")
                if self.kingdom(state, other) == self.kingdom(state, role):
                    out.append(f"CIVIL WAR {other}")
            for k in KINGDOMS:
                if k != self.kingdom(state, role):
                    now = state["stance"][role].get(k)
                    out.append(f"NEUTRAL {k}" if now == "war" else f"WAR {k}")
        for v in self.victories(state, role):
            out.append(f"CLAIM {v.upper()}")
        return out

    # ================================================================== campaign

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        s = copy_state(state)
        stage = s["stage"]
        if stage == "campaign":
            return self._campaign(s, orders)
        if stage == "retreat":
            return self._retreats(s, orders)
        if stage == "adjust":
            return self._adjust(s, orders)
        raise IllegalLine("no order set is due now")

    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        s = copy_state(state)
        d = dict(action.data)
        if s["stage"] not in ("capital", "militia"):
            raise IllegalLine("no single action is due now", line=action.text)
        self.parse(s, role, action.text)  # still legal here? (raises if not)
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
            s["owner"][_key(n)] = role
            s["setup_turn"] += 1
            text = f"{role} ({s['characters'][role]['name']}) takes {n} as capital."
            if s["setup_turn"] == len(s["players"]):
                s["stage"], s["setup_turn"] = "militia", 0
        else:
            # "the youngest player then places a Militia unit in one of the centers in his
            # kingdom. This is repeated until each player has 2 militia".
            s["pieces"].append({"kind": "M", "owner": role, "at": n, "marked": False})
            s["owner"][_key(n)] = role
            s["setup_turn"] += 1
            text = f"{role} places a militia in {n}."
            if s["setup_turn"] == MILITIA_PER_PLAYER * len(s["players"]):
                events = self._start_great_turn(s)
                events.append(public("The set-up is complete: Great Turn 1 begins."))
        _sort(s)
        return s, [public(text), *events]

    def _start_great_turn(self, s: State) -> list[Event]:
        s["turn"] += 1
        s["campaign"] = 1
        s["stage"] = "campaign"
        return self._automatic_civil_war(s)

    def _automatic_civil_war(self, s: State) -> list[Event]:
        """ "if at the start of the first negotiation phase a faction in a kingdom reaches
        6 centers there is an automatic state of Civil War in that kingdom"."""
        events: list[Event] = []
        if s["options"]["free_style"]:
            return events
        for k in KINGDOMS:
            faction = [r for r in s["players"] if s["characters"][r]["kingdom"] == k]
            if not any(len(self.centres_of(s, r)) >= CIVIL_WAR_CENTRES for r in faction):
                continue
            for i, a in enumerate(faction):
                for b in faction[i + 1 :]:
                    if sorted([a, b]) not in s["civil_war"]:
                        was = self.status(s, a, b)
                        s["civil_war"].append(sorted([a, b]))
                        events.append(public(f"Civil war in {k}: {a} and {b}.", kind="civil war"))
                        if was == "alliance":
                            events += self._broken_alliance(s, a, b)
        s["civil_war"].sort()
        return events

    def _campaign(
        self, s: State, orders: Mapping[Role, Sequence[Action]]
    ) -> tuple[State, list[Event]]:
        events: list[Event] = []
        active = self.active(s)
        # Claims and concessions are judged on the position the orders were written on.
        claims = {
            r: str(a.data["victory"])
            for r, acts in orders.items()
            for a in acts
            if a.data.get("verb") == "claim" and r in active
        }
        valid = {r: v for r, v in claims.items() if v in self.victories(s, r)}
        for r, v in sorted(claims.items()):
            if r not in valid:
                events.append(
                    public(f"{r} claims a {v} victory, which does not hold.", kind="ignored")
                )
        if valid:
            rank = {"legendary": 0, "unification": 1, "destined": 2}
            best = min(rank[v] for v in valid.values())
            winners = tuple(sorted(r for r, v in valid.items() if rank[v] == best))
            kind = next(v for v in valid.values() if rank[v] == best)
            return self._end(s, winners, f"{kind} victory claimed", events)
        conceded = {
            r: str(a.data["to"])
            for r, acts in orders.items()
            for a in acts
            if a.data.get("verb") == "concede" and r in active
        }
        for to in sorted(set(conceded.values())):
            others = [r for r in active if r != to]
            if to in active and others and all(conceded.get(r) == to for r in others):
                return self._end(s, (to,), "unanimous concession", events)
        if conceded:
            events.append(public("Concessions were made but not by all: the game goes on."))
        events += self._status_orders(s, orders)
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
                why = self._order_refused(s, role, d)
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
                piece_orders[i] = self._resolver_order(s, role, d)
        res = adjudicate_campaign(
            s["pieces"],
            piece_orders,
            s["players"],
            defence=lambda p: self.defence(s, p),
            may_stack=lambda group: self.may_stack(s, group),
            army_supremacy=bool(s["options"]["army_supremacy"]),
        )
        entries = self._report_entries(s, texts, piece_orders, res)
        events += self._apply_campaign(s, piece_orders, res)
        s["last"] = {"title": self._phase(s), "entries": entries}
        events.append(public(f"{self._phase(s)} resolved.", kind="resolved"))
        if s["dislodged"]:
            s["stage"] = "retreat"
            return s, events
        events += self._after_campaign(s)
        return s, events

    def _order_refused(self, s: State, role: Role, d: Mapping[str, Any]) -> str | None:
        if d["verb"] == "move":
            return self.entry_refused(s, role, int(d["to"]))
        if d["verb"] == "support":
            target = self._support_target(s, role, d)
            if target is None:
                return "nothing to support"
            to = d.get("to")
            helped = s["pieces"][target]["owner"]
            return self.support_refused(s, role, helped, None if to is None else int(to))
        return None

    def _support_target(self, s: State, role: Role, d: Mapping[str, Any]) -> int | None:
        """The piece a support names: ``role``'s own when it has one of that kind
        there (two leaders may share a province under optional rule 7), else the
        first in board order."""
        found = [
            i for i, p in enumerate(s["pieces"]) if p["at"] == d["tat"] and p["kind"] == d["tkind"]
        ]
        own = [i for i in found if s["pieces"][i]["owner"] == role]
        pick = own or found
        return pick[0] if pick else None

    def _resolver_order(self, s: State, role: Role, d: Mapping[str, Any]) -> dict[str, Any]:
        if d["verb"] == "move":
            return {"verb": "move", "to": int(d["to"])}
        if d["verb"] == "support":
            return {
                "verb": "support",
                "target": self._support_target(s, role, d),
                "to": d.get("to"),
            }
        return {"verb": "defend", "destroy": d["verb"] == "destroy"}

    def _report_entries(
        self,
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
        self, s: State, orders: Mapping[int, Mapping[str, Any]], res: Campaign
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
                before = s["destroying"].get(_key(p["at"]))
                count = before["count"] + 1 if before and before["owner"] == p["owner"] else 1
                if count >= 2:
                    events += self._destroy_capital(s, int(p["at"]))
                else:
                    destroying[_key(p["at"])] = {"owner": p["owner"], "count": count}
        s["destroying"] = destroying
        s["dislodged"] = []
        for at, group in sorted(dislodged.items()):
            opts = self._retreat_options(s, group, at, attackers[at], res.standoffs)
            if opts:
                s["dislodged"].append(
                    {"at": at, "from": attackers[at], "pieces": group, "options": opts}
                )
            else:
                events += self._destroy(s, group, "dislodged with nowhere to retreat")
        _sort(s)
        return events

    def _destroy_capital(self, s: State, n: int) -> list[Event]:
        s["destroyed"] = sorted({*s["destroyed"], n})
        s["owner"].pop(_key(n), None)
        return [
            public(
                f"The capital {n} ({self.board.provinces[n].name}) is destroyed and is no "
                "longer a support centre.",
                kind="destroyed",
            )
        ]

    def _retreat_options(
        self,
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
            for m in sorted(self.board.neighbours[at])
            if m != attacker
            and m not in standoffs
            and not self.pieces_at(s, m)
            and self.entry_refused(s, owner, m) is None
        ]

    def _destroy(self, s: State, group: Sequence[Mapping[str, Any]], why: str) -> list[Event]:
        events: list[Event] = []
        for p in group:
            if p["kind"] == "L" and self._heroic_escape(s, p):
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
                public(
                    f"{p['owner']}'s {what} in {p['at']} is destroyed ({why}).", kind="destroyed"
                )
            )
            if p["kind"] == "L":
                events.append(
                    public(
                        f"{s['characters'][p['owner']]['name']} ({p['owner']}) is killed.",
                        kind="killed",
                    )
                )
        return events

    def _heroic_escape(self, s: State, leader: Mapping[str, Any]) -> bool:
        """Optional rule 1: "Each character is allowed one historic escape from certain
        death if he owns his capital ... The character is then returned to his
        capital only if it is still owned by him." Where he lands must hold him."""
        role = leader["owner"]
        cap = s["capital"][role]
        if not s["options"]["heroic_escape"] or role in s["escaped"] or cap is None:
            return False
        if s["owner"].get(_key(cap)) != role or cap in s["destroyed"]:
            return False
        if not self.may_stack(s, [*self.pieces_at(s, cap), leader]):
            return False
        s["escaped"] = sorted({*s["escaped"], role})
        s["pieces"].append({**leader, "at": cap})
        _sort(s)
        return True

    # ================================================================== status

    def _status_orders(self, s: State, orders: Mapping[Role, Sequence[Action]]) -> list[Event]:
        """Status orders take effect at the start of the campaign they are written in.
        "When one player in an Alliance issues a 'Neutral or War' status order in his
        military campaign the alliance is over.\""""
        events: list[Event] = []
        before = {(a, b): self.status(s, a, b) for a in s["players"] for b in s["players"] if a < b}
        for role in sorted(orders):
            for a in orders[role]:
                d = a.data
                if d.get("verb") != "status" or role not in self.active(s):
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
                events.append(
                    public(f"{role} declares {d['status']} towards {target}.", kind="status")
                )
        for (a, b), was in sorted(before.items()):
            now = self.status(s, a, b)
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
                events += self._broken_alliance(s, a, b)
        return events

    def _broken_alliance(self, s: State, a: Role, b: Role) -> list[Event]:
        """Optional rule 7: "in the event of one side breaking the alliance the player
        owning the militia or army automatically kills the other leader ... If both
        leaders are alone, then both leaders are sent to their own capital and the
        one without a capital is killed.\""""
        events: list[Event] = []
        for n in sorted({p["at"] for p in s["pieces"]}):
            here = self.pieces_at(s, n)
            leaders = [p for p in here if p["kind"] == "L" and p["owner"] in (a, b)]
            if len(leaders) < 2:
                continue
            unit = self.unit_at(s, n)
            if unit is not None:
                victim = next(p for p in leaders if p["owner"] != unit["owner"])
                s["pieces"].remove(victim)
                events += self._destroy(
                    s, [victim], f"killed by {unit['owner']} as the alliance broke"
                )
                continue
            for p in leaders:
                s["pieces"].remove(p)
            for p in leaders:
                cap = s["capital"][p["owner"]]
                if (
                    cap is not None
                    and s["owner"].get(_key(cap)) == p["owner"]
                    and self.may_stack(s, [*self.pieces_at(s, cap), p])
                ):
                    s["pieces"].append({**p, "at": cap})
                    events.append(public(f"{p['owner']}'s leader returns to the capital {cap}."))
                else:
                    events += self._destroy(s, [p], "no capital to return to")
        _sort(s)
        return events

    # ================================================================== retreats

    def _retreat_lines(self, state: State, role: Role) -> list[str]:
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

    def _bind_retreat(self, state: State, role: Role, d: dict[str, Any]) -> Action:
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
        return self._action(d, key)

    def _retreats(
        self, s: State, orders: Mapping[Role, Sequence[Action]]
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
                events += self._destroy(s, group, f"retreats collide in {to}")
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
        _sort(s)
        events += self._after_campaign(s)
        return s, events

    # ================================================================== after a campaign

    def _after_campaign(self, s: State) -> list[Event]:
        events = self._take_centres(s)
        if s["campaign"] == 1:
            s["campaign"] = 2
            s["stage"] = "campaign"
            return events
        # "Supply Adjustments are done after each of the second Military Campaign phases."
        events += self._militia_disband(s)
        s["stage"] = "adjust"
        if not any(self._adjust_lines(s, r) for r in s["players"]):
            events += self._end_great_turn(s)
        return events

    def _take_centres(self, s: State) -> list[Event]:
        """An army or militia standing in a support centre takes it for its owner;
        "Players that are allied may have their units in each other's support centers
        without taking control over them"."""
        events: list[Event] = []
        for p in s["pieces"]:
            n = p["at"]
            if p["kind"] == "L" or not self.is_centre(s, n):
                continue
            was = s["owner"].get(_key(n))
            if was == p["owner"] or (
                was is not None and self.status(s, p["owner"], was) == "alliance"
            ):
                continue
            s["owner"][_key(n)] = p["owner"]
            events.append(
                public(
                    f"{p['owner']} takes {n} ({self.board.provinces[n].name})"
                    + (f" from {was}." if was else "."),
                    kind="centre",
                )
            )
        return events

    def _militia_disband(self, s: State) -> list[Event]:
        """Optional rule 2: militia outside their kingdom are marked at the first
        adjustment that finds them there and removed at the second, "before the
        ratio of units on board to support centers is made"."""
        events: list[Event] = []
        if not s["options"]["militia_disband"]:
            return events
        keep = []
        for p in s["pieces"]:
            outside = p["kind"] == "M" and self.board.kingdom_of(p["at"]) != self.kingdom(
                s, p["owner"]
            )
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

    # ================================================================== adjustments

    def units_of(self, state: State, role: Role) -> list[dict[str, Any]]:
        return [p for p in state["pieces"] if p["owner"] == role and p["kind"] != "L"]

    def balance(self, state: State, role: Role) -> int:
        """Centres minus units: "For each support center owned a player may have either
        one army or one militia unit on the board." Leaders need no centre."""
        return len(self.centres_of(state, role)) - len(self.units_of(state, role))

    def build_sites(self, state: State, role: Role) -> dict[int, list[str]]:
        """Where ``role`` may build and what: militia "only ... in your owned support
        provinces of your home kingdom", an army "only in the character's capital"."""
        out: dict[int, list[str]] = {}
        home = self.kingdom(state, role)
        for n in self.centres_of(state, role):
            if self.board.kingdom_of(n) != home or self.unit_at(state, n) is not None:
                continue
            if not all(p["owner"] == role for p in self.pieces_at(state, n)):
                continue
            out[n] = ["A", "M"] if n == state["capital"][role] else ["M"]
        return out

    def _adjust_lines(self, state: State, role: Role) -> list[str]:
        if state["stage"] != "adjust":
            return []
        b = self.balance(state, role)
        if b > 0:
            sites = self.build_sites(state, role)
            lines = [f"BUILD {k}{n}" for n, kinds in sorted(sites.items()) for k in kinds]
            return [*lines, "WAIVE"] if lines else []
        if b < 0:
            return [f"REMOVE {p['kind']}{p['at']}" for p in self.units_of(state, role)]
        return []

    def _bind_adjust(self, state: State, role: Role, d: dict[str, Any]) -> Action:
        verb = d["verb"]
        b = self.balance(state, role)
        if verb == "waive":
            if b <= 0:
                raise IllegalLine("you have no build to waive")
            return self._action(d, "waive")
        if verb == "build":
            if b <= 0:
                raise IllegalLine("you have no centre without a unit: no build")
            n = int(d["at"])
            kinds = self.build_sites(state, role).get(n)
            if not kinds or d["kind"] not in kinds:
                raise IllegalLine(
                    f"you may not build {d['kind']}{n}",
                    hint="builds: "
                    + " ".join(
                        f"{k}{m}"
                        for m, ks in sorted(self.build_sites(state, role).items())
                        for k in ks
                    ),
                )
            return self._action(d, f"build:{n}")
        if verb == "remove":
            if b >= 0:
                raise IllegalLine("you have no unit too many")
            self._own_piece(state, role, d["kind"], int(d["at"]))
            return self._action(d, f"remove:{d['at']}")
        raise IllegalLine("the supply adjustment takes BUILD, REMOVE or WAIVE")

    def _adjust(
        self, s: State, orders: Mapping[Role, Sequence[Action]]
    ) -> tuple[State, list[Event]]:
        events: list[Event] = []
        for role in s["players"]:
            b = self.balance(s, role)
            acts = [a.data for a in orders.get(role, [])]
            if b > 0:
                armies = 0
                for d in acts:
                    if d["verb"] != "build" or b <= 0:
                        continue
                    n = int(d["at"])
                    if d["kind"] not in self.build_sites(s, role).get(n, []):
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
                            for q in self.units_of(s, role)
                            if q["kind"] == d["kind"] and q["at"] == d["at"]
                        ),
                        None,
                    )
                    if p is not None:
                        s["pieces"].remove(p)
                        b += 1
                        events.append(
                            public(f"{role} removes {d['kind']}{d['at']}.", kind="remove")
                        )
                while b < 0:
                    # Our rule for removals not ordered: militia before armies, the
                    # highest-numbered province first.
                    units = sorted(
                        self.units_of(s, role), key=lambda q: (q["kind"] == "A", -q["at"])
                    )
                    s["pieces"].remove(units[0])
                    b += 1
                    events.append(
                        public(
                            f"{role} removes {units[0]['kind']}{units[0]['at']} (not ordered).",
                            kind="remove",
                        )
                    )
        _sort(s)
        events += self._end_great_turn(s)
        return s, events

    def _end_great_turn(self, s: State) -> list[Event]:
        s["adjustments"] += 1
        # "A game may be played until ... an agreed time or turn (suggested is three
        # hours or 10 Adjustment periods)." Unsettled Victory: "have the most supply
        # centers at the end of the game."
        if s["adjustments"] >= int(s["options"]["length"]):
            counts = {r: len(self.centres_of(s, r)) for r in s["players"]}
            top = max(counts.values())
            winners = tuple(r for r in s["players"] if counts[r] == top)
            _, events = self._end(
                s, winners, "unsettled victory: most centres at the agreed end", []
            )
            return events
        return self._start_great_turn(s)

    # ================================================================== victory

    def victories(self, state: State, role: Role) -> list[str]:
        """The victories ``role`` could claim now ("A player may claim any of these
        as they occur")."""
        out: list[str] = []
        if state["stage"] not in ("campaign", "retreat", "adjust"):
            return out
        alive = [p["owner"] for p in state["pieces"] if p["kind"] == "L"]
        if alive == [role]:
            out.append("legendary")  # "be the only character left alive"
        mine = self.centres_of(state, role)
        if all(
            sum(1 for c in mine if self.board.kingdom_of(c) == k) >= need
            for k, need in UNIFICATION.items()
        ):
            out.append("unification")
        if len(mine) >= int(state["options"]["destined"]):
            out.append("destined")  # "own 14 centers"
        return out

    def _end(
        self, s: State, winners: tuple[Role, ...], reason: str, events: list[Event]
    ) -> tuple[State, list[Event]]:
        s["stage"] = "over"
        s["dislodged"] = []
        s["result"] = {"winners": list(winners), "draw": len(winners) > 1, "reason": reason}
        events.append(public(f"Game over: {reason}; " + ", ".join(winners) + ".", kind="end"))
        return s, events

    def survivors(self, state: State) -> list[Role]:
        """Who must vote for an agreed draw: every player still in the game."""
        return self.active(state)

    def agreed_draw(self, state: State, roles: Sequence[Role]) -> State:
        """End the game in a draw shared by ``roles`` (all survivors voted DRAW)."""
        s = copy_state(state)
        self._end(s, tuple(sorted(roles)), "draw agreed by all survivors", [])
        return s

    def outcome(self, state: State) -> Outcome | None:
        r = state.get("result")
        if not r:
            return None
        return Outcome(tuple(r["winners"]), bool(r["draw"]), str(r["reason"]))

    # ================================================================== view

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """Everything is public in this game except orders not yet resolved, which
        the judge holds outside the state."""
        players = []
        for r in state["players"]:
            c = state["characters"][r]
            players.append(
                {
                    "role": r,
                    "character": c["name"],
                    "kingdom": c["kingdom"],
                    "capital": state["capital"][r],
                    "centres": len(self.centres_of(state, r)),
                    "units": len(self.units_of(state, r)),
                    "leader": self.leader_of(state, r) is not None,
                    "balance": self.balance(state, r) if state["stage"] == "adjust" else 0,
                    "to_order": any(r in d.roles for d in self.pending(state)),
                }
            )
        status = []
        if not state["options"]["free_style"]:
            for i, a in enumerate(state["players"]):
                for b in state["players"][i + 1 :]:
                    status.append({"a": a, "b": b, "status": self.status(state, a, b)})
        return {
            "game": self.id,
            "phase": self._phase(state),
            "role": role,
            "stage": state["stage"],
            "turn": state["turn"],
            "campaign": state["campaign"],
            "options": dict(state["options"]),
            "players": players,
            "pieces": [
                {"kind": p["kind"], "owner": p["owner"], "at": p["at"], "marked": p["marked"]}
                for p in state["pieces"]
            ],
            "owner": dict(state["owner"]),
            "status": status,
            "at_war_with_kingdoms": {
                r: sorted(k for k in KINGDOMS if state["stance"][r].get(k) == "war")
                for r in state["players"]
            },
            "dislodged": copy.deepcopy(state["dislodged"]),
            "destroyed": list(state["destroyed"]),
            "adjustments": state["adjustments"],
            "last": copy.deepcopy(state["last"]),
            "result": copy.deepcopy(state["result"]),
        }


def _retreat_entry(
    piece: Mapping[str, Any], at: int, to: int | None, result: str
) -> dict[str, Any]:
    """One line of ``last["retreats"]``: ``piece`` dislodged from ``at`` went
    to ``to`` (``retreats``), was destroyed there with another retreating into
    the same province (``destroyed``), or was disbanded (``disbanded``, no
    ``to``)."""
    return {"player": piece["owner"], "piece": f"{piece['kind']}{at}", "from": at,
            "to": to, "result": result}


def _sort(s: State) -> None:
    order = {"L": 0, "A": 1, "M": 2}
    s["pieces"].sort(key=lambda p: (p["at"], order[p["kind"]], p["owner"]))
