"""Tests of War of the Three Kingdoms: Kingdom Wars (so far, its data)."""
