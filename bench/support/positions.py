"""Known positions drawn by the picture tests and the benchmark: one for each
game that draws a map, and two Kingdom Wars tables (seven seats as seat C
knows them, and the largest, twelve seats as seat A sees them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.support.kingdom_wars import answer, ask, copy_of, play, table
from bench.support.three_kingdoms import play as tk_play
from bench.support.three_kingdoms import position as tk_position
from judge.game import registry
from judge.game.rng import Rng
from judge_games.kingdom_wars import GAME as KINGDOM_WARS
from judge_games.kingdom_wars.data import DATA as KINGDOM_WARS_DATA
from judge_games.three_kingdoms import GAME as THREE_KINGDOMS

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


def three_kingdoms() -> dict[str, Any]:
    """Three Kingdoms, six players, after a first campaign with moves, a
    bounce (29 and 35 into 24), supports (one holding) and a militia
    dislodged from 5 by Shu's army and leader, waiting to retreat: the
    public view of :func:`dislodged_three_kingdoms`."""
    return dict(THREE_KINGDOMS.view(dislodged_three_kingdoms(), None))


def dislodged_three_kingdoms() -> dict[str, Any]:
    """The state behind :func:`three_kingdoms`."""
    kingdoms = {"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Shu",
                "Player5": "Wu", "Player6": "Wu"}
    pieces = {"Player1": "L8 A8 M5 M6", "Player2": "L9 A9 M3 M4", "Player3": "L25 A25 M29 M34",
              "Player4": "L27 A27 M28 M32", "Player5": "L37 A37 M35 M36",
              "Player6": "L39 A39 M40 M41"}
    state = tk_position(kingdoms, pieces, war=[("Player3", "Player1")],
                        kingdom_war=[("Player3", "Wei")])
    state, _ = tk_play(state, {
        "Player1": ["A8->7", "M6 S A8->7"],
        "Player2": ["A9->16", "M3 S A9->16"],
        "Player3": ["A25->5", "L25 S A25->5", "M29->24"],
        "Player4": ["M28->26", "M32 S A27"],
        "Player5": ["A37->20", "M35->24"],
        "Player6": ["A39->22", "L39 S A39->22"],
    })
    return state


#: Conflict of Alliances: the lines of the known position, (side, line) in turn.
COA_LINES = [
    ("Lianheng", "PLAY bolster-morale FACEDOWN MILITARY guanzhong qin 3 TO xiao-han han"),
    ("Alliance", "PASS"),  # the before-combat window: the battle in Han goes ahead
    ("Alliance", "PLAY double-recruitment FACEUP"),
    ("Alliance", "REINFORCE yiqu shang-jun"),
    ("Alliance", "SKIP"),
    ("Lianheng", "PLAY emissary-to-qi FACEUP A qi"),
    ("Alliance", "PASS"),
    ("Lianheng", "PLAY emergency-mobilization FACEDOWN MILITARY shang-jun qin 3 TO longxi "
                 "ATTACK yiqu"),
]


def conflict_of_alliances_state() -> dict[str, Any]:
    """Five Kingdoms Attack Qin, turn 1: Qin's attack on Han beaten back
    (its armies tired in Xiao Han), a card face up each, Qi turned to Serve
    Qin, and Qin's second attack, on Yiqu in Longxi, waiting for the
    Alliance's answer before combat."""
    from judge_games.conflict_of_alliances import GAME

    rng = Rng(bytes(32))
    state = GAME.setup({}, rng)
    for side, line in COA_LINES:
        state, _ = GAME.act(state, side, GAME.parse(state, side, line), rng)
    return state


def conflict_of_alliances() -> dict[str, Any]:
    from judge_games.conflict_of_alliances import GAME

    return dict(GAME.view(conflict_of_alliances_state(), None))


#: Conquest Tactics: the seed and number of lines of the known position's play,
#: and the verbs its player prefers, most wanted first (then any legal line).
CT_SEED, CT_STEPS = 7, 181
CT_PREFERS = (("EQUIP",), ("CAST", "USE"), ("ATTACK", "LEARN", "UPGRADE", "DEPLOY", "MOVE"))


def conquest_tactics_steps() -> list[dict[str, Any]]:
    """Every state of the known Conquest Tactics play, from the starting
    forces (the defaults: humans against malice) on: a seeded player picks
    a legal line, equipment first, then spells and skills, then attacks and
    the rest (one line a step: never the phase-long DEPLOY ALL, PASS ALL or
    Up the Field's DONE). After ``CT_STEPS`` lines (turn 6) the field is
    full, a troop wears equipment, one has a buff and one a debuff, several
    are damaged, a player has a Victory Condition and a trophy, and North's
    Shadow Bolt on D4 (in South's frame) waits for South's instant."""
    import random

    from judge_games.conquest_tactics import GAME
    from judge_games.conquest_tactics.rules import MOBILIZE_VERBS

    rng = Rng(bytes(32))
    state = GAME.setup({}, rng)
    state, _ = GAME.resolve(state, {}, rng)
    pick = random.Random(CT_SEED)
    steps = [state]
    for _ in range(CT_STEPS):
        role = GAME.pending(state)[0].roles[0]
        lines = [x for x in GAME.legal(state, role)  # one line a step: no phase-long lines
                 if x not in ("DEPLOY ALL", "PASS ALL") and (state["stage"], x) != ("up", "DONE")
                 # and Up the Field's moves only (the Mobilize lines it lists wait for it)
                 and not (state["stage"] == "up" and x.split()[0] in MOBILIZE_VERBS)]
        wanted = next((found for verbs in CT_PREFERS
                       if (found := [x for x in lines if x.split()[0] in verbs])), lines)
        state, _ = GAME.act(state, role, GAME.parse(state, role, pick.choice(wanted)), rng)
        steps.append(state)
    return steps


