"""Balance of the Conquest Tactics starter decks, by seeded self-play.

Every pairing of the starter decks (each faction as South and as North, and
the mirrors unless ``--no-mirrors``) is played ``--games`` times by a simple
heuristic bot on both sides, built only on the game's public API
(``GAME.setup/pending/legal/parse/act/resolve/view``, the card pool for a
card's printed numbers, ``judge.game.rng.Rng``). Game ``i`` of a pairing uses the
seed ``sha256("<south>/<north>/<i>/<seed>")`` for the game's draws and the
bots' tie-breaks, so a run is the same on every machine.

The bot, at each decision:

* set-up: its Base at C1 and the game's default starting forces;
* deployment: its front row (row 2) first;
* Up the Field: the first troop that can step ahead, else PASS;
* Mobilize: UPGRADE a troop when it can (without discarding), DEPLOY the
  dearest troop it can pay for from the slider alone, then EQUIP, then LEARN
  an offensive spell or skill; DONE when none of these fits;
* Play: the attack, offensive cast or skill use (from any troop) that deals
  the most damage after defense, a kill counting extra; failing that, MOVE
  the troop that gets nearest an enemy; failing that, PASS. After a move,
  the moved troop's best attack, else STOP;
* an instant window: its first instant when the incoming damage would
  destroy its card or is 3 or more, else PASS.

The match ends at the game's own end (three Victory Conditions), or at
``--turn-limit`` turns (the greater tally wins; equal tallies draw).

Usage::

    python bench/balance.py [--games 200] [--jobs 2] [--seed 1] [--json]
        [--turn-limit 30] [--no-mirrors] [--faction F ...]

``--json`` prints one object: ``{"games": N, "seed": S, "turn_limit": T,
"pairings": [{"south", "north", "games", "south_wins", "north_wins",
"draws", "mean_turns", "results": {"3-0": n, "3-1": n, "3-2": n, "3-3": n,
"limit": n}, "unfinished": n}, ...]}``. ``results`` counts each game by its
final score; ``limit`` is a game that ended at the turn limit below three
victories.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge.game.engine import Decision, DecisionKind, RuleError, live  # noqa: E402
from judge.game.rng import Rng  # noqa: E402
from judge_games.conquest_tactics import GAME  # noqa: E402
from judge_games.conquest_tactics import field as F  # noqa: E402
from judge_games.conquest_tactics.cards import POOL  # noqa: E402

State = dict[str, Any]
STEP_LIMIT = 20_000
"""Decisions at most in one game (far above the longest seen)."""
KILL_BONUS = 3
"""What destroying a card adds to an attack's worth."""


# --------------------------------------------------------------------------- the bot


SUPPORT_WORTH = 2
"""What the bot thinks a buff, debuff, circumstance or trophy worth: as much
as two points of damage."""


def _range(text: str) -> tuple[int, int]:
    lo, _, hi = str(text).partition("-")
    return int(lo), int(hi or lo)


