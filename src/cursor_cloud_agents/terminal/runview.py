"""A run's events as a person reads them: whole sentences, one line per tool call, thinking in one line.

The stream sends the assistant's text a word at a time. A sentence is printed once it is complete
(or when something else happens), so the screen reads as prose and no sentence is printed twice. A
tool call is one line when it completes, with its outcome; a thinking passage is one dim line; the
summary is one line. The `result` frame is kept for the end block (`end_block`), which adds the
branches and the PR from the run's last read. The status line (status, elapsed, tokens once known)
is `status_line()`, drawn live below the text on a terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, cast

from rich.console import Console, RenderResult
from rich.rule import Rule
from rich.text import Text

from cursor_cloud_agents.api import (
    AssistantEvent,
    ErrorEvent,
    InteractionUpdateEvent,
    ResultEvent,
    Run,
    StatusEvent,
    StreamEvent,
    ThinkingEvent,
    ToolCallEvent,
)
from cursor_cloud_agents.core import end_line
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.clean import agent_text

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
THINKING_CHARS = 100
DETAIL_CHARS = 80
_DETAIL_KEYS = ("path", "command", "query", "pattern", "url", "taskId", "target_file", "file_path")
_FAILED = ("error", "failure", "failed", "rejected")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tool_detail(args: Any) -> str:
    """The one argument that says what a tool call was about (a path, a command...), clipped."""
    if isinstance(args, dict):
        found = cast(dict[str, Any], args)
        for key in _DETAIL_KEYS:
            if isinstance(found.get(key), str | int):
                return _clip(str(found[key]), DETAIL_CHARS)
    return "" if args is None else _clip(json.dumps(args, ensure_ascii=False, default=str), DETAIL_CHARS)


def tool_failed(call: ToolCallEvent) -> bool:
    """Whether a completed call's status or result says it failed."""
    if (call.status or "").lower() in _FAILED:
        return True
    result: Any = call.result
    return isinstance(result, dict) and any(key in cast(dict[str, Any], result) for key in _FAILED)


