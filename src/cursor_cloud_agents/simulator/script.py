"""Run scripts: what a simulated run does, how long each phase lasts and how it ends.

A `RunScript` is plain data. The world turns it into a timeline of stream events when a run is
created (see `timeline.py`). Tests set `World.default_script` or queue one for the next run with
`World.queue_script()`; the demo can steer a run with prompt markers (`script_from_prompt`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Outcome = Literal["FINISHED", "ERROR", "CANCELLED", "EXPIRED"]


@dataclass(frozen=True)
class ScriptedToolCall:
    """One tool call, streamed as a `running` then `completed` pair sharing a callId."""

    name: str
    args: dict[str, Any] | None = None
    result: Any = None
    truncated_args: bool = False
    """Omit `args` from the frames and flag `truncated.args` (observed for huge inputs)."""
    truncated_result: bool = False
    """Omit `result` from the completed frame and flag `truncated.result` (observed for an 8 MB output)."""


@dataclass(frozen=True)
class BackgroundTaskScript:
    """A scripted `run_terminal_cmd` with `isBackground: true`, then `await` polls on its shell id."""

    command: str = "bash ~/monitor.sh"
    polls: int = 2
    block_until_ms: int = 900_000
    finishes: bool = False
    """False: every poll says `stillRunning`, so the task outlives the run (quirk 18)."""


@dataclass(frozen=True)
class ArtifactSpec:
    """A file the run writes under `artifacts/`; `listed=False` reproduces the empty-list quirk."""

    path: str
    size_bytes: int = 1024
    listed: bool = True
    content: bytes | None = None
    """The file's bytes (a real image, say); None serves the path repeated to `size_bytes`."""

    @classmethod
    def of_file(cls, path: str, content: bytes, *, listed: bool = True) -> ArtifactSpec:
        """An artifact with these exact bytes (its size is theirs)."""
        return cls(path, len(content), listed, content)


@dataclass(frozen=True)
class ScriptedUsage:
    """Token counts recorded for a run when it ends."""

    input_tokens: int = 6160
    output_tokens: int = 1660
    cache_write_tokens: int = 11100
    cache_read_tokens: int = 21300

    def wire(self) -> dict[str, int]:
        """The documented usage object; `totalTokens` is the sum of the four counts."""
        counts = {
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cacheWriteTokens": self.cache_write_tokens,
            "cacheReadTokens": self.cache_read_tokens,
        }
        return counts | {"totalTokens": sum(counts.values())}


def _default_tools() -> tuple[ScriptedToolCall, ...]:
    content = "# Project\n"
    result = {"success": {"content": content, "totalLines": 1, "fileSize": len(content), "path": "README.md"}}
    return (ScriptedToolCall("read_file", {"path": "README.md"}, result),)


@dataclass(frozen=True)
class RunScript:
    """The timeline of one simulated run.

    The run is CREATING for `creating_seconds`, RUNNING for `running_seconds`, then ends with
    `outcome`. Events are spread evenly over the running phase (or over its first `events_seconds`).
    """

    outcome: Outcome = "FINISHED"
    creating_seconds: float = 2.0
    running_seconds: float = 30.0
    thinking: str | None = "Let me read the repository before changing anything."
    text: str = "I'll read the code and make the change."
    tool_calls: tuple[ScriptedToolCall, ...] = field(default_factory=_default_tools)
    background: BackgroundTaskScript | None = None
    summary: str | None = "Read the repository and made the requested change."
    result: str = "Done: the change is committed on the agent's branch."
    usage: ScriptedUsage = field(default_factory=ScriptedUsage)
    cost_cents: tuple[float, float] | None = (21.6, 23.4)
    """(rawCostCents, chargedCents) for the run, or None for no cost record."""
    artifacts: tuple[ArtifactSpec, ...] = ()
    replay_bytes: int = 0
    """Pad the stream with realistic filler events until its replay is at least this many bytes."""
    interaction_updates: bool = True
    """Also send the richer `interaction_update` frames the real stream is mostly made of."""
    events_seconds: float | None = None
    """Spread the events over only the first this many seconds of the running phase (None: all of it): the
    run then says nothing until it ends, as a stuck run does (its stream is silent until the heartbeat)."""


# Prompt markers the demo (and anyone using `simulate`) can put in a prompt to steer the run.
_MARKER = re.compile(r"\[sim:([a-z-]+)(?:=([0-9.]+))?\]")


def script_from_prompt(prompt: str, base: RunScript) -> RunScript:
    """Apply prompt markers to a script.

    Markers: `[sim:error]`, `[sim:expired]`, `[sim:background]` (a background shell left
    running), `[sim:artifact]` (one listed artifact), `[sim:unlisted-artifact]`,
    `[sim:seconds=N]` (running phase length), `[sim:big=N]` (pad the replay to N bytes).
    """
    script = base
    for name, value in _MARKER.findall(prompt):
        script = _apply_marker(script, name, value)
    return script


def _apply_marker(script: RunScript, name: str, value: str) -> RunScript:
    if name == "error":
        return replace(script, outcome="ERROR")
    if name == "expired":
        return replace(script, outcome="EXPIRED")
    if name == "background":
        return replace(script, background=BackgroundTaskScript())
    if name == "artifact":
        return replace(script, artifacts=(*script.artifacts, ArtifactSpec("artifacts/report.md", 2048)))
    if name == "unlisted-artifact":
        return replace(script, artifacts=(*script.artifacts, ArtifactSpec("artifacts/hidden.png", 4096, False)))
    if name == "seconds" and value:
        return replace(script, running_seconds=float(value))
    if name == "big" and value:
        return replace(script, replay_bytes=int(float(value)))
    return script
