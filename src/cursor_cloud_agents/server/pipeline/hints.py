"""Calls that answers and instructions suggest, written from the tools' own parameter limits so each validates.

A hint names a tool and its arguments: placeholders the model fills in (`agent_id`) and literal values
taken from the same constants the schema is built from (`wait_seconds=MAX_WAIT_SECONDS`), so a model
that follows our own advice never meets `VALIDATION`. A test finds every `cursor_...(...)` call in the
instructions and in the answers and validates it against the tool's strict model.
"""

from __future__ import annotations

from cursor_cloud_agents.core.timing import MAX_WAIT_SECONDS


def suggest(tool: str, *placeholders: str, **values: object) -> str:
    """`tool(a, b, key=value)`: the call to suggest, with placeholders first."""
    literal = [f"{name}={_literal(value)}" for name, value in values.items()]
    return f"{tool}({', '.join([*placeholders, *literal])})"


def _literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _wait_hints() -> tuple[str, str]:
    follow = (
        suggest("cursor_get_run", "agent_id", "run_id", wait_seconds=MAX_WAIT_SECONDS)
        + " until the run ends, or "
        + suggest("cursor_wait", "runs")
        + ", which a client with MCP Tasks runs to the end"
    )
    several = suggest("cursor_wait", "runs", until="any") + " waits on several runs and answers as each ends"
    return follow, several


FOLLOW_THE_RUN, WAIT_FOR_SEVERAL = _wait_hints()
"""How to follow a new run; how to wait on several runs instead of polling them."""


READ_THE_CHANGES = (
    suggest("cursor_get_changes", "agent_id", "run_id")
    + " shows what its branch changed (files, diff); "
    + suggest("cursor_check_changes", "agent_id", "run_id")
    + " runs the person's check command on it"
)
"""What to do once a run has pushed a branch: read the change, check it (the person applies it at a terminal)."""

TASK_CANCELLED = "Cancelled by the client; the agent's run goes on (read it with cursor_get_run)."
"""A cancelled task's status: the run it waited on is Cursor's and goes on."""