class RunPrinter:
    """Prints a run's events on `out` as they come; keeps what the status line and the end block need."""

    def __init__(self, out: Console, *, created_at: float | None, now: Callable[[], float]) -> None:
        self.out = out
        self.created_at = created_at
        self.now = now
        self.status: str | None = None
        self.tokens: int | None = None
        self.running_tool: str | None = None
        self.result: ResultEvent | None = None
        self._text = ""
        self._thinking = ""
        self._args: dict[str, Any] = {}

    # --- events --------------------------------------------------------------------------------

    def take(self, event: StreamEvent) -> None:
        """Show one event (or keep it until its sentence, its thinking or its call is complete)."""
        if isinstance(event, AssistantEvent):
            self._close_thinking()
            self._text += event.text
            self._print_sentences(final=False)
            return
        if isinstance(event, ThinkingEvent):
            self._thinking += event.text
            return
        if isinstance(event, InteractionUpdateEvent):
            self._update(event)
            return
        if not isinstance(event, StatusEvent | ToolCallEvent | ResultEvent | ErrorEvent):
            return  # heartbeats, `done` and unknown kinds: nothing to show, and no reason to cut a sentence
        self.flush()
        if isinstance(event, StatusEvent):
            self._status(event.status)
        elif isinstance(event, ToolCallEvent):
            self._tool_call(event)
        elif isinstance(event, ResultEvent):
            self.result = event
            self._status(event.status)
        else:
            line = f"stream error {event.code or ''}: {event.message or ''}"
            self.out.print(agent_text(line, "yellow"))

    def flush(self) -> None:
        """Print whatever text or thinking is pending (at a change of event kind, or at the end)."""
        self._close_thinking()
        self._print_sentences(final=True)

    def _print_sentences(self, *, final: bool) -> None:
        parts = _SENTENCE_END.split(self._text)
        done, self._text = (parts, "") if final else (parts[:-1], parts[-1])
        for sentence in done:
            if sentence.strip():
                self.out.print(agent_text(sentence.strip()))

    def _close_thinking(self) -> None:
        if self._thinking.strip():
            self.out.print(agent_text(f"thinking: {_clip(self._thinking, THINKING_CHARS)}", "dim italic"))
        self._thinking = ""

    def _status(self, status: str | None) -> None:
        if status is None or status == self.status:
            return
        self.status = status
        line = Text("● ", style="dim").append_text(render.status(status))
        self.out.print(line)

    def _tool_call(self, call: ToolCallEvent) -> None:
        name = call.name or "tool"
        if call.status == "running":
            self.running_tool = name
            if call.call_id is not None:
                self._args[call.call_id] = call.args
            return
        self.running_tool = None
        args = call.args if call.args is not None else self._args.pop(call.call_id or "", None)
        mark = Text("✗ ", style="red") if tool_failed(call) else Text("✓ ", style="green")
        line = Text("  ").append_text(mark).append_text(agent_text(name, "bold"))
        detail = tool_detail(args)
        if detail:
            line.append(" ").append_text(agent_text(detail, "dim"))
        if call.truncated is not None and (call.truncated.args or call.truncated.result):
            line.append(" (output left out by Cursor for size)", style="dim")
        self.out.print(line)

    def _update(self, event: InteractionUpdateEvent) -> None:
        extra = event.model_extra or {}
        if event.update_type == "summary" and isinstance(extra.get("summary"), str):
            self.flush()
            self.out.print(agent_text(f"Summary: {extra['summary']}", "italic"))
        elif event.update_type == "turn-ended" and isinstance(extra.get("usage"), dict):
            usage = cast(dict[str, Any], extra["usage"])
            self.tokens = sum(value for value in usage.values() if isinstance(value, int))

    # --- the status line -----------------------------------------------------------------------

    def elapsed(self) -> float | None:
        """Seconds since the run was created, or its duration once known."""
        if self.result is not None and self.result.duration_ms is not None:
            return self.result.duration_ms / 1000
        return None if self.created_at is None else self.now() - self.created_at

    def status_line(self) -> Text:
        """`RUNNING · 1m · 12,345 tokens · running read_file`."""
        line = render.status(self.status or "…")
        line.append(f" · {render.duration(self.elapsed())}", style="dim")
        if self.tokens is not None:
            line.append(f" · {self.tokens:,} tokens", style="dim")
        if self.running_tool:
            line.append(" · running ", style="dim").append_text(agent_text(self.running_tool, "dim"))
        return line

    def __rich_console__(self, console: Console, options: Any) -> RenderResult:
        del console, options
        yield self.status_line()


def end_block(out: Console, run: Run, result: ResultEvent | None) -> None:
    """The end of a run: its status and duration, its result text, its branches and PR, its error."""
    out.print(Rule(Text("result", style="bold")))
    out.print(render.status(run.status).append(end_line(run).removeprefix(run.status), style="dim"))
    text = run.result or (None if result is None else result.text)
    if text:
        out.print(agent_text(text))
    git = run.git or (None if result is None else result.git)
    for branch in git.branches if git else []:
        line = Text("branch ", style="dim").append_text(agent_text(f"{branch.repo_url} {branch.branch or ''}"))
        out.print(line)
        if branch.pr_url:
            out.print(Text("PR     ", style="dim").append_text(agent_text(branch.pr_url, "bold")))
    error = run.error or (None if result is None else result.error)
    if error is not None and (error.message or error.code):
        out.print(agent_text(f"error {error.code or ''}: {error.message or ''}", "red"))


def event_document(event: StreamEvent) -> dict[str, Any] | None:
    """One event as a JSON line for `--json` (None for keepalives and the duplicating updates)."""
    if isinstance(event, InteractionUpdateEvent):
        extra = event.model_extra or {}
        if event.update_type == "summary":
            return {"type": "summary", "id": event.event_id, "text": extra.get("summary")}
        if event.update_type == "turn-ended":
            return {"type": "usage", "id": event.event_id, "tokens": extra.get("usage")}
        return None
    if event.kind == "heartbeat":
        return None
    data = event.model_dump(mode="json", exclude_none=True, exclude={"event_id"})
    return {"type": event.kind, "id": event.event_id, **data}
