"""Leagues: the scoring systems, ratings and reliability (judge/game/league.py)
against values worked out by hand here, and a league of three classic games
played to their ends by mail: STANDINGS by mail and `judge league show`
checked against hand-computed standings, openskill ratings and reliability;
STANDBY, and the GM offered the first standby when a seat is resigned,
ejected or abandoned."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from bench.support.classic_mail import POWERS, ClassicByMail
from judge.cli import main
from judge.game import league as L
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, hand, stored_game, token_in

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True

F = Fraction
ANN, BOB, CAT, DAN, EVE = "ann@x.example", "bob@x.example", "cat@x.example", "dan@x.example", \
    "eve@x.example"


def seats(*pairs: tuple[str, str]) -> tuple[L.Seat, ...]:
    return tuple(L.Seat(role, address, "active") for role, address in pairs)


#: Three short games. g1: a solo win by ann (centres 18, 10, 6). g2: bob and
#: cat draw (12 and 8 centres), ann kept 4, dan was eliminated. g3: a draw
#: of all three (6, 3, 3 centres).
G1 = L.GameResult("g1", "2026-01-01T00:00:00Z", seats(("Red", ANN), ("Blue", BOB), ("Green", CAT)),
                  ("Red",), False, {"Red": 18, "Blue": 10, "Green": 6})
G2 = L.GameResult("g2", "2026-02-01T00:00:00Z",
                  seats(("Red", BOB), ("Blue", CAT), ("Green", ANN), ("Gold", DAN)),
                  ("Red", "Blue"), True, {"Red": 12, "Blue": 8, "Green": 4, "Gold": 0})
G3 = L.GameResult("g3", "2026-03-01T00:00:00Z", seats(("Red", CAT), ("Blue", ANN), ("Green", DAN)),
                  ("Red", "Blue", "Green"), True, {"Red": 3, "Blue": 6, "Green": 3})
GAMES = [G3, G1, G2]  # given out of order: the functions order them by their end


def table(rows: list[L.Standing]) -> list[tuple[int, str, int, int, int, Fraction]]:
    return [(s.rank, s.address, s.wins, s.draws, s.losses, s.points) for s in rows]


def test_draw_size_scoring_by_hand() -> None:
    # g1: ann 1. g2: bob 1/2, cat 1/2. g3: 1/3 each.
    assert L.points(G2, "draw-size") == {"Red": F(1, 2), "Blue": F(1, 2), "Green": 0, "Gold": 0}
    assert table(L.standings(GAMES, "draw-size")) == [
        (1, ANN, 1, 1, 1, F(4, 3)),   # 1 + 1/3
        (2, CAT, 0, 2, 1, F(5, 6)),   # 1/2 + 1/3
        (3, BOB, 0, 1, 1, F(1, 2)),
        (4, DAN, 0, 1, 1, F(1, 3)),
    ]


def test_sum_of_squares_scoring_by_hand() -> None:
    # g1 is a solo: 1 to ann. g2: 144, 64, 16, 0 over 224. g3: 36, 9, 9 over 54.
    assert L.points(G1, "sum-of-squares") == {"Red": 1, "Blue": 0, "Green": 0}
    assert L.points(G2, "sum-of-squares") == {"Red": F(9, 14), "Blue": F(2, 7),
                                               "Green": F(1, 14), "Gold": 0}
    assert L.points(G3, "sum-of-squares") == {"Red": F(1, 6), "Blue": F(2, 3), "Green": F(1, 6)}
    assert table(L.standings(GAMES, "sum-of-squares")) == [
        (1, ANN, 1, 1, 1, F(73, 42)),  # 1 + 1/14 + 2/3
        (2, BOB, 0, 1, 1, F(9, 14)),
        (3, CAT, 0, 2, 1, F(19, 42)),  # 2/7 + 1/6
        (4, DAN, 0, 1, 1, F(1, 6)),
    ]
    # A game without scores falls back to draw-size shares.
    bare = L.GameResult("g", "", G2.seats, G2.winners, True)
    assert L.points(bare, "sum-of-squares") == L.points(bare, "draw-size")


def test_win_draw_loss_table_by_hand() -> None:
    assert table(L.standings(GAMES, "wdl")) == [
        (1, ANN, 1, 1, 1, F(4)),
        (2, CAT, 0, 2, 1, F(2)),
        (3, BOB, 0, 1, 1, F(1)),  # bob and dan: same points, wins and games
        (3, DAN, 0, 1, 1, F(1)),
    ]
    with pytest.raises(ValueError, match="no scoring system"):
        L.points(G1, "elo")


def test_a_draw_that_names_nobody_is_shared_by_every_seat() -> None:
    """A game that ended in a draw without naming who shares it (a two-player
    game recorded so before its outcome named both) is a draw for every
    seat under each scoring system, never an abandoned game."""
    drawn = L.GameResult("d", "", seats(("South", ANN), ("North", BOB)), (), True,
                         {"South": 3, "North": 3})
    assert not drawn.abandoned and L.describe(drawn) == "a draw shared by South, North"
    assert L.points(drawn, "draw-size") == {"South": F(1, 2), "North": F(1, 2)}
    assert L.points(drawn, "sum-of-squares") == {"South": F(1, 2), "North": F(1, 2)}
    assert L.points(drawn, "wdl") == {"South": 1, "North": 1}
    assert L.places(drawn) == {"South": 1, "North": 1}
    gone = L.GameResult("a", "", drawn.seats, (), False)
    assert gone.abandoned and L.points(gone, "wdl") == {"South": 0, "North": 0}


def test_places_winners_first_then_centres_then_how_long_they_lasted() -> None:
    assert L.places(G1) == {"Red": 1, "Blue": 2, "Green": 3}
    assert L.places(G2) == {"Red": 1, "Blue": 1, "Green": 2, "Gold": 3}
    assert L.places(G3) == {"Red": 1, "Blue": 1, "Green": 1}
    # Without scores: the seat eliminated later places higher.
    out = L.GameResult("g", "", seats(("A", ANN), ("B", BOB), ("C", CAT)), ("A",), False,
                       owed=(L.Owed(3, "B", False), L.Owed(9, "C", False)))
    assert L.places(out) == {"A": 1, "C": 2, "B": 3}


def test_first_rating_update_by_hand() -> None:
    """Weng and Lin's Plackett-Luce update (algorithm 4) written out for g1:
    three new players (mu 25, sigma 25/3, beta 25/6, tau 25/300), places
    1, 2, 3. With equal mu, exp(mu/c) cancels: the chance a seat is first
    among those not above it is 1/3, 1/2 and 1."""
    mu, sigma, beta, tau = 25.0, 25 / 3, 25 / 6, 25 / 300
    s2 = sigma**2 + tau**2  # tau widens sigma before the game
    c = math.sqrt(3 * (s2 + beta**2))
    omega = [F(2, 3), F(1, 6), F(-5, 6)]  # 1 - 1/3; -1/3 + (1 - 1/2); -1/3 - 1/2 + 0
    delta = [F(2, 9), F(17, 36), F(17, 36)]  # p(1-p) summed over the same sets
    gamma = math.sqrt(s2) / c
    want = [(mu + s2 / c * float(o), math.sqrt(s2) * math.sqrt(1 - s2 / c**2 * float(d) * gamma))
            for o, d in zip(omega, delta, strict=True)]
    got = {r.address: r for r in L.ratings([G1])}
    for address, (m, s) in zip((ANN, BOB, CAT), want, strict=True):
        assert got[address].mu == pytest.approx(m, abs=1e-9)
        assert got[address].sigma == pytest.approx(s, abs=1e-9)
        assert got[address].ordinal == pytest.approx(m - 3 * s, abs=1e-9)
    assert [r.address for r in L.ratings([G1])] == [ANN, BOB, CAT]


def test_ratings_follow_the_games_in_the_order_they_ended() -> None:
    model = PlackettLuce()
    r = {a: model.rating() for a in (ANN, BOB, CAT, DAN)}
    for players, places in (([ANN, BOB, CAT], [1, 2, 3]),           # g1
                            ([BOB, CAT, ANN, DAN], [1, 1, 2, 3]),   # g2
                            ([CAT, ANN, DAN], [1, 1, 1])):          # g3
        rated = model.rate([[r[a]] for a in players], ranks=[float(p) for p in places])
        for a, team in zip(players, rated, strict=True):
            r[a] = team[0]
    got = {x.address: x for x in L.ratings(GAMES)}
    for a, want in r.items():
        assert got[a].mu == pytest.approx(want.mu, abs=1e-9)
        assert got[a].sigma == pytest.approx(want.sigma, abs=1e-9)
    assert got[ANN].games == 3 and got[DAN].games == 2
    assert got[ANN].ordinal > got[DAN].ordinal


def test_reliability_counts_each_decision_for_who_held_the_seat() -> None:
    # Gold: eve held it to entry 10, then dan. Green: cat resigned at entry 8.
    gold = L.Seat("Gold", DAN, "active", (L.Handover(EVE, 10, "replaced"),))
    green = L.Seat("Green", CAT, "resigned", (L.Handover(CAT, 8, "resigned"),))
    game = L.GameResult("g", "", (L.Seat("Red", ANN, "active"), gold, green), ("Red",), False,
                        owed=(L.Owed(5, "Gold", True), L.Owed(12, "Gold", False),
                              L.Owed(15, "Gold", True), L.Owed(5, "Green", False),
                              L.Owed(9, "Green", True), L.Owed(5, "Red", False)))
    got = {x.address: (x.owed, x.missed, x.left) for x in L.reliability([game])}
    assert got == {EVE: (1, 1, 1), DAN: (2, 1, 0), CAT: (1, 0, 1), ANN: (1, 0, 0)}
    text = L.render("spring", "wdl", [game], ["g9"])
    assert "running or forming: g9" in text and "won by Red" in text


# --------------------------------------------------------------------------- by mail


def addr(name: str) -> str:
    return f"{name.lower()}@players.example"


def cli(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def set_up(post: Post, name: str, players: dict[str, str], league: str = "autumn",
           options: str = "") -> tuple[str, dict[str, str]]:
    """CREATE, LEAGUE, seven JOINs with chosen roles, START: all by mail."""
    post.send(GM_ADDR, f"CREATE {name} classic {options}\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON {name} GM {gm}\nLEAGUE {league}\nSET grace_hours 0\n")
    tokens = {}
    for role, address in players.items():
        post.send(address, f"JOIN {name} {role}\n")
        tokens[role] = token_in(post, address)
    post.send(GM_ADDR, f"SIGNON {name} GM {gm}\nSTART\n")
    assert stored_game(post.judge.store, name)["status"] == "active"
    return gm, tokens


def mails_to(post: Post, to: str) -> list[str]:
    return [post.text(m) for m in post.new() if m["To"] == to]


@pytest.mark.slow
def test_a_league_of_three_classic_games_by_mail(post: Post, clock: Clock, home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert "created league autumn" in cli(home, "league", "create", "autumn",
                                          "--scoring", "draw-size", "--gm", GM_ADDR)
    for who in ("sub2", "sub3"):
        post.send(addr(who), "STANDBY autumn\n")
    assert "You are number 2 of 2 waiting on autumn's standby list" in mails_to(
        post, addr("sub3"))[-1]

    # a1: every power plays with its own address, to the end of 1901 (the
    # survivors draw), sending its orders every phase.
    role_addr = {p: addr(p) for p in POWERS}
    gm_a, tokens_a = set_up(post, "a1", role_addr, options="max_year=1901")
    # b1: the seats go round one place; c1: every power its own address again.
    b_players = dict(zip(POWERS, [addr(p) for p in POWERS[1:]] + [addr("sub1")], strict=True))
    gm_b, tokens_b = set_up(post, "b1", b_players)
    _gm_c, tokens_c = set_up(post, "c1", role_addr)

    cb = ClassicByMail(post.judge, home, clock, name="a1")
    cb.tokens, cb.gm_token = tokens_a, gm_a
    owed: Counter[str] = Counter()
    while stored_game(post.judge.store, "a1")["status"] != "finished":
        owed.update(cb.owing())
        cb.play_phase()
    outcome = cb.table().outcome
    assert outcome is not None and outcome["draw"]
    winners = outcome["winners"]
    assert isinstance(winners, list) and len(winners) == 7
    clock.advance(hours=1)

    # Nobody orders for S1901M in b1 and c1, so every seat misses it at the deadline.
    clock.advance(hours=49)
    post.judge.cycle()
    for name in ("b1", "c1"):
        assert stored_game(post.judge.store, name)["phase"] == "F1901M"
    post.new()
    # Italy (russia@) resigns: the GM is offered the first standby.
    post.send(b_players["Italy"], f"SIGNON b1 Italy {tokens_b['Italy']}\nRESIGN\n")
    offer = [t for t in mails_to(post, GM_ADDR) if "standby" in t]
    assert len(offer) == 1
    assert "The first player on autumn's standby list is sub2@players.example" in offer[0]
    assert "    REPLACE Italy sub2@players.example\n" in offer[0]
    post.send(GM_ADDR, f"SIGNON b1 GM {gm_b}\nREPLACE Italy sub2@players.example\n")
    tokens_b["Italy"] = token_in(post, addr("sub2"))
    assert any("your token no longer works" in t for t in mails_to(post, addr("russia")))
    assert [w["address"] for w in post.judge.store.standby("autumn")] == [addr("sub3")]
    for role in ("Austria", "Germany", "Russia", "Turkey"):
        post.send(b_players[role], f"SIGNON b1 {role} {tokens_b[role]}\nRESIGN\n")
    gm_mail = [t for t in mails_to(post, GM_ADDR) if "standby" in t]
    assert "REPLACE Austria sub3@players.example" in gm_mail[0]
    assert all("Nobody is on autumn's standby list" in t for t in gm_mail[1:])
    assert len(gm_mail) == 4
    for role in ("England", "France", "Italy"):
        post.send(b_players[role] if role != "Italy" else addr("sub2"),
                  f"SIGNON b1 {role} {tokens_b[role]}\nDRAW\n")
    outcome = post.judge.table("b1").outcome
    assert outcome is not None and outcome["winners"] == ["England", "France", "Italy"]
    clock.advance(hours=1)

    # c1: five resign, France and Russia draw.
    for role in ("Austria", "England", "Germany", "Italy", "Turkey"):
        post.send(role_addr[role], f"SIGNON c1 {role} {tokens_c[role]}\nRESIGN\n")
    for role in ("France", "Russia"):
        post.send(role_addr[role], f"SIGNON c1 {role} {tokens_c[role]}\nDRAW\n")
    outcome = post.judge.table("c1").outcome
    assert outcome is not None and outcome["winners"] == ["France", "Russia"]

    # --------------------------------------------------- the values by hand
    a, b, c = F(1, 7), F(1, 3), F(1, 2)  # each seat's share of a1, b1, c1
    expected = [  # rank, player, games, W, D, L, points
        (1, "france", 3, 0, 3, 0, a + b + c),      # a1, b1 (England), c1
        (2, "russia", 2, 0, 2, 0, a + c),          # a1, c1 (b1's Italy went to sub2)
        (3, "germany", 3, 0, 2, 1, a + b),         # a1, b1 (France), lost c1
        (4, "sub2", 1, 0, 1, 0, b),                # b1 (Italy, from the standby list)
        (5, "austria", 2, 0, 1, 1, a),             # fewer games ranks first on a tie
        (6, "england", 3, 0, 1, 2, a),
        (6, "italy", 3, 0, 1, 2, a),
        (6, "turkey", 3, 0, 1, 2, a),
        (9, "sub1", 1, 0, 0, 1, F(0)),
    ]
    model = PlackettLuce()
    rating = {addr(p): model.rating() for p in [*POWERS, "sub1", "sub2"]}
    for players, places in (
        ([addr(p) for p in POWERS], [1] * 7),  # a1: all seven draw
        # b1: England, France, Italy draw; Russia kept 4 centres, the rest 3.
        ([b_players[p] if p != "Italy" else addr("sub2") for p in POWERS], [3, 1, 1, 3, 1, 2, 3]),
        ([addr(p) for p in POWERS], [2, 2, 1, 2, 2, 1, 2]),  # c1: France, Russia draw
    ):
        rated = model.rate([[rating[p]] for p in players], ranks=[float(x) for x in places])
        for p, team in zip(players, rated, strict=True):
            rating[p] = team[0]
    left = {"austria": 1, "england": 2, "germany": 1, "italy": 2, "russia": 1, "turkey": 2,
            "sub1": 1}
    # (owed, missed): a1's phases, all sent; S1901M of b1 and of c1, missed
    # by every seat (their deadlines passed together).
    reliable = {addr(p): (owed[p] if p in POWERS else 0, 0) for p in [*POWERS, "sub1", "sub2"]}
    for who in [*b_players.values(), *role_addr.values()]:
        o, m = reliable[who]
        reliable[who] = (o + 1, m + 1)

    # --------------------------------------------------- `judge league show --json`
    shown = json.loads(cli(home, "league", "show", "autumn", "--json"))
    assert [g["game"] for g in shown["games"]] == ["a1", "b1", "c1"]
    assert [(s["rank"], s["player"], s["games"], s["wins"], s["draws"], s["losses"],
             F(s["fraction"])) for s in shown["standings"]] == [
        (r, addr(p), n, w, d, lo, pts) for r, p, n, w, d, lo, pts in expected]
    for row in shown["ratings"]:
        assert row["mu"] == pytest.approx(rating[row["player"]].mu, abs=1e-9)
        assert row["sigma"] == pytest.approx(rating[row["player"]].sigma, abs=1e-9)
    ordinals = [row["ordinal"] for row in shown["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert {x["player"]: (x["owed"], x["missed"]) for x in shown["reliability"]} == reliable
    assert {x["player"]: x["left"] for x in shown["reliability"] if x["left"]} == {
        addr(p): n for p, n in left.items()}
    assert shown["standby"] == [{"address": addr("sub3"), "added": shown["standby"][0]["added"],
                                 "offered": "b1/Austria"}]

    # --------------------------------------------------- STANDINGS by mail
    post.new()
    post.send(addr("sub1"), "STANDINGS autumn\n")
    text = mails_to(post, addr("sub1"))[-1]
    assert "League autumn: draw-size scoring" in text
    assert "a1: a draw shared by Austria, England, France, Germany, Italy, Russia, Turkey" in text
    assert "c1: a draw shared by France, Russia" in text
    for r, p, n, w, d, lo, pts in expected:
        line = (f"  {r:>3}  {addr(p):<23}  {n:>5}  {w:>2}  {d:>2}  {lo:>2}  "
                f"{float(pts):>7.3f}")
        assert line in text, line
    top = max(rating.items(), key=lambda kv: kv[1].ordinal())
    assert f"{top[0]:<23}  " in text and f"{top[1].ordinal():>7.2f}" in text
    assert "Standby list" not in text  # the GM's, and the operator's
    cli_text = cli(home, "league", "show", "autumn")
    assert "Standby list (1):\n  1. sub3@players.example" in cli_text
    assert "offered for b1/Austria" in cli_text
    # The operator sees what the league's players see, and the standby list.
    assert cli_text.split("\nStandby list")[0].strip() in text
    # Someone who plays in none of its games sees the addresses masked.
    post.send("stranger@else.example", "STANDINGS autumn\n")
    masked = mails_to(post, "stranger@else.example")[-1]
    assert "fr...@players.example" in masked and "france@players.example" not in masked
    # The GM sees the standby list in the reply too. Each finished game's log
    # was walked once: its summary is kept, and STANDINGS walks it no more.
    store = post.judge.store
    for name in ("a1", "b1", "c1"):
        summary = store.league_summary(name)
        assert summary is not None and summary["last_n"] == store.last_action(name)

    def walk(*_: object) -> L.LogSummary:
        raise AssertionError("a kept summary was made again")

    monkeypatch.setattr(L, "summarise_log", walk)
    post.send(GM_ADDR, "STANDINGS autumn\n")
    assert "Standby list (1):" in mails_to(post, GM_ADDR)[-1]


# --------------------------------------------------------------------------- seats


def _sealed_league_game(post: Post) -> tuple[str, dict[str, str]]:
    cli_home = post.home
    cli(cli_home, "league", "create", "cup", "--gm", GM_ADDR)
    post.send(GM_ADDR, "CREATE s1 sealed_bids rounds=3\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON s1 GM {gm}\nLEAGUE cup\nSET abandon_after 1\n"
                       "SET grace_hours 0\n")
    tokens = {}
    for role in ("North", "East", "South"):
        post.send(addr(role), f"JOIN s1 {role}\n")
        tokens[role] = token_in(post, addr(role))
    post.send(GM_ADDR, f"SIGNON s1 GM {gm}\nSTART\n")
    return gm, tokens


def test_an_abandoned_seat_and_an_ejected_one_offer_the_standbys(post: Post,
                                                                  clock: Clock) -> None:
    gm, tokens = _sealed_league_game(post)
    post.send(addr("west"), "STANDBY cup\nSTANDBY cup\n")  # twice: one place
    assert "number 1 of 1 waiting" in mails_to(post, addr("west"))[-1]
    post.send(addr("spare"), "STANDBY cup\n")
    for role in ("North", "East"):
        post.send(addr(role), f"SIGNON s1 {role} {tokens[role]}\nBID {hand(post, role, 's1')[0]}\n")
    post.new()
    clock.advance(hours=49)
    post.judge.cycle()  # South let the deadline pass: with abandon_after 1, abandoned
    offers = [t for t in mails_to(post, GM_ADDR) if "a standby for the seat" in t or
              "looks abandoned" in t]
    assert any("South (south@players.example) looks abandoned in s1" in t
               and "REPLACE South west@players.example" in t for t in offers), offers
    # The GM ejects North instead: the next player waiting is offered.
    post.send(GM_ADDR, f"SIGNON s1 GM {gm}\nEJECT North\n")
    offers = [t for t in mails_to(post, GM_ADDR) if "standby" in t]
    assert any("REPLACE North spare@players.example" in t for t in offers), offers
    store = post.judge.store
    assert [(w["address"], w["offered"]) for w in store.standby("cup")] == [
        (addr("west"), "s1/South"), (addr("spare"), "s1/North")]
    # Seating someone else for South puts west back to waiting, in first place.
    post.send(GM_ADDR, f"SIGNON s1 GM {gm}\nREPLACE South other@players.example\n")
    assert [(w["address"], w["offered"]) for w in store.standby("cup")] == [
        (addr("west"), ""), (addr("spare"), "s1/North")]
    assert [(h["role"], h["address"], h["reason"]) for h in store.handovers("s1")] == [
        ("North", addr("north"), "ejected"), ("South", addr("south"), "replaced")]
    post.send(addr("west"), "STANDBY cup OFF\nSTANDBY nowhere\n")
    reply = mails_to(post, addr("west"))[-1]
    assert "you are off cup's standby list" in reply and "no league called 'nowhere'" in reply


def test_a_game_joins_a_league_only_before_it_starts_and_by_its_gm(post: Post,
                                                                   home: Path) -> None:
    _sealed_league_game(post)
    post.send("other-gm@league.example", "CREATE s2 sealed_bids\n")
    gm2 = token_in(post, "other-gm@league.example")
    post.send("other-gm@league.example", f"SIGNON s2 GM {gm2}\nLEAGUE cup\n")
    assert "cup takes only games of its own GM" in mails_to(post, "other-gm@league.example")[-1]
    assert "s2 is a game of league cup" in cli(home, "league", "add", "cup", "s2")
    result = CliRunner().invoke(main, ["--home", str(home), "league", "add", "cup", "s1"])
    assert result.exit_code != 0 and "s1 has started" in result.output
    result = CliRunner().invoke(main, ["--home", str(home), "league", "create", "cup"])
    assert result.exit_code != 0 and "already exists" in result.output
    assert "cup\tdraw-size\tgm@league.example\ts1,s2" in cli(home, "league", "list")
    text = cli(home, "league", "show", "cup")
    assert "running or forming: s1, s2" in text and "No game of the league has finished" in text
