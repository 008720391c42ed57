"""Pictures of a game's position, for reports, the public pages and
``judge game map``: scenes built as SVG and rendered to PNG.

This package knows no game and no registry: a game draws itself with it, and
the picture of a game by its id is :func:`judge.game.draw.picture`::

    picture(game_id, view, fmt="png", results=None) -> bytes

``view`` is what ``Game.view(state, role)`` returned (so a picture shows
only what that role may know); ``fmt`` is ``"png"`` or ``"svg"``;
``results`` optionally adds the data of result events (``Event.data``
dicts) to what the view itself says about the last phase. Diplomacy views
carry their last phase's orders and results (``view["last"]``), which are
drawn as arrows (moves), dashed lines (supports, convoys), crosses (failed
orders) and dislodged units with their retreats.

Each game draws itself in ``judge_games/<id>/picture.py`` (a :class:`Drawing`
named ``DRAWING``, found through :func:`judge.game.registry.drawing`), from its
own map data and the region geometry next to its ``map.yaml``.

Drawing costs: the scene is built in Python (a few milliseconds) as SVG;
the PNG is that SVG rendered by libvips (:mod:`judge.pictures.rendering`).
Equal scenes give equal bytes, and the last few pictures are kept, keyed by
what they were drawn from: the part of the view the drawing reads (its
``reads`` keys, see :class:`Drawing`), or the whole view. So one phase's
picture for the seven powers of a Diplomacy game is built and painted once,
not seven times.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from judge.pictures.scene import Drawing, Scene

__all__ = ["FORMATS", "Drawing", "NoPicture", "Scene", "render"]

#: Formats :func:`judge.game.draw.picture` writes; ``none`` is the setting that sends no picture.
FORMATS = ("png", "svg")

_CACHE_SIZE = 16
_png_cache: OrderedDict[str, bytes] = OrderedDict()


class NoPicture(LookupError):
    """The game has no drawing (yet)."""


def render(drawn: Scene) -> bytes:
    """A scene -> PNG bytes (the last few kept: one phase drawn once)."""
    digest = hashlib.sha256(drawn.svg().encode("utf-8")).hexdigest()
    hit = _png_cache.get(digest)
    if hit is not None:
        _png_cache.move_to_end(digest)
        return hit
    data = drawn.png()
    _png_cache[digest] = data
    while len(_png_cache) > _CACHE_SIZE:
        _png_cache.popitem(last=False)
    return data
