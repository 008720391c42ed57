"""bench/hub_calls.py: calls into the Judge hub, per module."""

from __future__ import annotations

from pathlib import Path

from tests.support.bench import load_bench


def test_counts_calls_of_the_hubs_methods_by_station_and_client(tmp_path: Path) -> None:
    judge = tmp_path / "judge"
    (judge / "commands").mkdir(parents=True)
    (judge / "service.py").write_text(
        "class Judge:\n    def queue_mail(self): ...\n    def now(self): ...\n")
    (judge / "commands" / "gm.py").write_text(
        "def f(ctx, judge):\n    ctx.judge.queue_mail()\n    judge.now()\n"
        "    ctx.ws.outbox.queue()\n    judge.store.game()\n")
    (judge / "cli.py").write_text("def g(judge):\n    judge.now()\n")
    out = load_bench("hub_calls").count(tmp_path)
    assert out["stations"] == {"judge/commands/gm.py": 2}  # not the outbox, not the store
    assert out["clients"] == {"judge/cli.py": 1}
    assert out["calls"] == 3 and out["methods"] == {"now": 2, "queue_mail": 1}


def test_the_stations_call_the_hub_only_at_its_fault_points() -> None:
    """The stations get the store, the config and the clock handed to them
    (judge.hub.Hub) and queue their mail in the session's outbox: the one
    call of theirs into the hub left is the fault hook the crash tests use."""
    out = load_bench("hub_calls").count()
    assert out["client_calls"] > 0  # the CLI's calls are found, so the count reads the tree
    assert set(out["station_methods"]) <= {"fault"}, out["stations"]
