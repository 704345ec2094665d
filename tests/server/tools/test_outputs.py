"""cursor_get_usage, cursor_list_artifacts, cursor_read_artifact and cursor_read_conversation end to end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cursor_cloud_agents.core.state import ARTIFACT_TEXT_SECONDS
from cursor_cloud_agents.simulator import ArtifactSpec, Fault, Faults, ManualClock, Quirks, RunScript, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024


def world_with(*scripts: RunScript, created_ago: float = 86400.0, quirks: Quirks | None = None) -> tuple[World, str]:
    """A world with one agent whose runs follow `scripts` (one after the other); returns it and the agent id."""
    world = World(ManualClock(), quirks=quirks)
    first, *more = scripts or (RunScript(),)
    agent = world.add_agent("Add a README", script=first, scripts=more, created_ago=created_ago)
    return world, agent.id


def artifact_content(path: str, size: int) -> str:
    """What the simulator serves for an artifact: its path and a newline, repeated to its size."""
    pattern = f"{path}\n"
    return (pattern * (size // len(pattern) + 1))[:size]


# --- cursor_get_usage --------------------------------------------------------------------------


async def test_usage_shows_tokens_and_cents_in_total_and_per_run(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.12: tokens and cost (rawCostCents, chargedCents) copied as given, total and per run."""
    world, agent_id = world_with(RunScript(), RunScript(cost_cents=(20.1, 21.8)))
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent_id})
    tokens = {"input": 6160, "output": 1660, "cache_write": 11100, "cache_read": 21300, "total": 40220}
    assert reply.data["total"] == {
        "tokens": {key: 2 * value for key, value in tokens.items()},
        "raw_cents": 41.7,
        "charged_cents": 45.2,
    }
    assert [row["raw_cents"] for row in reply.data["runs"]] == [20.1, 21.6]  # newest first
    assert reply.data["runs"][1]["tokens"] == tokens
    assert "cost_note" not in reply.data


async def test_usage_cost_arriving_late_stays_missing_then_appears(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.12: cost is eventually consistent; a missing cost stays missing (never a zero)."""
    world, agent_id = world_with(RunScript(creating_seconds=2, running_seconds=30), created_ago=35)
    async with harness_factory(world) as h:
        early = await h.call("cursor_get_usage", {"agent_id": agent_id})
        h.clock.advance(30)
        late = await h.call("cursor_get_usage", {"agent_id": agent_id})
    assert "raw_cents" not in early.data["total"] and "charged_cents" not in early.data["runs"][0]
    assert early.data["total"]["tokens"]["total"] == 40220
    assert "Missing is not zero" in early.data["cost_note"]
    assert late.data["total"]["charged_cents"] == 23.4 and "cost_note" not in late.data


async def test_usage_of_a_run_without_cost_record_says_the_cost_is_missing(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.12: cost is optional; its absence is reported, not filled in."""
    world, agent_id = world_with(RunScript(cost_cents=None))
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent_id})
    assert set(reply.data["total"]) == {"tokens"} and "1 run(s)" in reply.data["cost_note"]


async def test_usage_for_one_run_sends_its_id_and_shows_that_run(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.12: `runId` narrows the usage to one run."""
    world, agent_id = world_with(RunScript(), RunScript())
    first = world.agents[agent_id].runs[0].id
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent_id, "run_id": first})
        query = h.requests("GET")[-1].query
    assert f"runId={first}" in query
    assert reply.data["run_id"] == first and [row["run_id"] for row in reply.data["runs"]] == [first]


async def test_usage_unavailable_for_the_account_is_said_plainly(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.12: 403 feature_unavailable (early access) is reported as such."""
    world, agent_id = world_with(RunScript(), quirks=Quirks(usage_endpoint_available=False))
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent_id})
    assert reply.code == "PERMISSION_DENIED"
    assert reply.data["upstream_code"] == "feature_unavailable" and reply.data["http_status"] == 403
    assert "usage reporting" in reply.data["message"]


async def test_usage_of_many_runs_under_a_small_cap_counts_the_rows_left_out(harness_factory: OpenHarness) -> None:
    """The result cap holds by construction: rows that do not fit are counted, never cut silently."""
    world, agent_id = world_with(*[RunScript()] * 60, created_ago=86400 * 3)
    async with harness_factory(world, max_result_bytes=4000) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent_id})
    assert not reply.is_error and reply.size <= 4000
    assert len(reply.data["runs"]) + reply.data["runs_omitted"] == 60
    assert reply.data["total"]["tokens"]["total"] == 60 * 40220
    assert "run_id" in reply.data["runs_hint"]


