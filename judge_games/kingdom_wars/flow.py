"""The flow of a Kingdom Wars game: turns and phases, exposing generals,
moments and trigger windows, using cards, the Negation chain, Dodges and
rescue, judgement, damage, dying, elimination and victory.

Each rule is a task (see table.py); each decision an ask, answered through
the handler registered for its kind with :func:`answer`; the decision kernel
(:mod:`judge.game.flow`) runs them. The comments cite the rulebook
(kingdom-wars.txt) by its headings and the settlement model of the data
notes (kingdom-wars-notes.md) where the rulebook is silent.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from judge.game.engine import RuleError
from judge.game.flow import pop_ask, suspend
from judge_games.kingdom_wars import skills as S
from judge_games.kingdom_wars import standing
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.state import general_of
from judge_games.kingdom_wars.table import (
    RULES,
    SLOTS,
    Ctx,
    Task,
    card,
    is_kind,
    label,
    name_of,
    seat_label,
    task,
    vcard,
    vlabel,
)

Cmd = dict[str, Any]
Ask = dict[str, Any]

PHASES = ("preparation", "judgement", "draw", "play", "discard", "final")

answer = RULES.answer
run = RULES.run


@RULES.on_resume
def _resuming(g: Ctx, a: Ask) -> None:
    rescued_meanwhile(g, a)


@RULES.on_close
def _closed(g: Ctx, a: Ask) -> None:
    if a.get("done"):
        g.push(a["done"])
    elif a["kind"] == "respond":
        g.push(a["on_fail"])  # all it still asked were eliminated meanwhile


# --------------------------------------------------------------------------- turns


@task("turn")
def _turn(g: Ctx, t: Task) -> None:
    """A player's turn: six phases (Playing the Game). Stacked generals skip
    the turn (Appendix I, Stacked); Death Match begins with the turn that
    finds its condition (Death Match)."""
    s = g.s
    seat = t["seat"]
    if not g.alive(seat):
        g.push({"t": "turn", "seat": g.next_seat(seat)})
        return
    if not t.get("extra"):
        if s["turns"] and new_round(s, s.get("lap") or s["current"], seat):
            s["round"] += 1
        s["lap"] = seat
    s["turns"] += 1
    s["current"] = seat
    s["turn_flags"] = {}
    s["phase"] = "start"
    death_match_check(g)
    p = g.p(seat)
    if p["stacked"]:
        p["stacked"] = False
        g.pub(f"{seat_label(seat)}'s generals are placed side by side again, and the turn "
              "is skipped.")
        g.push({"t": "turn", "seat": g.next_seat(t.get("after") or seat)})
        return
    g.pub(f"Round {s['round']}: {seat_label(seat)}'s turn begins.")
    g.push({"t": "moment", "m": {"name": "turn_start", "seat": seat}},
           *({"t": "phase", "phase": ph} for ph in PHASES),
           {"t": "turn_end", "seat": seat, "after": t.get("after")})


def new_round(s: dict[str, Any], last: str | None, seat: str) -> bool:
    """Whether the turn passing from ``last`` (the last ordinary turn) to
    ``seat`` begins a new round. "The game begins with the Starting Player,
    followed by other players in a counter clockwise direction": a round
    begins each time the turns reach or pass the starting player's place,
    whether or not that player is still in the game."""
    if last is None:
        return False
    seats: list[str] = s["seats"]
    n = len(seats)

    def ahead(r: str) -> int:  # steps from ``last`` to ``r``: 1 to n
        return (seats.index(r) - seats.index(last)) % n or n

    return ahead(s["start"]) <= ahead(seat)


@task("turn_end")
def _turn_end(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    g.push({"t": "moment", "m": {"name": "turn_end", "seat": seat}},
           {"t": "next_turn", "seat": seat, "after": t.get("after")})


@task("next_turn")
def _next_turn(g: Ctx, t: Task) -> None:
    """The next player's turn; an extra turn given this turn (the
    ``extra_turn`` flag: Delegate Power) comes first, and the turns then go
    on from the player after the one whose turn gave it (``after``)."""
    base = t.get("after") or t["seat"]
    extra = g.s["turn_flags"].get("extra_turn")
    if extra and g.alive(extra):
        g.push({"t": "turn", "seat": extra, "extra": True, "after": base})
        return
    g.push({"t": "turn", "seat": g.next_seat(base)})


def skip_phase(g: Ctx, phase: str) -> None:
    skipped: list[str] = g.s["turn_flags"].setdefault("skip", [])
    if phase not in skipped:
        skipped.append(phase)


def skipped(g: Ctx, phase: str) -> bool:
    return phase in g.s["turn_flags"].get("skip", [])


@task("phase")
def _phase(g: Ctx, t: Task) -> None:
    s = g.s
    ph = t["phase"]
    seat = s["current"]
    if not g.alive(seat):
        return
    if ph in ("judgement", "draw", "play", "discard") and not t.get("checked"):
        # "just before the phase would begin": skills that skip it (Clever Shift,
        # Godspeed, Self-Restraint, Delegate Power) are offered first.
        g.push({"t": "moment", "m": {"name": f"before_{ph}", "seat": seat}},
               {"t": "phase", "phase": ph, "checked": True})
        return
    if skipped(g, ph):
        g.pub(f"{seat_label(seat)}'s {ph.capitalize()} Phase is skipped.")
        return
    s["phase"] = ph
    body = {
        "preparation": _preparation,
        "judgement": _judgement_phase,
        "draw": _draw_phase,
        "play": _play_phase,
        "discard": _discard_phase,
        "final": _final_phase,
    }[ph]
    body(g, seat)


def _preparation(g: Ctx, seat: str) -> None:
    """Preparation Phase: skills may be used; hidden generals may be exposed."""
    g.push({"t": "reveal_offer", "seat": seat},
           {"t": "moment", "m": {"name": "prep_start", "seat": seat}})


@task("reveal_offer")
def _reveal_offer(g: Ctx, t: Task) -> None:
    """"Your hidden General card can also be exposed (flipped face up) at this
    phase" (Playing the Game: Preparation Phase). What the seat wrote ahead
    (a REVEAL held from its last Play Phase) is done; it is asked only if
    its standing order says so (``STANDING reveal ASK``): keeping the
    generals hidden is the standing answer."""
    seat = t["seat"]
    hidden = g.hidden_slots(seat)
    held = [x for x in standing.take_held_reveal(g.s, seat) if x in hidden]
    if not hidden or not g.alive(seat):
        return
    if held:
        reveal(g, seat, held, "in the Preparation Phase")
        return
    if not standing.asks_by_hand(g.s, seat, "reveal"):
        if wins_by_exposing(g, seat):
            # "Players without exposed General cards cannot win the game, even
            # if he/she belongs to the same Kingdom as all other players that
            # survived" (End of the Game): exposing wins, so the seat exposes.
            reveal(g, seat, hidden, "in the Preparation Phase, which wins the game")
        return
    g.ask("reveal", [seat], f"{seat_label(seat)} may expose generals (Preparation Phase)",
          options=reveal_lines(g, seat))


def wins_by_exposing(g: Ctx, seat: str) -> bool:
    """Whether exposing ``seat``'s hidden generals would end the game with
    ``seat`` among the winners (every other survivor exposed, of its
    kingdom, and it not made an Ambitionist): tried on a copy."""
    alive = g.living()
    if any(r != seat and g.kingdom(r) is None for r in alive):
        return False
    trial = Ctx(copy.deepcopy(g.s))
    reveal(trial, seat, trial.hidden_slots(seat))
    return check_victory(trial) and seat in trial.s["winners"]


def reveal_lines(g: Ctx, seat: str) -> list[str]:
    hidden = g.hidden_slots(seat)
    lines = [f"REVEAL {slot.upper()}" for slot in hidden]
    if len(hidden) == 2:
        lines.append("REVEAL BOTH")
    return ["PASS", *lines]


@answer("reveal")
def _answer_reveal(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    pop_ask(g, ask)
    if cmd["verb"] == "REVEAL":
        reveal(g, role, cmd["slots"], "in the Preparation Phase")


def _judgement_phase(g: Ctx, seat: str) -> None:
    """Judgement Phase: time-delay spells, "in sequence starting from the last to
    the first time-delay spell card that was placed"."""
    g.push(*({"t": "delayed", "seat": seat, "card": j["card"], "as": j["as"]}
             for j in reversed(list(g.judges(seat)))))


