"""The game kit and the pure driver.

A game (a package under ``judge_games``) imports this wing and
:mod:`judge.pictures` only: the game record (:mod:`judge.game.spec`), the
shared types and errors (:mod:`judge.game.engine`), the decision kernel
(:mod:`judge.game.flow`, :mod:`judge.game.timing`), committed-seed randomness
(:mod:`judge.game.rng`) and choices (:mod:`judge.game.choices`). The driver
beside them (:mod:`judge.game.adjudicator`, :mod:`judge.game.scheduler`,
:mod:`judge.game.league`, :mod:`judge.game.offline`) and the registry, the only
importer of ``judge_games.*``, are pure too: nothing here imports mail, the
store, the pages or the stations (``tests/core/test_wings.py``).
"""
