"""Conquest Tactics: two-player tactical deck-building on a 5x5 field."""