def _draw_phase(g: Ctx, seat: str) -> None:
    g.push({"t": "moment", "m": {"name": "draw_start", "seat": seat}},
           {"t": "draw_phase", "seat": seat})


@task("draw_phase")
def _draw(g: Ctx, t: Task) -> None:
    """Draw Phase: "Draw two cards from the top of the deck"."""
    seat = t["seat"]
    if g.flag("draw_replaced") or not g.alive(seat):
        return
    n = S.modify(g, "draw_count", 2, src=seat) - int(g.flag("draw_less", 0))
    g.set_flag("draw_count", n)
    g.push({"t": "moment", "m": {"name": "draw_count", "seat": seat}},
           {"t": "draw_now", "seat": seat})


@task("draw_now")
def _draw_now(g: Ctx, t: Task) -> None:
    n = int(g.flag("draw_count", 2)) - int(g.flag("draw_less", 0) if g.flag("less_after") else 0)
    if n > 0:
        g.draw(t["seat"], n, "Draw Phase")


def _play_phase(g: Ctx, seat: str) -> None:
    g.set_flag("attacks", 0)
    g.push({"t": "moment", "m": {"name": "play_start", "seat": seat}},
           {"t": "play", "seat": seat})


@task("play")
def _play(g: Ctx, t: Task) -> None:
    """One decision of the Play Phase: use a card or a skill, or end the phase
    ("Any player can enter the Discard Phase if he/she is unwilling or unable
    to use a card")."""
    seat = t["seat"]
    from judge_games.kingdom_wars import play

    standing.clear_ahead(g.s, seat)  # answers written ahead were for the line before
    if not g.alive(seat) or g.s["current"] != seat or g.flag("play_over"):
        return
    if (not standing.asks_by_hand(g.s, seat, "forced")
            and play.play_lines(Ctx.reading(g.s), seat) == ["PASS"]):
        # Nothing to use, nothing to expose: the Play Phase's only answer is
        # to end it ("Any player can enter the Discard Phase if he/she is ...
        # unable to use a card"), so it is not asked.
        g.pub(f"{seat_label(seat)} ends the Play Phase.")
        return
    g.ask("play", [seat], f"{seat_label(seat)}'s Play Phase")


