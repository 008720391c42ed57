"""Benchmark of the Diplomacy resolver on reproducible random movement phases.

Each phase puts about 30 units on the classic map and gives them a mix of
holds, moves, supports (of holds and of moves actually ordered), convoys
(of armies next to the fleet) and some illegal orders. It prints the median
and 90th percentile time per phase of

* the resolver alone: matching and adjudicating already-bound orders
  (:func:`judge_games.diplomacy.resolver.adjudicate_movement`), and
* one offline document: ``RULES.adjudicate_json`` on the JSON input, which
  also reads and checks every order line and writes the output.

With ``--map warring_states`` the phases are on the Warring States map,
with that variant's orders mixed in (conversions, rapid river moves, fleets
turning back into armies; convoy orders are illegal there) and its
strengths (walls, floating fortresses, graded support cuts).

Run: ``.venv/bin/python bench/adjudicate.py [--phases N] [--units N] [--seed S]
[--map classic|warring_states]``.

With ``--vs-reference`` it compares ``judge adjudicate`` with the reference
engine, MILA's ``diplomacy`` package, on the classic map: both read the same
JSON lines (order lines in upper case, armies moving by convoy to a province
they do not border written with MILA's trailing ``VIA``), each as one whole
process (start-up included: the reference's script makes a ``Game`` per
phase, sets units, phase and orders and calls ``process()``), alternating for
``--rounds`` rounds after a warm-up run of each. It prints the median wall and
CPU time of each command, the ratio of the medians, and in how many phases the
two engines leave the same units where they stand. The reference engine is
installed only for this benchmark, never as a dependency of the judge:
``.venv/bin/pip install diplomacy``. Both commands run as an installed
program would: with compiled bytecode (``PYTHONDONTWRITEBYTECODE`` is left
out of their environment).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge_games.classic import RULES
from judge_games.diplomacy import DiplomacyGame
from judge_games.diplomacy.board import Board, Unit, sea_neighbours
from judge_games.diplomacy.legality import Situation, bind
from judge_games.diplomacy.orders import MOVEMENT, Order, read_order
from judge_games.diplomacy.resolver import Strengths, adjudicate_movement
from judge_games.diplomacy.variant import VariantRules
from judge_games.warring_states import RULES as WARRING_STATES
from judge_games.warring_states.game import RULES as WS_RULES

DM = RULES.map
GAMES: dict[str, DiplomacyGame[Any]] = {"classic": RULES, "warring_states": WARRING_STATES}


def rules_of(board: Board) -> VariantRules | None:
    """The variant rules of the game whose map the board is on (``None``: classic)."""
    return next(g.variant.rules for g in GAMES.values() if g.map is board.dm)


def strengths(board: Board, legal: dict[int, Order]) -> Strengths | None:
    """The variant's strengths for these orders (``None`` on the classic map)."""
    rules = rules_of(board)
    if rules is None or rules.movement_strengths is None:
        return None
    return rules.movement_strengths(board, legal)


