"""judge: a play-by-email adjudication service."""

__version__ = "0.1.0"
"""The version (pyproject.toml reads it from here)."""
