"""A game is one record (judge/game/spec.py): what the judge's ``Game`` does for
the fields a record leaves at their defaults, and that the registry and a
game package hand out one ``Game`` per record."""

from __future__ import annotations

import dataclasses

import pytest

from judge.game import registry
from judge.game.engine import (
    Action,
    Decision,
    DecisionKind,
    IllegalLine,
    Outcome,
    PolicyCondition,
    State,
    WindowSpec,
)
from judge.game.rng import Rng
from judge.game.spec import Game, GameSpec, Policy, game_of, record_of


def _bare() -> GameSpec:
    """A record with the required fields only: one seat, one turn."""

    def pending(state: State) -> list[Decision]:
        return [] if state["done"] else [Decision(DecisionKind.ACTION, ("Solo",), "turn 1")]

    return GameSpec(
        id="bare", title="Bare", view_schema="none.json",
        setup=lambda options, rng: {"done": False},
        roles=lambda state: ["Solo"],
        pending=pending,
        parse=lambda state, role, line: Action(line.strip().upper()),
        legal=lambda state, role: ["GO"],
        view=lambda state, role: {"game": "bare", "phase": "turn 1", "role": role},
        outcome=lambda state: Outcome(("Solo",)) if state["done"] else None,
    )


def test_a_record_with_only_the_required_fields_gets_the_generic_behaviour() -> None:
    game = Game(_bare())
    state = game.setup({}, Rng(bytes(32), 0))
    decision = game.pending(state)[0]
    assert game.turn(state) == "turn 1"  # every new set of open decisions is a turn
    assert game.turn({"done": True}) == "end"
    assert game.zones(state) == []  # nothing hidden
    assert game.survivors(state) == ["Solo"]
    assert game.agreed_draw(state, ["Solo"]) is state
    assert game.concede(state, "Solo") is None  # civil disorder
    assert game.default(state, decision, "Solo") is None
    assert game.help_topic("GO") is None
    assert game.introduction(state, "Solo") == ""
    assert game.localize("A line.", "Solo") == "A line."
    assert game.scores(state) == {}
    assert game.unordered(state, "Solo", []) == []
    assert game.phase_after(state, "turn 2") is False
    game.check_held(state, "Solo", Action("GO"), [])  # the default accepts, raising nothing
    assert game.windows == () and game.window("any") is None
    assert game.standing_answers(state, "Solo") == []
    assert game.may_ask(state, decision, "Solo") is True
    assert game.policy_holds({}, decision, "X") is False
    assert game.drawing() is None and game.adjudicate is None and game.kernel is None
    assert game.playthrough_options == {} and not game.queues_actions


def test_a_record_without_act_or_resolve_refuses_them_with_a_hint() -> None:
    game = Game(_bare())
    state = game.setup({}, Rng(bytes(32), 0))
    with pytest.raises(IllegalLine) as act:
        game.act(state, "Solo", Action("GO"), Rng(bytes(32), 0))
    assert act.value.hint
    with pytest.raises(IllegalLine):
        game.resolve(state, {"Solo": [Action("GO")]}, Rng(bytes(32), 0))


def test_a_condition_of_a_game_without_conditions_is_refused_naming_what_it_takes() -> None:
    window = WindowSpec("gift", "a gift", ("REFUSE",),
                        (PolicyCondition("TO", "ME", "the gift is mine"),))
    game = Game(dataclasses.replace(_bare(), policy=Policy(windows=(window,))))
    assert game.window("gift") is window
    with pytest.raises(IllegalLine) as refused:
        game.policy_condition("gift", ["FROM", "ME"])
    assert "'FROM ME' is not a condition of gift windows" in refused.value.message
    assert refused.value.hint == "conditions: TO"


def test_the_fields_a_record_gives_are_the_members_themselves() -> None:
    """No wrapper between the judge and a game's function: a call costs what
    the game's own call costs."""
    spec = _bare()
    game = Game(spec)
    assert game.pending is spec.pending and game.parse is spec.parse


def test_one_game_per_record_in_the_registry_and_the_package() -> None:
    from judge_games.classic import GAME, SPEC

    assert registry.get("classic") is GAME is game_of(SPEC)
    assert GAME.spec is SPEC
    spec = _bare()
    try:
        assert registry.register(spec) is game_of(spec) is registry.get("bare")
    finally:
        registry.unregister("bare")


def test_a_registered_game_may_not_take_a_shipped_game_s_id_or_alias() -> None:
    """A test-only game named like a shipped one would stand in for it
    unseen: the registry refuses it, and the shipped game stays."""
    shipped = registry.get("kingdom_wars")
    for clash in (dataclasses.replace(_bare(), id="kingdom_wars"),
                  dataclasses.replace(_bare(), aliases=("Kingdom-Wars",))):
        with pytest.raises(ValueError, match="kingdom_wars is the id of a game shipped"):
            registry.register(clash)
    assert registry.get("kingdom_wars") is shipped
    assert "bare" not in [g.id for g in registry.available()]


def test_a_record_of_a_rules_object_takes_its_fields_by_name_and_given_ones_win() -> None:
    """``record_of``: what a rules object has under a field's name goes in the
    record; ``help``, ``policy``, ``drawing`` and ``adjudicate`` never (an
    attribute of that name would mean something else); fields given win, and
    a name that is no field is refused."""
    bare = _bare()

    class Rules:
        id, title, view_schema = "bare", "Bare", "none.json"
        setup, roles = staticmethod(bare.setup), staticmethod(bare.roles)
        pending, parse = staticmethod(bare.pending), staticmethod(bare.parse)
        legal, view = staticmethod(bare.legal), staticmethod(bare.view)
        outcome = staticmethod(bare.outcome)
        scores = staticmethod(lambda state: {"Solo": 1})
        help = "not a help function"  # never taken by name

    spec = record_of(Rules(), title="Bare, retitled")
    assert spec.title == "Bare, retitled" and spec.id == "bare"
    assert spec.scores is Rules.scores and spec.help is None
    assert game_of(spec).scores({}) == {"Solo": 1}
    with pytest.raises(TypeError, match="helps"):
        record_of(Rules(), helps=lambda topic: None)


def test_a_record_of_a_rules_object_refuses_an_attribute_that_is_no_field() -> None:
    """A misspelt method would leave the record on its default unseen: every
    public attribute of the rules object is a field or is named as the
    rules' own."""
    bare = _bare()

    def rules(legal_name: str) -> object:
        return type("Rules", (), {
            "id": "bare", "title": "Bare", "view_schema": "none.json",
            "setup": staticmethod(bare.setup), "roles": staticmethod(bare.roles),
            "pending": staticmethod(bare.pending), "parse": staticmethod(bare.parse),
            legal_name: staticmethod(bare.legal), "view": staticmethod(bare.view),
            "outcome": staticmethod(bare.outcome),
            "deck": ("a", "b"),  # the rules' own
            "_cache": {},  # private: not looked at
        })()

    with pytest.raises(TypeError, match=r"deck, legl \(did you mean legal\?\)"):
        record_of(rules("legl"))
    with pytest.raises(TypeError, match=r"legl \(did you mean legal\?\)"):
        record_of(rules("legl"), own=("deck",))
    spec = record_of(rules("legal"), own=("deck",))
    assert spec.legal is bare.legal
