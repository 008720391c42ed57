"""Benchmark scripts (each run as ``python bench/<name>.py``) and the
support code they share with the tests (:mod:`bench.support`)."""
