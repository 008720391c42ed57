"""Positions to and from JSON, in two spellings.

The game state spells things as reports do (powers ``France``, units
``F StP/sc``); the offline adjudication format spells them in upper case
(``FRANCE``, ``F STP/SC``). Both go through these helpers. Reading is
lenient about case and accepts full names; it raises ``ValueError`` with a
clear message for anything it cannot place on the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .board import Board, Unit
from .geography import DipMap, normalize
from .legality import Dislodged
from .phases import Position

if TYPE_CHECKING:
    from .variant import VariantRules


def _spelling(dm: DipMap, upper: bool) -> tuple[list[str], list[str]]:
    """Power names and location texts by index, in one spelling, built once per map."""
    powers, locs, _ = _spellings(dm, upper)
    return powers, locs


def _spellings(dm: DipMap, upper: bool) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Power names, location texts and unit texts by index in one spelling,
    kept on the map (``DipMap.spellings``)."""
    found = dm.spellings.get(upper)
    if found is None:
        powers = [pw.name.upper() if upper else pw.name for pw in dm.powers]
        locs = [loc.text.upper() if upper else loc.text for loc in dm.locations]
        units = {t: [f"{t} {text}" for text in locs] for t in ("A", "F")}
        found = dm.spellings[upper] = (powers, locs, units)
    return found


def unit_texts(dm: DipMap, upper: bool) -> dict[str, list[str]]:
    """Unit type -> the text of such a unit by location (``"F STP/SC"``), built once per map."""
    return _spellings(dm, upper)[2]


def power_name(dm: DipMap, idx: int, upper: bool) -> str:
    name = dm.powers[idx].name
    return name.upper() if upper else name


def loc_name(dm: DipMap, loc: int, upper: bool) -> str:
    text = dm.loc_text(loc)
    return text.upper() if upper else text


def unit_name(dm: DipMap, unit: Unit, upper: bool) -> str:
    return f"{unit.type} {loc_name(dm, unit.loc, upper)}"


def read_power(dm: DipMap, name: Any) -> int:
    if isinstance(name, str) and name.lower() in dm.power_index:
        return dm.power_index[name.lower()]
    if not isinstance(name, str) or normalize(name) not in dm.power_index:
        known = ", ".join(p.name.upper() for p in dm.powers)
        raise ValueError(f"unknown power {name!r} (powers: {known})")
    return dm.power_index[normalize(name)]


def read_province(dm: DipMap, text: Any) -> int:
    if not isinstance(text, str):
        raise ValueError(f"expected a province, got {text!r}")
    kept = dm.provinces_read
    found = kept.get(text)
    if found is not None:
        return found
    hits = dm.names.get(normalize(text), ())
    if len(hits) != 1:
        raise ValueError(f"unknown province {text!r}")
    if len(kept) < 100_000:
        kept[text] = hits[0]
    return hits[0]


def read_location(dm: DipMap, text: str) -> int:
    """``"STP/SC"``, ``"StP(sc)"``, ``"Spain/nc"``, ``"PAR"`` -> location index."""
    raw = text.strip()
    coast = ""
    if "(" in raw and raw.endswith(")"):
        raw, _, coast = raw[:-1].partition("(")
    elif "/" in raw:
        raw, _, coast = raw.partition("/")
    prov = read_province(dm, raw.strip())
    coast = coast.strip().lower()
    if not coast:
        return prov
    try:
        return dm.location(prov, coast)
    except KeyError:
        raise ValueError(f"{dm.provinces[prov].name} has no coast {coast!r}") from None


