"""Refs are values, never git syntax: the one check every ref from the API or an agent passes before git.

An agent's branch, the ref its run started from and a PR's head are text the API hands us, and the API
hands on what an agent (perhaps a compromised or prompt-injected one) chose. Given to git as it came, such
text is syntax: `x:refs/heads/main` is a refspec that moves the person's `main`, `+x` forces, `refs/tags/v1`
or `HEAD:` names something else than a branch, `*` is a wildcard, `-x` an option, `a/refs/heads/cursor/a`
ends like another agent's branch. So each is checked here, by git's own `check-ref-format --branch` rules
done in Python, plus what no branch of an agent needs (`+`, whitespace, hidden and bidi characters, a name
holding a full ref name), and refused with VALIDATION before any git command runs. Git then only ever gets
`refs/heads/NAME` built from a checked NAME, or a full commit id.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.untrusted import strip_hidden

MAX_BRANCH_CHARS = 200
BRANCH_PREFIX = "refs/heads/"
_FULL_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_GIT_SYNTAX = frozenset(":+*?[^~\\")
"""Refspec (`:`, `+`), wildcard (`*`, `?`, `[`), revision (`^`, `~`) and path (`\\`) syntax."""


def branch_problem(name: str) -> str | None:
    """Why `name` is not a plain branch name git and a person would read the same way, or None."""
    if not name or len(name) > MAX_BRANCH_CHARS:
        return f"it is empty or longer than {MAX_BRANCH_CHARS} characters"
    hidden = next((char for char in name if _hidden(char)), None)
    if hidden is not None:
        return f"it holds a space, a control, hidden or bidi character (U+{ord(hidden):04X})"
    syntax = sorted({char for char in name if char in _GIT_SYNTAX})
    if syntax:
        return f"it holds git syntax ({' '.join(syntax)}): a branch name has none of : + * ? [ ^ ~ \\"
    if ".." in name or "@{" in name or name == "@" or name == "HEAD":
        return "it is '@' or 'HEAD', or holds '..' or '@{' (revision syntax)"
    if name.startswith("-"):
        return "it starts with '-' (git would read an option)"
    parts = name.split("/")
    if any(not part for part in parts):
        return "it starts or ends with '/', or holds '//'"
    if any(part.startswith(".") or part.endswith(".lock") for part in parts) or name.endswith("."):
        return "a part of it starts with '.' or ends with '.lock', or it ends with '.'"
    if name.startswith("refs/") or "/refs/" in name:
        return "it holds a full ref name (refs/...): give the branch's own name, e.g. cursor/fix-login"
    return None


def _hidden(char: str) -> bool:
    """Whitespace, controls, format (zero-width, bidi), private-use, surrogate and unassigned characters."""
    return char.isspace() or unicodedata.category(char)[0] in "CZ"


def checked_branch(name: str | None, what: str = "branch") -> str:
    """`name`, a branch name from the API or an agent, once `branch_problem` finds nothing.

    Raises:
        ToolFailure: VALIDATION naming what is wrong; nothing was run.
    """
    problem = "it is missing" if name is None else branch_problem(name)
    if problem is None and name is not None:
        return name
    raise ToolFailure(
        Code.VALIDATION,
        f"The agent's {what} {ascii(name)} is refused: {problem}. Nothing was run or changed: a ref from Cursor or "
        "an agent must be a plain branch name (or, for a starting ref, a full commit id).",
    )


def is_commit_id(ref: str) -> bool:
    """Whether `ref` is a full commit id (40 or 64 hex digits; lowercase is how git writes them)."""
    return _FULL_SHA.fullmatch(ref.lower()) is not None


def checked_start(ref: str) -> str:
    """A run's starting ref as a value: a full commit id (lowercased), or a checked branch name (`refs/heads/`
    dropped when the API gives it whole).

    Raises:
        ToolFailure: VALIDATION, as `checked_branch`.
    """
    if is_commit_id(ref):
        return ref.lower()
    return checked_branch(ref.removeprefix(BRANCH_PREFIX), "starting ref")


def full_ref(branch: str) -> str:
    """`refs/heads/BRANCH` for a checked branch: the only form a branch reaches git in."""
    return BRANCH_PREFIX + checked_branch(branch)


def path_problem(path: str) -> str | None:
    """Why `path` is not a file or folder inside the repository as git takes it after `--`, or None: no
    option, no pathspec magic, nothing outside (absolute, `..`), no control, hidden or lone-surrogate
    character."""
    if not path.strip():
        return "it is empty"
    if path.startswith(("-", ":")):
        return "it starts with '-' or ':' (an option or pathspec magic)"
    if any(_hidden(char) and char != " " for char in path) or strip_hidden(path) != path:
        return "it holds a control, hidden or lone-surrogate character"
    if path.startswith(("/", "\\")) or ".." in path.replace("\\", "/").split("/"):
        return "it leaves the repository (absolute, or holding '..')"
    return None


def checked_paths(paths: Sequence[str]) -> list[str]:
    """`paths` once `path_problem` finds nothing in any of them.

    Raises:
        ToolFailure: VALIDATION naming the path and the rule; nothing was run.
    """
    for path in paths:
        problem = path_problem(path)
        if problem is not None:
            raise ToolFailure(Code.VALIDATION, f"{ascii(path)} is not a path inside the repository: {problem}.")
    return list(paths)
