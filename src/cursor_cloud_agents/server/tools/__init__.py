"""The tools, one module per domain; `register_all` declares every one of them on a toolkit."""

from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools import (
    account,
    agents,
    attempts,
    choices,
    followup,
    outputs,
    run_events,
    runs,
    supervise,
    wait,
)

# Catalogue order: who am I, what can I use, agents, runs and waiting on them, attempts compared, what they
# produced, the fleet.
_MODULES = (account, choices, agents, followup, runs, wait, attempts, run_events, outputs, supervise)


def register_all(kit: Toolkit, state: ServerState) -> None:
    """Declare every tool of the server on `kit`, in catalogue order, over the server's `state`."""
    for module in _MODULES:
        module.register(kit, state)
