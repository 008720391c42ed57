"""The turn of Conquest Tactics on the decision kernel (judge/game/flow.py): a
state for each part of the turn, an ask for each decision, the handler of
each ask's answers.

=========  ============================  ====================================
state      asks                          goes on to
=========  ============================  ====================================
decks      ``decks`` (both: orders)      forces
forces     ``forces`` (both: orders)     deploy (the player with Initiative)
deploy     ``deploy`` (``seat``)         deploy (the other), then turn
turn       --                            up (T, R, I done)
up         ``up`` (``mover``)            up, then mobilize
mobilize   ``mobilize`` (those not done) play
play       ``play`` (``actor``)          play, follow, window or resolve;
                                         halt once the Play phase is over
follow     ``follow`` (``actor``)        play, window or resolve
window     ``window`` (one player)       resolve
resolve    --                            window (the Counterattack's), or
                                         the Play phase goes on
halt       --                            turn, unless the match is over
=========  ============================  ====================================

An action (an attack, a spell, a card played) answers the ``play`` or
``follow`` ask, which waits under it, suspended and asking nobody, while its
combat steps run and its instant windows open above it (depth 1); when the
action is over the kernel takes the suspended ask off the stack and the Play
phase goes on (:func:`_action_over`). The rules each step applies are in
rules.py.
"""

from __future__ import annotations

from typing import Any

from judge.game.engine import RuleError
from judge.game.flow import Ask, Frame
from judge_games.conquest_tactics import commands, legal, rules
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.table import RULES, WHAT, Ctx, card

state = RULES.state
answer = RULES.answer


# =========================================================================== set-up


@state("decks")
def _decks(g: Ctx, f: Frame) -> None:
    """Both players send a deck list (option ``decks=submitted``)."""
    g.s["stage"] = "decks"
    g.ask("decks", F.ROLES, WHAT["decks"])


@state("forces")
def _forces(g: Ctx, f: Frame) -> None:
    """Setup: each player places its Base and chooses its starting forces,
    face down until both have (resolved together: game.py)."""
    g.s["stage"] = "forces"
    g.ask("forces", F.ROLES, WHAT["forces"])


@state("deploy")
def _deploy(g: Ctx, f: Frame) -> None:
    """Setup: the player with Initiative "deploys first", then the other."""
    role = f["seat"]
    rules.begin_deploy(g, role)
    if g.p(role)["forces"]:
        g.ask("deploy", [role], WHAT["deploy"])
    else:
        _deployed(g)


def _deployed(g: Ctx) -> None:
    s = g.s
    first = s["initiative"]
    if s["deployer"] == first:
        g.call({"t": "deploy", "seat": F.other(first)})
    else:
        s["deployer"] = None
        g.call({"t": "turn"})