def random_phase(
    rnd: random.Random, n_units: int, game: DiplomacyGame[Any] = RULES
) -> tuple[Board, dict[int, list[str]]]:
    """A random board of ``n_units`` units and order lines for every unit."""
    DM = game.map  # the map of the game benchmarked
    board = Board(DM)
    provinces = list(range(len(DM.provinces)))
    rnd.shuffle(provinces)
    for p in provinces[:n_units]:
        kind = DM.provinces[p].kind
        if kind == "land":
            utype = "A"
        elif kind == "sea":
            utype = "F"
        else:
            utype = rnd.choice("AF")
        loc = rnd.choice(DM.fleet_locs[p]) if utype == "F" else p
        board.place(Unit(rnd.randrange(len(DM.powers)), utype, loc))
    name = DM.loc_text
    moves: dict[int, int] = {}
    lines: dict[int, list[str]] = {}
    plan: list[tuple[int, Unit, str]] = []
    for p, u in board.units.items():
        roll = rnd.random()
        plan.append((p, u, "hold" if roll < 0.15 else "move" if roll < 0.55 else "other"))
    for p, u, what in plan:
        head = f"{u.type} {name(u.loc)}"
        if what == "move":
            adj = DM.army_adj[p] if u.type == "A" else DM.fleet_adj[u.loc]
            targets = sorted(adj)
            if rnd.random() < 0.05 or not targets:
                q = rnd.randrange(len(DM.provinces))  # often illegal
                line = f"{head} - {DM.provinces[q].id}"
            else:
                t = rnd.choice(targets)
                moves[p] = DM.locations[t].province
                line = f"{head} - {name(t)}"
        elif what == "hold":
            line = f"{head} H"
        else:
            line = ""
            if u.type == "F" and DM.is_sea(p):
                armies = [
                    r
                    for r, v in board.units.items()
                    if v.type == "A" and p in sea_neighbours(DM, r)
                ]
                if armies and rnd.random() < 0.5:
                    r = rnd.choice(armies)
                    goal = rnd.choice(
                        sorted(q for q in sea_neighbours(DM, p) if DM.is_coastal(q) and q != r)
                        or [r]
                    )
                    line = f"{head} C A {DM.provinces[r].id} - {DM.provinces[goal].id}"
                    if goal != r and rnd.random() < 0.7:
                        moves[r] = goal
            if not line:
                reach = DM.army_adj[p] if u.type == "A" else DM.fleet_reach[u.loc]
                movers = [r for r, q in moves.items() if q in reach and r != p and q != p]
                holders = [q for q in reach if q in board.units]
                if movers and rnd.random() < 0.6:
                    r = rnd.choice(movers)
                    v = board.units[r]
                    line = f"{head} S {v.type} {DM.provinces[r].id} - {DM.provinces[moves[r]].id}"
                elif holders:
                    q = rnd.choice(sorted(holders))
                    line = f"{head} S {board.units[q].type} {DM.provinces[q].id}"
                else:
                    line = f"{head} H"
        lines.setdefault(u.power, []).append(line)
    if game is WARRING_STATES:
        _warring_states_orders(rnd, board, lines)
    # armies chosen for a convoy move there (replacing their earlier order)
    for r, q in moves.items():
        v = board.units[r]
        if v.type == "A" and q not in DM.army_adj[r]:
            lines[v.power].append(f"A {DM.provinces[r].id} - {DM.provinces[q].id}{_CONVOYED}")
    return board, lines


_CONVOYED = " via convoy"
"""How :func:`random_phase` writes an army's move by convoy (``reference_document``
turns it into MILA's trailing ``VIA``)."""


def _warring_states_orders(rnd: random.Random, board: Board, lines: dict[int, list[str]]) -> None:
    """Replace some orders by the variant's own: conversions of armies by a
    river or the sea, rapid river moves, fleets moving inland (they turn back
    into armies)."""
    dm = board.dm
    rules = WS_RULES
    for p, u in board.units.items():
        head = f"{u.type} {dm.loc_text(u.loc)}"
        roll = rnd.random()
        line = ""
        if u.type == "A" and dm.fleet_locs[p] and roll < 0.15:
            line = f"{head} convert"
        elif u.type == "F" and roll < 0.3:
            paths = rules.river_paths(p)
            if paths:
                line = f"{head} - " + " - ".join(dm.provinces[q].id for q in rnd.choice(paths))
        elif u.type == "F" and not dm.is_sea(p) and roll < 0.45:
            inland = sorted(q for q in dm.army_adj[p] if q not in dm.fleet_reach[u.loc])
            if inland:
                line = f"{head} - {dm.provinces[rnd.choice(inland)].id}"
        if line:
            lines[u.power].append(line)  # the last order for a unit wins


def bind_all(board: Board, lines: dict[int, list[str]]) -> tuple[dict[int, Order], list[int]]:
    DM = board.dm  # the map of the board
    rules = rules_of(board)
    sit = Situation(board, MOVEMENT, rules=rules)
    legal: dict[int, Order] = {}
    bad: set[int] = set()
    for power, ls in lines.items():
        for line in ls:
            try:
                o = bind(sit, power, read_order(DM, line, MOVEMENT, rules))
            except Exception:
                prov = next(
                    (
                        p
                        for p, u in board.units.items()
                        if u.power == power and line.startswith(f"{u.type} {DM.loc_text(u.loc)} ")
                    ),
                    None,
                )
                if prov is not None:
                    bad.add(prov)
                continue
            legal[DM.locations[o.loc].province] = o
    return legal, sorted(bad - set(legal))


def document(board: Board, lines: dict[int, list[str]], game_id: str = "classic") -> dict[str, Any]:
    DM = board.dm  # the map of the board
    units: dict[str, list[str]] = {}
    for u in board.units.values():
        units.setdefault(DM.powers[u.power].name.upper(), []).append(
            f"{u.type} {DM.loc_text(u.loc).upper()}"
        )
    return {
        "game": game_id,
        "phase": "F1901M",
        "units": units,
        "orders": {DM.powers[p].name.upper(): ls for p, ls in lines.items()},
    }


