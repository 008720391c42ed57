"""Steps of the pure adjudicator leave the table they were given as it was."""

from __future__ import annotations

from judge.game import adjudicator as adj
from tests.games.sealed_bids import GAME


def test_holding_orders_changes_only_the_new_table() -> None:
    options = {o.name: o.default for o in GAME.options}
    table = adj.start(GAME, options, bytes(32)).table
    before = table.dumps()
    role = sorted(adj.ordering_roles(GAME, table))[0]
    card = GAME.view(table.state, role)["hand"][0]
    step = adj.submit(GAME, table, role, [GAME.parse(table.state, role, f"BID {card}")])
    assert table.dumps() == before  # the old table is untouched
    new = step.table
    assert [a.text for a in new.held(role)] == [f"BID {card}"] and role in new.submitted
    assert new.state == table.state  # holding orders does not touch the game state
    # Later steps change the new table's bookkeeping, never the old one's.
    new.submitted.clear()
    new.orders[role][0]["text"] = "changed"
    new.waiting.append(role)
    assert table.dumps() == before
    again = adj.submit(GAME, new, role, [GAME.parse(new.state, role, f"BID {card}")])
    assert again.table.state == table.state and table.dumps() == before


def test_a_bookkeeping_copy_shares_no_window_answer_or_outcome() -> None:
    """The copy's windows, standing answers and outcome are its own: a change
    to any of them, however deep, leaves the table it was copied from as it was."""
    options = {o.name: o.default for o in GAME.options}
    table = adj.start(GAME, options, bytes(32)).table
    table.windows["w1"] = {"kind": "respond", "roles": ["North"],
                           "answers": {"North": {"lines": [{"text": "PASS"}], "by": "hand"}}}
    table.policies["North"] = {"respond": [{"answer": "PASS", "when": "always"}]}
    table.outcome = {"winners": ["North"], "reason": "test"}
    before = table.dumps()
    copy = table.bookkeeping_copy()
    assert copy.dumps() == before
    copy.windows["w1"]["answers"]["North"]["lines"].append({"text": "again"})
    copy.policies["North"]["respond"][0]["answer"] = "changed"
    winners = copy.outcome["winners"] if copy.outcome else None
    assert isinstance(winners, list)
    winners.append("South")
    assert table.dumps() == before
