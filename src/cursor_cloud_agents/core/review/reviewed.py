"""The commit of an agent's change the person last saw: what `apply` lands, and nothing else.

`diff`, `cursor_get_changes` and the check each read the agent's branch at one commit; that commit is
remembered per agent in the state folder (`reviewed/<agent id>`, one line: the commit id), so `apply` can
refuse when the branch moved since (the agent, or anyone with push access, pushed again after the review).
With the state kept in memory (no CURSOR_MCP_STATE_DIR), nothing is remembered across processes: `apply`
then needs `--commit SHA`. Written whole (a temporary file renamed), readable by the person only.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from cursor_cloud_agents.core.review import refs

_AGENT = re.compile(r"[A-Za-z0-9_-]{1,100}")
FOLDER = "reviewed"


def _file(state_dir: Path, agent_id: str) -> Path | None:
    return state_dir / FOLDER / agent_id.lower() if _AGENT.fullmatch(agent_id) else None


def remember(state_dir: Path | None, agent_id: str, commit: str) -> None:
    """Note that the person saw `commit` of `agent_id`'s change (best effort: a folder that cannot be written
    only means `apply` will ask for `--commit`)."""
    path = None if state_dir is None else _file(state_dir, agent_id)
    if path is None or not refs.is_commit_id(commit):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(prefix=".writing-", dir=path.parent)
        with os.fdopen(handle, "w") as out:
            out.write(commit.lower() + "\n")
        os.replace(temporary, path)
    except OSError:
        return


def recall(state_dir: Path | None, agent_id: str) -> str | None:
    """The commit of `agent_id`'s change the person saw last, or None."""
    path = None if state_dir is None else _file(state_dir, agent_id)
    if path is None:
        return None
    try:
        text = path.read_text()[:200].strip()
    except OSError:
        return None
    return text if refs.is_commit_id(text) else None