class Bot:
    """One side's simple seeded player (see the module's docstring)."""

    def __init__(self, role: str, rng: Rng) -> None:
        self.role = role
        self.rng = rng

    # ------------------------------------------------------------------ helpers

    def _ok(self, state: State, line: str) -> str | None:
        """The canonical text of ``line`` if the game takes it now."""
        try:
            return GAME.parse(state, self.role, line).text
        except RuleError:
            return None

    def _pick(self, options: Sequence[str]) -> str:
        return options[self.rng.below(len(options), "bot") if len(options) > 1 else 0]

    @staticmethod
    def _targets(view: Mapping[str, Any], role: str) -> list[dict[str, Any]]:
        """Enemy cards on the field: troops, and the base while no troop stands on it."""
        out = [dict(t) for t in view["troops"] if t["owner"] != role]
        held = {t["at"] for t in out}
        for p in view["players"]:
            b = p["base"]
            if p["role"] != role and b and b["alive"] and b["at"] and b["at"] not in held:
                out.append({"at": b["at"], "health": b["health"], "damage": b["damage"],
                            "defense": b["defense"], "base": True})
        return out

    def _strikes(self, state: State, view: Mapping[str, Any],
                 only: str | None = None) -> list[tuple[int, str]]:
        """Attacks, offensive casts and skill uses the game takes now, with
        their worth: damage after defense, plus KILL_BONUS for a kill."""
        me = self.role
        mine = [t for t in view["troops"] if t["owner"] == me and (only is None or t["at"] == only)]
        foes = self._targets(view, me)
        you = view["you"]
        pool = next(p for p in view["players"] if p["role"] == me)
        ready = [k["card"] for k in pool["knowledge"] if k["up"]]
        offensive = [c for c in dict.fromkeys([*ready, *(h["card"] for h in you["hand"])])
                     if POOL.card(c).type in ("spell", "skill")
                     and POOL.card(c).kind == "offensive"]
        out: list[tuple[int, str]] = []
        for t in mine:
            a = t["at"]
            for foe in foes:
                b = foe["at"]
                d = F.distance(F.from_frame(a, me) or a, F.from_frame(b, me) or b)
                left = foe["health"] - foe["damage"]
                lo, hi = _range(t["range"])
                if lo <= d <= hi and t["attack"]:
                    dealt = max(0, t["attack"] - foe["defense"])
                    line = self._ok(state, f"ATTACK {a} {b}")
                    if line and dealt:
                        out.append((dealt + (KILL_BONUS if dealt >= left else 0), line))
                for c in offensive:
                    k = POOL.card(c)
                    if k.spell_range is not None and not k.spell_range[0] <= d <= k.spell_range[1]:
                        continue
                    dmg = k.damage + (t["attack"] if k.damage_is_bonus else 0)
                    dealt = max(0, dmg - foe["defense"])
                    verb = "CAST" if k.type == "spell" else "USE"
                    line = self._ok(state, f"{verb} {c} {b} FROM {a}") if dealt else None
                    if line:
                        out.append((dealt + (KILL_BONUS if dealt >= left else 0) - 1, line))
        return out

    def _best(self, options: list[tuple[int, str]]) -> str | None:
        if not options:
            return None
        top = max(w for w, _ in options)
        return self._pick(sorted({line for w, line in options if w == top}))

    # ------------------------------------------------------------------ stages

    def forces(self, state: State) -> list[str]:
        line = self._ok(state, "BASE C1")
        return [line] if line else []

    def choose(self, state: State, decision: Decision) -> str:
        """The line the bot sends for ``decision`` (an ACTION or a RESPONSE)."""
        stage = state["stage"]
        if stage in ("deploy", "up"):
            legal = GAME.legal(state, self.role)
            if stage == "deploy":
                front = [x for x in legal if x.split()[-1].endswith("2")]
                return self._pick(front or legal)
            moves = [x for x in legal if x != "PASS"]
            return moves[0] if moves else "PASS"
        if stage == "window":
            ctx = decision.context
            if ctx.get("lethal") or int(str(ctx.get("incoming", 0))) >= 3:
                answers = [x for x in GAME.legal(state, self.role) if x != "PASS"]
                if answers:
                    return answers[0]
            return "PASS"
        if stage == "mobilize":
            return self.mobilize(state)
        view = GAME.view(state, self.role)
        if stage == "follow":
            moved = next(t["at"] for t in view["troops"]
                         if t["owner"] == self.role and
                         state["troops"][state["follow"]]["at"] == F.from_frame(t["at"],
                                                                                 self.role))
            return self._best(self._strikes(state, view, only=moved)) or "STOP"
        best = self._best(self._strikes(state, view) + self._support(state, view))
        if best:
            return best
        move = self._advance(state, view)
        return move or "PASS"

    def _support(self, state: State, view: Mapping[str, Any]) -> list[tuple[int, str]]:
        """Buffs on its own troops, debuffs on the enemy's, control
        circumstances and trophies, each worth a little less than a blow."""
        out: list[tuple[int, str]] = []
        for line in GAME.legal(state, self.role):
            verb, _, rest = line.partition(" ")
            if verb in ("CAST", "USE"):
                k = POOL.card(rest.split()[0])
                if k.kind in ("buff", "debuff"):
                    out.append((SUPPORT_WORTH, line))
            elif verb == "PLAY" or verb == "REDEEM":
                out.append((SUPPORT_WORTH, line))
        return out

    def mobilize(self, state: State) -> str:
        legal = GAME.legal(state, self.role)
        plain = [x for x in legal if " DISCARD " not in x]
        view = GAME.view(state, self.role)
        cost = {h["card"]: int(h["cost"]) for h in view["you"]["hand"]}
        for verb in ("UPGRADE", "DEPLOY", "EQUIP"):
            these = [x for x in plain if x.startswith(verb + " ")]
            if verb == "DEPLOY":
                these.sort(key=lambda x: (-cost.get(x.split()[1], 0), x))
                front = [x for x in these if x.split()[1] == these[0].split()[1]
                         and x.split()[2].endswith("2")] if these else []
                these = front or these
            if these:
                return these[0] if verb != "UPGRADE" else self._pick(these)
        learn = [x for x in plain if x.startswith("LEARN ")]
        learn.sort(key=lambda x: POOL.card(x.split()[1]).kind != "offensive")
        return learn[0] if learn else "DONE"

    def _advance(self, state: State, view: Mapping[str, Any]) -> str | None:
        """The move that brings one of its troops nearest an enemy card."""
        me = self.role
        foes = [F.from_frame(f["at"], me) or "" for f in self._targets(view, me)]
        if not foes:
            return None
        best: tuple[int, str] | None = None
        for t in view["troops"]:
            if t["owner"] != me or not t["attack"]:
                continue
            at = F.from_frame(t["at"], me) or ""
            lo, _ = _range(t["range"])
            now = min(F.distance(at, f) for f in foes)
            if now <= max(lo, 1):
                continue  # already close enough: it waits for its points
            for nxt in F.adjacent(at):
                gain = now - min(F.distance(nxt, f) for f in foes)
                if gain <= 0:
                    continue
                line = f"MOVE {t['at']} {F.to_frame(nxt, me)}"
                if best is None or gain > best[0]:
                    ok = self._ok(state, line)
                    if ok:
                        best = (gain, ok)
        return best[1] if best else None


