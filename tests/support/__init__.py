"""Test helpers shared by the suites: the test-only game and the contract driver."""
