"""The reading tools under the cap (tool contract 6): slices that reassemble, events measured as sent, exact cursors,
cursor_wait's lengths, and cursor_supervise's summary rules."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from cursor_cloud_agents.api import RawEvent
from cursor_cloud_agents.core import scan
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.pipeline.answers import Answers, size
from cursor_cloud_agents.server.tools import run_events as events_tool
from cursor_cloud_agents.server.views.excerpts import Excerpt, TextEventView
from cursor_cloud_agents.simulator import ArtifactSpec, ManualClock, RunScript, World
from tests.clock import while_time_passes
from tests.tool_harness import Harness, OpenHarness, Reply

pytestmark = pytest.mark.anyio

EVENTS = "cursor_read_run_events"
SMALL_CAP = 4_000


def one_run(script: RunScript, *, created_ago: float = 3600.0) -> tuple[World, str, str]:
    world = World(ManualClock())
    agent = world.add_agent("task", script=script, created_ago=created_ago)
    return world, agent.id, agent.runs[-1].id


async def call_ok(h: Harness, tool: str, arguments: dict[str, Any], cap: int) -> Reply:
    reply = await h.call(tool, arguments)
    assert not reply.is_error, reply.data
    assert reply.size <= cap
    return reply


# --- events measured as they are sent ------------------------------------------------------------


async def test_an_excerpt_of_text_the_cleaning_lengthens_fits_the_cap_and_pages_on_without_gaps(
    harness_factory: OpenHarness,
) -> None:
    """`<` is sent as `&lt;`: rows measured raw overflowed the cap, and every read from that cursor failed."""
    raw, cap = "<img " * 6000, 8_000
    world, agent_id, run_id = one_run(RunScript(text=raw, thinking=None, tool_calls=(), summary=None))
    async with harness_factory(world, max_result_bytes=cap) as h:
        texts: list[str] = []
        arguments: dict[str, Any] = {"agent_id": agent_id, "run_id": run_id}
        for _ in range(100):
            data = (await call_ok(h, EVENTS, arguments, cap)).data
            texts += [event["text"] for event in data["events"] if event["type"] == "assistant"]
            if not data.get("more"):
                break
            arguments["after_event_id"] = data["last_event_id"]
        whole = Answers(h.redactor, cap).text(raw)
    assert whole.startswith("&lt;img ") and "".join(texts) == whole + RunScript().result  # then the final reply


async def test_a_tail_of_text_the_cleaning_lengthens_fits_the_cap(harness_factory: OpenHarness) -> None:
    """The tail keeps the newest rows that fit as sent, the older ones counted in left_out."""
    world, agent_id, run_id = one_run(RunScript(text="<img " * 12_000, thinking=None, tool_calls=(), summary=None))
    async with harness_factory(world) as h:
        data = (await call_ok(h, EVENTS, {"agent_id": agent_id, "run_id": run_id, "tail": 100}, 38_000)).data
    assert data["left_out"] > 0 and data["events"][-1]["type"] == "result"


def text_frames(count: int) -> list[tuple[int, RawEvent]]:
    """Fragments clipped (so never merged), half of them made longer by the cleaning; each with its number."""
    texts = ["<img>" * 120 if n % 2 else "x" * 600 for n in range(count)]
    return [(n, RawEvent("assistant", json.dumps({"text": text}), f"1000-{n}")) for n, text in enumerate(texts)]


def test_an_excerpt_whose_rows_outgrow_their_measure_leaves_the_rest_for_the_next_read_exactly() -> None:
    """Whatever the measure misses, the answer fits: its last rows are left out and the cursor reads them again."""
    answers = Answers(Redactor(), SMALL_CAP)
    frames = text_frames(40)
    shown: list[str] = []
    after: str | None = None
    done = -1  # the sequence number of the last frame read
    trimmed = False
    for _ in range(40):
        excerpt = Excerpt(after, max_events=100, max_bytes=SMALL_CAP, measure=lambda data: size(data) // 2)
        for _, frame in frames[done + 1 :]:
            if excerpt.take(frame):
                break
        taken = len(excerpt.entries)
        view = events_tool.fit_excerpt(answers, excerpt, interrupted=False)
        trimmed |= len(view.events) < taken
        _, text = answers.render(view)
        assert len(text.encode()) <= SMALL_CAP
        shown += [event.text for event in view.events if isinstance(event, TextEventView)]
        after = view.last_event_id
        done = next(n for n, frame in frames if frame.id == after)
        if done == len(frames) - 1:
            break
        assert view.more and view.events
    assert trimmed and shown == [json.loads(frame.data)["text"][:500] + "…" for _, frame in frames]


# --- slices that reassemble ------------------------------------------------------------------------

MARKUP = '<ImageView android:src="@drawable/logo"/> xbearer abcdefghijk été 漢字 🚀\n\t"q" \\ '


async def read_on(h: Harness, tool: str, arguments: dict[str, Any], keys: tuple[str, str, str]) -> str:
    """Every slice of a text from `arguments`' offset, joined; each answer within the small cap."""
    offset_key, text_key, next_key = keys
    pieces: list[str] = []
    while True:
        data = (await call_ok(h, tool, arguments, SMALL_CAP)).data
        pieces.append(data.get(text_key, ""))
        if data.get(next_key) is None:
            return "".join(pieces)
        arguments = arguments | {offset_key: data[next_key]}
        assert len(pieces) < 400


