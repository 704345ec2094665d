"""Tools of this domain (being written)."""

from __future__ import annotations

from cursor_cloud_agents.server.toolkit import Toolkit


def register(kit: Toolkit) -> None:
    """Declare this module's tools on `kit`."""
    del kit