# --- cursor_list_artifacts ---------------------------------------------------------------------


async def test_list_artifacts_shows_listed_files_only(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.13 and quirk 10: unlisted files are missing from the list."""
    artifacts = (ArtifactSpec("artifacts/report.md", 2048), ArtifactSpec("artifacts/hidden.png", 10, listed=False))
    world, agent_id = world_with(RunScript(artifacts=artifacts))
    async with harness_factory(world) as h:
        reply = await h.call("cursor_list_artifacts", {"agent_id": agent_id})
    assert [(row["path"], row["size_bytes"]) for row in reply.data["artifacts"]] == [("artifacts/report.md", 2048)]
    assert "note" not in reply.data


async def test_an_empty_artifact_list_explains_what_to_do_instead(harness_factory: OpenHarness) -> None:
    """Reference, observed limitation: an empty list does not prove no file was written."""
    world, agent_id = world_with(RunScript())
    async with harness_factory(world) as h:
        reply = await h.call("cursor_list_artifacts", {"agent_id": agent_id})
    assert reply.data["artifacts"] == []
    assert "final reply" in reply.data["note"] and "branch" in reply.data["note"]


async def test_a_long_artifact_list_under_a_small_cap_counts_what_is_left_out(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.13: up to 100 items and no paging; what does not fit is counted."""
    artifacts = tuple(ArtifactSpec(f"artifacts/{'deep/' * 8}file-{n:03d}.txt", n) for n in range(100))
    world, agent_id = world_with(RunScript(artifacts=artifacts))
    async with harness_factory(world, max_result_bytes=4000) as h:
        reply = await h.call("cursor_list_artifacts", {"agent_id": agent_id})
    assert not reply.is_error and reply.size <= 4000
    assert len(reply.data["artifacts"]) + reply.data["omitted"] == 100


# --- cursor_read_artifact ----------------------------------------------------------------------


async def read_artifact(h: Harness, agent_id: str, path: str, **extra: Any) -> Any:
    return await h.call("cursor_read_artifact", {"agent_id": agent_id, "path": path} | extra)


async def test_a_text_artifact_is_read_in_pages_that_fit_the_cap(harness_factory: OpenHarness) -> None:
    """Reference: UTF-8 text read in pages; ours: each page fits the cap and the pages reassemble exactly."""
    path, size = "artifacts/report.md", 30_000
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, size),)))
    async with harness_factory(world, max_result_bytes=6000) as h:
        pages: list[str] = []
        offset: int | None = 0
        while offset is not None:
            reply = await read_artifact(h, agent_id, path, offset=offset, limit=20_000)
            assert not reply.is_error and reply.size <= 6000
            pages.append(reply.data["text"])
            offset = reply.data.get("next_offset")
            assert len(pages) < 50
        downloads = [r for r in h.requests("GET") if r.path.startswith("/sim/artifacts/")]
    assert "".join(pages) == artifact_content(path, size)
    assert len(pages) >= 6 and all("authorization" not in r.headers for r in downloads)
    assert len(downloads) == 1, "reading page by page downloads the file once"


async def test_an_artifact_read_again_after_a_few_minutes_is_downloaded_afresh(harness_factory: OpenHarness) -> None:
    """The kept copy is short-lived: a later read sees the file as it is then."""
    path, size = "artifacts/report.md", 3_000
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, size),)))
    async with harness_factory(world) as h:
        await read_artifact(h, agent_id, path)
        await read_artifact(h, agent_id, path)
        h.clock.advance(ARTIFACT_TEXT_SECONDS + 1)
        await read_artifact(h, agent_id, path)
        downloads = [r for r in h.requests("GET") if r.path.startswith("/sim/artifacts/")]
    assert len(downloads) == 2


async def test_a_binary_artifact_gives_its_url_with_text_unavailable(harness_factory: OpenHarness) -> None:
    """Reference: a binary file is answered with the presigned URL and text_unavailable."""
    path = "artifacts/screenshot.png"
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 64),)))
    faults = Faults()
    faults.inject("GET", "/sim/artifacts/*/*", Fault.raw(200, b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "image/png"))
    async with harness_factory(world, faults=faults) as h:
        reply = await read_artifact(h, agent_id, path)
    assert reply.data["text_unavailable"].startswith("binary")
    assert "/sim/artifacts/" in reply.data["url"] and reply.data["expires_at"]
    assert "text" not in reply.data


