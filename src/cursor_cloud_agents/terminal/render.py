"""Small renderings every command shares: durations, times, statuses, a repository's short name.

Everything an agent produced goes through `clean.agent_text`; what is built here comes from the API's
own fields (ids, statuses, times) and is still cleaned, because a forged answer could carry escapes.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from rich.text import Text

from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.terminal.clean import agent_text

STATUS_STYLES = {
    "QUEUED": "dim cyan",
    "CREATING": "cyan",
    "RUNNING": "bold cyan",
    "FINISHED": "green",
    "ERROR": "bold red",
    "CANCELLED": "yellow",
    "EXPIRED": "yellow",
}
NONE = "—"
ID_WIDTH = len("bc-00000000-0000-4000-8000-000000000000")
"""An agent id's width: a column the person copies ids from is at least this wide, so an id is never cut."""


def duration(seconds: float | None) -> str:
    """A short human duration: `42s`, `5m`, `3h12m`, `4d`; `—` when unknown."""
    if seconds is None:
        return NONE
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m"
    if whole < 86_400:
        hours, minutes = divmod(whole // 60, 60)
        return f"{hours}h{minutes:02d}m" if minutes else f"{hours}h"
    return f"{whole // 86_400}d"


def since(iso_time: str | None, now: float) -> float | None:
    """Seconds from an API time to `now`."""
    moment = epoch(iso_time)
    return None if moment is None else now - moment


def status(value: str | None) -> Text:
    """A run status, coloured by what it means."""
    if value is None:
        return Text(NONE, style="dim")
    return agent_text(value, STATUS_STYLES.get(value, ""))


def short_repo(url: str | None) -> str:
    """`owner/repo` of a repository URL (with or without scheme), or the URL as given."""
    if not url:
        return NONE
    parts = urlsplit(url if "://" in url else f"https://{url}")
    path = parts.path.strip("/").removesuffix(".git")
    return path or url


def cents(value: float | None) -> str:
    """Cents as dollars: `$0.23`; `—` when unknown."""
    return NONE if value is None else f"${value / 100:,.2f}"