def read_unit(dm: DipMap, text: Any, power: int) -> Unit:
    """``"A PAR"`` / ``"F STP/SC"`` -> Unit. A fleet in a multi-coast province
    must name its coast; an army's coast is ignored."""
    if not isinstance(text, str):
        raise ValueError(f"expected a unit like 'A PAR', got {text!r}")
    known: tuple[Unit, ...] | None = dm.units_read.get(text)
    if known is not None:
        return known[power]
    utype, _, where = text.strip().partition(" ")
    utype = utype.upper()
    if utype in ("ARMY", "FLEET"):
        utype = utype[0]
    if utype not in ("A", "F") or not where.strip():
        raise ValueError(f"expected a unit like 'A PAR' or 'F STP/SC', got {text!r}")
    loc = read_location(dm, where)
    if utype == "A":
        loc = dm.locations[loc].province
    if not dm.unit_can_stand(utype, loc):
        prov = dm.provinces[dm.locations[loc].province]
        if utype == "F" and prov.coasts and not dm.locations[loc].coast:
            raise ValueError(f"{text!r}: say which coast of {prov.name} the fleet is on")
        raise ValueError(f"{text!r}: {'an army' if utype == 'A' else 'a fleet'} cannot stand there")
    if len(dm.units_read) < 100_000:
        dm.units_read[text] = tuple(Unit(p, utype, loc) for p in range(len(dm.powers)))
    return Unit(power, utype, loc)


def read_units(dm: DipMap, raw: Any) -> Board:
    if not isinstance(raw, Mapping):
        raise ValueError("units must map each power to a list of units")
    board = Board(dm)
    units = board.units
    province = dm.loc_province
    known = dm.units_read
    for pname, lst in raw.items():
        power = read_power(dm, pname)
        if not isinstance(lst, list):
            raise ValueError(f"units of {pname}: expected a list")
        for text in lst:
            seen = known.get(text) if isinstance(text, str) else None
            unit = seen[power] if seen is not None else read_unit(dm, text, power)
            prov = province[unit.loc]
            if prov in units:
                raise ValueError(f"units: two units in {dm.provinces[prov].id}")
            units[prov] = unit
    return board


def starting_board(dm: DipMap) -> Board:
    board = Board(dm)
    for pw in dm.powers:
        for utype, loc in pw.units:
            board.place(Unit(pw.idx, utype, loc))
    return board


def starting_owner(dm: DipMap) -> dict[int, int]:
    return {h: pw.idx for pw in dm.powers for h in pw.home}


def read_centres(dm: DipMap, raw: Any) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        raise ValueError("centers must map each power to a list of provinces")
    owner: dict[int, int] = {}
    for pname, lst in raw.items():
        power = read_power(dm, pname)
        if not isinstance(lst, list):
            raise ValueError(f"centers of {pname}: expected a list")
        for text in lst:
            prov = read_province(dm, text)
            if not dm.provinces[prov].centre:
                raise ValueError(f"centers of {pname}: {text!r} is not a supply centre")
            if prov in owner:
                raise ValueError(f"centers: {text!r} is owned twice")
            owner[prov] = power
    return owner


def read_dislodged(
    dm: DipMap, raw: Any, board: Board, rules: VariantRules | None = None
) -> dict[int, Dislodged]:
    """``{power: {unit: {"from": prov, "retreats": [...], "via_convoy": bool}}}``.
    Without ``retreats``, a unit may retreat to any adjacent province that is
    empty and is not ``from`` (unless ``via_convoy``); a variant's ``rules``
    may give other retreat borders."""
    if not isinstance(raw, Mapping):
        raise ValueError("dislodged must map each power to its dislodged units")
    out: dict[int, Dislodged] = {}
    for pname, units in raw.items():
        power = read_power(dm, pname)
        if not isinstance(units, Mapping):
            raise ValueError(f"dislodged of {pname}: expected an object of units")
        for text, info in units.items():
            unit = read_unit(dm, text, power)
            prov = dm.locations[unit.loc].province
            if prov in out:
                raise ValueError(f"dislodged: two units dislodged from {text!r}")
            if not isinstance(info, Mapping):
                raise ValueError(f"dislodged {text!r}: expected an object with 'from'")
            src = info.get("from")
            attacker = read_province(dm, src) if src else -1
            by_convoy = bool(info.get("via_convoy", False))
            if "retreats" in info and info["retreats"] is not None:
                if not isinstance(info["retreats"], list):
                    raise ValueError(f"dislodged {text!r}: retreats must be a list")
                reach = dm.army_adj[prov] if unit.type == "A" else None
                opts: list[int] = []
                for r in info["retreats"]:
                    loc = read_location(dm, str(r))
                    if unit.type == "A":
                        loc = dm.locations[loc].province
                        ok = reach is not None and loc in reach
                    else:
                        adj = dm.fleet_adj[unit.loc]
                        if rules is not None and rules.retreat_adjacency is not None:
                            adj = rules.retreat_adjacency(dm, unit, prov) or adj
                        ok = loc in adj
                    if not ok:
                        raise ValueError(f"dislodged {text!r}: cannot retreat to {r!r}")
                    # The board decides, whatever the hint says: a unit
                    # retreats only to a vacant province, and never to the one
                    # its attacker came from (DATC 6.H.5); a retreat ordered
                    # there is void and the unit is disbanded, as in MILA's
                    # engine.
                    there = dm.locations[loc].province
                    if board.at(there) is None and (by_convoy or there != attacker):
                        opts.append(loc)
                retreats = tuple(opts)
            else:
                cands = dm.army_adj[prov] if unit.type == "A" else dm.fleet_adj[unit.loc]
                if rules is not None and rules.retreat_adjacency is not None:
                    cands = rules.retreat_adjacency(dm, unit, prov) or cands
                retreats = tuple(
                    sorted(
                        loc
                        for loc in cands
                        if board.at(dm.locations[loc].province) is None
                        and (by_convoy or dm.locations[loc].province != attacker)
                    )
                )
            out[prov] = Dislodged(unit, -1 if by_convoy else attacker, retreats)
            if by_convoy:
                out[prov] = Dislodged(unit, -1, retreats)
    return out


