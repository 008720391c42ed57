"""A seat's standing orders and written-ahead answers for the decisions of
its own turn, so that a seat on turn needs about one mail per turn.

* **The keep-order.** Cards ranked from the one a seat most wants to keep to
  the one it least wants. The Discard Phase ("discard cards until the number
  of hand cards equals current health", Playing the Game: Discard Phase) is
  carried out by it: the cards named in a ``DISCARD`` line written in the
  turn's mail go first, then the lowest ranked. The same order answers the
  discards of a fixed number of hand cards a card asks on the way (Rest and
  Reorganization) and the card a seat takes from those a Bumper Harvest
  shows (the highest ranked). ``STANDING discard KEEP <card>...`` puts the
  named cards first; ``STANDING discard ASK`` has the seat asked by hand.
* **Exposing.** "Your hidden General card can also be exposed ... at this
  phase" (Playing the Game: Preparation Phase): by default a seat is not
  asked each turn; a ``REVEAL`` written in its Play Phase exposes a general
  with a passive skill at once ("General cards with passive skills can be
  exposed in the Play Phase", Use of Cards) and any other at the start of
  its next Preparation Phase. ``STANDING reveal ASK`` has it asked every
  Preparation Phase.
* **Answers written ahead.** ``USE <card> ... THEN <answer>`` (several
  ``THEN``s for several questions): the questions the card asks its user on
  the way take those answers, in order; one that does not fit is dropped and
  the question asked by hand.
* **Forced answers** are not asked: a choice with one option, a demand
  for every card that fits (``STANDING forced ASK``: asked all the same).

All of it is held in the state (``standing``, ``ahead``, ``held_reveal``,
``held_discard``), seen by no other seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.game.engine import State
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import Ctx, card, label, name_of

KEEP_DEFAULT: tuple[str, ...] = (
    "peach", "dodge", "negation-force", "negation", "wine",
    "something-out-of-nothing", "stealing-sheep", "burning-bridges", "duel",
    "thunder-attack", "fire-attack", "attack",
    "barbarian-invasion", "raining-arrows", "attack-by-fire", "alliance", "borrowed-sword",
    "acedia", "rations-depleted", "bumper-harvest", "brotherhood",
    "rest-and-reorganization", "know-your-enemy", "iron-chains", "lightning",
)
"""The default keep-order, most wanted first: Peach (it saves a life),
Dodge, Negation, Wine, then the spells that gain cards or hurt, the Attacks,
the rest of the spells; equipment in the hand after them (weapons, armour,
then mounts, in the deck's order)."""

SETTINGS = ("discard", "reveal", "forced")


def _rank_list(extra: Sequence[str]) -> list[str]:
    out = list(dict.fromkeys([*extra, *KEEP_DEFAULT]))
    for kind in ("weapon", "armor", "mount"):
        out += [c.id for c in DATA.cards.values() if c.subtype == kind and c.id not in out]
    out += [c for c in DATA.cards if c not in out]
    return out


def mine(s: State, seat: str) -> dict[str, Any]:
    """``seat``'s standing orders (empty: the defaults)."""
    got: dict[str, Any] = s.get("standing", {}).get(seat, {})
    return got


def asks_by_hand(s: State, seat: str, what: str) -> bool:
    """Whether ``seat`` asked to decide ``what`` (discard, reveal) by hand."""
    return bool(mine(s, seat).get(what) == "ask")


def keep_order(s: State, seat: str) -> list[str]:
    """``seat``'s keep-order of card names, most wanted first."""
    return _rank_list(mine(s, seat).get("keep", []))


def ranked(s: State, seat: str, cids: Sequence[str]) -> list[str]:
    """``cids`` from the most wanted to the least (ties: the deck's order)."""
    order = {k: i for i, k in enumerate(keep_order(s, seat))}
    return sorted(cids, key=lambda c: (order.get(name_of(c), len(order)), card(c).suit,
                                       card(c).rank, c))


def to_discard(s: State, seat: str, pool: Sequence[str], n: int,
               first: Sequence[str] = ()) -> list[str]:
    """The ``n`` cards of ``pool`` the keep-order gives up: ``first`` (cards
    named ahead, those still in the pool), then the lowest ranked."""
    named = [c for c in dict.fromkeys(first) if c in pool][:n]
    rest = [c for c in reversed(ranked(s, seat, pool)) if c not in named]
    return [*named, *rest[:n - len(named)]]


def set_order(s: State, seat: str, cmd: dict[str, Any]) -> str:
    """Apply ``STANDING <what> ...``; the text that confirms it to the seat."""
    orders = s.setdefault("standing", {}).setdefault(seat, {})
    what, word = cmd["what"], cmd["word"]
    if what == "discard":
        if word == "ASK":
            orders["discard"] = "ask"
            return ("Standing order: you are asked by hand in your Discard Phase and when a card "
                    "asks you to discard or take cards.")
        orders.pop("discard", None)
        if word == "KEEP":
            orders["keep"] = list(cmd["keep"])
        names = ", ".join(DATA.cards[k].name for k in keep_order(s, seat)[:8])
        return (f"Standing order: your keep-order is {names}, ... (STANDING discard ASK to be "
                "asked).")
    if what == "forced":
        if word == "ASK":
            orders["forced"] = "ask"
            return "Standing order: you are asked even a question that has one answer."
        orders.pop("forced", None)
        return "Standing order: a question that has one answer is answered for you."
    if word == "ASK":
        orders["reveal"] = "ask"
        return "Standing order: you are asked in each Preparation Phase whether to expose."
    orders.pop("reveal", None)
    return ("Standing order: you are not asked to expose; write REVEAL MAIN|DEPUTY|BOTH in your "
            "Play Phase to expose.")


# --------------------------------------------------------------------------- answers ahead


def set_ahead(s: State, seat: str, answers: Sequence[str]) -> None:
    """The answers written ahead with the line being carried out (replacing
    those of an earlier line)."""
    ahead = s.setdefault("ahead", {})
    if answers:
        ahead[seat] = list(answers)
    else:
        ahead.pop(seat, None)


def clear_ahead(s: State, seat: str) -> None:
    s.get("ahead", {}).pop(seat, None)


def next_ahead(s: State, seat: str) -> str | None:
    got: list[str] = s.get("ahead", {}).get(seat, [])
    return got[0] if got else None


def pop_ahead(s: State, seat: str) -> None:
    got: list[str] = s.get("ahead", {}).get(seat, [])
    if got:
        got.pop(0)


def norm(text: str) -> str:
    return " ".join(text.upper().split())


def option_ahead(g: Ctx, seat: str, options: Sequence[str]) -> str | None:
    """The option the seat's next answer written ahead picks (consumed), or
    None (a mismatch is dropped and said so)."""
    text = next_ahead(g.s, seat)
    if text is None:
        return None
    pop_ahead(g.s, seat)
    for o in options:
        if norm(o) == norm(text):
            return o
    g.only(seat, f'Your answer written ahead, "{text}", does not fit the question on the way '
                 f"(its choices: {'; '.join(options)}): you are asked.")
    return None


def held_reveal(s: State, seat: str) -> list[str]:
    got: list[str] = s.get("held_reveal", {}).get(seat, [])
    return got


def hold_reveal(s: State, seat: str, slots: Sequence[str]) -> None:
    held = s.setdefault("held_reveal", {}).setdefault(seat, [])
    held[:] = [x for x in ("main", "deputy") if x in held or x in slots]


def take_held_reveal(s: State, seat: str) -> list[str]:
    return list(s.get("held_reveal", {}).pop(seat, []))


def hold_discard(s: State, seat: str, cids: Sequence[str]) -> None:
    held = s.setdefault("held_discard", {}).setdefault(seat, [])
    held[:] = list(dict.fromkeys([*held, *cids]))


def take_held_discard(s: State, seat: str) -> list[str]:
    return list(s.get("held_discard", {}).pop(seat, []))


def describe_keep(s: State, seat: str, cids: Sequence[str]) -> str:
    return ", ".join(label(c) for c in cids)