@answer("deploy")
def _on_deploy(g: Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
    rules.do_deploy_start(g, role, cmd)
    if not g.p(role)["forces"]:  # every starting troop is placed
        g.pop_ask(ask)
        _deployed(g)


# =========================================================================== T R I U


@state("turn")
def _turn(g: Ctx, f: Frame) -> None:
    """T, R and I (rules.start_turn), then Up the Field."""
    rules.start_turn(g)
    g.goto({"t": "up"})


@state("up")
def _up(g: Ctx, f: Frame) -> None:
    """U - Up the Field: "until both players pass consecutively or until no
    more Troops can move"; a player with nothing to move, or done moving
    (DONE, a Mobilize line), passes without being asked."""
    s = g.s
    if (not rules.up_moves(g, F.SOUTH) and not rules.up_moves(g, F.NORTH)) \
            or s["passes"] >= 2:
        g.goto({"t": "mobilize"})
        return
    mover = s["mover"]
    if not rules.up_moves(g, mover) or g.p(mover).get("up_done"):
        s["passes"] += 1
        s["mover"] = F.other(mover)
        rules.new_decision(g)
        g.goto({"t": "up"})
        return
    g.ask("up", [mover], WHAT["up"])


@answer("up")
def _on_up(g: Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
    g.pop_ask(ask)
    rules.do_up(g, role, cmd)
    g.call({"t": "up"})


# =========================================================================== M


@state("mobilize")
def _mobilize(g: Ctx, f: Frame) -> None:
    """M - Mobilize, both players at once (rules.begin_mobilize)."""
    rules.begin_mobilize(g)
    _mobilizing(g, g.ask("mobilize", F.ROLES, WHAT["mobilize"]))


def _mobilizing(g: Ctx, ask: Ask) -> None:
    """The Mobilize asks those not yet done; once both are, their held lines
    are carried out and the Play phase begins."""
    ask["roles"] = [r for r in F.ROLES if not g.p(r)["done"]]
    if not ask["roles"]:
        g.pop_ask(ask)
        rules.reveal_mobilize(g)
        rules.end_mobilize(g)
        g.call({"t": "play"})


@answer("mobilize")
def _on_mobilize(g: Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
    rules.hold_mobilize(g, role, cmd, str(cmd["line"]))
    _mobilizing(g, ask)


# =========================================================================== P


@state("play")
def _play(g: Ctx, f: Frame) -> None:
    """P - Play: the player with control acts or passes, until both have
    passed in a row or are out of points; a player who said PASS ALL passes
    without being asked."""
    s = g.s
    if rules.play_over(g):
        g.goto({"t": "halt"})
        return
    actor = s["actor"]
    if g.p(actor).get("play_done"):
        s["passes"] += 1
        g.pub(f"{actor} passes.")
        s["actor"] = F.other(actor)
        rules.new_decision(g)
        g.goto({"t": "play"})
        return
    g.ask("play", [actor], WHAT["play"])


@state("follow")
def _follow(g: Ctx, f: Frame) -> None:
    """Play: the troop that moved "may" act; it is not asked when STOP is
    the one line it has."""
    s = g.s
    if only_stop(g, s["actor"]):
        t = s["troops"][s["follow"]]
        g.pub(f"{s['actor']}'s {card(t['card']).name} can do nothing after its move; "
              "its action ends.")
        rules.end_action(g)
        g.goto({"t": "play"})
        return
    g.ask("follow", [s["actor"]], WHAT["follow"])


def only_stop(g: Ctx, role: str) -> bool:
    """Whether STOP is the one line the troop that just moved has (Play: a
    moved troop "may" then act): none of its attacks, spells or skills fits,
    and its player holds no control or instant circumstance (those may fit
    in ways the candidate lines do not list)."""
    p = g.p(role)
    if any(card(c).type == "circumstance" and card(c).kind in ("control", "instant")
           for c in p["hand"]):
        return False
    for line in legal.candidates(g.s, role):
        if line.split()[0] in ("STOP", "PASS", "PLAY"):
            continue
        try:
            rules.check_play(g, role, commands.syntax(line), g.s["follow"])
        except RuleError:
            continue
        return False
    return True


@answer("play")
@answer("follow")
def _on_action(g: Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
    """Step 1 of combat: "Declare Action & Pay Tactical Points". A pass, a
    move or STOP is the whole answer; an action waits under its windows
    (suspended) until its combat steps are done."""
    ask["roles"] = []
    if cmd["verb"] in ("PASS", "MOVE", "STOP"):
        g.pop_ask(ask)
    else:
        g.suspend(ask)
    rules.begin_action(g, role, cmd)


@RULES.on_close
def _action_over(g: Ctx, ask: Ask) -> None:
    """The action answering ``ask`` is over (rules.end_action gave control
    to the player with the most points): the Play phase goes on."""
    g.call({"t": "play"})


@state("window")
def _window(g: Ctx, f: Frame) -> None:
    """Steps 2 and 7 of combat: one player may answer with an instant."""
    rules.open_window(g, f["role"], f["step"])
    g.ask("window", [f["role"]], WHAT["window"], step=f["step"])


@answer("window")
def _on_window(g: Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
    g.pop_ask(ask)
    rules.do_instant(g, role, cmd)


@state("resolve")
def _resolve(g: Ctx, f: Frame) -> None:
    """Steps 3 to 8 of combat (rules.resolve_action)."""
    rules.resolve_action(g)


# =========================================================================== H


@state("halt")
def _halt(g: Ctx, f: Frame) -> None:
    """H - Halt, then the next turn unless the match is over."""
    rules.halt(g)
    if g.s["stage"] != "over":
        g.goto({"t": "turn"})


__all__ = ["RULES", "only_stop"]
