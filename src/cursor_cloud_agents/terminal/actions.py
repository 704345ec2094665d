"""`cancel`, `archive`, `usage` and `artifacts`: one request or two each, shown as a line or a small table.

`cancel` asks once and reports what the run said right after (cancelling is asynchronous, quirk 12);
`artifacts --get` downloads through the client's artifact policy (allowed hosts, no key sent) into a
new file (`files.py`: a clean name inside its folder), never to a terminal: an artifact may be binary,
and a terminal obeys escape bytes.
"""

from __future__ import annotations

from rich.table import Table

from cursor_cloud_agents.api import RunNotCancellableError, Usage, text
from cursor_cloud_agents.terminal import files, render
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.term import Term
from cursor_cloud_agents.terminal.watch import latest_run

MAX_ARTIFACT_BYTES = 512 * 1024 * 1024
"""The largest artifact downloaded (it is held in memory before it is written)."""


async def cancel(term: Term, *, agent_id: str, run_id: str | None) -> int:
    """Ask to cancel a run (the agent's latest by default); 1 when it was not active."""
    async with term.open_session() as session:
        run_id = run_id or await latest_run(session.api, agent_id)
        try:
            await session.api.cancel_run(agent_id, run_id)
        except RunNotCancellableError:
            run = await session.api.get_run(agent_id, run_id)
            _say(
                term,
                {"agent_id": agent_id, "run_id": run_id, "outcome": "not_active", "status": run.status},
                f"run {run_id} is not active ({run.status}); nothing to cancel",
            )
            return REFUSED
        run = await session.api.get_run(agent_id, run_id)
    outcome = "cancelled" if run.status == "CANCELLED" else "requested"
    _say(
        term,
        {"agent_id": agent_id, "run_id": run_id, "outcome": outcome, "status": run.status},
        f"cancel of {run_id} {outcome} (status now {run.status})",
    )
    return OK


async def archive(term: Term, *, agent_id: str) -> int:
    """Archive an agent (idempotent)."""
    async with term.open_session() as session:
        archived = await session.api.archive_agent(agent_id)
    _say(term, {"agent_id": archived, "archived": True}, f"archived {archived}")
    return OK


def _say(term: Term, document: dict[str, object], line: str) -> None:
    if term.json:
        term.emit(document)
    else:
        term.out.print(agent_text(line))


def usage_table(usage: Usage) -> Table:
    """Tokens and cost per run, then the agent's total."""
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    for column in ("run", "input", "output", "cache write", "cache read", "total", "charged"):
        table.add_column(column, justify="left" if column == "run" else "right")
    rows = [(run.id, run.usage, run.cost) for run in usage.runs] + [("total", usage.total_usage, usage.cost)]
    for name, tokens, cost in rows:
        counts = (
            [render.NONE] * 5
            if tokens is None
            else [
                f"{tokens.input_tokens:,}",
                f"{tokens.output_tokens:,}",
                f"{tokens.cache_write_tokens:,}",
                f"{tokens.cache_read_tokens:,}",
                f"{tokens.total_tokens:,}",
            ]
        )
        charged = render.cents(None if cost is None else cost.charged_cents)
        table.add_row(agent_text(name, "bold" if name == "total" else ""), *counts, charged)
    return table


async def usage(term: Term, *, agent_id: str) -> int:
    """Tokens and cost of an agent, per run (cost may lag a little behind a run's end)."""
    async with term.open_session() as session:
        found = await session.api.get_usage(agent_id)
    if term.json:
        term.emit({"agent_id": agent_id, **found.model_dump(mode="json", exclude_none=True)})
    else:
        term.out.print(usage_table(found))
    return OK


async def artifacts(term: Term, *, agent_id: str, path: str | None, output: str | None) -> int:
    """List an agent's artifacts, or download one (`path`) to a file."""
    if path is None:
        async with term.open_session() as session:
            listed = await session.api.list_artifacts(agent_id)
        if term.json:
            term.emit(
                {
                    "agent_id": agent_id,
                    "artifacts": [item.model_dump(mode="json", exclude_none=True) for item in listed],
                }
            )
        else:
            for item in listed:
                size = "" if item.size_bytes is None else f"  {item.size_bytes:,} bytes"
                term.out.print(agent_text(item.path).append(size, style="dim"))
            if not listed:
                term.out.print("No artifacts listed (the list is sometimes empty when files exist: try --get PATH).")
        return OK
    try:
        text.artifact_path(path)
    except ValueError as exc:
        raise UsageError(f"{exc}; nothing was sent") from None
    with files.destination(path, output) as target:
        async with term.open_session() as session:
            link = await session.api.artifact_download(agent_id, path)
            data = await session.api.download_artifact(link.url, max_bytes=MAX_ARTIFACT_BYTES)
        target.write(data)
    _say(
        term,
        {"agent_id": agent_id, "path": path, "file": target.shown, "bytes": len(data)},
        f"wrote {len(data):,} bytes to {target.shown}",
    )
    return OK
