"""The generals' skills: one :class:`Skill` object per skill of skills.yaml,
registered by id in :data:`SKILLS` (a dispatch table, like the cards').

The rules call into the skills at four kinds of places:

* **moments** (:func:`judge_games.kingdom_wars.flow.moment`): an event happened
  ("damaged", "prep_start", "retrial", ...). A skill listing the moment in
  ``moments`` is offered to its owner when :meth:`Skill.applies` holds; the
  owner answers the trigger window with one of :meth:`Skill.lines` (``USE
  Payback``), which reveals the general if it was hidden and runs
  :meth:`Skill.fire`. A ``compulsory`` skill of an exposed general fires
  without asking.
* **active skills** in the owner's Play Phase: :meth:`Skill.active_lines`,
  :meth:`Skill.check_active`, :meth:`Skill.do_active` (``USE Balance of
  Power C3 H4``).
* **view-as skills**: :meth:`Skill.convert` turns physical cards into a card
  of another kind when the owner uses or plays one (``ATTACK D10 BY Saint of
  War``, ``USE Attack D10 BY Saint of War ON C``).
* **modifiers** (:func:`modify`) and **prohibitions** (:func:`forbids`):
  numbers and permissions the rules compute (distance, attack range, how many
  Attacks, hand limit, who may be a target).

Only exposed generals have skills (Hidden and Exposed Generals); the
Ultimate Principle puts a skill above a card and a card above the rules, so a
skill's modifier or prohibition wins wherever it applies.

Modifier names (``what``) and their keywords, as the rules ask them:

=====================  ====================================================
``distance``           src, to: the distance from src to to (before min 1)
``fixed_distance``     src, to: a distance set outright (0: none)
``attack_range``       src
``attack_limit``       src: Attacks src may use this Play Phase
``attack_targets``     src, card: how many targets an Attack may have
``hand_limit``         src
``draw_count``         src: cards drawn in the Draw Phase
``dodges_needed``      src (the attacker), to: Dodges that cancel the Attack
``attacks_needed``     src (who asks), to: Attacks to answer a Duel
``damage``             src, to, card, nature, amount: damage about to be dealt
``trick_distance``     src, kind: extra reach of Stealing Sheep / Rations Depleted
``attack_damage``      src, to, uid: damage an Attack that hits is about to deal
``duel_damage``        src (the winner), to, uid: damage the loser of a Duel takes
=====================  ====================================================

Prohibition names (``what``): ``target`` (src, to, card: may src choose to as a
target of card?), ``use`` (src, card: may src use card now?), ``rescue`` (src,
to: may src save the dying to?), ``reveal`` (src: may src expose a general now?),
``dying`` (to: a player at 0 or less health who neither enters dying nor dies,
Unyielding).

``attack_targets`` also gets ``on``, the targets named. A card's suit as its
holder's skills make it count (Rosy Cheeks) is :func:`suit` (``Ctx.suit``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from judge.game.engine import IllegalLine
from judge_games.kingdom_wars.commands import canonical
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.state import general_of

if TYPE_CHECKING:
    from judge_games.kingdom_wars.table import Ctx

Moment = Mapping[str, Any]
Cmd = dict[str, Any]


class Skill:
    """One skill. Subclasses override what the skill does; the defaults do
    nothing. ``id`` is the skill's id in skills.yaml."""

    id: str = ""
    moments: tuple[str, ...] = ()
    compulsory: bool = False
    """Applies without asking once its general is exposed (a hidden one is
    offered to expose it when the moment comes)."""
    limited: bool = False
    """Once in the whole game (Limited Skills)."""
    only_own: bool = False
    """It answers its moments only when they are about its owner (the
    moment's seat), so standing answers pass the others' (Eclipse the Moon at
    another player's Final Phase)."""
    produces: tuple[str, ...] = ()
    """Card kinds a view-as skill can make (``("attack",)``)."""
    forced_moments: tuple[str, ...] = ()
    """Moments at which the skill of an exposed general applies without
    asking though the skill is not compulsory (an upkeep, such as
    Unyielding's Scars when its owner regains health)."""

    @property
    def name(self) -> str:
        return DATA.skills[self.id].name

    # -------------------------------------------------------------- moments

    def applies(self, g: Ctx, seat: str, m: Moment) -> bool:
        """Whether the skill may be used by ``seat`` at moment ``m``."""
        return False

    def lines(self, g: Ctx, seat: str, m: Moment) -> list[str]:
        """The answers that use the skill at ``m`` (canonical lines)."""
        return [f"USE {self.name}"]

    def check_trigger(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> Cmd:
        """Check a trigger answer's arguments; return the checked command
        (raise IllegalLine when it does not fit)."""
        text = canonical(cmd)
        if text not in self.lines(g, seat, m):
            raise IllegalLine(f"{self.name} cannot be used that way now",
                              hint=" or ".join(self.lines(g, seat, m)) or "PASS")
        return cmd

    def fire(self, g: Ctx, seat: str, m: Moment, cmd: Cmd) -> None:
        """Use the skill at ``m`` (push the tasks it is made of)."""

    # -------------------------------------------------------------- active

    def active_lines(self, g: Ctx, seat: str) -> list[str]:
        """Lines that use the skill in ``seat``'s Play Phase now."""
        return []

    def check_active(self, g: Ctx, seat: str, cmd: Cmd) -> Cmd:
        """Check an active use; return the checked command."""
        lines = self.active_lines(g, seat)
        if canonical(cmd) in lines:
            return cmd
        raise IllegalLine(f"{self.name} cannot be used that way now",
                          hint=(lines[0] if lines else "it cannot be used now"))

    def do_active(self, g: Ctx, seat: str, cmd: Cmd) -> None:
        """Use the skill in the Play Phase."""

    # -------------------------------------------------------------- view-as

    def convert(self, g: Ctx, seat: str, kind: str, cids: Sequence[str],
                need: str) -> dict[str, Any] | None:
        """The card of ``kind`` that ``cids`` make by this skill, or None.
        ``need`` is the occasion: ``play`` (its owner's Play Phase), ``respond``
        (answering a window), ``rescue``."""
        return None

    def convert_choices(self, g: Ctx, seat: str, kind: str, need: str) -> list[list[str]]:
        """Some card lists that :meth:`convert` accepts for ``kind`` now (for
        legal lines: a fair sample, the first ones found)."""
        return []

    # -------------------------------------------------------------- modifiers

    def modify(self, g: Ctx, seat: str, what: str, value: int, kw: Mapping[str, Any]) -> int:
        """A number the rules compute, changed by ``seat``'s skill."""
        return value

    def forbids(self, g: Ctx, seat: str, what: str, kw: Mapping[str, Any]) -> str | None:
        """Why the skill forbids what the rules ask about (None: it does not)."""
        return None

    def card_suit(self, g: Ctx, seat: str, cid: str, suit: str) -> str:
        """The suit ``seat``'s card (or judgement card) ``cid`` counts as."""
        return suit


SKILLS: dict[str, Skill] = {}
"""Every implemented skill by id."""


def register(cls: type[Skill]) -> type[Skill]:
    """Class decorator: register one instance of ``cls`` under its ``id``."""
    _overriding_cache.clear()
    inst = cls()
    if inst.id not in DATA.skills:
        raise ValueError(f"no skill {inst.id!r} in skills.yaml")
    if inst.id in SKILLS:
        raise ValueError(f"skill {inst.id!r} registered twice")
    SKILLS[inst.id] = inst
    return cls


def of(skill_id: str) -> Skill | None:
    return SKILLS.get(skill_id)


_overriding_cache: dict[str, frozenset[str]] = {}


def _overriding(method: str) -> frozenset[str]:
    """The skills whose class overrides ``method`` of :class:`Skill`."""
    got = _overriding_cache.get(method)
    if got is None:
        base = getattr(Skill, method)
        got = frozenset(sid for sid, sk in SKILLS.items()
                        if getattr(type(sk), method) is not base)
        _overriding_cache[method] = got
    return got


def _holders(g: Ctx, ids: frozenset[str]) -> list[tuple[str, Skill]]:
    """(seat, skill) for the exposed skills among ``ids`` of the living seats."""
    if not ids:
        return []
    kept = g.holders
    if kept is not None:
        found = kept.get(ids)
        if found is not None:
            return found
    out = []
    for seat in g.living():
        p = g.p(seat)
        for slot, up in zip(("main", "deputy"), p["shown"], strict=True):
            if not up:
                continue
            for sid in DATA.generals[general_of(p, slot)].skills:
                if sid in ids and sid not in p.get("lost_skills", []):
                    out.append((seat, SKILLS[sid]))
    if kept is not None:
        kept[ids] = out
    return out


def modify(g: Ctx, what: str, value: int, **kw: Any) -> int:
    """``value`` as every exposed skill at the table changes it."""
    for seat, sk in _holders(g, _overriding("modify")):
        value = sk.modify(g, seat, what, value, kw)
    return value


def forbids(g: Ctx, what: str, **kw: Any) -> str | None:
    """The first exposed skill's reason to forbid it, if any."""
    for seat, sk in _holders(g, _overriding("forbids")):
        why = sk.forbids(g, seat, what, kw)
        if why:
            return why
    return None


def suit(g: Ctx, seat: str, cid: str, printed: str) -> str:
    """The suit ``cid`` counts as for ``seat`` (whose card, or whose
    judgement, it is), as ``seat``'s exposed skills make it count."""
    for holder, sk in _holders(g, _overriding("card_suit")):
        if holder == seat:
            printed = sk.card_suit(g, seat, cid, printed)
    return printed


def hooked(moment: str) -> list[Skill]:
    """The skills that watch ``moment``."""
    return [sk for sk in SKILLS.values() if moment in sk.moments]


Loader = Callable[[], None]


def load_all() -> None:
    """Import the kingdom modules, which register their skills."""
    from judge_games.kingdom_wars.skills import neutral, shu, wei, wu  # noqa: F401
