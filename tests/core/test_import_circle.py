"""The stations of the mail path never import the judge that runs them
(judge.hub): no import circle goes through judge/service.py, counting
function-local imports and those made only for types."""

from __future__ import annotations

from tests.support.bench import load_bench

#: The modules a mail passes through, and those they call: they work with a
#: :class:`judge.hub.Hub`, never with :class:`judge.service.Judge`.
STATIONS = (
    "judge.store.backup", "judge.bounces", "judge.gmnotice", "judge.gmview", "judge.lifecycle",
    "judge.notify", "judge.outbox", "judge.pipeline", "judge.relay", "judge.reports",
    "judge.session", "judge.hub",
)


def test_no_import_circle_goes_through_the_service() -> None:
    bench = load_bench("imports")
    mods = bench.scan("judge")
    # The graph is the real one: the service imports the stations it runs.
    assert {"judge.pipeline", "judge.relay", "judge.session"} <= mods["judge.service"].imports
    for comp in bench.circles(mods, hoisted=True, typing=True):
        assert "judge.service" not in comp, " <-> ".join(comp)


def test_no_station_imports_the_service() -> None:
    bench = load_bench("imports")
    mods = bench.scan("judge")
    stations = [m for name, m in mods.items()
                if name in STATIONS or name.startswith("judge.commands")]
    assert len(stations) > len(STATIONS)  # the command modules were found too
    for m in stations:
        reached = m.imports | m.typing_only | m.local_targets
        assert "judge.service" not in reached, m.name
