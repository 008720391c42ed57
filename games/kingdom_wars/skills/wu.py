"""The skills of the Wu generals (see skills/__init__.py for the hooks)."""

from __future__ import annotations
