"""The rules of Diplomacy of the Three Kingdoms as questions about a state:
kingdoms, centres, statuses, where a piece may go or support, defence,
stacking, builds and victories. Pure functions of the board and the
state; the rulebook is ``three-kingdoms-diplomacy.txt``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.game.engine import (
    Role,
    State,
)
from judge_games.three_kingdoms.board import Board

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


def centre_key(n: int) -> str:
    return str(n)


def sort_pieces(s: State) -> None:
    order = {"L": 0, "A": 1, "M": 2}
    s["pieces"].sort(key=lambda p: (p["at"], order[p["kind"]], p["owner"]))


def kingdom_of(state: State, role: Role) -> str:
    return str(state["characters"][role]["kingdom"])


def centres_of(state: State, role: Role) -> list[int]:
    return sorted(int(c) for c, r in state["owner"].items() if r == role)


def is_centre(board: Board, state: State, n: int) -> bool:
    return board.provinces[n].centre and n not in state["destroyed"]


def pieces_at(state: State, n: int) -> list[dict[str, Any]]:
    return [p for p in state["pieces"] if p["at"] == n]


def unit_at(state: State, n: int) -> dict[str, Any] | None:
    return next((p for p in state["pieces"] if p["at"] == n and p["kind"] != "L"), None)


def leader_of(state: State, role: Role) -> dict[str, Any] | None:
    return next((p for p in state["pieces"] if p["kind"] == "L" and p["owner"] == role), None)


def active(state: State) -> list[Role]:
    """Players still in the game: with a piece or a centre."""
    have = {p["owner"] for p in state["pieces"]} | set(state["owner"].values())
    return [r for r in state["players"] if r in have]


def status(state: State, a: Role, b: Role) -> str:
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


def allied(state: State, a: Role, b: Role) -> bool:
    return a == b or status(state, a, b) == "alliance"


def kingdom_open(board: Board, state: State, role: Role, kingdom: str) -> bool:
    """May ``role`` enter the unowned provinces of ``kingdom``? "For a Wu player to
    enter the Kingdom of Wei and take control over those centers he must be at
    War with Wei. Once all the Kingdom's support centers are controlled by
    players, then it is no longer necessary to be at War with Wei"."""
    if state["options"]["free_style"] or kingdom == kingdom_of(state, role):
        return True
    if state["stance"][role].get(kingdom) == "war":
        return True
    return all(
        centre_key(c) in state["owner"]
        for c in board.centres(kingdom)
        if is_centre(board, state, c)
    )


def entry_refused(board: Board, state: State, role: Role, n: int) -> str | None:
    """Why diplomacy forbids ``role`` to move into province ``n`` (None: it may)."""
    if state["options"]["free_style"]:
        return None
    owner = state["owner"].get(centre_key(n))
    occupants = {p["owner"] for p in pieces_at(state, n)}
    for other in sorted(({owner} if owner else set()) | occupants):
        if other == role:
            continue
        st = status(state, role, other)
        if st == "neutral":
            # Optional rule 6: "Players may be neutral to each other and still attack
            # and dislodge non-allies in the Neutral provinces".
            if state["options"]["neutral_zone_battles"] and owner != other:
                continue
            # "Player may not move into the provinces of the neutral power."
            return f"{role} is neutral towards {other}"
    kingdom = board.kingdom_of(n)
    if owner is None and kingdom is not None and not kingdom_open(board, state, role, kingdom):
        return f"{role} is not at war with the kingdom of {kingdom}"
    return None


def support_refused(state: State, role: Role, helped: Role, into: int | None) -> str | None:
    """Why diplomacy forbids ``role`` to support a piece of ``helped`` (moving
    ``into`` a province, or defending when None)."""
    if state["options"]["free_style"]:
        return None
    if helped != role and status(state, role, helped) != "alliance":
        # Neutral: "may not receive or give support"; War: "may not support or
        # receive support from the hostile player".
        return f"{role} is not allied to {helped}"
    if into is not None:
        owner = state["owner"].get(centre_key(into))
        # "Allies may not support an attack on a province that is owned by another
        # player that they are neutral or allied to."
        if (
            owner
            and owner not in (role, helped)
            and status(state, role, owner) in ("neutral", "alliance")
        ):
            return f"{role} may not support an attack on a province of {owner}"
    return None


def defence(board: Board, state: State, piece: Mapping[str, Any]) -> int:
    """ "The power of unit in defending is 2 for an Army, 2 for a militia in its own
    original Kingdom's support provinces, 1 for a militia in any other
    province, 1 for a Leader Character"."""
    if piece["kind"] == "M":
        n = int(piece["at"])
        home = board.kingdom_of(n) == kingdom_of(state, piece["owner"])
        return 2 if home and is_centre(board, state, n) else 1
    return STRENGTH[str(piece["kind"])]


def may_stack(state: State, pieces: Sequence[Mapping[str, Any]]) -> bool:
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
        return allied(state, a, b) and (not units or units[0]["owner"] in owners)
    return False


def _phase(state: State) -> str:
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


def _setup_role(state: State) -> Role:
    return str(state["players"][state["setup_turn"] % len(state["players"])])


def _free_centres(board: Board, state: State, role: Role) -> list[int]:
    """Centres of ``role``'s kingdom where set-up may place a piece."""
    if state["stage"] == "capital":
        return [c for c in board.centres(kingdom_of(state, role)) if not pieces_at(state, c)]
    return [
        c
        for c in board.centres(kingdom_of(state, role))
        if unit_at(state, c) is None and all(p["owner"] == role for p in pieces_at(state, c))
    ]


def units_of(state: State, role: Role) -> list[dict[str, Any]]:
    return [p for p in state["pieces"] if p["owner"] == role and p["kind"] != "L"]


def balance(state: State, role: Role) -> int:
    """Centres minus units: "For each support center owned a player may have either
    one army or one militia unit on the board." Leaders need no centre."""
    return len(centres_of(state, role)) - len(units_of(state, role))


def build_sites(board: Board, state: State, role: Role) -> dict[int, list[str]]:
    """Where ``role`` may build and what: militia "only ... in your owned support
    provinces of your home kingdom", an army "only in the character's capital"."""
    out: dict[int, list[str]] = {}
    home = kingdom_of(state, role)
    for n in centres_of(state, role):
        if board.kingdom_of(n) != home or unit_at(state, n) is not None:
            continue
        if not all(p["owner"] == role for p in pieces_at(state, n)):
            continue
        out[n] = ["A", "M"] if n == state["capital"][role] else ["M"]
    return out


def victories(board: Board, state: State, role: Role) -> list[str]:
    """The victories ``role`` could claim now ("A player may claim any of these
    as they occur")."""
    out: list[str] = []
    if state["stage"] not in ("campaign", "retreat", "adjust"):
        return out
    alive = [p["owner"] for p in state["pieces"] if p["kind"] == "L"]
    if alive == [role]:
        out.append("legendary")  # "be the only character left alive"
    mine = centres_of(state, role)
    if all(
        sum(1 for c in mine if board.kingdom_of(c) == k) >= need for k, need in UNIFICATION.items()
    ):
        out.append("unification")
    if len(mine) >= int(state["options"]["destined"]):
        out.append("destined")  # "own 14 centers"
    return out


def survivors(state: State) -> list[Role]:
    """Who must vote for an agreed draw: every player still in the game."""
    return active(state)
