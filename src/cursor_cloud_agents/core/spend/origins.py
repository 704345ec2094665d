"""Practice never counts: where the store of paid acts of an API origin lives.

Every count and charge (the creation limit, the journal, the spend limit's agents, the follow-up queue, the
runs marked seen) is a reading of the store of paid acts, so keeping one store per API origin keeps them all
apart at once. The origins are told by the API base URL (`CURSOR_API_BASE_URL`):

- every origin off loopback is Cursor's real API (a company proxy in front of it cannot be told from it, and
  real money is real money whatever URL reaches it): they share the store at the root of
  `CURSOR_MCP_STATE_DIR`, where every entry written before origins were kept apart stays (entries without an
  origin belong to the real API), so an upgrade loses no count and the previous version's files are
  migrated there only;
- each loopback origin (`simulate`, the lasting world of `--simulated`, a recorded trace served by
  `simulate --replay`, a stand-in API) keeps its own store in `origins/<scheme>-<host>-<port>/` under it:
  practice fills its own limits and queue, never the real API's, and a world restarted on another port
  starts afresh;
- a simulated world served inside this process (`CURSOR_MCP_FIXTURE=1`, the SDK's `simulated=True`) keeps its
  acts in memory, as it always did: that world ends with the process.
"""

from __future__ import annotations

from pathlib import Path

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.guards.net import is_loopback_host, origin_of

ORIGINS_FOLDER = "origins"
"""The folder under `CURSOR_MCP_STATE_DIR` that holds one store per loopback origin."""


def practice_origin(base_url: str) -> str | None:
    """`scheme-host-port` of a loopback base URL (a folder name), or None for the real API (any other host)."""
    origin = origin_of(base_url)
    if origin is None or not is_loopback_host(origin[1]):
        return None
    scheme, host, port = origin
    # Loopback hosts are `localhost` or an IP address: letters, digits, dots and colons (IPv6) only.
    return f"{scheme}-{host.strip('[]').replace(':', '_')}-{port}"


def acts_directory(settings: Settings) -> Path | None:
    """The folder of the store of paid acts for `settings`' API origin; None: this process's memory only."""
    if settings.state_dir is None:
        return None
    practice = practice_origin(settings.base_url)
    if settings.simulated and practice is None:
        return None  # a world served inside this process: its acts end with it
    return settings.state_dir if practice is None else settings.state_dir / ORIGINS_FOLDER / practice
