"""The map model shared by every Diplomacy-family game.

A map file (YAML, described by ``schemas/diplomacy-map.schema.json``) lists
provinces (land, sea or coast), their supply centres, the powers with their
home centres and starting units, where an army and where a fleet may move,
per-border attributes for variants (a wall, a river edge) and screen
coordinates for drawing.

:class:`DipMap` turns that file into integer-indexed tables so that the
resolver never touches a string: province ``i`` has base location ``i``;
the coasts of multi-coast provinces (Spain, St Petersburg, Bulgaria) are extra
locations numbered after the provinces. An army always stands on a base
location; a fleet stands on a base location of a coastal or sea province, or
on one coast of a multi-coast province.

The loader refuses a map whose borders are not listed from both sides, whose
army borders touch a sea, or whose fleet borders touch inland provinces.
"""

from __future__ import annotations

import os
import pickle
import re
import sys
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import spelling

LAND = "land"
SEA = "sea"
COAST = "coast"
KINDS = (LAND, SEA, COAST)

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_HYPHENATED = re.compile(r"[^a-z0-9-]+")


def normalize(text: str) -> str:
    """Lower case with everything but letters and digits removed: the form in
    which names are compared (``"St. Petersburg"`` -> ``"stpetersburg"``)."""
    return _NON_ALNUM.sub("", text.lower())


class MapError(ValueError):
    """A map file that breaks the format or contradicts itself."""


@dataclass(frozen=True)
class Province:
    idx: int
    id: str
    """The standard abbreviation, spelt as reports print it (``"StP"``)."""
    name: str
    kind: str
    centre: bool
    home: str | None
    """The power whose home centre this is, if any."""
    coasts: tuple[str, ...]
    """Coast names (``("nc", "sc")``) of a multi-coast province, else ``()``."""
    xy: tuple[float, float] | None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Location:
    idx: int
    province: int
    coast: str
    """``""`` for the province itself, else the coast name."""
    text: str
    """``"Par"`` or ``"Spa/nc"``."""
    xy: tuple[float, float] | None


@dataclass(frozen=True)
class Power:
    idx: int
    name: str
    """As the rulebook spells it: ``"France"``. This is the judge role."""
    adjective: str
    home: tuple[int, ...]
    """Province indices of the home supply centres."""
    units: tuple[tuple[str, int], ...]
    """Starting units as (``"A"``/``"F"``, location index)."""


