"""The GitHub token: `GH_TOKEN`, else `GITHUB_TOKEN` (both read by `config.py`), else `gh auth token`.

Never the Cursor key. `gh` is looked for on the PATH of the environment handed in and runs without any
`CURSOR_*` variable, never prompting; what it prints must be a token (printable ASCII, one line), else it is
not used. No token is an error that names the three ways to give one, raised before any request is sent.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping

from cursor_cloud_agents.config import Secret, Settings

GH_SECONDS = 10.0
"""`gh auth token` reads a file or the keyring: a second at most; this much before giving up on it."""
_TOKEN = re.compile(r"^[\x21-\x7e]{1,512}$")

NO_ACCESS = (
    "no GitHub access: set GH_TOKEN (or GITHUB_TOKEN) to a token that can read the repository's pull requests "
    "and checks, or install the GitHub CLI and run `gh auth login`. The Cursor key is never used for GitHub."
)


class GitHubAccessMissing(Exception):
    """No GitHub token could be found; the message names how to give one. Nothing was sent."""


def github_token(settings: Settings, env: Mapping[str, str]) -> Secret:
    """The token to read GitHub with.

    Raises:
        GitHubAccessMissing: none of GH_TOKEN, GITHUB_TOKEN or `gh auth token` gave one.
    """
    for token in (settings.gh_token, settings.github_token):
        if token is not None:
            return token
    found = _from_gh(env)
    if found is None:
        raise GitHubAccessMissing(NO_ACCESS)
    return found


def _from_gh(env: Mapping[str, str]) -> Secret | None:
    gh = shutil.which("gh", path=env.get("PATH", ""))
    if gh is None:
        return None
    quiet = {name: value for name, value in env.items() if not name.upper().startswith("CURSOR_")}
    quiet |= {"GH_PROMPT_DISABLED": "1", "GH_NO_UPDATE_NOTIFIER": "1"}
    try:
        done = subprocess.run(
            [gh, "auth", "token"], env=quiet, capture_output=True, text=True, timeout=GH_SECONDS, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    token = done.stdout.strip()
    return Secret(token) if done.returncode == 0 and _TOKEN.match(token) else None
