"""`cursor_get_changes` and `cursor_check_changes`: what an agent changed, and the person's check of it.

Thin: finding git, reading the change and running the check live in `core/review/changes.py` and
`core/review/checks.py`;
here the diff is prepared as agent text (cleaned, masked) and paged under the result cap. The check command
is the person's (CURSOR_MCP_CHECK_COMMAND), never an argument: without one the tool says so and how to set
it. No tool applies a change: that changes the person's working tree (the terminal's `apply` does, when the
person asks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, Field

from cursor_cloud_agents.core import (
    MAX_DIFF_BYTES,
    AgentChange,
    CheckRules,
    Code,
    ToolFailure,
    diff_page,
    no_git,
    not_configured,
    read_agent_change,
    refs,
    reviewed,
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
    """A file or folder of the repository, as git takes it after `--` (`refs.path_problem`)."""
    if value is None:
        return None
    problem = refs.path_problem(value)
    if problem is not None:
        raise ValueError(f"a path inside the repository, e.g. src/app.py or src/: {problem}")
    return value


ChangePath = Annotated[
    str | None,
    Field(max_length=PATH_MAX_CHARS, description="One file or folder."),
    AfterValidator(repository_path),
]


catalogue = Catalogue()


def reviewed_dir(state: ServerState) -> Path | None:
    """Where the commit seen is remembered for the terminal's `apply`: the state folder, or in simulated mode
    the simulator's folder (its git cache's parent), where the terminal's simulated `apply` looks."""
    if state.settings.simulated and state.git_places is not None:
        return state.git_places.cache_dir.parent
    return state.settings.state_dir


async def diff_window(
    state: ServerState, change: AgentChange, path: str | None, offset: int
) -> tuple[str, int, int, bool]:
    """The page's window of the change's diff prepared as every answer's text is (cleaned, masked), and the
    whole diff's prepared length, hidden characters removed and whether it was cut. Only the window is held:
    the first read measures the whole diff chunk by chunk, later pages stop git once their window is full."""
    key = (str(change.place.git.cwd), change.base, change.head, path or "")
    known = state.diffs.get(key)
    paths = [path] if path else []
    window = state.answers.max_bytes  # a character takes a byte at least: no page holds more
    page = await diff_page(
        change.place.git,
        change.base,
        change.head,
        paths,
        prepare=state.answers.text,
        offset=offset,
        window=window,
        whole_known=known is not None,
    )
    if known is None:
        assert page.total is not None and page.hidden_removed is not None and page.cut is not None
        known = (page.total, page.hidden_removed, page.cut)
        state.diffs.put(key, known)
    return page.text, *known


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
    window, total, hidden, cut = await diff_window(state, change, path, offset)
    if offset > total:
        raise ToolFailure(Code.VALIDATION, f"Offset {offset} is past the end ({total} characters).")
    reviewed.remember(reviewed_dir(state), change.target.agent_id, change.head)
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
    return answers.slice_window(view, "diff", window, offset=offset, total=total, next_key="next_offset")


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
    reviewed.remember(reviewed_dir(state), change.target.agent_id, change.head)
    state.verdicts.put((change.target.agent_id, change.head), result)
    return CheckView.of(change, result)
