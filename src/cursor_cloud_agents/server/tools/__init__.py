"""The tools, one module per domain; `register_all` declares every one of them on a toolkit."""

from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools import account, agents, catalog, events, followup, outputs, runs, supervise

# Catalogue order: who am I, what can I use, agents, runs, what they produced, the fleet.
_MODULES = (account, catalog, agents, followup, runs, events, outputs, supervise)


def register_all(kit: Toolkit) -> None:
    """Declare every tool of the server on `kit`, in catalogue order."""
    for module in _MODULES:
        module.register(kit)