@dataclass
class DipMap:
    """An immutable, index-based view of one map file. Build with :func:`load_map`."""

    id: str
    name: str
    start_year: int
    victory: int
    size: tuple[float, float] | None
    powers: tuple[Power, ...]
    provinces: tuple[Province, ...]
    locations: tuple[Location, ...]
    army_adj: tuple[frozenset[int], ...]
    """Per province: the provinces an army there may move to."""
    fleet_adj: tuple[frozenset[int], ...]
    """Per location: the locations a fleet there may move to (empty for land)."""
    fleet_reach: tuple[frozenset[int], ...]
    """Per location: the provinces a fleet there may move to (any coast)."""
    fleet_locs: tuple[tuple[int, ...], ...]
    """Per province: the locations a fleet may stand on (``()`` inland)."""
    neighbours: tuple[frozenset[int], ...]
    """Per province: provinces sharing any border (army or fleet), for distances."""
    borders: Mapping[frozenset[int], frozenset[str]]
    """Attributes of a border between two provinces (``{"wall"}``); absent: none."""
    power_index: Mapping[str, int] = field(default_factory=dict)
    names: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Normalised name, abbreviation or alias -> province indices it may mean."""
    hyphenated: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Names written with a hyphen (``Mid-Atlantic``), normalised but keeping
    the hyphen: a hyphen in an order joins words only into such a name."""
    centres: tuple[int, ...] = ()
    home_of: tuple[int, ...] = ()
    """Per province: the power index whose home centre it is, or -1."""
    loc_province: tuple[int, ...] = ()
    """Per location: its province."""
    rank: tuple[int, ...] = ()
    """Per province: its place in the alphabetical order of the abbreviations
    (the order reports list units and centres in)."""
    sea_reach: tuple[frozenset[int], ...] = ()
    """Per province: the provinces a fleet on any of its coasts (or in it, at
    sea) could reach; empty inland. The convoy questions walk this."""
    seas: frozenset[int] = frozenset()
    """The sea provinces: where a fleet may convoy (DATC 6.F.1)."""
    _similar: dict[str, list[tuple[int, int]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    drafts: dict[tuple[str, str, bool], Any] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Order lines already read on this map, by (line, phase kind, standard
    rules or not) -> the ``Draft``: a line is parsed once however many
    documents or mails repeat it (:func:`judge_games.diplomacy.orders.read_order`;
    the map knows nothing of orders, so the values are typed there)."""
    spellings: dict[bool, tuple[list[str], list[str], dict[str, list[str]]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Upper case or not -> power names, location texts and unit texts by
    index in that spelling (:mod:`judge_games.diplomacy.serial`)."""
    provinces_read: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    """Province texts already read (``"STP"``, ``"Paris"``) -> province index:
    :func:`judge_games.diplomacy.serial.read_province`."""
    convoy_fleets: dict[tuple[int, int, frozenset[int]], frozenset[int]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """(army's province, goal, fleets at sea) -> the fleets on some irredundant
    convoy route: :func:`judge_games.diplomacy.board.necessary_fleets`."""
    units_read: dict[str, tuple[Any, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Unit texts already read (``"F STP/SC"``) -> that ``Unit`` of each power,
    by power index: :func:`judge_games.diplomacy.serial.read_unit`."""
    bound: dict[tuple[int, int, str, int, str], Any] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Movement orders already bound whose legality the map alone decides,
    by (draft, location and type of the unit ordered and of the unit
    supported) -> ``(Draft, Order)``: see :func:`judge_games.diplomacy.legality.bind`."""

    # ------------------------------------------------------------------ lookups

    def province(self, pid: str) -> Province:
        """The province whose abbreviation is ``pid`` (exact match, any case)."""
        hits = self.names.get(normalize(pid), ())
        for i in hits:
            if normalize(self.provinces[i].id) == normalize(pid):
                return self.provinces[i]
        raise KeyError(pid)

    def similar(self, word: str) -> list[tuple[int, int]]:
        """(distance, province) for every province with a name, abbreviation
        or alias close to ``word`` (normalised, :func:`spelling.close`),
        nearest first: the names a misspelt ``word`` may stand for."""
        hit = self._similar.get(word)
        if hit is None:
            if len(self._similar) > 4096:
                self._similar.clear()
            hit = self._similar[word] = spelling.nearest(word, self.names)
        return hit

    def location(self, province: int, coast: str = "") -> int:
        """The location index of ``province`` (and ``coast``); KeyError if none."""
        if not coast:
            return province
        for loc in self.fleet_locs[province]:
            if self.locations[loc].coast == coast:
                return loc
        raise KeyError(f"{self.provinces[province].id}/{coast}")

    def loc_text(self, loc: int) -> str:
        return self.locations[loc].text

    def power(self, name: str) -> Power:
        """The power called ``name`` (any case, or its adjective)."""
        return self.powers[self.power_index[normalize(name)]]

    def is_coastal(self, province: int) -> bool:
        return self.provinces[province].kind == COAST

    def is_sea(self, province: int) -> bool:
        return self.provinces[province].kind == SEA

    def border(self, a: int, b: int) -> frozenset[str]:
        """Attributes of the border between provinces ``a`` and ``b``."""
        return self.borders.get(frozenset((a, b)), frozenset())

    def unit_can_stand(self, unit: str, loc: int) -> bool:
        """Whether a unit of type ``unit`` may occupy location ``loc``."""
        location = self.locations[loc]
        kind = self.provinces[location.province].kind
        if unit == "A":
            return not location.coast and kind != SEA
        return loc in self.fleet_locs[location.province]


# ---------------------------------------------------------------------- loading


def _split_loc(text: str) -> tuple[str, str]:
    if "/" in text:
        prov, coast = text.split("/", 1)
        return prov, coast.lower()
    return text, ""


def _xy(raw: Any, where: str) -> tuple[float, float] | None:
    if raw is None:
        return None
    if not (
        isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int | float) for v in raw)
    ):
        raise MapError(f"{where}: xy must be a pair of numbers")
    return (float(raw[0]), float(raw[1]))


def build_map(raw: Mapping[str, Any]) -> DipMap:
    """Check a parsed map file and build its tables. Raises :class:`MapError`."""
    try:
        return _build(raw)
    except MapError:
        raise
    except (KeyError, TypeError, AttributeError) as exc:  # malformed structure
        raise MapError(f"malformed map file: {exc!r}") from exc


def _build(raw: Mapping[str, Any]) -> DipMap:
    prov_raw: Mapping[str, Any] = raw["provinces"]
    ids = list(prov_raw)
    index = {pid: i for i, pid in enumerate(ids)}
    if len({normalize(p) for p in ids}) != len(ids):
        raise MapError("two provinces have the same abbreviation")

    # powers first: homes need them
    powers_raw: Mapping[str, Any] = raw["powers"]
    home_owner: dict[str, str] = {}
    for pname, pdata in powers_raw.items():
        for h in pdata.get("home", []):
            if h not in index:
                raise MapError(f"{pname}: home centre {h!r} is not a province")
            if h in home_owner:
                raise MapError(f"{h} is a home centre of both {home_owner[h]} and {pname}")
            home_owner[h] = pname

    provinces: list[Province] = []
    for i, pid in enumerate(ids):
        p = prov_raw[pid]
        kind = p.get("type")
        if kind not in KINDS:
            raise MapError(f"{pid}: type must be one of {', '.join(KINDS)}")
        coasts = tuple(str(c).lower() for c in (p.get("coasts") or {}))
        if coasts and kind != COAST:
            raise MapError(f"{pid}: only a coastal province can have named coasts")
        if len(coasts) == 1:
            raise MapError(f"{pid}: a province with coasts needs at least two")
        centre = bool(p.get("centre", False))
        if pid in home_owner and not centre:
            raise MapError(f"{pid}: a home centre must be a supply centre")
        provinces.append(
            Province(
                idx=i,
                id=pid,
                name=str(p.get("name", pid)),
                kind=kind,
                centre=centre,
                home=home_owner.get(pid),
                coasts=coasts,
                xy=_xy(p.get("xy"), pid),
                aliases=tuple(str(a) for a in p.get("aliases", [])),
            )
        )

    # locations: base locations, then coasts
    locations: list[Location] = [Location(i, i, "", pv.id, pv.xy) for i, pv in enumerate(provinces)]
    coast_index: dict[tuple[int, str], int] = {}
    for pv in provinces:
        for c in pv.coasts:
            craw = prov_raw[pv.id]["coasts"][c] or {}
            loc = len(locations)
            locations.append(Location(loc, pv.idx, c, f"{pv.id}/{c}", _xy(craw.get("xy"), pv.id)))
            coast_index[(pv.idx, c)] = loc

    def loc_of(text: str, where: str) -> int:
        prov, coast = _split_loc(text)
        if prov not in index:
            raise MapError(f"{where}: unknown province {prov!r}")
        pi = index[prov]
        if coast:
            if (pi, coast) not in coast_index:
                raise MapError(f"{where}: {prov} has no coast {coast!r}")
            return coast_index[(pi, coast)]
        if provinces[pi].coasts:
            raise MapError(f"{where}: a fleet border to {prov} must name the coast")
        return pi

    n = len(provinces)
    army: list[set[int]] = [set() for _ in range(n)]
    fleet: list[set[int]] = [set() for _ in locations]
    for pv in provinces:
        p = prov_raw[pv.id]
        for other in p.get("army", []):
            if other not in index:
                raise MapError(f"{pv.id}: army border to unknown province {other!r}")
            o = index[other]
            if SEA in (pv.kind, provinces[o].kind):
                raise MapError(f"{pv.id}-{other}: an army border cannot touch a sea")
            army[pv.idx].add(o)
        sources: list[tuple[int, Iterable[str]]] = []
        if pv.coasts:
            if p.get("fleet"):
                raise MapError(f"{pv.id}: list fleet borders per coast")
            for c in pv.coasts:
                sources.append((coast_index[(pv.idx, c)], (p["coasts"][c] or {}).get("fleet", [])))
        elif p.get("fleet"):
            if pv.kind == LAND:
                raise MapError(f"{pv.id}: an inland province has no fleet borders")
            sources.append((pv.idx, p["fleet"]))
        for src, targets in sources:
            for t in targets:
                dst = loc_of(str(t), pv.id)
                if provinces[locations[dst].province].kind == LAND:
                    raise MapError(f"{pv.id}-{t}: a fleet border cannot touch an inland province")
                fleet[src].add(dst)
    for a in range(n):
        for b in army[a]:
            if a not in army[b]:
                raise MapError(f"army border {ids[a]}-{ids[b]} is listed from one side only")
    for la, reach in enumerate(fleet):
        for lb in reach:
            if la not in fleet[lb]:
                raise MapError(
                    f"fleet border {locations[la].text}-{locations[lb].text} "
                    "is listed from one side only"
                )

    fleet_locs: list[tuple[int, ...]] = []
    for pv in provinces:
        if pv.kind == LAND:
            fleet_locs.append(())
        elif pv.coasts:
            fleet_locs.append(tuple(coast_index[(pv.idx, c)] for c in pv.coasts))
        else:
            fleet_locs.append((pv.idx,))

    fleet_reach = tuple(
        frozenset(locations[t].province for t in fleet[la]) for la in range(len(locations))
    )
    neighbours: list[set[int]] = [set(army[i]) for i in range(n)]
    for la, reach in enumerate(fleet):
        for lb in reach:
            neighbours[locations[la].province].add(locations[lb].province)

    borders: dict[frozenset[int], frozenset[str]] = {}
    for b in raw.get("borders") or []:
        between = b["between"]
        if len(between) != 2 or any(x not in index for x in between):
            raise MapError(f"border {between!r}: needs two known provinces")
        key = frozenset((index[between[0]], index[between[1]]))
        if len(key) != 2:
            raise MapError(f"border {between!r}: a province has no border with itself")
        borders[key] = borders.get(key, frozenset()) | frozenset(str(t) for t in b.get("tags", []))

    powers: list[Power] = []
    power_index: dict[str, int] = {}
    for pi, (pname, pdata) in enumerate(powers_raw.items()):
        units: list[tuple[str, int]] = []
        for u in pdata.get("units", []):
            utype, _, where = str(u).partition(" ")
            if utype not in ("A", "F"):
                raise MapError(f"{pname}: bad starting unit {u!r}")
            units.append((utype, loc_of(where, pname) if "/" in where else index.get(where, -1)))
            if units[-1][1] < 0:
                raise MapError(f"{pname}: starting unit {u!r} in an unknown province")
        powers.append(
            Power(
                idx=pi,
                name=pname,
                adjective=str(pdata.get("adjective", pname)),
                home=tuple(index[h] for h in pdata.get("home", [])),
                units=tuple(units),
            )
        )
        for pkey in (normalize(pname), normalize(str(pdata.get("adjective", pname)))):
            power_index[pkey] = pi

    names: dict[str, list[int]] = {}
    hyphenated: dict[str, list[int]] = {}
    for pv in provinces:
        for text in (pv.id, pv.name, *pv.aliases):
            nkey = normalize(text)
            if pv.idx not in names.setdefault(nkey, []):
                names[nkey].append(pv.idx)
            if "-" in text:
                hkey = _HYPHENATED.sub("", text.lower())
                if pv.idx not in hyphenated.setdefault(hkey, []):
                    hyphenated[hkey].append(pv.idx)

    dm = DipMap(
        id=str(raw["id"]),
        name=str(raw.get("name", raw["id"])),
        start_year=int(raw.get("start_year", 1901)),
        victory=int(raw["victory"]),
        size=_xy(raw.get("size"), "size"),
        powers=tuple(powers),
        provinces=tuple(provinces),
        locations=tuple(locations),
        army_adj=tuple(frozenset(s) for s in army),
        fleet_adj=tuple(frozenset(s) for s in fleet),
        fleet_reach=fleet_reach,
        fleet_locs=tuple(fleet_locs),
        neighbours=tuple(frozenset(s) for s in neighbours),
        borders=borders,
        power_index=power_index,
        names={k: tuple(v) for k, v in names.items()},
        hyphenated={k: tuple(v) for k, v in hyphenated.items()},
        centres=tuple(pv.idx for pv in provinces if pv.centre),
        home_of=tuple(next((pw.idx for pw in powers if pv.idx in pw.home), -1) for pv in provinces),
        loc_province=tuple(loc.province for loc in locations),
        rank=_ranks([pv.id for pv in provinces]),
        sea_reach=tuple(
            frozenset().union(*(fleet_reach[loc] for loc in locs)) for locs in fleet_locs
        ),
        seas=frozenset(pv.idx for pv in provinces if pv.kind == SEA),
    )
    for pw in dm.powers:
        for utype, loc in pw.units:
            if not dm.unit_can_stand(utype, loc):
                raise MapError(f"{pw.name}: a {utype} cannot stand in {dm.loc_text(loc)}")
    if not 0 < dm.victory <= len(dm.centres):
        raise MapError("victory must be between 1 and the number of supply centres")
    return dm


def _ranks(keys: list[str]) -> tuple[int, ...]:
    """Per index: its place when ``keys`` are sorted."""
    rank = [0] * len(keys)
    for i, p in enumerate(sorted(range(len(keys)), key=keys.__getitem__)):
        rank[p] = i
    return tuple(rank)


def load_map(path: Path) -> DipMap:
    """Read and check a YAML map file.

    The built map is kept beside the file (``__pycache__/<name>.<key>.pickle``,
    as Python keeps compiled modules) under a key made of the file's bytes and
    this module's source, so a later start reads it back instead of parsing
    the YAML again; a changed map file or map model is read afresh (and the
    stale copy removed). Where the folder cannot be written, or Python is
    told not to write bytecode, the map is simply built each time."""
    data = path.read_bytes()
    model = Path(__file__).read_bytes()
    # Checksums, not a cryptographic digest: the key only tells a stale copy
    # from a fresh one, and hashlib alone would add 3 ms to every start.
    both = data + model
    key = f"{zlib.crc32(both):08x}{zlib.adler32(both):08x}{len(both):x}"
    cache = path.parent / "__pycache__" / f"{path.name}.{key}.pickle"
    try:
        dm = pickle.loads(cache.read_bytes())
        if isinstance(dm, DipMap):
            return dm
    except Exception:  # no copy, or a damaged one: build it
        pass
    import yaml  # only when the map is not cached: the parser takes longer to load than the map

    raw = yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(raw, dict):
        raise MapError(f"{path.name}: not a mapping")
    dm = build_map(raw)
    if sys.dont_write_bytecode:
        return dm
    try:
        cache.parent.mkdir(exist_ok=True)
        for stale in cache.parent.glob(f"{path.name}.*.pickle"):
            stale.unlink()
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(dm, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, cache)
    except OSError:
        pass
    return dm