def reference_document(board: Board, lines: dict[int, list[str]]) -> dict[str, Any]:
    """The classic document of one phase as both engines read it: MILA's
    notation (upper case, ``A LON - NWY VIA``)."""
    doc = document(board, lines)
    doc["orders"] = {
        power: [
            (line[: -len(_CONVOYED)] + " VIA" if line.endswith(_CONVOYED) else line).upper()
            for line in ls
        ]
        for power, ls in doc["orders"].items()
    }
    return doc


# The reference engine's side: one process reading the same JSON lines and
# printing, per phase, the units left standing (dislodged ones excluded).
REFERENCE = """
import json, sys
from diplomacy import Game
out = []
for text in sys.stdin:
    doc = json.loads(text)
    game = Game()
    game.set_current_phase(doc["phase"])
    game.clear_units()
    for power, units in doc["units"].items():
        game.set_units(power, units)
    for power, orders in doc["orders"].items():
        game.set_orders(power, orders)
    game.process()
    standing = {p: sorted(u for u in units if not u.startswith("*"))
                for p, units in game.get_units().items()}
    out.append(json.dumps({p: units for p, units in standing.items() if units}))
sys.stdout.write("\\n".join(out) + "\\n")
"""


def _timed(command: list[str], stdin: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one run of ``command`` reading ``stdin``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with stdin.open("rb") as fh:
        run = subprocess.run(command, stdin=fh, capture_output=True, env=env, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if run.returncode not in (0, 1):  # 1: some document refused, reported per line
        raise SystemExit(f"{command[0]} failed:\n{run.stderr.decode(errors='replace')}")
    return wall, cpu, run.stdout.decode()


def _standing(out: dict[str, Any]) -> dict[str, list[str]]:
    return {p: sorted(units) for p, units in out.get("units", {}).items() if units}


def vs_reference(args: argparse.Namespace) -> int:
    """``judge adjudicate`` against MILA's engine as whole commands (see the module doc)."""
    if importlib.util.find_spec("diplomacy") is None:
        print(
            "the reference engine is not installed: it is MILA's `diplomacy` package, "
            "installed only for this benchmark (never a dependency of the judge):\n"
            "    .venv/bin/pip install diplomacy",
            file=sys.stderr,
        )
        return 2
    judge = Path(sys.executable).with_name("judge")
    if not judge.exists():
        print(f"no judge command beside {sys.executable}: pip install -e . first", file=sys.stderr)
        return 2
    rnd = random.Random(args.seed)
    docs = [reference_document(*random_phase(rnd, args.units)) for _ in range(args.phases)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    ours = [str(judge), "adjudicate"]
    theirs = [sys.executable, "-c", REFERENCE]
    with tempfile.TemporaryDirectory() as tmp:
        stdin = Path(tmp) / "phases.jsonl"
        stdin.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
        _, _, judged = _timed(ours, stdin, env)  # warm-up: bytecode, the map kept built
        _, _, referred = _timed(theirs, stdin, env)
        times: dict[str, list[tuple[float, float]]] = {"judge": [], "reference": []}
        for _ in range(args.rounds):
            times["judge"].append(_timed(ours, stdin, env)[:2])
            times["reference"].append(_timed(theirs, stdin, env)[:2])
    results = [json.loads(x) for x in judged.splitlines()]
    refused = sum(1 for r in results if "error" in r)
    same = sum(
        1
        for r, m in zip(results, referred.splitlines(), strict=True)
        if "error" not in r and _standing(r) == json.loads(m)
    )
    lines = sum(len(x) for d in docs for x in d["orders"].values())
    via = sum(1 for d in docs for x in d["orders"].values() for line in x if line.endswith(" VIA"))
    print(
        f"{args.phases} random classic movement phases, {args.units} units each "
        f"(seed {args.seed}), {lines / args.phases:.1f} order lines a phase "
        f"({via} moves written '... VIA'), as one process each; "
        f"{args.rounds} rounds alternating after a warm-up"
    )
    med: dict[str, tuple[float, float]] = {}
    for name, xs in times.items():
        wall = statistics.median(w for w, _ in xs)
        cpu = statistics.median(c for _, c in xs)
        med[name] = (wall, cpu)
        print(
            f"{name:<10} wall median {wall * 1e3:8.1f} ms (min {min(w for w, _ in xs) * 1e3:.1f})"
            f"   cpu median {cpu * 1e3:8.1f} ms   {wall / args.phases * 1e3:.3f} ms a phase"
        )
    print(
        f"judge adjudicate is {med['reference'][0] / med['judge'][0]:.1f}x the reference "
        f"in wall time, {med['reference'][1] / med['judge'][1]:.1f}x in CPU time "
        f"(ratios of the medians)"
    )
    # On a shared machine the other loads slow some rounds of either side;
    # the quickest round of each is the least disturbed (not the target's measure).
    fastest = {name: min(c for _, c in xs) for name, xs in times.items()}
    print(
        f"  quickest rounds: {fastest['reference'] / fastest['judge']:.1f}x in CPU time "
        f"(the least disturbed run of each; the target is on the medians)"
    )
    print(
        f"same units standing after the phase in {same} of {args.phases} phases"
        + (f"; {refused} documents refused by the judge" if refused else "")
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--phases", type=int, default=None, help="phases (2000; with --vs-reference 1000)"
    )
    ap.add_argument("--units", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1901)
    ap.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="time each phase this many times and keep its best time (default 5)",
    )
    ap.add_argument("--map", choices=sorted(GAMES), default="classic", help="which game's map")
    ap.add_argument(
        "--vs-reference",
        action="store_true",
        help="compare `judge adjudicate` with MILA's engine (classic map, default 1000 phases)",
    )
    ap.add_argument("--rounds", type=int, default=7, help="--vs-reference: timed rounds (7)")
    args = ap.parse_args(argv)
    if args.phases is None:
        args.phases = 1000 if args.vs_reference else 2000
    if args.vs_reference:
        return vs_reference(args)
    game = GAMES[args.map]
    rnd = random.Random(args.seed)
    phases = [random_phase(rnd, args.units, game) for _ in range(args.phases)]
    bound = [bind_all(b, ls) for b, ls in phases]
    docs = [document(b, ls, game.id) for b, ls in phases]
    extra = [strengths(b, legal) for (b, _), (legal, _) in zip(phases, bound, strict=True)]
    n = args.phases
    stats = {"orders": 0, "supports": 0, "convoys": 0, "void": 0, "special": 0}
    for (_b, ls), (legal, bad) in zip(phases, bound, strict=True):
        stats["orders"] += sum(len(x) for x in ls.values())
        stats["supports"] += sum(1 for o in legal.values() if o.kind == "S")
        stats["convoys"] += sum(1 for o in legal.values() if o.kind == "C")
        stats["special"] += sum(1 for o in legal.values() if o.path or o.becomes)
        stats["void"] += len(bad)
    for _ in range(2):  # warm up
        for (b, _ls), (legal, bad), st in zip(phases[:50], bound[:50], extra[:50], strict=True):
            adjudicate_movement(b, legal, bad, st)
    clock = time.perf_counter
    resolver = [float("inf")] * n
    offline = [float("inf")] * n
    for _ in range(max(1, args.repeat)):
        for i, ((b, _ls), (legal, bad)) in enumerate(zip(phases, bound, strict=True)):
            t0 = clock()
            adjudicate_movement(b, legal, bad, strengths(b, legal))
            resolver[i] = min(resolver[i], clock() - t0)
        for i, doc in enumerate(docs):
            t0 = clock()
            game.adjudicate_json(doc)
            offline[i] = min(offline[i], clock() - t0)

    def show(name: str, xs: list[float]) -> None:
        xs = sorted(xs)
        p90 = xs[int(0.9 * (len(xs) - 1))]
        print(f"{name:<28} median {statistics.median(xs) * 1e3:8.4f} ms   p90 {p90 * 1e3:8.4f} ms")

    print(
        f"{n} random movement phases on the {args.map} map, {args.units} units each "
        f"(seed {args.seed}); per phase: "
        f"{stats['orders'] / n:.1f} order lines, {stats['supports'] / n:.1f} supports, "
        f"{stats['convoys'] / n:.1f} convoys, "
        f"{stats['special'] / n:.1f} variant orders (rapid moves, changes of type), "
        f"{stats['void'] / n:.1f} units with only illegal orders"
    )
    print(f"time per phase: best of {args.repeat} runs of each; median and p90 over phases")
    show("resolver alone" + (" (+strengths)" if args.map != "classic" else ""), resolver)
    show("judge adjudicate document", offline)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
