"""Exit codes a script can act on, and the one map from what went wrong to them.

0 ok; 1 the API refused (or failed); 2 a usage or configuration error, or a limit set by the user;
124 a wait timed out (as `timeout(1)` exits); 130 interrupted (Ctrl-C).
A refusal of ours (`UsageError`) names what to change and sends nothing.
"""

from __future__ import annotations

from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.core import ToolFailure, failures

OK = 0
REFUSED = 1
USAGE = 2
TIMED_OUT = 124
INTERRUPTED = 130

# Failures that the person fixes on their side, not Cursor's: the same exit as a wrong option.
_OURS = frozenset(
    {
        failures.VALIDATION,
        failures.CONFIGURATION_MISSING,
        failures.LIMIT_REACHED,
        failures.READ_ONLY,
        failures.DECLINED,
    }
)


class UsageError(Exception):
    """A command cannot run as asked; the message says what to change. Nothing was sent."""


def failure_of(exc: CursorError | ToolFailure) -> ToolFailure:
    """The server's failure (code and advice) for an API error, or the failure itself."""
    return exc if isinstance(exc, ToolFailure) else failures.from_api_error(exc)


def exit_code(failure: ToolFailure) -> int:
    """2 for what the person must change on their side, 1 for what Cursor refused or failed."""
    return USAGE if failure.code in _OURS else REFUSED
