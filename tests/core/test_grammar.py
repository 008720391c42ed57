"""The command grammar and HELP (generated from the same table)."""

from __future__ import annotations

from judge import grammar
from judge.commands import HANDLERS


def test_blocks_commands_and_game_lines() -> None:
    parsed = grammar.parse_body([
        "signon g1 France secret",
        "ORDERS",
        "A Par - Bur",
        "",
        "F Bre - Mao",
        "end",
        "press to England, Germany",
        "Hello there.",
        "ENDPRESS",
        "A Mar H",
        "END",
        "-- ",
        "A Mun - Ber",
    ])
    names = [c.name for c in parsed.commands]
    assert names == ["SIGNON", "ORDERS", "PRESS TO", "GAME"]
    assert parsed.commands[0].args == {"game": "g1", "role": "France", "token": "secret"}
    assert [ln.text for ln in parsed.commands[1].body] == ["A Par - Bur", "F Bre - Mao"]
    assert [ln.number for ln in parsed.commands[1].body] == [3, 5]
    assert grammar.split_roles(parsed.commands[2].args["roles"]) == ["England", "Germany"]
    assert parsed.ended_at == 11  # END outside a block ends the mail
    assert not parsed.errors


def test_errors_are_per_line_and_say_what_is_right() -> None:
    parsed = grammar.parse_body(["SIGNON g1", "EXTEND", "WAIT now", "ENDPRESS", "ORDERS",
                                 "A Par H"])
    msgs = {e.line.number: str(e) for e in parsed.errors}
    assert "SIGNON needs <role>" in msgs[1] and "SIGNON <game> <role> <token>" in msgs[1]
    assert "EXTEND needs <hours>" in msgs[2]
    assert "WAIT takes no argument" in msgs[3]
    assert "ENDPRESS without PRESS TO" in msgs[4]
    assert "ORDERS is not closed" in msgs[5]
    # the unclosed block still holds its lines
    assert [c.name for c in parsed.commands] == ["ORDERS"]


def test_longest_command_wins_and_case_does_not_matter() -> None:
    parsed = grammar.parse_body(["set deadline 2026-12-01 18:00 Europe/Paris",
                                 "Set Timezone Europe/Paris", "SET grace_hours 12"])
    assert [c.name for c in parsed.commands] == ["SET DEADLINE", "SET TIMEZONE", "SET"]
    assert parsed.commands[0].args["when"] == "2026-12-01 18:00 Europe/Paris"


def test_subject_signon() -> None:
    cmds = grammar.parse_subject("Re: Fwd: SIGNON g1 France secret")
    assert cmds and cmds[0].args["role"] == "France" and cmds[0].line.number == 0
    assert grammar.parse_subject("orders for spring") == []


def test_every_command_is_documented_and_handled() -> None:
    """HELP comes from COMMANDS; every command there has a handler and every
    handler a command, so nothing can be undocumented."""
    text = grammar.help_text()
    for spec in grammar.COMMANDS:
        assert spec.syntax in text and spec.summary and spec.example
        assert spec.example.upper().startswith(spec.name)
        parsed = grammar.parse_body([spec.example, "END" if spec.name == "ORDERS" else "",
                                     "x" if spec.name == "PRESS TO" else "",
                                     "ENDPRESS" if spec.name == "PRESS TO" else ""])
        if spec.name not in ("END", "ENDPRESS"):
            assert [c.name for c in parsed.commands][:1] == [spec.name], spec.name
            assert not parsed.errors, (spec.name, parsed.errors)
    # Every command of the table is bound to a handler in judge.commands, and
    # every bound name is a command; the words the parser consumes itself have
    # none (game lines go, a run at a time, to judge.commands.player.game_lines).
    documented = {s.name for s in grammar.COMMANDS} - grammar.STRUCTURAL
    assert set(HANDLERS) == documented
    assert not set(HANDLERS) & grammar.STRUCTURAL