# --------------------------------------------------------------------------- one game


def seed_of(south: str, north: str, i: int, seed: int) -> bytes:
    return hashlib.sha256(f"{south}/{north}/{i}/{seed}".encode()).digest()


def play_game(south: str, north: str, seed: bytes, turn_limit: int) -> dict[str, Any]:
    """One game between two bots; its result, score and turns."""
    rng = Rng(seed, 0)
    bots = {r: Bot(r, Rng(hashlib.sha256(seed + r.encode()).digest(), 0)) for r in F.ROLES}
    state = GAME.setup({"south": south, "north": north, "turn_limit": turn_limit}, rng)
    for _ in range(STEP_LIMIT):
        if GAME.outcome(state) is not None:
            break
        due = live(GAME.pending(state))
        d = due[0]
        if d.kind is DecisionKind.ORDERS:
            orders = {r: [GAME.parse(state, r, x) for x in bots[r].forces(state)]
                      for r in d.roles}
            state, _ = GAME.resolve(state, orders, rng)
            continue
        role = d.roles[0]
        line = bots[role].choose(state, d)
        state, _ = GAME.act(state, role, GAME.parse(state, role, line), rng)
    out = GAME.outcome(state)
    r = state.get("result") or {}
    score = r.get("score", {})
    return {"south": south, "north": north, "ended": out is not None,
            "winner": (out.winners[0] if out and out.winners and not out.draw else None),
            "draw": bool(out and out.draw), "turns": state["turn"],
            "score": [int(score.get(F.SOUTH, 0)), int(score.get(F.NORTH, 0))],
            "text": r.get("text", "")}


def _play(args: tuple[str, str, int, int, int]) -> dict[str, Any]:
    south, north, i, seed, limit = args
    return play_game(south, north, seed_of(south, north, i, seed), limit)


def _result_key(g: Mapping[str, Any]) -> str:
    hi, lo = max(g["score"]), min(g["score"])
    return f"{hi}-{lo}" if hi >= 3 else "limit"


def summarize(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    n = len(games)
    results = {"3-0": 0, "3-1": 0, "3-2": 0, "3-3": 0, "limit": 0}
    for g in games:
        if g["ended"]:
            results[_result_key(g)] += 1
    return {
        "south": games[0]["south"], "north": games[0]["north"], "games": n,
        "south_wins": sum(g["winner"] == F.SOUTH for g in games),
        "north_wins": sum(g["winner"] == F.NORTH for g in games),
        "draws": sum(g["draw"] for g in games),
        "mean_turns": round(sum(g["turns"] for g in games) / n, 2) if n else 0.0,
        "results": results,
        "unfinished": sum(not g["ended"] for g in games),
    }


def run(factions: Sequence[str], games: int, seed: int, turn_limit: int, jobs: int,
        mirrors: bool = True) -> dict[str, Any]:
    pairs = [(s, n) for s in factions for n in factions if mirrors or s != n]
    work = [(s, n, i, seed, turn_limit) for s, n in pairs for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            played = list(ex.map(_play, work, chunksize=8))
    else:
        played = [_play(w) for w in work]
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {p: [] for p in pairs}
    for g in played:
        by_pair[(g["south"], g["north"])].append(g)
    return {"games": games, "seed": seed, "turn_limit": turn_limit,
            "pairings": [summarize(by_pair[p]) for p in pairs]}


def print_table(report: Mapping[str, Any]) -> None:
    print(f"{'South':<8} {'North':<8} {'games':>5} {'S wins':>6} {'N wins':>6} {'draws':>5} "
          f"{'turns':>5}  {'3-0':>4} {'3-1':>4} {'3-2':>4} {'3-3':>4} {'limit':>5}")
    for p in report["pairings"]:
        r = p["results"]
        print(f"{p['south']:<8} {p['north']:<8} {p['games']:>5} {p['south_wins']:>6} "
              f"{p['north_wins']:>6} {p['draws']:>5} {p['mean_turns']:>5}  {r['3-0']:>4} "
              f"{r['3-1']:>4} {r['3-2']:>4} {r['3-3']:>4} {r['limit']:>5}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    ap.add_argument("--turn-limit", type=int, default=30,
                    help="the game's turn_limit option (default 30; 0: none)")
    ap.add_argument("--faction", action="append", choices=sorted(POOL.starters),
                    help="only these factions (default: every starter deck)")
    ap.add_argument("--no-mirrors", action="store_true", help="leave out a faction against itself")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.games < 1:
        ap.error("--games must be at least 1")
    started = time.monotonic()
    report = run(args.faction or sorted(POOL.starters), args.games, args.seed, args.turn_limit,
                 max(1, args.jobs), mirrors=not args.no_mirrors)
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report)
        print(f"\n{sum(p['games'] for p in report['pairings'])} games in "
              f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
