"""Pictures of a game's position, for reports, the public pages and
``judge game map``.

The one entry point is :func:`picture`::

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
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from judge.pictures.scene import Drawing, Scene

__all__ = ["FORMATS", "Drawing", "NoPicture", "Scene", "picture", "render", "supported"]

#: Formats :func:`picture` writes; ``none`` is the setting that sends no picture.
FORMATS = ("png", "svg")

_CACHE_SIZE = 16
_png_cache: OrderedDict[str, bytes] = OrderedDict()
#: Pictures by what they were drawn from (see :func:`_drawn_from`).
_picture_cache: OrderedDict[str, bytes] = OrderedDict()


class NoPicture(LookupError):
    """The game has no drawing (yet)."""


def supported(game_id: str) -> bool:
    """Can :func:`picture` draw this game?"""
    from judge.game import registry

    return registry.drawing(game_id) is not None


def scene(game_id: str, view: Mapping[str, Any],
          results: Sequence[Mapping[str, Any]] | None = None) -> Scene:
    from judge.game import registry

    drawing = registry.drawing(game_id)
    if drawing is None:
        raise NoPicture(f"no picture is drawn for {game_id}")
    return drawing.scene(view, list(results or ()))


def picture(game_id: str, view: Mapping[str, Any], *, fmt: str = "png",
            results: Sequence[Mapping[str, Any]] | None = None) -> bytes:
    """The picture of ``view`` (a view of game ``game_id``) as PNG or SVG bytes.

    Raises :class:`NoPicture` for a game with no drawing and ``ValueError``
    for another format."""
    if fmt not in FORMATS:
        raise ValueError(f"a picture is png or svg, not {fmt!r}")
    key = _drawn_from(game_id, view, results, fmt)
    hit = _picture_cache.get(key)
    if hit is not None:
        _picture_cache.move_to_end(key)
        return hit
    drawn = scene(game_id, view, results)
    data = drawn.svg().encode("utf-8") if fmt == "svg" else render(drawn)
    _picture_cache[key] = data
    while len(_picture_cache) > _CACHE_SIZE:
        _picture_cache.popitem(last=False)
    return data


def _drawn_from(game_id: str, view: Mapping[str, Any],
                results: Sequence[Mapping[str, Any]] | None, fmt: str) -> str:
    """A digest of everything a picture is drawn from: the game, the format,
    the result events and the view, or only the keys of it the game's
    drawing reads (:class:`Drawing`'s ``reads``)."""
    from judge.game import registry

    drawing = registry.drawing(game_id)
    reads = getattr(drawing, "reads", None)
    part = view if reads is None else {k: view[k] for k in sorted(reads) if k in view}
    text = json.dumps([game_id, fmt, part, list(results or ())], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