@pytest.mark.parametrize("limit", [23, 333, 20_000])
async def test_slices_never_end_inside_a_word_so_they_reassemble_into_the_whole_text(
    harness_factory: OpenHarness, limit: int
) -> None:
    """A slice is prepared again as sent: cut after `<Image` of `<ImageView` it read `&lt;Image`, and cut after
    `x` of `xbearer abcdefghijk` the next one read `bearer ***`, so the slices did not make the text."""
    raw = MARKUP * 60
    path = "artifacts/layout.xml"
    script = RunScript(result=raw, artifacts=(ArtifactSpec.of_file(path, raw.encode()),))
    world, agent_id, run_id = one_run(script)
    async with harness_factory(world, max_result_bytes=SMALL_CAP) as h:
        whole = Answers(h.redactor, SMALL_CAP).text(raw)
        run = {"agent_id": agent_id, "run_id": run_id, "activity": False, "result_limit": limit}
        result = await read_on(h, "cursor_get_run", run, ("result_offset", "result", "result_next_offset"))
        artifact = {"agent_id": agent_id, "path": path, "limit": limit}
        text = await read_on(h, "cursor_read_artifact", artifact, ("offset", "text", "next_offset"))
    assert "<ImageView" in whole and "xbearer abcdefghijk" in whole
    assert result == whole
    assert text == whole


async def test_a_long_message_read_with_text_offset_reassembles_into_the_whole_message(
    harness_factory: OpenHarness,
) -> None:
    """The conversation's windows cut messages the same way."""
    raw = MARKUP * 50
    world = World(ManualClock())
    agent = world.add_agent("task", script=RunScript(result=raw), created_ago=86_400)
    async with harness_factory(world, max_result_bytes=SMALL_CAP) as h:
        whole = Answers(h.redactor, SMALL_CAP).text(raw)
        arguments: dict[str, Any] = {"agent_id": agent.id, "offset": 1, "limit": 1}
        pieces: list[str] = []
        while True:
            message = (await call_ok(h, "cursor_read_conversation", arguments, SMALL_CAP)).data["messages"][0]
            pieces.append(message["text"])
            if message.get("next_text_offset") is None:
                break
            arguments["text_offset"] = message["next_text_offset"]
            assert len(pieces) < 100
    assert len(pieces) >= 2 and "".join(pieces) == whole


# --- cursor_wait's lengths ------------------------------------------------------------------------


async def test_cursor_wait_counts_a_results_length_as_cursor_get_run_does(harness_factory: OpenHarness) -> None:
    """result_chars counted the raw result, hidden characters included, while the offsets count what is sent."""
    world, agent_id, run_id = one_run(RunScript(result="a\u200bb" * 10))
    async with harness_factory(world) as h:
        waited = await call_ok(h, "cursor_wait", {"runs": [{"agent_id": agent_id, "run_id": run_id}]}, 38_000)
        read = await call_ok(h, "cursor_get_run", {"agent_id": agent_id, "run_id": run_id}, 38_000)
    ended = waited.data["ended"][0]
    assert ended["result"] == read.data["result"] == "ab" * 10
    assert ended["result_chars"] == read.data["result_chars"] == 20


# --- cursors -----------------------------------------------------------------------------------------


def edited(*parts: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode().rstrip("=")


async def test_an_edited_cursor_is_refused_never_crashes_nor_repeats_rows(harness_factory: OpenHarness) -> None:
    """A page size of Infinity and a deeply nested cursor were INTERNAL errors; a negative skip repeated rows."""
    world = World(ManualClock())
    for n in range(12):
        world.add_agent(f"agent {n}", created_ago=7200 + n)
    mark = scan.fingerprint(None, None, False)
    nested = base64.urlsafe_b64encode(b"[" * 1500).decode().rstrip("=")
    cursors = [
        edited(None, float("inf"), 0, mark),
        nested,
        edited(None, 5, -2, mark),
        edited(None, 0, 0, mark),
        edited(None, 1000, 0, mark),
        edited({"api": "cursor"}, 5, 0, mark),
    ]
    async with harness_factory(world) as h:
        replies = [await h.call("cursor_list_agents", {"limit": 5, "cursor": cursor}) for cursor in cursors]
        supervised = await h.call("cursor_supervise", {"status": "all", "cursor": edited(None, 5, -2, mark)})
        sent = len(h.requests("GET"))
    for reply in [*replies, supervised]:
        assert reply.code == "VALIDATION" and "not one this tool returned" in reply.data["message"], reply.data
    assert sent == 0


# --- cursor_supervise's summary ------------------------------------------------------------------------


async def test_a_stream_past_its_retention_only_sets_activity_error_and_is_not_incomplete(
    harness_factory: OpenHarness,
) -> None:
    """Reference: `incomplete` names the replays that did not finish or failed; a stream older than the
    retention only sets that row's activity_error to STREAM_EXPIRED (calling again would not complete it)."""
    world = World(ManualClock())
    world.add_agent("old", script=RunScript(), created_ago=3 * 86_400)
    world.add_agent("recent", script=RunScript(), created_ago=3_600)
    async with harness_factory(world) as h:
        call = h.call("cursor_supervise", {"status": "all", "activity": True})
        data = (await while_time_passes(h.clock, call)).data
    rows = {row["name"]: row for row in data["agents"]}
    assert rows["old"]["activity_error"] == "STREAM_EXPIRED"
    assert "activity_error" not in rows["recent"]
    assert data["summary"]["incomplete"] == []
