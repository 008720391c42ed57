"""The stored images of the known positions (bench/support/positions.py), and
the script that writes them again: ``python -m tests.pictures.goldens`` (run it
after a deliberate change to how maps are drawn, and look at them)."""

from __future__ import annotations

from pathlib import Path

from bench.support.positions import GAMES, position
from judge.game.draw import picture

GOLDEN = Path(__file__).with_name("golden")


def main() -> None:
    for game_id in GAMES:
        path = GOLDEN / f"{game_id}.png"
        path.write_bytes(picture(game_id, position(game_id)))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
