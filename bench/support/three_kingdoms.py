"""Positions for the Three Kingdoms tests, arranged by hand from a real set-up.

:func:`position` starts from ``GAME.setup`` and then puts characters, pieces,
centres and statuses where a test wants them, as the campaign of Great Turn 1
begins. :func:`play` parses each player's lines against the position (as the
judge does) and resolves the order set.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from judge.game.engine import Action, Event, State
from judge.game.rng import Rng
from judge_games.three_kingdoms import GAME, RULES
from judge_games.three_kingdoms.rules import SUGGESTED

SEED = hashlib.sha256(b"three-kingdoms tests").digest()


def rng() -> Rng:
    return Rng(SEED)


def position(
    kingdoms: Mapping[str, str],
    pieces: Mapping[str, str],
    *,
    owner: Mapping[str, Iterable[int]] | None = None,
    capital: Mapping[str, int] | None = None,
    war: Iterable[tuple[str, str]] = (),
    alliance: Iterable[tuple[str, str]] = (),
    kingdom_war: Iterable[tuple[str, str]] = (),
    **options: Any,
) -> State:
    """A campaign-1 position. ``kingdoms``: role -> kingdom, in seat order (roles
    must be Player1..PlayerN). ``pieces``: role -> ``"L8 A8 M6"``. Unless
    ``owner`` says otherwise, each player owns the centres its army or militia
    stand on; its capital is where its leader stands if that is a centre."""
    state = GAME.setup({"players": len(kingdoms), **options}, rng())
    assert list(kingdoms) == state["players"]
    seen: dict[str, int] = {}
    for role, k in kingdoms.items():
        state["characters"][role] = {"name": SUGGESTED[k][seen.get(k, 0)], "kingdom": k}
        seen[k] = seen.get(k, 0) + 1
    for role in kingdoms:
        for other in kingdoms:
            if other != role:
                same = kingdoms[role] == kingdoms[other]
                state["stance"][role][other] = "alliance" if same else "neutral"
        state["stance"][role] = {
            **{k: "neutral" for k in ("Wei", "Shu", "Wu") if k != kingdoms[role]},
            **{o: s for o, s in state["stance"][role].items() if o in kingdoms},
        }
    state["pieces"] = []
    for role, text in pieces.items():
        for word in text.split():
            state["pieces"].append(
                {"kind": word[0], "owner": role, "at": int(word[1:]), "marked": False}
            )
    state["owner"] = {}
    if owner is None:
        for p in state["pieces"]:
            if p["kind"] != "L" and RULES.map.provinces[p["at"]].centre:
                state["owner"][str(p["at"])] = p["owner"]
    else:
        for role, centres in owner.items():
            for c in centres:
                state["owner"][str(c)] = role
    state["capital"] = {r: None for r in kingdoms}
    for p in state["pieces"]:
        if p["kind"] == "L" and RULES.map.provinces[p["at"]].centre:
            state["capital"][p["owner"]] = p["at"]
    state["capital"].update(capital or {})
    for a, b in war:
        state["stance"][a][b] = "war"
    for a, b in alliance:
        state["stance"][a][b] = state["stance"][b][a] = "alliance"
    for a, k in kingdom_war:
        state["stance"][a][k] = "war"
    state["stage"], state["turn"], state["campaign"] = "campaign", 1, 1
    state["pieces"].sort(key=lambda p: (p["at"], "LAM".index(p["kind"]), p["owner"]))
    return state


def play(state: State, lines: Mapping[str, Iterable[str]]) -> tuple[State, list[Event]]:
    """Parse every line for its player (later orders for a piece replace earlier
    ones, as the judge holds them) and resolve the order set."""
    orders: dict[str, list[Action]] = {}
    for role, texts in lines.items():
        held: list[Action] = []
        for text in texts:
            action = GAME.parse(state, role, text)
            held = [a for a in held if a.key is None or a.key != action.key] + [action]
        orders[role] = held
    return GAME.resolve(state, orders, rng())


def where(state: State) -> dict[str, str]:
    """role -> its pieces as ``"L8 A8 M6"`` (board order)."""
    out: dict[str, list[str]] = {}
    for p in state["pieces"]:
        out.setdefault(p["owner"], []).append(f"{p['kind']}{p['at']}")
    return {r: " ".join(v) for r, v in out.items()}


def results(state: State) -> dict[str, list[str]]:
    """Order text -> its results in the last campaign report."""
    return {e["order"]: e["results"] for e in state["last"]["entries"]}


def texts(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]
