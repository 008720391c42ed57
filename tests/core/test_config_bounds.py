"""judge.toml: every value is checked against its bounds, and every wrong
key of the file is reported at once (one line each), by ``judge serve`` as
by every other command."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import config as cfg
from judge.cli import main

WRONG = """
[judge]
poll_seconds = 0

[limits]
max_lines = 0
attachments = "maybe"

[settings]
orders_hours = -5
grace_hours = 2000
joins = "closed"
picture = "gif"
"""


def test_every_wrong_value_is_reported_at_once(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text(WRONG)
    with pytest.raises(cfg.ConfigError) as info:
        cfg.load(tmp_path)
    text = str(info.value)
    assert "7 errors:" in text
    for line in ("[judge] poll_seconds: 0 is less than the minimum of 1",
                 "[limits] max_lines: 0 is less than the minimum of 1",
                 "[limits] attachments: 'maybe' is not one of ['refuse', 'ignore']",
                 "[settings] orders_hours: -5 is less than or equal to the minimum of 0",
                 "[settings] grace_hours: 2000 is greater than the maximum of 1440",
                 "[settings] joins: 'closed' is not one of ['open', 'approval']",
                 "[settings] picture: 'gif' is not one of ['png', 'svg', 'none']"):
        assert f"\n  {line}" in text, line


def test_one_wrong_value_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text("[settings]\norders_hours = -5\nbogus = 1\n")
    with pytest.raises(cfg.ConfigError, match=r"2 errors:\n  \[settings\]: unknown key 'bogus'"):
        cfg.load(tmp_path)
    (tmp_path / "judge.toml").write_text("[settings]\norders_hours = -5\n")
    with pytest.raises(cfg.ConfigError) as info:
        cfg.load(tmp_path)
    assert str(info.value) == (f"{tmp_path / 'judge.toml'}: [settings] orders_hours: "
                               "-5 is less than or equal to the minimum of 0")


def test_the_default_config_is_within_every_bound(tmp_path: Path) -> None:
    cfg.init_home(tmp_path)
    assert cfg.load(tmp_path).settings["orders_hours"] == 48.0


def test_serve_refuses_a_config_out_of_bounds_naming_every_key(tmp_path: Path) -> None:
    (tmp_path / "judge.toml").write_text(WRONG)
    result = CliRunner().invoke(main, ["--home", str(tmp_path), "serve", "--once"])
    assert result.exit_code == 1
    assert "orders_hours: -5" in result.output and "picture: 'gif'" in result.output
