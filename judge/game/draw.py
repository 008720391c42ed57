"""The picture of a game's view, by the game's id: the registry finds how the
game draws itself, :mod:`judge.pictures` draws and renders it.

``view`` is what ``Game.view(state, role)`` returned (so a picture shows only
what that role may know); ``fmt`` is ``"png"`` or ``"svg"``; ``results``
optionally adds the data of result events (``Event.data`` dicts) to what the
view itself says about the last phase. The last few pictures are kept, keyed
by what they were drawn from (:func:`_drawn_from`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from judge.game import registry
from judge.pictures import _CACHE_SIZE, FORMATS, NoPicture, Scene, render

__all__ = ["picture", "scene", "supported"]

#: Pictures by what they were drawn from (see :func:`_drawn_from`).
_picture_cache: OrderedDict[str, bytes] = OrderedDict()


def supported(game_id: str) -> bool:
    """Can :func:`picture` draw this game?"""
    return registry.drawing(game_id) is not None


def scene(game_id: str, view: Mapping[str, Any],
          results: Sequence[Mapping[str, Any]] | None = None) -> Scene:
    """The scene of ``view`` (a view of game ``game_id``); raises
    :class:`judge.pictures.NoPicture` for a game with no drawing."""
    drawing = registry.drawing(game_id)
    if drawing is None:
        raise NoPicture(f"no picture is drawn for {game_id}")
    return drawing.scene(view, list(results or ()))


def picture(game_id: str, view: Mapping[str, Any], *, fmt: str = "png",
            results: Sequence[Mapping[str, Any]] | None = None) -> bytes:
    """The picture of ``view`` (a view of game ``game_id``) as PNG or SVG bytes.

    Raises :class:`judge.pictures.NoPicture` for a game with no drawing and
    ``ValueError`` for another format."""
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
    drawing reads (:class:`judge.pictures.Drawing`'s ``reads``)."""
    drawing = registry.drawing(game_id)
    reads = getattr(drawing, "reads", None)
    part = view if reads is None else {k: view[k] for k in sorted(reads) if k in view}
    text = json.dumps([game_id, fmt, part, list(results or ())], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
