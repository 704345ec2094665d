"""The report `wait` prints at its end: per run its status, duration, branch or PR, the first lines of its
result and how to read the rest; then one line on how the wait ended.

It is short on purpose: a coding agent that ran `wait` in the background reads it whole in its context. The
result's first lines are agent text: cleaned of escapes like everything shown (`clean.agent_text`), and the
JSON form goes through `Term.emit`, which cleans and masks it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rich.text import Text

from cursor_cloud_agents.api import Run
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core import Until, Watched, end_line
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.clean import agent_text

RESULT_LINES = 4
"""Lines of each result the report shows."""
LINE_CHARS = 200
"""Each shown line is clipped to this many characters."""


def result_head(text: str | None) -> tuple[str, int]:
    """The first RESULT_LINES non-blank lines of a result, each clipped, and how many of its characters that
    leaves out (0: the head is the whole result)."""
    lines = [line.rstrip() for line in (text or "").splitlines() if line.strip()]
    shown = [line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] for line in lines[:RESULT_LINES]]
    if shown == lines:
        return "\n".join(lines), 0
    head = [kept + ("…" if kept != line else "") for kept, line in zip(shown, lines, strict=False)]
    return "\n".join(head), max(1, len((text or "").strip()) - sum(map(len, shown)))


def read_rest(row: Watched) -> str:
    """The command that shows the whole run, its result at the end."""
    return f"cursor-cloud-agents watch {row.agent_id} {row.run_id}"


def _seconds(run: Run, now: float) -> float | None:
    if run.duration_ms is not None:
        return run.duration_ms / 1000
    started = epoch(run.created_at)
    return None if started is None else max(0.0, now - started)


def _branches(run: Run) -> list[dict[str, str | None]]:
    git = run.git
    return [{"repo_url": b.repo_url, "branch": b.branch, "pr_url": b.pr_url} for b in (git.branches if git else [])]


def row_document(row: Watched, now: float) -> dict[str, Any]:
    """One run of the report, for `--json`."""
    where = {"agent_id": row.agent_id, "run_id": row.run_id}
    run = row.run
    if run is None:
        failure = row.failure
        return where | {"code": failure.code if failure else None, "message": failure.message if failure else None}
    document = where | {"status": run.status, "ended": row.ended, "seconds": _whole(_seconds(run, now))}
    if not row.ended:
        return document
    head, left_out = result_head(run.result)
    document |= {"branches": _branches(run), "result_head": head or None, "result_chars": len(run.result or "")}
    return document | ({"read_rest": read_rest(row)} if left_out else {})


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds)


def report_document(rows: Sequence[Watched], until: Until, *, met: bool, waited: float, now: float) -> dict[str, Any]:
    """The whole report as one JSON document."""
    return {
        "until": until,
        "met": met,
        "timed_out": not met,
        "waited_seconds": round(waited),
        "runs": [row_document(row, now) for row in rows],
    }


def _ended_lines(row: Watched, run: Run, now: float) -> Iterator[Text]:
    line = render.status(run.status).append(end_line(run, now).removeprefix(run.status), style="dim")
    yield line.append(f" · {row.agent_id}:{row.run_id}", style="dim")
    for branch in _branches(run):
        where = agent_text(f"{branch['repo_url']} {branch['branch'] or ''}".strip())
        yield Text("  branch ", style="dim").append_text(where)
        if branch["pr_url"]:
            yield Text("  PR     ", style="dim").append_text(agent_text(branch["pr_url"], "bold"))
    head, left_out = result_head(run.result)
    for text in head.splitlines():
        yield Text("  │ ", style="dim").append_text(agent_text(text))
    if left_out:
        yield Text(f"  │ … {left_out:,} more characters: {read_rest(row)}", style="dim")
    error = run.error
    if error is not None and (error.code or error.message):
        yield Text("  ").append_text(agent_text(f"error {error.code or ''}: {error.message or ''}", "red"))


def _row_lines(row: Watched, now: float) -> Iterator[Text]:
    run = row.run
    if run is None:
        failure = row.failure
        code, message = (failure.code, failure.message) if failure else ("UNREAD", None)
        yield Text(code, style="red").append(f" · {row.agent_id}:{row.run_id or 'latest'}", style="dim")
        if message:
            yield Text("  ").append_text(agent_text(message, "red"))
        return
    if row.ended:
        yield from _ended_lines(row, run, now)
        return
    line = render.status(run.status).append(f" for {render.duration(_seconds(run, now))}", style="dim")
    yield line.append(f" · {row.agent_id}:{row.run_id} (still going)", style="dim")


def report_lines(rows: Sequence[Watched], *, met: bool, waited: float, now: float) -> Iterator[Text]:
    """The report for the person (or the coding agent) reading stdout."""
    for row in rows:
        yield from _row_lines(row, now)
    ended = sum(row.ended for row in rows)
    summary = f"{ended} of {len(rows)} runs ended in {render.duration(waited)}"
    if met:
        yield Text(summary, style="bold")
        return
    going = " ".join(f"{row.agent_id}:{row.run_id}" for row in rows if row.run is not None and not row.ended)
    yield Text(f"timed out: {summary}; wait again with: cursor-cloud-agents wait {going}", style="yellow")
