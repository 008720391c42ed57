"""Tests of Conquest Tactics (so far, its cards and deck lists)."""