def write_units(dm: DipMap, board: Board, upper: bool) -> dict[str, list[str]]:
    powers, _, texts = _spellings(dm, upper)
    out: dict[str, list[str]] = {name: [] for name in powers}
    units = board.units
    for prov in sorted(units, key=dm.rank.__getitem__):
        u = units[prov]
        out[powers[u.power]].append(texts[u.type][u.loc])
    return {k: v for k, v in out.items() if v}


def write_centres(dm: DipMap, owner: Mapping[int, int], upper: bool) -> dict[str, list[str]]:
    powers, locs = _spelling(dm, upper)
    out: dict[str, list[str]] = {name: [] for name in powers}
    for prov in sorted(owner, key=dm.rank.__getitem__):
        out[powers[owner[prov]]].append(locs[prov])
    return {k: v for k, v in out.items() if v}


def write_dislodged(
    dm: DipMap, dislodged: Mapping[int, Dislodged], upper: bool, attackers: Mapping[int, int]
) -> dict[str, dict[str, dict[str, Any]]]:
    """``attackers`` gives the attacker's origin for units dislodged by convoy
    (whose ``attacker_from`` is -1)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for prov in sorted(dislodged, key=lambda p: dm.provinces[p].id):
        d = dislodged[prov]
        origin = d.attacker_from if d.attacker_from >= 0 else attackers.get(prov, -1)
        info: dict[str, Any] = {
            "from": loc_name(dm, origin, upper) if origin >= 0 else None,
            "retreats": [loc_name(dm, r, upper) for r in d.retreats],
        }
        if d.attacker_from < 0 and origin >= 0:
            info["via_convoy"] = True
        out.setdefault(power_name(dm, d.unit.power, upper), {})[unit_name(dm, d.unit, upper)] = info
    return out


def position_json(
    pos: Position, upper: bool, attackers: Mapping[int, int] | None = None
) -> dict[str, Any]:
    dm = pos.dm
    return {
        "phase": pos.phase,
        "units": write_units(dm, pos.board, upper),
        "dislodged": write_dislodged(dm, pos.dislodged, upper, attackers or {}),
        "centers": write_centres(dm, pos.owner, upper),
    }


def read_position(
    dm: DipMap, raw: Mapping[str, Any], phase: str, rules: VariantRules | None = None
) -> Position:
    """A position from the ``units``/``centers``/``dislodged`` keys of ``raw``
    (missing units or centres: the starting ones), under a variant's ``rules``."""
    board = read_units(dm, raw["units"]) if raw.get("units") is not None else starting_board(dm)
    owner = (
        read_centres(dm, raw["centers"]) if raw.get("centers") is not None else starting_owner(dm)
    )
    dislodged = read_dislodged(dm, raw.get("dislodged") or {}, board, rules)
    return Position(phase, board, owner, dislodged, rules)
