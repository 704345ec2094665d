"""A run's stream as a timeline of pre-encoded SSE frames, and the script -> frames expansion.

A run's frames are laid out when the run is created (or cancelled): their times and ids. Each is encoded
once, the first time a replay reaches it, in the exact framing of docs/api-contract.md §3.11: `id: `,
`event: `, `data: ` with one space, LF endings, a blank line after each frame. Replays are then slices of
bytes, which keeps a 16 MiB replay far above 100 MB/s; a run whose stream nobody reads (most runs of a
test, a 20-run wait over 200 KB results) never pays for encoding its frames.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

from .script import RunScript, ScriptedToolCall
from .wire import dumps, format_event_id

Beat = tuple[str, dict[str, Any]]
_FRAME_OVERHEAD = len("id: 1791250392023-0\nevent: \ndata: \n\n")


def encode_frame(event: str, data: dict[str, Any] | str, event_id: str | None = None) -> bytes:
    """One SSE frame in the documented framing (`id: `, `event: `, a `data: ` line per line of `data`, LF,
    a blank line after); a dict is sent as JSON; `event_id=None` gives an id-less frame (status, heartbeat)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    text = data if isinstance(data, str) else dumps(data)
    lines = "".join(f"data: {line}\n" for line in text.split("\n"))
    return f"{head}event: {event}\n{lines}\n".encode()


class Timeline:
    """Frames of one run in time order, with strictly increasing `<ms>-<seq>` ids."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.keys: list[tuple[int, int]] = []
        self._beats: list[Beat] = []
        self._encoded: list[bytes] = []
        """The frames encoded so far: always a prefix of the timeline."""

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def chunks(self) -> list[bytes]:
        """Every frame, encoded."""
        self._encode_through(len(self))
        return self._encoded

    def add(self, at: float, event: str, data: dict[str, Any], *, share_previous_id: bool = False) -> None:
        """Append a frame at time `at` (never before the last one)."""
        at = max(at, self.times[-1]) if self.times else at
        key = self.keys[-1] if share_previous_id else self._next_key(at)
        self.times.append(at)
        self.keys.append(key)
        self._beats.append((event, data))

    def _next_key(self, at: float) -> tuple[int, int]:
        ms = int(at * 1000)
        if self.keys and self.keys[-1][0] >= ms:
            last_ms, last_seq = self.keys[-1]
            return (last_ms, last_seq + 1)
        return (ms, 0)

    def count_until(self, when: float) -> int:
        """How many frames happened at or before `when`."""
        return bisect.bisect_right(self.times, when)

    def count_through(self, key: tuple[int, int]) -> int:
        """How many frames have an id <= `key` (resume: send the ones after)."""
        return bisect.bisect_right(self.keys, key)

    def has_id(self, key: tuple[int, int]) -> bool:
        """Whether this run emitted an event with that id."""
        index = bisect.bisect_left(self.keys, key)
        return index < len(self.keys) and self.keys[index] == key

    def truncate_after(self, when: float) -> None:
        """Forget frames scheduled after `when` (a cancellation overtakes them)."""
        keep = self.count_until(when)
        del self.times[keep:], self.keys[keep:], self._beats[keep:], self._encoded[keep:]

    def slice(self, start: int, stop: int) -> bytes:
        """The encoded bytes of frames `start..stop`."""
        self._encode_through(stop)
        return b"".join(self._encoded[start:stop])

    def _encode_through(self, stop: int) -> None:
        """Encode the frames before `stop` that are not yet."""
        for index in range(len(self._encoded), min(stop, len(self))):
            event, data = self._beats[index]
            self._encoded.append(encode_frame(event, data, format_event_id(self.keys[index])))


DERIVED_FROM = {
    "text-delta": "assistant",
    "thinking-delta": "thinking",
    "tool-call-started": "tool_call",
    "tool-call-completed": "tool_call",
}
"""`interaction_update` types and the simplified frame each is sent again as (docs/api-contract.md §3.11)."""


def derives_from(previous: Beat | None, event: str) -> bool:
    """Whether a frame of type `event` is the simplified copy of the `interaction_update` just before it."""
    if previous is None or previous[0] != "interaction_update":
        return False
    return DERIVED_FROM.get(previous[1].get("type", "")) == event


def fragments(text: str) -> list[str]:
    """Word fragments, the way assistant deltas arrive ("Launching ", "the job.")."""
    if not text:
        return []
    words = text.split(" ")
    pieces = [w + " " for w in words[:-1]] + [words[-1]]
    if len(text) <= 4096:
        return pieces
    # Very long replies come in bigger deltas (paragraphs of about LONG_DELTA characters, cut between
    # words), which keeps a 200 KB result a few hundred frames instead of tens of thousands.
    deltas: list[str] = []
    current: list[str] = []
    size = 0
    for piece in pieces:
        current.append(piece)
        size += len(piece)
        if size >= LONG_DELTA:
            deltas.append("".join(current))
            current, size = [], 0
    return deltas + (["".join(current)] if current else [])


LONG_DELTA = 256
"""The size a delta of a very long reply grows to before the next begins: well under the length at which a
read clips one event's text, so that a reply read event by event reassembles whole."""


