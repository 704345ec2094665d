"""The tools, one module per domain; `register_all` declares every one of them on a toolkit."""

from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools import account


def register_all(kit: Toolkit) -> None:
    """Declare every tool of the server on `kit`, in catalogue order."""
    account.register(kit)