def conquest_tactics(role: str | None = None) -> dict[str, Any]:
    from judge_games.conquest_tactics import GAME

    return dict(GAME.view(conquest_tactics_steps()[-1], role))


#: Known positions of the games that are not drawn by the Diplomacy drawing.
VIEWS: dict[str, Callable[[], dict[str, Any]]] = {
    "three_kingdoms": three_kingdoms,
    "conflict_of_alliances": conflict_of_alliances,
    "conquest_tactics": conquest_tactics,
}

#: Every game with a known position (and a stored image).
GAMES = sorted([*ORDERS, *VIEWS])


def position(game_id: str) -> dict[str, Any]:
    """The public view of ``game_id`` after its known first phase."""
    if game_id in VIEWS:
        return VIEWS[game_id]()
    game = registry.get(game_id)
    state = game.setup({}, Rng(bytes(32)))
    orders = {role: [game.parse(state, role, line) for line in lines]
              for role, lines in ORDERS.get(game_id, {}).items()}
    if orders:
        state, _ = game.resolve(state, orders, Rng(bytes(32)))
    return dict(game.view(state, None))



# ---------------------------------------------------------------- Kingdom Wars tables

READER = "C"

SEVEN = {"A": ("liu-bei", "guan-yu"), "B": ("cao-cao", "xu-chu"),
         "C": ("sun-quan", "zhou-tai"), "D": ("zhang-liao", "xiahou-dun"),
         "E": ("lv-bu", "diao-chan"), "F": ("sima-yi", "guo-jia"),
         "G": ("ma-chao", "huang-zhong")}


def known_state() -> dict[str, Any]:
    """Seven seats in seat A's Play Phase, after A's Attack has eliminated
    seat B: Shu, Wu, Neutral and an Ambitionist exposed, two seats still
    hidden, equipment, a judgement zone of two cards, chains, a stacked
    seat, markers, and a hidden general seat C has viewed."""
    s = table(SEVEN,
              hands={"A": [copy_of("attack", "spades", 7)], "C": [copy_of("dodge")],
                     "D": [copy_of("peach"), copy_of("wine")]},
              equip={"A": [copy_of("serpent-spear"), copy_of("red-hare")],
                     "C": [copy_of("eight-trigrams-formation")],
                     "E": [copy_of("yellow-lightning")]},
              judge={"D": [(copy_of("lightning"), "lightning"), (copy_of("acedia"), "acedia")]},
              shown={"A": ["main"], "B": ["main"], "C": ["main"], "E": ["main"],
                     "F": ["main"]},
              hp={"B": 1, "E": 3, "G": 2}, chained=["E", "G"])
    s["p"]["F"]["ambitionist"] = True
    s["p"]["G"]["stacked"] = True
    s["p"]["E"]["markers"]["yin-yang"] = 1
    s["p"]["F"]["seen_by"]["deputy"] = [READER]
    s, _ = play(s, "A", "USE Attack S7 ON B")
    for _ in range(20):
        top = ask(s)
        if top is None or top["kind"] == "play":
            break
        s, _ = answer(s, {})
    assert not s["p"]["B"]["alive"]
    return s


def known_view(role: str | None = READER) -> dict[str, Any]:
    return dict(KINGDOM_WARS.view(known_state(), role))


def full_view() -> dict[str, Any]:
    """Seat A's view of a twelve-seat table, half of it exposed, with
    equipment on every other seat: the largest picture (the benchmark's)."""
    seats = seats_of(12)
    equip = {"B": [copy_of("serpent-spear")], "D": [copy_of("red-hare")],
             "F": [copy_of("eight-trigrams-formation")], "H": [copy_of("yellow-lightning")],
             "J": [copy_of("frost-blade")], "L": [copy_of("nio-shield")]}
    s = table(seats, equip=equip, shown={r: ["main"] for r in "BCDEFG"},
              judge={"K": [(copy_of("lightning"), "lightning")]}, chained=["C", "I"],
              hp={"E": 1, "J": 2})
    return dict(KINGDOM_WARS.view(s, "A"))


def seats_of(n: int) -> dict[str, tuple[str, str]]:
    ids = list(KINGDOM_WARS_DATA.generals)
    return {"ABCDEFGHIJKL"[i]: (ids[2 * i], ids[2 * i + 1]) for i in range(n)}