def script_beats(script: RunScript, outcome_text: str | None) -> list[Beat]:
    """The events of a run's running phase, in order (times are assigned later)."""
    beats: list[Beat] = []
    iu = script.interaction_updates
    if script.thinking:
        beats += _text_beats("thinking", "thinking-delta", script.thinking, iu)
        beats += _iu(iu, {"type": "thinking-completed", "thinkingDurationMs": 1200})
    beats += _text_beats("assistant", "text-delta", script.text, iu)
    for index, call in enumerate(script.tool_calls, start=1):
        beats += tool_beats(f"call-{index}", call, iu)
    if script.background is not None:
        beats += _background_beats(script, iu)
    if script.summary:
        beats += _iu(iu, {"type": "summary-started"}, {"type": "summary", "summary": script.summary})
        beats += _iu(iu, {"type": "summary-completed"})
    if outcome_text:
        beats += _text_beats("assistant", "text-delta", outcome_text, iu)
    beats += _iu(iu, {"type": "turn-ended", "usage": _turn_usage(script)})
    return beats


def _iu(enabled: bool, *updates: dict[str, Any]) -> list[Beat]:
    return [("interaction_update", u) for u in updates] if enabled else []


def _text_beats(event: str, delta_type: str, text: str, iu: bool) -> list[Beat]:
    beats: list[Beat] = []
    for piece in fragments(text):
        beats += _iu(iu, {"type": delta_type, "text": piece})
        beats.append((event, {"text": piece}))
    return beats


def _turn_usage(script: RunScript) -> dict[str, int]:
    usage = script.usage
    return {
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
        "cacheReadTokens": usage.cache_read_tokens,
        "cacheWriteTokens": usage.cache_write_tokens,
    }


def tool_beats(call_id: str, call: ScriptedToolCall, iu: bool) -> list[Beat]:
    """`running` then `completed` frames with one callId; oversized fields omitted and flagged."""
    truncated = {k: True for k, on in (("args", call.truncated_args), ("result", call.truncated_result)) if on}
    running: dict[str, Any] = {"callId": call_id, "name": call.name, "status": "running"}
    if call.args is not None and not call.truncated_args:
        running["args"] = call.args
    completed = running | {"status": "completed"}
    if call.truncated_args:
        running["truncated"] = {"args": True}
    if call.result is not None and not call.truncated_result:
        completed["result"] = call.result
    if truncated:
        completed["truncated"] = truncated
    tool = {"type": call.name, "args": call.args or {}}
    started = _iu(iu, {"type": "tool-call-started", "callId": call_id, "toolCall": tool})
    done = _iu(iu, {"type": "tool-call-completed", "callId": call_id, "toolCall": tool})
    return [*started, ("tool_call", running), *done, ("tool_call", completed)]


def _background_beats(script: RunScript, iu: bool) -> list[Beat]:
    task = script.background
    assert task is not None  # checked by the caller; keeps the signature simple
    shell_id, pid = 931367, 165414
    args = {"command": task.command, "isBackground": True}
    result = {"success": {"command": task.command, "shellId": shell_id, "pid": pid}, "isBackground": True}
    beats = tool_beats("call-bg", ScriptedToolCall("run_terminal_cmd", args, result), iu)
    for poll in range(1, task.polls + 1):
        runtime = str(task.block_until_ms * poll + 81)
        state: dict[str, Any] = {"stillRunning": {"taskId": str(shell_id), "runtimeMs": runtime}}
        if task.finishes and poll == task.polls:
            state = {"complete": {"taskId": str(shell_id), "exitCode": 0, "runtimeMs": runtime}}
        await_args = {"taskId": str(shell_id), "blockUntilMs": task.block_until_ms}
        beats += tool_beats(f"call-await-{poll}", ScriptedToolCall("await", await_args, {"success": state}), iu)
    return beats


def filler_beats(target_bytes: int) -> Iterator[Beat]:
    """Realistic padding (file reads, text deltas, token deltas) until about `target_bytes`."""
    produced, index = 0, 0
    body = "".join(f"line {n}: lorem ipsum dolor sit amet, consectetur adipiscing elit\n" for n in range(12))
    while produced < target_bytes:
        index += 1
        path = f"src/module_{index % 97}.py"
        read = {"success": {"content": body, "totalLines": 12, "fileSize": len(body), "path": path}}
        group = [
            ("interaction_update", {"type": "token-delta", "tokens": 42}),
            ("assistant", {"text": f"Checking {path} "}),
            *tool_beats(f"call-f{index}", ScriptedToolCall("read_file", {"path": path}, read), True),
        ]
        for beat in group:
            produced += _FRAME_OVERHEAD + len(beat[0]) + len(dumps(beat[1]))
            yield beat