async def test_an_artifact_over_5_mib_gives_its_url_with_text_unavailable(harness_factory: OpenHarness) -> None:
    """Reference: a text over 5 MB is not read; the URL is given instead."""
    path = "artifacts/dump.txt"
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 5 * MIB + 1),)))
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path)
    assert reply.data["text_unavailable"] == "larger than 5 MiB" and reply.data["url"]


async def test_url_only_gives_the_url_without_downloading(harness_factory: OpenHarness) -> None:
    """Reference: url_only=true returns the URL and its expiry, nothing is downloaded."""
    path = "artifacts/report.md"
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 2048),)))
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path, url_only=True)
        downloads = [r for r in h.requests("GET") if r.path.startswith("/sim/artifacts/")]
    assert reply.data["url"] and reply.data["expires_at"] and "text_unavailable" not in reply.data
    assert downloads == []


def answer_download_with(faults: Faults, url: str) -> None:
    """The next artifact download link the simulator gives is `url` (as a compromised API might)."""
    body = json.dumps({"url": url, "expiresAt": "2026-10-06T12:15:00.000Z"})
    faults.inject("GET", "/v1/agents/{id}/artifacts/download", Fault.raw(200, body))


def download_answering(path: str, url: str) -> tuple[World, str, Faults]:
    """A world with one agent that wrote `path`, whose download link will be `url`."""
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 2048),)))
    faults = Faults()
    answer_download_with(faults, url)
    return world, agent_id, faults


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "https://evil.example/a?X-Amz-Signature=1",
        "https://a.amazonaws.com/x\r\nY",
    ],
    ids=["metadata-address", "foreign-host", "crlf"],
)
async def test_url_only_never_hands_out_a_url_the_server_would_refuse(harness_factory: OpenHarness, url: str) -> None:
    """Issue 13 (SSRF): url_only returned http://169.254.169.254/... verbatim; now the same policy as a
    download applies, and a URL with CR/LF is refused instead of answering INTERNAL."""
    path = "artifacts/report.md"
    world, agent_id, faults = download_answering(path, url)
    async with harness_factory(world, faults=faults) as h:
        for url_only in (True, False):
            reply = await read_artifact(h, agent_id, path, url_only=url_only)
            assert reply.code == "ARTIFACT_URL_REFUSED", reply.data
            answer_download_with(faults, url)


async def test_an_unlisted_artifact_404_is_explained_with_what_to_do(harness_factory: OpenHarness) -> None:
    """Reference, observed limitation: a written file missing from the list answers 404 artifact_not_found."""
    path = "artifacts/result.txt"
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 100, listed=False),)))
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path)
    assert reply.code == "NOT_FOUND" and reply.data["upstream_code"] == "artifact_not_found"
    assert reply.data["path"] == path
    assert "final reply" in reply.data["message"] and "branch" in reply.data["message"]


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example.com/artifacts/report.md?X-Amz-Signature=abc",
        "https://cloud-agent-artifacts.s3.amazonaws.com.evil.example/report.md",
        "http://cloud-agent-artifacts.s3.us-east-1.amazonaws.com/report.md",
    ],
)
async def test_a_download_url_outside_the_allowlist_is_refused(harness_factory: OpenHarness, url: str) -> None:
    """docs/api-contract.md §3.14: the presigned URL must be https on an allowed host; nothing is fetched otherwise."""
    path = "artifacts/report.md"
    world, agent_id, faults = download_answering(path, url)
    async with harness_factory(world, faults=faults) as h:
        reply = await read_artifact(h, agent_id, path)
    assert reply.code == "ARTIFACT_URL_REFUSED"
    assert "X-Amz-Signature" not in reply.data["message"]


@pytest.mark.parametrize("path", ["report.md", "artifacts/", "artifacts/../secrets.txt", "/opt/cursor/artifacts/a"])
async def test_an_artifact_path_outside_artifacts_is_refused_before_sending(
    harness_factory: OpenHarness, path: str
) -> None:
    """docs/api-contract.md §3.13: paths are relative and start with artifacts/; anything else sends nothing."""
    world, agent_id = world_with(RunScript())
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path)
        assert h.requests() == []
    assert reply.code == "VALIDATION"


async def test_an_artifact_offset_past_the_end_is_refused(harness_factory: OpenHarness) -> None:
    """An offset past the end of the text names the length."""
    path = "artifacts/report.md"
    world, agent_id = world_with(RunScript(artifacts=(ArtifactSpec(path, 100),)))
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path, offset=101)
    assert reply.code == "VALIDATION" and "100 characters" in reply.data["message"]


