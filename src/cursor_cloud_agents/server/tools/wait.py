"""`cursor_wait`: wait on up to 20 runs at once and answer as soon as any (or all) of them end.

A status tool invites polling; this answers when something happened, inside every client's call limit,
with what is needed to act on it: each ended run's status, branches, PR and a fair share of its result
(read on with cursor_get_run), the runs still going, and the rows that could not be read. A client that
declares MCP Tasks gets it as a task that waits until the end, minutes if need be.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, Field

from cursor_cloud_agents.core import (
    MAX_RUNS,
    ToolFailure,
    Until,
    Watched,
    failures,
    find_group,
    mark_seen,
    store_failures,
    watch,
)
from cursor_cloud_agents.core.timing import MAX_WAIT_SECONDS, WAIT_MARGIN_SECONDS
from cursor_cloud_agents.server.pipeline.answers import Answers
from cursor_cloud_agents.server.pipeline.declaration import Catalogue, TaskRule
from cursor_cloud_agents.server.pipeline.hints import suggest
from cursor_cloud_agents.server.pipeline.params import AgentId, GroupId, RunId, RunWait
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.wait import EndedRun, WaitView

WAIT_AGAIN = suggest("cursor_wait", "runs", until="any") + " again with the runs still running"
READ_ON = "A result with result_next_offset goes on: " + suggest(
    "cursor_get_run", "agent_id", "run_id", "result_offset=<result_next_offset>"
)


class RunRef(BaseModel):
    # No docstring: pydantic would publish it in the input schema, costing catalogue bytes.

    model_config = ConfigDict(extra="forbid", strict=True)

    agent_id: AgentId
    run_id: RunId | None = Field(default=None, description="Omit for the agent's latest run.")


catalogue = Catalogue()


def wait_budget(arguments: Mapping[str, Any]) -> float:
    """Seconds for one cursor_wait call: the wait and the reads around it."""
    return WAIT_MARGIN_SECONDS + arguments.get("wait_seconds", MAX_WAIT_SECONDS)


def always_waits(_arguments: Mapping[str, Any]) -> bool:
    """Waiting is all cursor_wait does: a declaring client always gets a task."""
    return True


def wait_still_waiting(answer: WaitView) -> bool:
    """The runs did not end (any or all, as asked) within the wait: ask again."""
    return answer.timed_out is True


@catalogue.tool(
    title="Wait for runs",
    budget=wait_budget,
    shrink_hint="wait on fewer runs at a time",
    task=TaskRule(waits=always_waits, still_waiting=wait_still_waiting),
)
async def cursor_wait(
    state: ServerState,
    call: ToolCall,
    runs: Annotated[list[RunRef] | None, Field(min_length=1, max_length=MAX_RUNS)] = None,
    until: Until = "any",
    wait_seconds: RunWait = MAX_WAIT_SECONDS,
    group_id: Annotated[GroupId | None, Field(description="Or a group's attempts.")] = None,
) -> WaitView:
    """Wait until any (or all) of up to 20 runs end, instead of polling them one by one.

    Answers ended runs (status, branches, PR, result start), those still running, and timed_out.
    """
    rows = await _rows(state, runs, group_id)
    started = call.time.now() if call.waiting_since is None else call.waiting_since
    met = await watch(state.api, rows, until, call.time, wait_seconds, call.progress, since=started)
    view = WaitView.of(rows, until, met=met, waited=call.time.now() - started, next_step=WAIT_AGAIN)
    await mark_seen(state.store, [row.run_id for row in rows if row.ended and row.run_id], state.clock.now())
    return with_results(state.answers, view, {row.run_id: row.run.result for row in rows if row.run and row.ended})


async def _rows(state: ServerState, runs: list[RunRef] | None, group_id: str | None) -> list[Watched]:
    """The runs to wait on: those given, or the latest run of each attempt of a group."""
    if (runs is None) == (group_id is None):
        raise ToolFailure(failures.VALIDATION, "Pass runs or group_id (one of them).")
    if runs is not None:
        return [Watched(ref.agent_id, ref.run_id) for ref in runs]
    with store_failures():
        group = await find_group(state.store, cast(str, group_id), state.clock.now())
    if not group.agent_ids:
        raise ToolFailure(
            failures.Code.NOT_FOUND,
            f"No attempt of group {group.id} was made, so there is no run to wait for.",
            group_id=group.id,
        )
    return [Watched(agent_id, None) for agent_id in group.agent_ids]


def with_results(answers: Answers, view: WaitView, results: Mapping[str | None, str | None]) -> WaitView:
    """`view` with each ended run's result sliced to a fair share of the room under the cap."""
    texts = [answers.text(results.get(row.run_id) or "") for row in view.ended]
    # Measured with every text empty and every continuation offset at its widest: slices only fill the room.
    empty = [
        row.model_copy(update={"result": "", "result_chars": len(text) or None, "result_next_offset": len(text)})
        for row, text in zip(view.ended, texts, strict=True)
    ]
    shares = answers.share_texts(view.model_copy(update={"ended": empty, "read_on": READ_ON}), texts)
    ended = [_sliced(row, text, taken) for row, text, taken in zip(view.ended, texts, shares, strict=True)]
    cut = any(row.result_next_offset is not None for row in ended)
    return view.model_copy(update={"ended": ended, "read_on": READ_ON if cut else None})


def _sliced(row: EndedRun, text: str, taken: int) -> EndedRun:
    # Lengths and offsets count the prepared text, as cursor_get_run's do: hidden characters are not in it.
    rest = taken if taken < len(text) else None
    slice_ = {"result": text[:taken] if text else None, "result_chars": len(text) or None, "result_next_offset": rest}
    return row.model_copy(update=slice_)
