"""The classic game through the judge's contract: phases, defaults, centre
ownership, victory, elimination, draws, views, reports and a full random game."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from judge import reports
from judge.game import registry
from judge.game.engine import Action, DecisionKind, Event, IllegalLine, State
from judge.game.spec import Game
from judge_games.classic import GAME, RULES

from .helpers import rng, state

ROOT = Path(__file__).resolve().parents[2]
VIEW_SCHEMA = json.loads((ROOT / "schemas/diplomacy-view.schema.json").read_text())


def orders(st: State, **by_role: list[str]) -> dict[str, list[Action]]:
    return {role: [GAME.parse(st, role, line) for line in lines] for role, lines in by_role.items()}


def play(st: State, **by_role: list[str]) -> tuple[State, list[Event]]:
    return GAME.resolve(st, orders(st, **by_role), rng())


def test_registered_with_aliases() -> None:
    assert registry.get("classic") is GAME
    assert registry.get("standard") is GAME
    assert registry.get("Diplomacy") is GAME
    assert isinstance(GAME, Game)
    assert GAME.view_schema == "diplomacy-view.schema.json"


def test_setup_is_the_standard_opening() -> None:
    st = GAME.setup({}, rng())
    assert st["phase"] == "S1901M"
    assert st["units"]["Russia"] == ["A Mos", "F Sev", "F StP/sc", "A War"]
    assert st["centers"]["Turkey"] == ["Ank", "Con", "Smy"]
    assert json.loads(json.dumps(st)) == st
    assert GAME.roles(st) == [p.name for p in RULES.map.powers]
    [decision] = GAME.pending(st)
    assert decision.kind is DecisionKind.ORDERS
    assert decision.phase == "S1901M"
    assert len(decision.roles) == 7
    assert decision.default == "hold"
    assert GAME.default(st, decision, "France") is None


def test_start_year_option() -> None:
    st = GAME.setup({"start_year": 1950}, rng())
    assert st["phase"] == "S1950M"


def test_a_year_of_play_with_captures_and_builds() -> None:
    """Rulebook: ownership of a supply centre changes when a unit is in it at
    the end of the fall turn; then each power builds up to its centre count in
    its owned, empty home centres."""
    st = GAME.setup({}, rng())
    st, events = play(st, France=["A Par - Bur", "A Mar - Spa", "F Bre - Mao"])
    assert st["phase"] == "F1901M"  # no dislodgement: spring retreats skipped
    assert any("Spring 1901 retreats: no unit was dislodged, skipped" in e.text for e in events)
    assert "Spa" not in st["centers"].get("France", [])  # spring does not change ownership
    st, events = play(st, France=["A Spa H", "F Mao - Por", "A Bur - Bel"])
    assert st["phase"] == "W1901A"
    assert st["centers"]["France"] == ["Bel", "Bre", "Mar", "Par", "Por", "Spa"]
    [decision] = GAME.pending(st)
    assert decision.roles == ("France",)  # only France has builds; others are balanced
    st, _ = play(st, France=["Build A Par", "Build F Bre", "Build A Mar", "Build A Par"])
    assert st["phase"] == "S1902M"
    assert sorted(st["units"]["France"]) == ["A Bel", "A Mar", "A Par", "A Spa", "F Bre", "F Por"]
    builds = [e for e in st["last"]["entries"] if e["kind"] == "adjustment"]
    # The two "Build A Par" share a key: the later one replaced the earlier.
    assert [(e["order"], e["results"]) for e in builds] == [
        ("Build F Bre", []),
        ("Build A Mar", []),
        ("Build A Par", []),
    ]


def test_last_order_for_a_unit_wins() -> None:
    st = GAME.setup({}, rng())
    acts = orders(st, France=["A Par - Bur", "A Mar - Bur", "A Par - Pic", "A Mar H"])
    st, _ = GAME.resolve(st, acts, rng())
    assert "A Pic" in st["units"]["France"]
    assert "A Mar" in st["units"]["France"]


def test_retreat_phase_and_default_disband() -> None:
    st = state({"France": ["A Par", "A Pic"], "Germany": ["A Bur", "A Ruh"]}, phase="F1901M")
    st, _events = play(st, France=["A Pic S A Par - Bur", "A Par - Bur"], Germany=["A Ruh H"])
    assert st["phase"] == "F1901R"
    assert st["dislodged"] == {
        "Germany": {"A Bur": {"from": "Par", "retreats": ["Bel", "Gas", "Mar", "Mun"]}}
    }
    [decision] = GAME.pending(st)
    assert decision.roles == ("Germany",) and decision.default == "disband"
    assert GAME.legal(st, "Germany") == [
        "A Bur R Bel",
        "A Bur R Gas",
        "A Bur R Mar",
        "A Bur R Mun",
        "A Bur D",
    ]
    st2, _ = GAME.resolve(st, {}, rng())  # no order: the unit disbands
    assert st2["units"]["Germany"] == ["A Ruh"]
    st3, _ = play(st, Germany=["A Bur R Mun"])
    assert sorted(st3["units"]["Germany"]) == ["A Mun", "A Ruh"]
    assert st3["phase"] == "W1901A"  # Germany and France may each build one


def test_civil_disorder_removal_when_no_orders() -> None:
    """DATC 6.J.3 by mail: no removal ordered, the army farther from an owned
    centre goes (Sweden, two steps from St Petersburg, before Livonia)."""
    st = state({"Russia": ["A Lvn", "A Swe"]}, phase="W1901A", centers={"Russia": ["StP"]})
    [decision] = GAME.pending(st)
    assert decision.roles == ("Russia",)
    st, events = GAME.resolve(st, {}, rng())
    assert st["units"]["Russia"] == ["A Lvn"]
    assert any("A Swe" in e.text and "disband" in e.text for e in events)


def test_winter_skipped_when_nobody_can_build() -> None:
    """Builds due but every home centre occupied: nothing to decide, skipped."""
    st = state(
        {"France": ["A Par", "A Mar", "F Bre", "A Bur"]},
        phase="F1901M",
        centers={"France": ["Par", "Mar", "Bre", "Bel"]},
    )
    st, events = play(st, France=["A Bur - Bel"])
    assert st["centers"]["France"] == ["Bel", "Bre", "Mar", "Par"]
    assert st["phase"] == "S1902M"
    assert any("Winter 1901 adjustments" in e.text and "skipped" in e.text for e in events)


def test_solo_victory_at_eighteen_centres() -> None:
    """A power owning 18 of the 34 supply centres after a fall turn wins."""
    seventeen = [
        "Ber",
        "Kie",
        "Mun",
        "Hol",
        "Bel",
        "Den",
        "Swe",
        "Nwy",
        "War",
        "Mos",
        "StP",
        "Vie",
        "Bud",
        "Tri",
        "Ser",
        "Rum",
        "Par",
    ]
    st = state(
        {"Germany": ["A Bur"], "France": ["A Gas"]},
        phase="F1905M",
        centers={"Germany": seventeen, "France": ["Mar"]},
    )
    st, events = play(st, Germany=["A Bur - Mar"])
    assert GAME.outcome(st) is not None
    result = GAME.outcome(st)
    assert result is not None and result.winners == ("Germany",) and not result.draw
    assert GAME.pending(st) == []
    assert any(e.text.startswith("Game over") for e in events)
    with pytest.raises(IllegalLine):
        GAME.parse(st, "Germany", "Waive")


def test_elimination_removes_a_power_from_the_pending_roles() -> None:
    st = state(
        {"Germany": ["A Bur", "A Mun"], "France": ["A Mar"]},
        phase="F1901M",
        centers={"Germany": ["Mun"], "France": ["Mar"]},
    )
    st = state(
        {"Germany": ["A Bur", "A Pie"], "France": ["A Mar"]},
        phase="F1901M",
        centers={"Germany": ["Mun"], "France": ["Mar"]},
    )
    st, _ = play(st, Germany=["A Pie S A Bur - Mar", "A Bur - Mar"])
    assert st["phase"] == "F1901R"
    st, _ = GAME.resolve(st, {}, rng())  # the French army has no order: disbanded
    view = GAME.view(st, None)
    france = next(p for p in view["powers"] if p["name"] == "France")
    assert france["eliminated"]
    assert all("France" not in d.roles for d in GAME.pending(st))


def test_agreed_draw_and_year_limit() -> None:
    st = GAME.setup({"max_year": 1901}, rng())
    ended = GAME.agreed_draw(st, ["France", "England"])
    out = GAME.outcome(ended)
    assert out is not None and out.draw and out.winners == ("France", "England")
    st, _ = GAME.resolve(st, {}, rng())  # spring
    st, _ = GAME.resolve(st, {}, rng())  # fall, winter skipped -> 1902: past the limit
    out = GAME.outcome(st)
    assert out is not None and out.draw and len(out.winners) == 7


def test_act_is_refused() -> None:
    st = GAME.setup({}, rng())
    with pytest.raises(IllegalLine):
        GAME.act(st, "France", Action("A Par H"), rng())


def test_views_validate_and_are_the_same_for_every_role() -> None:
    st = GAME.setup({}, rng())
    st, _ = play(st, France=["A Par - Bur"], Germany=["A Mun - Bur"])
    views = {r: GAME.view(st, r) for r in [*GAME.roles(st), None]}
    for role, v in views.items():
        jsonschema.validate(v, VIEW_SCHEMA)
        assert v["game"] == "classic" and v["phase"] == "F1901M" and v["role"] == role
        assert {k: x for k, x in v.items() if k != "role"} == {
            k: x for k, x in views[None].items() if k != "role"
        }


def test_report_lists_orders_results_centres_and_next_phase() -> None:
    st = GAME.setup({}, rng())
    st, events = play(
        st, France=["A Par - Bur", "A Mar S A Par - Bur"], Germany=["A Mun - Bur", "A Ber - Kie"]
    )
    text = reports.game_report(GAME, GAME.view(st, "Germany"), events, "Germany", "g1")
    assert "SPRING 1901 MOVEMENT RESULTS" in text
    assert "A Mun - Bur  [bounce]" in text
    assert "A Mar S A Par - Bur" in text
    assert "A Vie (no order, holds)" in text
    assert "Germany     3 centres,  3 units" in text
    assert "NEXT PHASE: Fall 1901 movement" in text


def test_random_playthrough_with_legal_orders() -> None:
    """Every legal line parses; a game of random legal orders runs through
    every kind of phase to its year limit, state staying JSON."""
    st = GAME.setup({"max_year": 1910}, rng())
    r = rng()
    kinds: set[str] = set()
    for _ in range(100):
        if GAME.outcome(st):
            break
        [decision] = GAME.pending(st)
        kinds.add(decision.phase[-1])
        acts: dict[str, list[Action]] = {}
        for role in decision.roles:
            lines = GAME.legal(st, role)
            assert lines, f"{role} has nothing legal in {decision.phase}"
            for line in lines:
                assert GAME.parse(st, role, line).text == line
            acts[role] = [GAME.parse(st, role, r.choice(lines, "pick")) for _ in range(6)]
        st, _ = GAME.resolve(st, acts, r)
        assert json.loads(json.dumps(st)) == st
        jsonschema.validate(GAME.view(st, None), VIEW_SCHEMA)
    out = GAME.outcome(st)
    assert out is not None
    assert {"M", "A"} <= kinds


def test_survivors_are_the_powers_with_units_or_centres() -> None:
    st = state({"France": ["A Par"], "Germany": ["A Mun"]}, centers={"England": ["Lon"]})
    assert GAME.survivors(st) == ["England", "France", "Germany"]


def test_winter_report_lists_builds_and_civil_disorder() -> None:
    st = state(
        {"Russia": ["A Lvn", "A Swe", "F Bot"], "France": ["A Par"]},
        phase="W1901A",
        centers={"Russia": ["StP", "Mos"], "France": ["Par", "Bre", "Mar"]},
    )
    [decision] = GAME.pending(st)
    assert decision.default == "waive builds; civil disorder removals"
    st, events = play(st, France=["Build F Bre", "Waive"])
    text = reports.game_report(GAME, GAME.view(st, "Russia"), events, "Russia", "g1")
    assert "WINTER 1901 ADJUSTMENTS RESULTS" in text
    assert "  Build F Bre\n  Waive\n" in text
    assert "Remove A Swe  [disband]  (removed by the civil disorder rule" in text
    assert "A Lvn" not in text.split("SUPPLY CENTRES")[0]  # units that stay are not listed


def test_legal_offers_convoyed_moves() -> None:
    st = state({"England": ["A Lon", "F Nth", "F Eng"]})
    lines = GAME.legal(st, "England")
    assert "A Lon - Nwy" in lines and "A Lon - Bel" in lines
    assert "F Nth C A Lon - Nwy" in lines