# --- cursor_read_conversation ------------------------------------------------------------------


async def test_conversation_comes_in_windows_of_messages(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.17: the v0 conversation, user prompts and replies, read by offset and limit."""
    world, agent_id = world_with(*[RunScript(result=f"reply {n}") for n in range(5)], created_ago=86400 * 2)
    async with harness_factory(world) as h:
        first = await h.call("cursor_read_conversation", {"agent_id": agent_id, "limit": 4})
        rest = await h.call("cursor_read_conversation", {"agent_id": agent_id, "offset": first.data["next_offset"]})
        paths = {record.path for record in h.requests("GET")}
    assert paths == {f"/v0/agents/{agent_id}/conversation"}
    assert first.data["total_messages"] == 10 and first.data["next_offset"] == 4
    assert [(m["index"], m["role"]) for m in first.data["messages"][:2]] == [(0, "user"), (1, "assistant")]
    assert first.data["messages"][1]["text"] == "reply 0"
    assert [m["text"] for m in rest.data["messages"][-2:]] == ["Add a README", "reply 4"]
    assert "next_offset" not in rest.data and "clipped_note" not in rest.data


async def test_a_long_message_is_clipped_with_a_marker_and_read_on_with_text_offset(
    harness_factory: OpenHarness,
) -> None:
    """Issue 5: windows fit the cap; a long message is cut, marked, and its rest readable."""
    long_reply = "".join(f"line {n}: details of the change\n" for n in range(4000))
    world, agent_id = world_with(RunScript(result=long_reply), RunScript(result="short"))
    async with harness_factory(world, max_result_bytes=6000) as h:
        window = await h.call("cursor_read_conversation", {"agent_id": agent_id})
        assert window.size <= 6000 and window.data["clipped_note"]
        clipped = window.data["messages"][1]
        pieces = [clipped["text"]]
        text_offset: int | None = clipped["next_text_offset"]
        while text_offset is not None:
            args = {"agent_id": agent_id, "offset": 1, "limit": 1, "text_offset": text_offset}
            more = await h.call("cursor_read_conversation", args)
            assert more.size <= 6000
            pieces.append(more.data["messages"][0]["text"])
            text_offset = more.data["messages"][0].get("next_text_offset")
            assert len(pieces) < 100
    assert "".join(pieces) == long_reply
    assert [m["text"] for m in window.data["messages"][2:]] == ["Add a README", "short"]
    assert clipped["text_chars"] == len(long_reply)


async def test_many_long_messages_share_the_room_and_the_window_fits(harness_factory: OpenHarness) -> None:
    """Every window fits the cap by construction, however long the messages."""
    world, agent_id = world_with(*[RunScript(result="z" * 9000)] * 10, created_ago=86400 * 2)
    async with harness_factory(world, max_result_bytes=4000) as h:
        seen: list[int] = []
        offset: int | None = 0
        while offset is not None:
            reply = await h.call("cursor_read_conversation", {"agent_id": agent_id, "offset": offset, "limit": 50})
            assert not reply.is_error and reply.size <= 4000
            seen += [m["index"] for m in reply.data["messages"]]
            offset = reply.data.get("next_offset")
    assert seen == list(range(20))


async def test_a_conversation_offset_past_the_end_is_refused(harness_factory: OpenHarness) -> None:
    """An offset past the last message is a VALIDATION error naming the count."""
    world, agent_id = world_with(RunScript())
    async with harness_factory(world) as h:
        reply = await h.call("cursor_read_conversation", {"agent_id": agent_id, "offset": 3})
    assert reply.code == "VALIDATION" and "2 messages" in reply.data["message"]


@pytest.mark.parametrize(
    "path",
    ["artifacts/a\nb.txt", "artifacts/a\r\nX-Injected: 1", "C:\\artifacts\\a.txt", "artifacts\\..\\secrets", "../x"],
    ids=["newline", "crlf", "drive-letter", "backslashes", "parent"],
)
async def test_an_artifact_path_with_newlines_drive_letters_or_backslashes_is_refused(
    harness_factory: OpenHarness, path: str
) -> None:
    """docs/reliability.md P-04: names and paths follow the file-name rules: newlines, drive letters, backslashes and
    parent steps are refused before sending. (No tool saves an artifact to disk, so none can escape a folder.)"""
    world, agent_id = world_with(RunScript())
    async with harness_factory(world) as h:
        reply = await read_artifact(h, agent_id, path)
        assert h.requests() == []
    assert reply.code == "VALIDATION"
