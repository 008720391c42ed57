"""(Re)write the region geometry of a game drawn on a planned layout:
``python tools/layout.py GAME...``.

The geometry is built by :func:`judge.pictures.layout.build` from the points
and borders the game's drawing plans, and written beside its map file as
``geometry.yaml``. A game drawn on the real coastline is refused: its
geometry comes from ``tools/geography.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from judge.game import registry  # noqa: E402
from judge.pictures.geometry import dump  # noqa: E402
from judge.pictures.layout import Layout, Planned, build  # noqa: E402


def write(game_id: str) -> Layout:
    """Build the geometry of ``game_id``'s map and write it beside its map file."""
    drawing = registry.drawing(game_id)
    where = getattr(drawing, "geometry_path", None)
    if isinstance(where, Path) and (where.parent / "places.yaml").is_file():
        raise SystemExit(f"{game_id} is drawn on the real coastline: "
                         f"run python tools/geography.py {game_id}")
    if not isinstance(drawing, Planned):
        raise SystemExit(f"{game_id} has no planned geometry")
    plan = drawing.plan()
    layout = build(plan)
    text = dump(plan.size, layout.rings, layout.skipped, f"python tools/layout.py {game_id}")
    drawing.geometry_path.write_text(text, encoding="utf-8")
    return layout


def main(argv: Sequence[str] | None = None) -> int:
    for game_id in (argv if argv is not None else sys.argv[1:]):
        layout = write(game_id)
        print(f"{game_id}: {len(layout.rings)} regions, crossings: "
              + (", ".join(f"{a}-{b}" for a, b in layout.skipped) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
