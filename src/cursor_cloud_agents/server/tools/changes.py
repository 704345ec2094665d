"""`cursor_get_changes` and `cursor_check_changes`: what an agent changed, and the person's check of it.

Thin: finding git, reading the change and running the check live in `core/changes.py` and `core/checks.py`;
here the diff is prepared as agent text (cleaned, masked) and paged under the result cap. The check command
is the person's (CURSOR_MCP_CHECK_COMMAND), never an argument: without one the tool says so and how to set
it. No tool applies a change: that changes the person's working tree (the terminal's `apply` does, when the
person asks).
"""

from __future__ import annotations

from typing import Annotated

import anyio
from pydantic import AfterValidator, Field

from cursor_cloud_agents.core import (
    MAX_DIFF_BYTES,
    AgentChange,
    CheckRules,
    diff,
    no_git,
    not_configured,
    read_agent_change,
    run_check,
)
from cursor_cloud_agents.core.timing import ANSWER_MARGIN_SECONDS, ANSWER_RESERVE
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue
from cursor_cloud_agents.server.pipeline.pages import PageBytes, paged
from cursor_cloud_agents.server.pipeline.params import AgentId, RunId
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.changes import APPLY_HINT, CHECK_HINT, ChangesView, CheckView, FileRow

PATH_MAX_CHARS = 500
MAX_CHECK_SECONDS = 3600.0
"""The most CURSOR_MCP_CHECK_SECONDS allows; the toolkit caps the call at CURSOR_MCP_MAX_CALL_SECONDS anyway."""


def repository_path(value: str | None) -> str | None:
    """A file or folder of the repository, as git takes it after `--`: no option, no pathspec magic."""
    if value is None:
        return None
    if value.startswith(("-", ":")) or "\x00" in value or not value.strip():
        raise ValueError("a path inside the repository, e.g. src/app.py or src/ (no leading '-' or ':')")
    return value


ChangePath = Annotated[
    str | None,
    Field(max_length=PATH_MAX_CHARS, description="One file or folder."),
    AfterValidator(repository_path),
]


catalogue = Catalogue()


async def prepared_diff(state: ServerState, change: AgentChange, path: str | None) -> tuple[str, int, bool]:
    """The change's diff prepared whole as every answer's text is (cleaned, masked), kept for its next pages."""
    key = (str(change.place.git.cwd), change.base, change.head, path or "")
    kept = state.diffs.get(key)
    if kept is None:
        text = await diff(change.place.git, change.base, change.head, [path] if path else [])
        prepared = await anyio.to_thread.run_sync(state.answers.text, text.text)  # megabytes: off the event loop
        kept = (prepared, text.hidden_removed, text.cut)
        state.diffs.put(key, kept)
    return kept


@catalogue.tool(title="Read an agent's changes", shrink_hint="pass path to read one file or folder")
async def cursor_get_changes(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    run_id: RunId | None = None,
    path: ChangePath = None,
    offset: Annotated[int, Field(ge=0)] = 0,
    max_bytes: PageBytes = None,
) -> ChangesView:
    """What an agent's branch changed: files (status, additions, deletions), totals, the diff in pages
    (next_offset)."""
    call.note(agent_id=agent_id, run_id=run_id)
    change = await read_agent_change(state.git_places, state.api, agent_id, run_id, await call.roots() or [])
    prepared, hidden, cut = await prepared_diff(state, change, path)
    view = ChangesView.of(change, path).model_copy(
        update={
            "hidden_removed": hidden or None,
            "diff_cut_at_bytes": MAX_DIFF_BYTES if cut else None,
            "next_steps": f"{CHECK_HINT} {APPLY_HINT}",
        }
    )
    answers = paged(state.answers, call.client, max_bytes)
    if offset == 0:  # the files once, on the first page, in at most half the room: the diff needs the rest
        rows = [FileRow.of(file) for file in change.files]
        kept = answers.rows_that_fit(rows, answers.room(view) // 2)
        view = view.model_copy(update={"files": rows[:kept], "files_omitted": len(rows) - kept or None})
    return answers.slice_text(view, "diff", prepared, offset=offset, limit=len(prepared), next_key="next_offset")


@catalogue.tool(
    title="Check an agent's changes",
    access=Access.LOCAL,
    idempotent=True,
    budget=lambda _arguments: MAX_CHECK_SECONDS + ANSWER_MARGIN_SECONDS,
    shrink_hint="the last lines are already bounded",
)
async def cursor_check_changes(
    state: ServerState, call: ToolCall, agent_id: AgentId, run_id: RunId | None = None
) -> CheckView:
    """Run the user's CURSOR_MCP_CHECK_COMMAND on the agent's branch in a throwaway clone: passed, exit_code,
    last_lines."""
    command = state.settings.check_command
    if command is None:
        raise not_configured()
    places = state.git_places
    if places is None:
        raise no_git()
    call.note(agent_id=agent_id, run_id=run_id)
    change = await read_agent_change(places, state.api, agent_id, run_id, await call.roots() or [])
    await call.progress(f"running the check on {change.head[:12]}")
    timeout = call.time.left(state.settings.check_seconds, ANSWER_RESERVE + 1.0)
    result = await run_check(
        change.place.git, change.head, command, env=places.env, timeout=timeout, rules=CheckRules.of(state.settings)
    )
    state.verdicts.put((change.target.agent_id, change.head), result)
    return CheckView.of(change, result)