@answer("play")
def _answer_play(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    from judge_games.kingdom_wars import play

    pop_ask(g, ask)
    if cmd["verb"] == "PASS":
        g.pub(f"{seat_label(role)} ends the Play Phase.")
        return
    g.push({"t": "play", "seat": role})
    standing.set_ahead(g.s, role, cmd.get("then") or [])
    play.carry_out(g, role, cmd)


def _discard_phase(g: Ctx, seat: str) -> None:
    g.push({"t": "moment", "m": {"name": "discard_start", "seat": seat}},
           {"t": "discard_phase", "seat": seat},
           {"t": "moment", "m": {"name": "discard_end", "seat": seat}})


@task("discard_phase")
def _discard(g: Ctx, t: Task) -> None:
    """Discard Phase: no more hand cards than current health; the Yin-Yang
    Marker may raise the limit by 2 (Marker Cards)."""
    seat = t["seat"]
    if not g.alive(seat):
        return
    over = len(g.hand(seat)) - g.hand_limit(seat)
    if over <= 0:
        standing.take_held_discard(g.s, seat)
        return
    if not standing.asks_by_hand(g.s, seat, "discard"):
        # By the seat's keep-order: the cards it named in its Play Phase
        # first, then those it least wants (the Yin-Yang Marker is kept).
        first = standing.take_held_discard(g.s, seat)
        cids = standing.to_discard(g.s, seat, g.hand(seat), over, first)
        g.push({"t": "discard_done", "seat": seat, "cards": cids})
        return
    if g.p(seat)["markers"]["yin-yang"] and not t.get("offered"):
        g.push({"t": "discard_phase", "seat": seat, "offered": True})
        choose(g, seat, "the Yin-Yang Marker: raise your hand limit by 2 this turn?",
               ["PASS", "MARKER Yin-Yang"], {"t": "yinyang_limit", "seat": seat})
        return
    ask_cards(g, seat, "DISCARD", over, over, ["hand"],
              f"discard {over} card{'s' * (over != 1)} (hand limit {g.hand_limit(seat)})",
              {"t": "discard_done", "seat": seat})


@task("yinyang_limit")
def _yinyang_limit(g: Ctx, t: Task) -> None:
    if t["answer"] == "MARKER YIN-YANG":
        seat = t["seat"]
        g.p(seat)["markers"]["yin-yang"] -= 1
        g.set_flag("yinyang_limit", True)
        g.pub(f"{seat_label(seat)} discards the Yin-Yang Marker: hand limit +2 this turn.")


@task("discard_done")
def _discard_done(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    cids = t["cards"]
    discard_cards(g, seat, cids, "Discard Phase")
    g.s["turn_flags"].setdefault("discarded", []).extend(cids)


def discard_cards(g: Ctx, seat: str, cids: Sequence[str], why: str = "") -> None:
    """``seat`` discards ``cids`` from its hand or equipment (face up: Discard)."""
    if not cids:
        return
    zones = [g.where(c)[0] for c in cids]
    g.to_discard(cids)
    tail = f" ({why})" if why else ""
    g.pub(f"{seat_label(seat)} discards {', '.join(label(c) for c in cids)}{tail}.",
          discarded=list(cids))
    g.lost(seat, cids, zones)
    moment(g, "discarded", seat=seat, cards=list(cids), zones=zones)


def _final_phase(g: Ctx, seat: str) -> None:
    g.push({"t": "moment", "m": {"name": "final_start", "seat": seat}})


# --------------------------------------------------------------------------- generic asks


def choose(g: Ctx, seat: str, what: str, options: Sequence[str], then: Task,
           default: int = 0, auto: str | None = None) -> None:
    """Ask ``seat`` to pick one of ``options`` (canonical lines); ``then`` runs
    with ``answer`` set to the pick. A choice of one option is not asked (its
    answer is forced); nor one the seat answered ahead (``USE ... THEN
    <answer>``); ``auto``, when given, is the seat's standing answer (its
    keep-order) unless it asked to be asked."""
    forced = len(options) == 1 and not standing.asks_by_hand(g.s, seat, "forced")
    pick = options[0] if forced else standing.option_ahead(g, seat, options)
    if pick is None and auto is not None and not standing.asks_by_hand(g.s, seat, "discard"):
        pick = auto
    if pick is not None:
        nxt = dict(then)
        nxt["answer"] = pick.upper()
        g.push(nxt)
        return
    g.ask("choose", [seat], what, options=list(options), then=dict(then), default=default)


@answer("choose")
def _answer_choose(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    pop_ask(g, ask)
    then = dict(ask["then"])
    then["answer"] = cmd["text"]
    g.push(then)


def ask_cards(g: Ctx, seat: str, verb: str, least: int, most: int, zones: Sequence[str],
              what: str, then: Task, *, of: str | None = None,
              filt: dict[str, Any] | None = None, pool: Sequence[str] = (),
              chosen: bool = False) -> None:
    """Ask ``seat`` for ``least``..``most`` of its cards (``of``: another seat's
    visible cards, for a card taken from an equipment zone) in ``zones``,
    matching ``filt`` (suit, colour, kind, type); ``then`` runs with ``cards``
    (in the order named). The zone ``pool`` offers the cards ``pool`` lists
    (cards set out for this choice alone, such as those Stargazing looks at).

    Not asked: a demand whose answer is forced (every card that fits, or
    none when none fits and none is needed); one the seat answered ahead
    (``USE ... THEN DISCARD <card>``); a discard of a fixed number of the
    seat's own cards, by its keep-order (hand cards first), unless it asked
    to be asked (``STANDING discard ASK``), or that the rule leaves to the
    seat's choice (``chosen``: a cost it may pay, "you may discard a card")."""
    spec = {"verb": verb, "least": least, "most": most, "zones": list(zones),
            "then": dict(then), "of": of or seat, "filt": dict(filt or {}), "pool": list(pool)}
    if chosen:
        spec["chosen"] = True
    got = _cards_decided(g, seat, spec)
    if got is not None:
        nxt = dict(then)
        nxt["cards"] = got
        g.push(nxt)
        return
    g.ask("cards", [seat], what, **spec)


def _cards_decided(g: Ctx, seat: str, spec: dict[str, Any]) -> list[str] | None:
    from judge_games.kingdom_wars import commands, play

    fits = cards_pool(g, spec)
    least, most = spec["least"], spec["most"]
    forced = (least == most == len(fits)) or (not fits and least == 0)
    if forced and not standing.asks_by_hand(g.s, seat, "forced"):
        return list(fits)
    text = standing.next_ahead(g.s, seat)
    if text is not None:
        standing.pop_ahead(g.s, seat)
        try:
            got: list[str] = play.check_cards(g, seat, spec, commands.syntax(text))["cards"]
            return got
        except RuleError as exc:
            g.only(seat, f'Your answer written ahead, "{text}", does not fit the question on '
                         f"the way ({spec['verb']}): {exc.message}; you are asked.")
    own = spec["of"] == seat and "pool" not in spec["zones"] and not spec.get("chosen")
    if (spec["verb"] == "DISCARD" and least == most and own
            and not standing.asks_by_hand(g.s, seat, "discard")):
        hand = [c for c in fits if c in g.hand(seat)]
        kept_first = [*standing.ranked(g.s, seat, [c for c in fits if c not in hand]),
                      *standing.ranked(g.s, seat, hand)]  # worn equipment is kept longest
        return kept_first[len(kept_first) - least:][::-1]
    return None


def card_fits(cid: str, filt: dict[str, Any], g: Ctx | None = None,
              seat: str | None = None) -> bool:
    """Whether ``cid`` matches ``filt``; with ``g`` and ``seat``, by the suit
    the card counts as for ``seat`` (Rosy Cheeks)."""
    c = card(cid)
    suit = c.suit if g is None else g.suit(seat, cid)
    colour = "red" if suit in ("hearts", "diamonds") else "black"
    if filt.get("suit") and suit != filt["suit"]:
        return False
    if filt.get("colour") and colour != filt["colour"]:
        return False
    if filt.get("kind") and not is_kind(c.card.id, filt["kind"]):
        return False
    if filt.get("not_kind") and c.card.id == filt["not_kind"]:
        return False
    if filt.get("type") and c.type != filt["type"]:
        return False
    return not (filt.get("not_type") and c.type == filt["not_type"])


def cards_pool(g: Ctx, ask: Ask) -> list[str]:
    seat = ask["of"]
    pool: list[str] = []
    if "hand" in ask["zones"]:
        pool += g.hand(seat)
    if "equip" in ask["zones"]:
        pool += g.equips(seat)
    if "pool" in ask["zones"]:  # cards set out for this choice only (Stargazing)
        pool += [c for c in ask.get("pool", []) if c not in pool]
    return [c for c in pool if card_fits(c, ask["filt"], g, seat)]


@answer("cards")
def _answer_cards(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    pop_ask(g, ask)
    then = dict(ask["then"])
    then["cards"] = list(cmd["cards"])
    g.push(then)


# --------------------------------------------------------------------------- exposing


def reveal(g: Ctx, seat: str, slots: Sequence[str], why: str = "") -> None:
    """Expose generals (Hidden and Exposed Generals): the first exposure sets
    the kingdom, or makes an Ambitionist when "the number of players of that
    Kingdom already exceeds half of the total number of players"; the first
    player in the game to expose takes the Pioneer Marker; both exposed for
    the first time grant the Yin-Yang and Perfect Pair Markers owed."""
    s = g.s
    p = g.p(seat)
    done = []
    for slot in SLOTS:
        i = SLOTS.index(slot)
        if slot in slots and not p["shown"][i]:
            p["shown"][i] = True
            done.append(slot)
    if not done:
        return
    names = ", ".join(f"{DATA.generals[general_of(p, sl)].name} "
                      f"({'main' if sl == 'main' else 'supporting'})" for sl in done)
    tail = f" {why}" if why else ""
    g.pub(f"{seat_label(seat)} exposes {names}{tail}.", revealed=[general_of(p, sl) for sl in done])
    if p["kingdom"] is None:
        kingdom = DATA.generals[general_of(p, done[0])].kingdom
        p["kingdom"] = kingdom
        others = [r for r in s["seats"] if r != seat and g.kingdom(r) == kingdom]
        amb = (len([r for r in others if not g.ambitionist(r)]) + 1) * 2 > s["n"] or any(
            g.ambitionist(r) for r in others)
        if amb:
            p["ambitionist"] = True
            g.pub(f"{seat_label(seat)} is of {kingdom}, but {kingdom} already has more than half "
                  f"of the {s['n']} players: {seat_label(seat)} becomes an Ambitionist.")
        else:
            g.pub(f"{seat_label(seat)} belongs to {kingdom}.")
        if not s["pioneer_given"] and p["alive"]:
            s["pioneer_given"] = True
            p["markers"]["pioneer"] += 1
            g.pub(f"{seat_label(seat)} is the first to expose a general and takes the Pioneer "
                  "Marker.")
    if all(p["shown"]) and not p["both_shown_once"] and p["alive"]:
        p["both_shown_once"] = True
        if p["owed"]["yin-yang"]:
            p["markers"]["yin-yang"] += 1
            g.pub(f"{seat_label(seat)} takes the Yin-Yang Marker for the spare half-circle.")
        if p["owed"]["perfect-pair"]:
            p["markers"]["perfect-pair"] += 1
            g.pub(f"{seat_label(seat)}'s generals are a Perfect Pair: the Perfect Pair Marker.")
    if p["alive"]:
        moment(g, "revealed", seat=seat, slots=done)
        if s["stage"] == "play":
            # End of the Game: "When all the remaining players belong to the same
            # Kingdom, that Kingdom wins": an exposure may be what completes it.
            g.push({"t": "victory_check"})


@task("victory_check")
def _victory_check(g: Ctx, t: Task) -> None:
    check_victory(g)


# --------------------------------------------------------------------------- moments

MOMENT_SCOPE: dict[str, str] = {
    # who may hold a skill that answers the moment: the seat it is about
    # ("self"), every other seat ("others") or anyone ("any").
    "retrial": "any",
    "final_start": "any",
    "discard_end": "any",
    "death": "any",
    "attack_damaged": "any",
    "dying_by_damage": "any",
    "dying": "current",
}


def moment(g: Ctx, name: str, **info: Any) -> None:
    """Something happened that skills may answer: push its trigger window."""
    g.push({"t": "moment", "m": {"name": name, **info}})


def concerned(g: Ctx, name: str, seat: str, m: dict[str, Any]) -> bool:
    scope = MOMENT_SCOPE.get(name, "self")
    if scope == "any":
        return True
    if scope == "current":  # the seat it is about, and the player whose turn it is
        return seat in (m.get("seat"), g.s["current"])
    if scope == "others":
        return seat != m.get("seat")
    return seat == m.get("seat")


@task("moment")
def _moment(g: Ctx, t: Task) -> None:
    """Offer the skills that watch this moment. Exposed compulsory skills
    apply at once; optional ones are asked. A seat with a hidden general that
    the moment concerns is asked too, whatever its generals are, so that the
    question itself tells nobody what it holds (the judge's standing answers
    keep such windows from reaching a seat that cannot use them)."""
    m = t["m"]
    name = m["name"]
    hooks = S.hooked(name)
    if not hooks:
        return
    roles: list[str] = []
    autos: list[tuple[str, S.Skill]] = []
    # Could a hidden general hold one of these skills? Only if one of their
    # generals is not known (exposed, by anyone) to be elsewhere: public facts.
    exposed = {gid for r in g.s["seats"] for gid in g.shown(r)}
    hidden_may = any(any(h not in exposed for h in DATA.skills[sk.id].holders) for sk in hooks)
    seats = g.from_current()
    if name == "death" and m["seat"] not in seats:
        seats.insert(0, m["seat"])  # the dead player's own death skills (Heartbreak)
    for seat in seats:
        mine = g.skills(seat)
        optional = False
        for sk in hooks:
            if sk.id in mine and sk.applies(g, seat, m):
                if sk.compulsory or name in sk.forced_moments:
                    autos.append((seat, sk))
                else:
                    optional = True
        hidden_ask = hidden_may and bool(g.hidden_slots(seat)) and concerned(g, name, seat, m)
        if optional or hidden_ask:
            roles.append(seat)
    if roles:
        g.ask("trigger", roles, describe_moment(m), m=m, used={}, window="trigger")
    for seat, sk in reversed(autos):
        g.push({"t": "fire", "seat": seat, "skill": sk.id, "m": m, "cmd": {"verb": "USE",
                                                                          "skill": sk.id}})


@task("fire")
def _fire(g: Ctx, t: Task) -> None:
    sk = S.of(t["skill"])
    if sk is None or (not g.alive(t["seat"]) and t["m"]["name"] != "death"):
        return
    if not sk.applies(g, t["seat"], t["m"]):
        return
    sk.fire(g, t["seat"], t["m"], t["cmd"])


MOMENT_TEXT: dict[str, str] = {
    "turn_start": "{seat}'s turn begins",
    "prep_start": "{seat}'s Preparation Phase begins",
    "before_judgement": "{seat}'s Judgement Phase is about to begin",
    "before_draw": "{seat}'s Draw Phase is about to begin",
    "before_play": "{seat}'s Play Phase is about to begin",
    "before_discard": "{seat}'s Discard Phase is about to begin",
    "draw_start": "{seat}'s Draw Phase begins",
    "draw_count": "{seat} is about to draw",
    "play_start": "{seat}'s Play Phase begins",
    "discard_start": "{seat}'s Discard Phase begins",
    "discard_end": "{seat}'s Discard Phase ends",
    "final_start": "{seat}'s Final Phase begins",
    "turn_end": "{seat}'s turn ends",
    "retrial": "a judgement card for {seat} is turned up",
    "judged": "{seat}'s judgement takes effect",
    "causing_damage": "{seat} is about to deal damage",
    "taking_damage": "{seat} is about to take damage",
    "damage_dealt": "{seat} has dealt damage",
    "damaged": "{seat} has taken damage",
    "attack_damaged": "an Attack has damaged {seat}",
    "hp_lost": "{seat} has lost health",
    "dying": "{seat} is dying",
    "dying_by_damage": "{seat} is dying of damage",
    "death": "{seat} is eliminated",
    "recovered": "{seat} has recovered health",
    "card_used": "{seat} uses a card",
    "targeted": "{seat} becomes a target",
    "targets_fixed": "{seat}'s targets are fixed",
    "attack_dodged": "{seat}'s Attack is dodged",
    "played_dodge": "{seat} has played a Dodge",
    "discarded": "{seat}'s cards are discarded",
    "equip_lost": "{seat} has lost equipment",
    "hand_emptied": "{seat} has played or lost the last hand card",
    "negation_used": "{seat} has used a Negation",
}
"""How a moment reads in a trigger window's prompt (its name otherwise)."""


def describe_moment(m: dict[str, Any]) -> str:
    seat = m.get("seat")
    text = MOMENT_TEXT.get(m["name"])
    if text and seat:
        return text.format(seat=seat_label(seat))
    name = m["name"].replace("_", " ")
    return f"{name} ({seat_label(seat)})" if seat else name


def trigger_options(g: Ctx, ask: Ask, seat: str) -> list[str]:
    """The skills ``seat`` may use in a trigger window (hidden ones too: using
    one exposes its general)."""
    m = ask["m"]
    used = ask["used"].get(seat, [])
    out: list[str] = []
    for sk in S.hooked(m["name"]):
        if sk.id in used or sk.id not in g.skills(seat, hidden=True):
            continue
        if (sk.compulsory or m["name"] in sk.forced_moments) and sk.id in g.skills(seat):
            continue  # already applied
        if sk.applies(g, seat, m):
            out += sk.lines(g, seat, m)
    return out


@answer("trigger")
def _answer_trigger(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    if cmd["verb"] == "PASS":
        g.answered(ask, role)
        if not ask["roles"]:
            pop_ask(g, ask)
        return
    sk = S.of(cmd["skill"])
    assert sk is not None
    ask["used"].setdefault(role, []).append(sk.id)
    if not trigger_options(g, ask, role):
        g.answered(ask, role)
    suspend(g, ask)
    slot = g.slot_of_skill(role, sk.id)
    if slot is not None and slot in g.hidden_slots(role):
        reveal(g, role, [slot], f"to use {sk.name}")
    g.pub(f"{seat_label(role)} uses {sk.name}.")
    g.push({"t": "fire", "seat": role, "skill": sk.id, "m": ask["m"], "cmd": cmd})


def view_general(g: Ctx, viewer: str, other: str, slot: str) -> None:
    """``viewer`` looks at one of ``other``'s hidden generals (the Pioneer
    Marker, Know your Enemy): named to the viewer only, and remembered as
    known to it."""
    p = g.p(other)
    if viewer not in p["seen_by"][slot]:
        p["seen_by"][slot].append(viewer)
    gen = DATA.generals[general_of(p, slot)]
    which = "main" if slot == "main" else "supporting"
    g.split(viewer, f"You view {seat_label(other)}'s {which} general: {gen.name} ({gen.kingdom}).",
            f"{seat_label(viewer)} views {seat_label(other)}'s {which} general.")


# --------------------------------------------------------------------------- responses


def respond(g: Ctx, want: str, roles: Sequence[str], what: str, window: str, *,
            need: int = 1, on_done: Task, on_fail: Task, ctx: dict[str, Any] | None = None,
            **spec: Any) -> None:
    """A response window asking ``roles`` (in that order) to play ``need``
    cards of kind ``want`` (dodge, attack, peach); ``on_done`` runs when they
    have, ``on_fail`` when everyone let it go."""
    g.ask("respond", list(roles), what, want=want, window=window, need=need, got=0,
          on_done=dict(on_done), on_fail=dict(on_fail), ctx=dict(ctx or {}), **spec)


@answer("respond")
def _answer_respond(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    from judge_games.kingdom_wars import play

    if cmd["verb"] == "PASS":
        g.answered(ask, role)
        if not ask["roles"]:
            pop_ask(g, ask)
            g.push(ask["on_fail"])
        return
    if cmd["verb"] == "USE":  # a skill answering the window (Nirvana, ...)
        sk = S.of(cmd["skill"])
        assert sk is not None
        suspend(g, ask)
        slot = g.slot_of_skill(role, sk.id)
        if slot is not None and slot in g.hidden_slots(role):
            reveal(g, role, [slot], f"to use {sk.name}")
        g.pub(f"{seat_label(role)} uses {sk.name}.")
        sk.fire(g, role, {"name": f"respond_{ask['want']}", "ask": ask["serial"]}, cmd)
        return
    suspend(g, ask)
    reveal_for(g, role, cmd.get("by"))
    play.give_response(g, ask, role, cmd)


def reveal_for(g: Ctx, seat: str, by: Any) -> None:
    """A card made by a hidden general's view-as skill exposes that general
    (hidden-general policy: view-as skills reveal when used)."""
    if not isinstance(by, str) or by not in DATA.skills:
        return
    slot = g.slot_of_skill(seat, by)
    if slot is not None and slot in g.hidden_slots(seat):
        reveal(g, seat, [slot], f"to use {DATA.skills[by].name}")


def window_done(g: Ctx, ask: Ask) -> None:
    """A response window has what it asked for: nobody further is asked, and
    its ``on_done`` follows when it comes back."""
    g.dismiss(ask)
    ask["done"] = ask["on_done"]


def response_counted(g: Ctx, ask_serial: int, n: int = 1) -> None:
    """``n`` cards of the window's kind were given (called by the card's
    settlement): the window is over when it has what it asked for."""
    ask = g.ask_of(ask_serial)
    if ask is None:
        return
    ask["got"] += n
    if ask["got"] >= ask["need"]:
        window_done(g, ask)


# --------------------------------------------------------------------------- negation


def negation_window(g: Ctx, v: dict[str, Any], user: str | None, target: str,
                    on_stand: Task, on_cancel: Task) -> None:
    """Before a spell takes effect on a target, anyone may Negate it, in turn
    order from the current player (Negation; Events and Reaction)."""
    about = {"type": "trick", "card": v, "user": user, "target": target}
    g.ask("negate", g.from_current(), f"Negation window: {vlabel(v)} on {seat_label(target)}",
          about=about, on_stand=dict(on_stand), on_cancel=dict(on_cancel), window="negation")


@answer("negate")
def _answer_negate(g: Ctx, ask: Ask, role: str, cmd: Cmd) -> None:
    from judge_games.kingdom_wars import play

    g.answered(ask, role)
    if cmd["verb"] == "PASS":
        if not ask["roles"]:
            settle_negation(g, ask)
        return
    reveal_for(g, role, cmd.get("by"))
    v = play.spend_response(g, role, cmd, "negation")
    g.hold(ask)
    force = bool(cmd.get("force"))
    about = {"type": "negation", "card": v, "user": role, "force": force,
             "target": ask["about"]["target"], "trick": ask["about"]["card"]}
    g.pub(f"{seat_label(role)} uses {vlabel(v)}{' against the whole force' if force else ''} "
          f"against {vlabel(ask['about']['card'])}.")
    g.push({"t": "negated_card_done", "cards": v["cards"]})
    a = g.ask("negate", g.from_current(), f"Negation window: {seat_label(role)}'s {vlabel(v)}",
              about=about, window="negation")
    # Skills that answer using a card (Gathered Wisdom) come before the new window.
    if S.hooked("negation_used"):
        suspend(g, a)
        g.push({"t": "moment", "m": {"name": "negation_used", "seat": role, "card": v}})


@task("negated_card_done")
def _negation_done(g: Ctx, t: Task) -> None:
    for c in t["cards"]:
        if g.where(c)[0] == "proc":
            g.to_discard([c])


def settle_negation(g: Ctx, ask: Ask) -> None:
    """Nobody answers what the window asks about: it stands. A standing
    Negation cancels what it answered; the window below it is over, and if
    that one asked about a Negation, the one below that resumes."""
    pop_ask(g, ask)
    about = ask["about"]
    if about["type"] == "trick":
        g.push(ask["on_stand"])
        return
    below = g.top()
    assert below is not None and below["kind"] == "negate"
    pop_ask(g, below)
    if below["about"]["type"] == "trick":
        g.pub(f"{vlabel(below['about']['card'])} is cancelled on "
              f"{seat_label(below['about']['target'])}.")
        cancel = dict(below["on_cancel"])
        cancel["force"] = about.get("force", False)
        g.push(cancel)
        return
    g.pub(f"{seat_label(below['about']['user'])}'s {vlabel(below['about']['card'])} is "
          "cancelled.")
    resumed = g.top()
    assert resumed is not None and resumed["kind"] == "negate"
    if resumed["roles"]:
        g.reopen(resumed)
    else:
        settle_negation(g, resumed)


# --------------------------------------------------------------------------- judgement


def judge(g: Ctx, seat: str, why: str, then: Task) -> None:
    """Judgement: flip the top card of the deck; retrial skills may change it;
    ``then`` runs with ``judgement`` set to the final judgement card."""
    g.push({"t": "judge", "seat": seat, "why": why, "then": dict(then)})


@task("judge")
def _judge(g: Ctx, t: Task) -> None:
    c = g.deck_top()
    if c is None:
        return
    g.s["proc"].append(c)
    g.s["judging"].append({"seat": t["seat"], "card": c, "why": t["why"]})
    g.pub(f"Judgement for {seat_label(t['seat'])} ({t['why']}): {label(c)}.", judged=c)
    g.push({"t": "moment", "m": {"name": "retrial", "seat": t["seat"], "why": t["why"]}},
           {"t": "judge_final", "then": t["then"]})


@task("judge_final")
def _judge_final(g: Ctx, t: Task) -> None:
    j = g.s["judging"].pop()
    then = dict(t["then"])
    then["judgement"] = j["card"]
    g.push(then, {"t": "moment", "m": {"name": "judged", "seat": j["seat"], "card": j["card"],
                                       "why": j["why"]}},
           {"t": "judge_discard", "card": j["card"]})


@task("judge_discard")
def _judge_discard(g: Ctx, t: Task) -> None:
    if g.where(t["card"])[0] == "proc":
        g.to_discard([t["card"]])


def retrial(g: Ctx, seat: str, new: str, *, keep_old: bool) -> None:
    """Replace the judgement card being judged with ``new`` from ``seat``'s
    zones; the old card goes to the discard deck, or to ``seat``'s hand."""
    j = g.s["judging"][-1]
    old = j["card"]
    zone, _ = g.take_out(new)
    g.s["proc"].append(new)
    j["card"] = new
    g.take_out(old)
    if keep_old:
        g.hand(seat).append(old)
    else:
        g.s["discard"].append(old)
    g.pub(f"{seat_label(seat)} replaces the judgement card {label(old)} with {label(new)}.")
    if zone in ("hand", "equip"):
        g.lost(seat, [new], [zone])


def points_duel(g: Ctx, a: str, b: str, why: str, then: Task) -> None:
    """Points Duel (Appendix I): "Both sides ... place a hand card facing-down
    and then display at the same time; the player with the larger card number
    wins"; both cards go to the discard deck. ``then`` runs with ``winner``
    (``a``, ``b``, or None on equal numbers) and ``shown`` (seat -> card)."""
    g.push({"t": "points_pick", "a": a, "b": b, "why": why, "then": dict(then), "picked": {}})


@task("points_pick")
def _points_pick(g: Ctx, t: Task) -> None:
    for seat, other in ((t["a"], t["b"]), (t["b"], t["a"])):
        if seat not in t["picked"]:
            if not g.hand(seat) or not g.alive(seat):
                t["picked"][seat] = None
                continue
            ask_cards(g, seat, "SHOW", 1, 1, ["hand"],
                      f"{t['why']}: Points Duel with {seat_label(other)}, choose a hand card "
                      "face down", {"t": "points_picked", "seat": seat, "duel": dict(t)})
            return
    shown: dict[str, str] = {r: c for r, c in t["picked"].items() if c}
    for c in shown.values():
        g.take_out(c)
        g.s["proc"].append(c)
    g.pub(f"Points Duel ({t['why']}): " + ", ".join(
        f"{seat_label(r)} shows {label(c)}" for r, c in shown.items()) + ".")
    for r, c in shown.items():
        g.lost(r, [c], ["hand"])
    ranks = {r: (card(c).rank if c else 0) for r, c in t["picked"].items()}
    a, b = t["a"], t["b"]
    winner = a if ranks[a] > ranks[b] else b if ranks[b] > ranks[a] else None
    g.pub(f"{seat_label(winner)} wins the Points Duel." if winner else
          "The Points Duel is a tie: nobody wins.")
    then = dict(t["then"])
    then["winner"] = winner
    then["shown"] = shown
    g.push({"t": "to_discard", "cards": list(shown.values())}, then)


@task("points_picked")
def _points_picked(g: Ctx, t: Task) -> None:
    duel = dict(t["duel"])
    duel["picked"] = {**duel["picked"], t["seat"]: t["cards"][0]}
    g.push(duel)


@task("delayed")
def _delayed(g: Ctx, t: Task) -> None:
    """One time-delay spell in the Judgement Phase: its Negation window, then
    its judgement (a negated Lightning moves on)."""
    seat = t["seat"]
    c = t["card"]
    if g.where(c) != ("judge", seat):
        return
    kind = t["as"]
    v = vcard(kind, [c])
    g.take_out(c)
    g.s["proc"].append(c)
    negation_window(g, v, None, seat,
                    {"t": "delayed_effect", "seat": seat, "card": c, "as": kind},
                    {"t": "delayed_cancel", "seat": seat, "card": c, "as": kind})


@task("delayed_cancel")
def _delayed_cancel(g: Ctx, t: Task) -> None:
    if t["as"] == "lightning":
        pass_lightning(g, t["seat"], t["card"])
    else:
        g.to_discard([t["card"]])


def pass_lightning(g: Ctx, seat: str, c: str) -> None:
    """Lightning "will be passed into the next player's judgement zone" (never
    to one that already holds a Lightning)."""
    nxt = g.next_seat(seat)
    v = vcard("lightning", [c])
    while nxt != seat and (any(j["as"] == "lightning" for j in g.judges(nxt))
                           or S.forbids(g, "target", src=seat, to=nxt, card=v)):
        nxt = g.next_seat(nxt)  # (a player it cannot target, Behind the Curtain, is passed by)
    if g.where(c)[0] != "aside":
        g.take_out(c)
    g.judges(nxt).append({"card": c, "as": "lightning"})
    g.pub(f"Lightning passes to {seat_label(nxt)}.")


@task("delayed_effect")
def _delayed_effect(g: Ctx, t: Task) -> None:
    judge(g, t["seat"], DATA.cards[t["as"]].name,
          {"t": "delayed_result", "seat": t["seat"], "card": t["card"], "as": t["as"]})



@task("delayed_result")
def _delayed_result(g: Ctx, t: Task) -> None:
    """Acedia: not Hearts, the Play Phase is skipped. Rations Depleted: not
    Clubs, the Draw Phase is skipped. Lightning: Spades 2-9, 3 thunder damage
    with no source, else it passes on. The spell is then discarded."""
    seat, spell, kind = t["seat"], t["card"], t["as"]
    j = card(t["judgement"])
    suit = g.suit(seat, t["judgement"])  # the suit it counts as for the judged player
    if kind == "acedia":
        if suit != "hearts":
            skip_phase(g, "play")
            g.pub(f"Acedia takes effect: {seat_label(seat)} skips the Play Phase.")
        else:
            g.pub("Acedia: a Heart, nothing happens.")
        g.to_discard([spell])
    elif kind == "rations-depleted":
        if suit != "clubs":
            skip_phase(g, "draw")
            g.pub(f"Rations Depleted takes effect: {seat_label(seat)} skips the Draw Phase.")
        else:
            g.pub("Rations Depleted: a Club, nothing happens.")
        g.to_discard([spell])
    elif kind == "lightning":
        if suit == "spades" and 2 <= j.rank <= 9:
            g.pub(f"Lightning strikes {seat_label(seat)}!")
            # The spell stays in the processing area while its damage is settled
            # (Schemer's Profit may take it), and is discarded after.
            g.push({"t": "judge_discard", "card": spell})
            damage(g, None, seat, 3, "thunder", card=vcard("lightning", [spell]))
        else:
            pass_lightning(g, seat, spell)
    else:
        g.to_discard([spell])


# --------------------------------------------------------------------------- health


def damage(g: Ctx, src: str | None, to: str, n: int, nature: str | None = None, *,
           card: dict[str, Any] | None = None, chained: bool = False,
           via: str = "") -> None:
    """Deal damage (Deduction of Health Point and Source of Damage): "Incur
    Damage -> Take Damage -> Deduction of health points -> After incurring
    damage -> After damage taken", dying settled right after the deduction."""
    g.push({"t": "damage", "src": src, "to": to, "n": n, "nature": nature, "card": card,
            "chained": chained, "via": via, "step": "cause"})


@task("damage")
def _damage(g: Ctx, t: Task) -> None:
    to = t["to"]
    if not g.alive(to) or t["n"] <= 0:
        return
    nxt = dict(t)
    if t["step"] == "cause":
        # Source side first (Bare-Chested and the like: notes, Damage).
        nxt["step"] = "take"
        if t["src"] is not None and g.alive(t["src"]):
            g.s["damage_stack"].append(nxt)
            g.push({"t": "moment", "m": {"name": "causing_damage", "seat": t["src"], "to": to}},
                   {"t": "damage_resume"})
        else:
            g.push(nxt)
        return
    if t["step"] == "take":
        # Then the victim's side (Heavenly Fragrance, Renowned Scholar).
        nxt["step"] = "deduct"
        g.s["damage_stack"].append(nxt)
        g.push({"t": "moment", "m": {"name": "taking_damage", "seat": to, "src": t["src"]}},
               {"t": "damage_resume"})
        return
    _deduct(g, t)


@task("noop")
def _noop(g: Ctx, t: Task) -> None:
    return


@task("damage_resume")
def _damage_resume(g: Ctx, t: Task) -> None:
    """The damage on top of the damage stack goes on (skills at the moment
    before may have changed its amount, its victim, or prevented it)."""
    d = g.s["damage_stack"].pop()
    if d.get("prevented"):
        return
    g.push(d)


def current_damage(g: Ctx) -> dict[str, Any] | None:
    """The damage being settled, for skills at its moments (change ``n``,
    ``to``, or set ``prevented``)."""
    stack: list[dict[str, Any]] = g.s["damage_stack"]
    return stack[-1] if stack else None


def _deduct(g: Ctx, t: Task) -> None:
    to, src, nature = t["to"], t["src"], t["nature"]
    n = int(t["n"])
    armor = g.armor(to)
    if armor == "rattan-armor" and nature == "fire" and not ignores_armor(g, src, to, t):
        n += 1
        g.pub("Rattan Armor: fire damage +1.")
    if armor == "silver-lion-helmet" and n > 1 and not ignores_armor(g, src, to, t):
        n = 1
        g.pub("Silver Lion Helmet: the damage is reduced to 1.")
    n = S.modify(g, "damage_taken", n, src=src, to=to, nature=nature)
    if n <= 0:
        return
    p = g.p(to)
    p["hp"] -= n
    what = {"fire": " fire", "thunder": " thunder"}.get(nature or "", "")
    by = f" from {seat_label(src)}" if src else ""
    g.pub(f"{seat_label(to)} takes {n}{what} damage{by} (health {p['hp']}/{p['max_hp']}).",
          damage=n, to=to, src=src)
    spread = bool(nature) and p["chained"] and not t["chained"]
    if p["chained"] and nature:
        p["chained"] = False
        g.pub(f"{seat_label(to)} is released from the Chains.")
    # distance: from the source to the victim before anyone's death (Wild Bones).
    info = {"src": src, "to": to, "n": n, "nature": nature, "card": t["card"],
            "via": t["via"], "chained": t["chained"],
            "distance": g.distance(src, to) if src is not None and g.alive(src) else None}
    after: list[Task] = [
        {"t": "moment", "m": {"name": "hp_lost", "seat": to, "n": n, "damage": True}},
        {"t": "dying", "seat": to, "killer": src, "by_damage": True},
    ]
    if src is not None:
        after.append({"t": "moment", "m": {"name": "damage_dealt", "seat": src, **info}})
    after.append({"t": "moment", "m": {"name": "damaged", "seat": to, **info}})
    if t["via"] == "attack":
        after.append({"t": "moment", "m": {"name": "attack_damaged", "seat": to, **info}})
    if spread:
        # Iron Chains: the other chained players take the same damage, once.
        for other in g.from_current():
            if other != to and g.p(other)["chained"]:
                after.append({"t": "damage", "src": src, "to": other, "n": t["n"],
                              "nature": nature, "card": t["card"], "chained": True,
                              "via": "chain", "step": "cause"})
    g.push(*after)


def ignores_armor(g: Ctx, src: str | None, to: str, t: dict[str, Any]) -> bool:
    """Blue Blade: "after targeting a player with [Attack], you ignore the
    effect of target's armor"; skills may ignore armor too."""
    if src is None:
        return False
    if t.get("via") == "attack" and g.weapon(src) == "blue-blade":
        return True
    return bool(S.modify(g, "ignore_armor", 0, src=src, to=to))


def recover(g: Ctx, seat: str, n: int = 1, src: str | None = None) -> None:
    g.push({"t": "recover", "seat": seat, "n": n, "src": src})


@task("recover")
def _recover(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if not g.alive(seat):
        return
    p = g.p(seat)
    n = min(int(t["n"]), p["max_hp"] - p["hp"])
    if n <= 0:
        return
    p["hp"] += n
    g.pub(f"{seat_label(seat)} recovers {n} health ({p['hp']}/{p['max_hp']}).", recovered=n)
    moment(g, "recovered", seat=seat, n=n, src=t.get("src"))


def lose_hp(g: Ctx, seat: str, n: int = 1) -> None:
    """Loss of life: no source, no damage skills (Deduction of Health Point)."""
    g.push({"t": "lose_hp", "seat": seat, "n": n})


@task("lose_hp")
def _lose_hp(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if not g.alive(seat):
        return
    p = g.p(seat)
    p["hp"] -= int(t["n"])
    g.pub(f"{seat_label(seat)} loses {t['n']} health ({p['hp']}/{p['max_hp']}).")
    g.push({"t": "moment", "m": {"name": "hp_lost", "seat": seat, "n": t["n"],
                                 "damage": False}},
           {"t": "dying", "seat": seat, "killer": None, "by_damage": False})


def lose_max_hp(g: Ctx, seat: str, n: int = 1) -> None:
    p = g.p(seat)
    p["max_hp"] -= n
    p["hp"] = min(p["hp"], p["max_hp"])
    g.pub(f"{seat_label(seat)} loses {n} maximum health ({p['hp']}/{p['max_hp']}).")
    if p["max_hp"] <= 0:
        g.push({"t": "death", "seat": seat, "killer": None})


# --------------------------------------------------------------------------- dying


@task("dying")
def _dying(g: Ctx, t: Task) -> None:
    """Dying: health at 0 or less; every player, in turn order from the current
    one, may rescue with a Peach (the dying player with Wine too)."""
    seat = t["seat"]
    if not g.alive(seat) or g.p(seat)["hp"] > 0 or g.p(seat).get("dying"):
        return
    if S.forbids(g, "dying", to=seat):  # Unyielding: plays on at 0 or less
        return
    g.p(seat)["dying"] = True
    g.pub(f"{seat_label(seat)} is dying and needs "
          f"{1 - g.p(seat)['hp']} Peach{'es' * (g.p(seat)['hp'] < 0)}.")
    g.push({"t": "moment", "m": {"name": "dying", "seat": seat, "killer": t["killer"]}},
           *([{"t": "moment", "m": {"name": "dying_by_damage", "seat": seat,
                                    "killer": t["killer"]}}] if t.get("by_damage") else []),
           {"t": "rescue", "seat": seat, "killer": t["killer"]})


def rescuers(g: Ctx, dying: str) -> list[str]:
    """Who is asked for a Peach (No Mercy and the like may narrow it)."""
    out = g.from_current()
    allowed = [r for r in out if not S.forbids(g, "rescue", src=r, to=dying)]
    return allowed


@task("rescue")
def _rescue(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    if not g.alive(seat):
        return
    if g.p(seat)["hp"] > 0:
        g.p(seat)["dying"] = False
        return
    respond(g, "peach", rescuers(g, seat), f"rescue {seat_label(seat)}", "rescue",
            need=1 - int(g.p(seat)["hp"]),
            on_done={"t": "rescued", "seat": seat},
            on_fail={"t": "death", "seat": seat, "killer": t["killer"]},
            dying=seat, ctx={"dying": seat, "need": 1 - int(g.p(seat)["hp"])})


def rescued_meanwhile(g: Ctx, ask: Ask) -> None:
    """A rescue is over once its player is out of Dying: a Peach is for "any
    player who is in the state of Dying" (Peach), and a player at 1 health or
    more is not, so nobody further is asked."""
    seat = ask.get("dying")
    if ask["kind"] == "respond" and seat and g.alive(seat) and g.p(seat)["hp"] > 0:
        window_done(g, ask)


@task("rescued")
def _rescued(g: Ctx, t: Task) -> None:
    g.p(t["seat"])["dying"] = False


@task("death")
def _death(g: Ctx, t: Task) -> None:
    """Elimination: reveal all generals, check the end of the game, death
    skills, discard everything, then reward and punishment."""
    seat = t["seat"]
    p = g.p(seat)
    if not p["alive"]:
        return
    if p["hp"] > 0 and p["max_hp"] > 0 and not t.get("forced"):
        p["dying"] = False
        return
    if p["max_hp"] > 0 and not t.get("forced") and S.forbids(g, "dying", to=seat):
        p["dying"] = False  # Unyielding: the Scars after the rescue keep it alive
        g.pub(f"{seat_label(seat)} does not die.")
        return
    p["alive"] = False
    p["dying"] = False
    g.s["dead"].append(seat)
    g.withdraw(seat)  # the windows waiting below no longer ask the eliminated
    reveal(g, seat, [s for s in SLOTS if s in g.hidden_slots(seat)], "at death")
    g.pub(f"{seat_label(seat)} is eliminated.", eliminated=seat)
    if check_victory(g):
        return
    killer = t.get("killer")
    g.push({"t": "moment", "m": {"name": "death", "seat": seat, "killer": killer}},
           {"t": "death_discard", "seat": seat},
           {"t": "reward", "seat": seat, "killer": killer})


@task("death_discard")
def _death_discard(g: Ctx, t: Task) -> None:
    seat = t["seat"]
    piles: dict[str, list[str]] = g.p(seat)["piles"]
    cids = [*g.hand(seat), *g.equips(seat), *(j["card"] for j in g.judges(seat)),
            *(c for pile in piles.values() for c in pile)]  # and the cards set on its generals
    piles.clear()
    if cids:
        g.to_discard(cids)
        g.pub(f"{seat_label(seat)}'s cards are discarded: {', '.join(label(c) for c in cids)}.")
    g.p(seat)["chained"] = False


@task("reward")
def _reward(g: Ctx, t: Task) -> None:
    """Reward and Punishment: a killer of the same kingdom discards its hand
    and equipment; of another kingdom draws as many cards as that kingdom has
    players (the victim included); an Ambitionist draws three; a killer with
    no exposed general gets nothing."""
    victim, killer = t["seat"], t.get("killer")
    if killer is None or not g.alive(killer) or g.kingdom(killer) is None:
        return
    if g.ambitionist(killer):
        g.draw(killer, 3, "reward for a kill")
        return
    if g.same_force(killer, victim):
        cids = [*g.hand(killer), *g.equips(killer)]
        if cids:
            zones = [g.where(c)[0] for c in cids]
            g.to_discard(cids)
            g.pub(f"{seat_label(killer)} killed a player of its own kingdom and discards its "
                  f"hand and equipment ({len(cids)} cards).")
            g.lost(killer, cids, zones)
        return
    if g.ambitionist(victim):
        x = 1
    else:
        k = g.kingdom(victim)
        x = 1 + sum(1 for r in g.living() if g.kingdom(r) == k and not g.ambitionist(r))
    g.draw(killer, x, "reward for a kill")


def check_victory(g: Ctx) -> bool:
    """End of the Game: all remaining players of one kingdom, every one of them
    exposed (an Ambitionist only alone), or one survivor."""
    s = g.s
    alive = g.living()
    if len(alive) == 1:
        winner = alive[0]
        if g.kingdom(winner) is None:
            reveal(g, winner, g.hidden_slots(winner), "as the last survivor")
        _win(g, winner)
        return True
    if any(g.kingdom(r) is None for r in alive):
        return False
    first = alive[0]
    if all(g.same_force(first, r) for r in alive[1:]):
        _win(g, first)
        return True
    del s
    return False


def _win(g: Ctx, seat: str) -> None:
    s = g.s
    if g.ambitionist(seat):
        winners = [seat]
        what = f"{seat_label(seat)}, an Ambitionist, is the only survivor and wins"
    else:
        k = g.kingdom(seat)
        winners = [r for r in s["seats"] if g.kingdom(r) == k and not g.ambitionist(r)]
        what = f"{k} wins: {', '.join(seat_label(r) for r in winners)}"
    for r in s["seats"]:
        if g.hidden_slots(r):
            reveal(g, r, g.hidden_slots(r), "at the end of the game")
    s["stage"] = "over"
    s["winners"] = winners
    s["end"] = what
    g.stop()
    g.pub(what + ".")


def death_match_check(g: Ctx) -> None:
    """Death Match: 4 or fewer players left (3 or fewer in a game that began
    with 7 or fewer), no two of one kingdom; never cancelled."""
    s = g.s
    if s["death_match"]:
        return
    alive = g.living()
    limit = 3 if s["n"] <= 7 else 4
    if len(alive) > limit:
        return
    kingdoms = [g.kingdom(r) for r in alive if g.kingdom(r) and not g.ambitionist(r)]
    if len(kingdoms) != len(set(kingdoms)):
        return
    s["death_match"] = True
    g.pub("Death Match begins: from now on a Peach can only be used or played as an Attack "
          "or a Dodge.")


def equip_lost(g: Ctx, seat: str, cids: Sequence[str]) -> None:
    """Cards left an equipment zone: the Silver Lion Helmet heals its wearer
    as it leaves; skills watch for it."""
    for c in cids:
        if name_of(c) == "silver-lion-helmet" and g.alive(seat):
            g.pub("The Silver Lion Helmet leaves its wearer, who recovers 1 health.")
            recover(g, seat, 1)
    if cids:
        moment(g, "equip_lost", seat=seat, cards=list(cids))
