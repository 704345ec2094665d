"""The tools, one module per domain, each a module-level function declared in its module's catalogue."""

from cursor_cloud_agents.server.pipeline.declaration import Catalogue
from cursor_cloud_agents.server.tools import (
    account,
    agents,
    attempts,
    changes,
    choices,
    followup,
    outputs,
    prwatch,
    run_events,
    runs,
    supervise,
    wait,
)

# Catalogue order: who am I, what can I use, agents, runs and waiting on them, attempts compared, what they
# produced, what they changed, the fleet.
CATALOGUE = Catalogue(
    account.catalogue,
    choices.catalogue,
    agents.catalogue,
    followup.catalogue,
    runs.catalogue,
    wait.catalogue,
    attempts.catalogue,
    run_events.catalogue,
    outputs.catalogue,
    changes.catalogue,
    supervise.catalogue,
    prwatch.catalogue,
)
"""Every tool of the server, in the order `tools/list` shows them."""
