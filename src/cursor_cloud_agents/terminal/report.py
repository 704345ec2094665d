"""The report `wait` prints at its end: first one line on how the wait ended (the headline), then per run its
status, duration, branch or PR, the first lines of its result and how to read the rest.

It is short on purpose, and its first line carries what matters most: a coding agent that ran `wait` in the
background is woken with only the exit code and the path of the file holding this output (Claude Code,
docs/clients.md), so the first line it reads there says how the wait ended, which runs ended how, which are
still going, and where the rest is. The result's first lines are agent text: cleaned of escapes like
everything shown (`clean.agent_text`), and the JSON form goes through `Term.emit`, which cleans and masks it.
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
from cursor_cloud_agents.terminal.words import for_person

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
        return where | {"code": failure.code if failure else None, "message": for_person(failure) if failure else None}
    document = where | {"status": run.status, "ended": row.ended, "seconds": _whole(_seconds(run, now))}
    if not row.ended:
        return document
    head, left_out = result_head(run.result)
    document |= {"branches": _branches(run), "result_head": head or None, "result_chars": len(run.result or "")}
    return document | ({"read_rest": read_rest(row)} if left_out else {})


def changes_hint(agent_id: str) -> str:
    """What the person can do with a pushed branch: see it, check it, bring it home."""
    return f"cursor-cloud-agents diff {agent_id} · checkout {agent_id} --check CMD · apply {agent_id} (in your clone)"


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds)


def _named(row: Watched) -> str:
    return f"{row.agent_id}:{row.run_id or 'latest'}"


def headline(rows: Sequence[Watched], *, met: bool, waited: float) -> str:
    """The report's first line: how the wait ended, each ended run with its status, those still going, those
    that could not be read, and where to read on (ids and statuses only: no agent text in it)."""
    ended = [f"{row.run.status} {_named(row)}" for row in rows if row.ended and row.run is not None]
    going = [_named(row) for row in rows if row.run is not None and not row.ended]
    unread = [f"{row.failure.code if row.failure else 'UNREAD'} {_named(row)}" for row in rows if row.run is None]
    how = "ended" if met else "timed out"
    parts = [f"wait {how} after {render.duration(waited)}: {len(ended)} of {len(rows)} runs ended"]
    parts[0] += f" ({', '.join(ended)})" if ended else ""
    parts += [f"still going: {' '.join(going)}"] if going else []
    parts += [f"not read: {', '.join(unread)}"] if unread else []
    parts += [f"wait again with: cursor-cloud-agents wait {' '.join(going)}"] if going and not met else []
    return "; ".join(parts) + f". {READ_ON}."


READ_ON = "Below, per run: branch, PR, first lines of its result; a whole run: cursor-cloud-agents watch AGENT RUN"


def report_document(rows: Sequence[Watched], until: Until, *, met: bool, waited: float, now: float) -> dict[str, Any]:
    """The whole report as one JSON document."""
    return {
        "headline": headline(rows, met=met, waited=waited),
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
    if run.status == "FINISHED" and any(branch["branch"] for branch in _branches(run)):
        yield Text(f"  next   {changes_hint(row.agent_id)}", style="dim")
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
        code, message = (failure.code, for_person(failure)) if failure else ("UNREAD", None)
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
    """The report for the person (or the coding agent) reading stdout: the headline, then each run."""
    yield Text(headline(rows, met=met, waited=waited), style="bold" if met else "yellow")
    for row in rows:
        yield from _row_lines(row, now)
