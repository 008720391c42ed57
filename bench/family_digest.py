"""A digest of seeded games of the Diplomacy family, played through the game
contract: to show that a change of the code changes no adjudication.

Each game (classic, Warring States, Three Kingdoms with six players, and
with three under optional rules 3, 4 and 7) is set up from a fixed seed and
played for up to ``--steps`` decisions with lines chosen at random (fixed
seed) from ``legal``; some lines are refused by ``check_held`` and some
misspelt lines by ``parse``. Everything the judge would read is recorded:
each decision (kind, seats, phase, prompt, default), every seat's view,
the survivors, the legal lines, the refusals with their hints, the seats'
unordered units, the events with their audiences, the whole state and the
outcome. Printed: one SHA-256 per game and seed, then one for all, and the
CPU seconds taken. Run it in two checkouts and compare the last lines.

Usage::

    python bench/family_digest.py [--seeds 3] [--steps 40]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge.game import registry  # noqa: E402
from judge.game.engine import JSON, Action, DecisionKind, RuleError  # noqa: E402
from judge.game.rng import Rng  # noqa: E402

GAMES: tuple[tuple[str, Mapping[str, JSON]], ...] = (
    ("classic", {}),
    ("warring_states", {}),
    ("three_kingdoms", {"players": 6}),
    ("three_kingdoms", {"players": 3, "free_style": True, "army_supremacy": True,
                        "combined_leaders": True}),
)
MISSPELT = ("A Xyz - Abc", "M99->1", "F Lon - Nth", "WAR Player9")
"""Lines tried on every seat: unknown names, a foreign unit, a stranger."""


def play(gid: str, options: Mapping[str, JSON], seed: int, steps: int) -> list[Any]:
    """The record of one seeded game (see the module docstring)."""
    game = registry.get(gid)
    rnd = random.Random(seed)
    rng = Rng(hashlib.sha256(f"{gid}{seed}".encode()).digest())
    state = game.setup({**game.playthrough_options, **options}, rng)
    out: list[Any] = []
    for _ in range(steps):
        pending = game.pending(state)
        out.append(["pending", [[d.kind.value, list(d.roles), d.phase, d.prompt, d.default]
                                for d in pending]])
        out += [["view", r, game.view(state, r)] for r in game.roles(state)]
        out.append(["survivors", game.survivors(state)])
        if not pending:
            break
        decision = pending[0]
        if decision.kind is DecisionKind.ACTION:
            role = decision.roles[0]
            legal = game.legal(state, role)
            out.append(["legal", role, legal])
            action = (game.default(state, decision, role) if rnd.random() < 0.2
                      else game.parse(state, role, rnd.choice(legal)))
            assert action is not None
            state, events = game.act(state, role, action, rng)
        else:
            orders: dict[str, list[Action]] = {}
            for role in decision.roles:
                legal = game.legal(state, role)
                out.append(["legal", role, legal])
                held: list[Action] = []
                for line in rnd.sample(legal, min(len(legal), 6)):
                    action = game.parse(state, role, line)
                    try:
                        game.check_held(state, role, action, held)
                    except RuleError as exc:
                        out.append(["refused", str(exc), exc.hint])
                        continue
                    held.append(action)
                out.append(["unordered", game.unordered(state, role, held)])
                for bad in MISSPELT:
                    try:
                        game.parse(state, role, bad)
                    except RuleError as exc:
                        out.append(["error", str(exc), exc.hint])
                orders[role] = held
            state, events = game.resolve(state, orders, rng)
        out.append(["events", [[e.text, sorted(e.audience or ())] for e in events]])
        out.append(["state", state])
        outcome = game.outcome(state)
        out.append(["outcome", None if outcome is None
                    else [list(outcome.winners), outcome.draw, outcome.reason]])
    return out


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args(argv)
    start = time.process_time()
    games = {}
    for gid, options in GAMES:
        for seed in range(args.seeds):
            name = f"{gid} {json.dumps(options, sort_keys=True)} seed {seed}"
            games[name] = play(gid, options, seed, args.steps)
            print(f"{digest(games[name])[:16]}  {len(games[name]):4d} records  {name}")
    cpu = time.process_time() - start
    print(f"all {digest(games)}")
    print(f"cpu {cpu:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
