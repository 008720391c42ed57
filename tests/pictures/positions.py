"""Known positions drawn by the picture tests and the benchmark, and the
script that writes the stored images: ``python -m tests.pictures.positions``
(run it after a deliberate change to how maps are drawn, and look at them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judge import registry
from judge.pictures import picture
from judge.rng import Rng

GOLDEN = Path(__file__).with_name("golden")

#: Spring orders of each Diplomacy-family game: moves, a bounce, supports, a void support.
ORDERS: dict[str, dict[str, list[str]]] = {
    "classic": {
        "Austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
        "Russia": ["A War - Gal", "F Sev - Bla"],
        "Turkey": ["F Ank - Bla", "A Con - Bul"],
        "Germany": ["A Mun S A Ber - Kie", "A Ber - Kie", "F Kie - Den"],
        "England": ["F Lon - Nth", "A Lvp - Yor", "F Edi - Nwg"],
        "France": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
        "Italy": ["A Ven - Tyr", "F Nap - Ion", "A Rom - Apu"],
    },
    "warring_states": {
        "Qin": ["A Yon - Lon", "A Xia - Hex"],
        "Han": ["A Luo - WZh", "A Yiy S A Luo - WZh"],
        "Wei": ["A Wei - WZh"],
        "Qi": ["A Lin - Lu"],
    },
}


def position(game_id: str) -> dict[str, Any]:
    """The public view of ``game_id`` after its known first phase."""
    game = registry.get(game_id)
    state = game.setup({}, Rng(bytes(32)))
    orders = {role: [game.parse(state, role, line) for line in lines]
              for role, lines in ORDERS.get(game_id, {}).items()}
    if orders:
        state, _ = game.resolve(state, orders, Rng(bytes(32)))
    return dict(game.view(state, None))


def main() -> None:
    for game_id in ORDERS:
        path = GOLDEN / f"{game_id}.png"
        path.write_bytes(picture(game_id, position(game_id)))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
