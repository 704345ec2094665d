"""Images both ways, end to end: `images` on cursor_create_agent and cursor_create_run, image artifacts read back.

Every refusal is proved by the simulator's request log: nothing was POSTed (and for a follow-up,
nothing was sent at all, since images are checked before the agent is read).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_types import CallToolResult, ImageContent, ListRootsResult, Root, TextContent

from cursor_cloud_agents.simulator import ArtifactSpec, ManualClock, RunScript, World, build_scenario
from cursor_cloud_agents.simulator.images import jpeg, png
from tests.tool_harness import Harness, OpenHarness, reply_of

pytestmark = pytest.mark.anyio

SHOT = png(6, 4)


def posts(h: Harness) -> list[Any]:
    return h.requests("POST")


def sent_images(h: Harness) -> list[dict[str, Any]]:
    (post,) = posts(h)
    return post.json()["prompt"]["images"]


def inline(data: bytes, mime_type: str, width: int, height: int) -> dict[str, Any]:
    """An image as the API takes it inline."""
    dimension = {"width": width, "height": height}
    return {"data": base64.b64encode(data).decode(), "mimeType": mime_type, "dimension": dimension}


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The server's working directory (the allowed place when the client declares no roots), holding shot.png."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "shot.png").write_bytes(SHOT)
    monkeypatch.chdir(folder)
    return folder


# --- images in prompts --------------------------------------------------------------------------


async def test_a_created_agent_gets_a_file_a_data_url_and_an_https_url_as_the_api_takes_them(
    harness: Harness, workdir: Path
) -> None:
    """Issue 12: a path under the working directory (no roots declared), a data: URL and an https URL."""
    del workdir
    data_url = "data:image/jpeg;base64," + base64.b64encode(jpeg()).decode()
    url = "https://example.com/bug.png"
    reply = await harness.call(
        "cursor_create_agent", {"prompt": "Fix the layout bug", "images": ["shot.png", data_url, url]}
    )
    assert not reply.is_error, reply.data
    assert sent_images(harness) == [inline(SHOT, "image/png", 6, 4), inline(jpeg(), "image/jpeg", 8, 8), {"url": url}]


async def test_a_follow_up_carries_its_images(harness_factory: OpenHarness, workdir: Path) -> None:
    """Issue 12 and docs/api-contract.md §3.7: the follow-up's prompt takes images by the same rules."""
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call(
            "cursor_create_run",
            {"agent_id": agent.id, "prompt": "Now match this", "images": [str(workdir / "shot.png")]},
        )
        assert not reply.is_error, reply.data
        assert sent_images(h) == [inline(SHOT, "image/png", 6, 4)]


def _text_named_png(tmp_path: Path, workdir: Path) -> list[str]:
    (workdir / "notes.png").write_text("a text file with an image's name\n")
    return ["notes.png"]


def _outside(tmp_path: Path, workdir: Path) -> list[str]:
    (tmp_path / "id_rsa").write_bytes(SHOT)
    return [str(tmp_path / "id_rsa")]


def _symlink_out(tmp_path: Path, workdir: Path) -> list[str]:
    (tmp_path / "secret.png").write_bytes(SHOT)
    (workdir / "link.png").symlink_to(tmp_path / "secret.png")
    return ["link.png"]


def _sixteen_mb(tmp_path: Path, workdir: Path) -> list[str]:
    with (workdir / "huge.png").open("wb") as handle:  # sparse: fast to make, a PNG in all but its size
        handle.write(SHOT)
        handle.truncate(16 * 1000 * 1000)
    return ["huge.png"]


def _six(tmp_path: Path, workdir: Path) -> list[str]:
    return ["shot.png"] * 6


def _http(tmp_path: Path, workdir: Path) -> list[str]:
    return ["http://example.com/bug.png"]


def _bad_data_url(tmp_path: Path, workdir: Path) -> list[str]:
    return ["data:image/png;base64," + base64.b64encode(b"plain text").decode()]


REFUSALS = [
    (_outside, "outside the allowed directories"),
    (_symlink_out, "outside the allowed directories"),
    (_text_named_png, "not a PNG, JPEG, GIF or WebP image by its content"),
    (_sixteen_mb, "over 15,728,640 bytes"),
    (_six, "at most 5"),
    (_http, "must be an https:// URL"),
    (_bad_data_url, "not a PNG, JPEG, GIF or WebP image by its content"),
]
REFUSAL_IDS = ["outside-roots", "symlink-out", "text-named-png", "16-mb", "six-images", "http-url", "text-data-url"]


@pytest.mark.parametrize(("make", "problem"), REFUSALS, ids=REFUSAL_IDS)
async def test_a_bad_image_refuses_the_creation_with_the_rule_and_zero_posts(
    harness: Harness, tmp_path: Path, workdir: Path, make: Any, problem: str
) -> None:
    """Issue 12: every refusal sends 0 requests that cost money (the simulator's request log proves it)."""
    reply = await harness.call("cursor_create_agent", {"prompt": "Fix it", "images": make(tmp_path, workdir)})
    assert reply.code == "VALIDATION"
    assert problem in reply.data["message"] and "Nothing was sent." in reply.data["message"]
    assert posts(harness) == []


@pytest.mark.parametrize(("make", "problem"), REFUSALS, ids=REFUSAL_IDS)
async def test_a_bad_image_refuses_the_follow_up_before_any_request(
    harness_factory: OpenHarness, tmp_path: Path, workdir: Path, make: Any, problem: str
) -> None:
    """Issue 12: images are checked before the agent is even read."""
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600)
    async with harness_factory(world) as h:
        arguments = {"agent_id": agent.id, "prompt": "Now this", "images": make(tmp_path, workdir)}
        reply = await h.call("cursor_create_run", arguments)
        assert reply.code == "VALIDATION" and problem in reply.data["message"]
        assert h.requests() == []


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # roots/list during the call; or input_required (2026-07-28)
async def test_with_client_roots_only_files_under_them_are_sent_not_the_working_directory(
    harness_factory: OpenHarness, tmp_path: Path, workdir: Path, mode: str
) -> None:
    """Issue 12: when the client declares roots, they replace the working directory as the allowed place, in
    both protocol eras."""
    root = tmp_path / "client-project"
    root.mkdir()
    (root / "ui.png").write_bytes(SHOT)

    async def list_roots(_context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root.model_validate({"uri": root.as_uri()})])

    async with harness_factory(client_options={"list_roots_callback": list_roots, "mode": mode}) as h:
        inside = await h.call("cursor_create_agent", {"prompt": "Fix it", "images": [str(root / "ui.png")]})
        cwd_only = await h.call("cursor_create_agent", {"prompt": "Fix it", "images": [str(workdir / "shot.png")]})
        assert not inside.is_error, inside.data
        assert cwd_only.code == "VALIDATION" and str(root) in cwd_only.data["message"]
        assert len(posts(h)) == 1


async def test_the_journal_and_the_ledger_hold_no_image_bytes(
    harness_factory: OpenHarness, tmp_path: Path, workdir: Path
) -> None:
    """Issue 12: a creation with an image leaves only digests and times on disk."""
    big = png(64, 64)
    (workdir / "big.png").write_bytes(big)
    state = tmp_path / "state"
    async with harness_factory(state_dir=state) as h:
        reply = await h.call("cursor_create_agent", {"prompt": "Fix it", "images": ["big.png"]})
    assert not reply.is_error, reply.data
    stored = b"".join(path.read_bytes() for path in state.rglob("*") if path.is_file())
    assert stored, "the journal and ledger were written"
    encoded = base64.b64encode(big)
    assert encoded[100:140] not in stored and big[100:140] not in stored


# --- image artifacts to the client --------------------------------------------------------------


async def read_artifact(h: Harness, agent_id: str, path: str) -> CallToolResult:
    with anyio.fail_after(30):
        return await h.mcp.call_tool("cursor_read_artifact", {"agent_id": agent_id, "path": path})


def images_world() -> tuple[World, str]:
    world = build_scenario("images", ManualClock())
    return world, next(iter(world.agents))


@pytest.mark.parametrize(
    ("path", "content", "mime_type", "size"),
    [
        ("artifacts/settings-page.png", png(64, 48), "image/png", (64, 48)),
        ("artifacts/avatar.jpg", jpeg(), "image/jpeg", (8, 8)),
    ],
    ids=["png", "jpeg"],
)
async def test_an_image_artifact_is_read_back_as_image_content_after_its_json(
    harness_factory: OpenHarness, path: str, content: bytes, mime_type: str, size: tuple[int, int]
) -> None:
    """Issue 12: a png/jpeg/gif/webp artifact up to CURSOR_MCP_MAX_IMAGE_BYTES comes as an MCP image block."""
    world, agent_id = images_world()
    async with harness_factory(world) as h:
        result = await read_artifact(h, agent_id, path)
    reply = reply_of(result)
    assert not reply.is_error, reply.data
    assert [type(block) for block in result.content] == [TextContent, ImageContent]
    image = result.content[1]
    assert isinstance(image, ImageContent)
    assert (image.mime_type, base64.b64decode(image.data)) == (mime_type, content)
    assert (reply.data["mime_type"], reply.data["size_bytes"]) == (mime_type, len(content))
    assert (reply.data["width"], reply.data["height"]) == size
    assert reply.data["url"] and "text" not in reply.data and "text_unavailable" not in reply.data


async def test_an_image_over_the_result_cap_is_still_shown_since_the_cap_counts_the_text_only(
    harness_factory: OpenHarness,
) -> None:
    """Issue 12: the text part stays under the result cap; the image is not counted in it."""
    picture = png(200, 100)  # about 60 KB, over the 38,000-byte result cap
    world = World(ManualClock())
    script = RunScript(artifacts=(ArtifactSpec.of_file("artifacts/wide.png", picture),))
    agent = world.add_agent("Screenshot", script=script, created_ago=3600)
    async with harness_factory(world) as h:
        result = await read_artifact(h, agent.id, "artifacts/wide.png")
    reply = reply_of(result)
    assert not reply.is_error and reply.size < 1_000
    assert len(picture) > 38_000 and isinstance(result.content[1], ImageContent)


@pytest.mark.parametrize(
    ("settings", "path"),
    [({}, "artifacts/full-page.png"), ({"max_image_bytes": 0}, "artifacts/settings-page.png")],
    ids=["over-the-default-limit", "limit-zero"],
)
async def test_an_image_over_the_image_limit_stays_url_only(
    harness_factory: OpenHarness, settings: dict[str, Any], path: str
) -> None:
    """Issue 12: larger images stay URL-only as today, and the answer says which limit applied."""
    world, agent_id = images_world()
    async with harness_factory(world, **settings) as h:
        result = await read_artifact(h, agent_id, path)
    reply = reply_of(result)
    assert len(result.content) == 1
    assert "CURSOR_MCP_MAX_IMAGE_BYTES" in reply.data["text_unavailable"] and reply.data["url"]
    assert json.dumps(reply.data).count("/sim/artifacts/") == 1


async def test_a_binary_artifact_that_only_looks_like_an_image_by_its_name_stays_url_only(
    harness_factory: OpenHarness,
) -> None:
    """Issue 12: the type by the bytes, not the name: a zip named .png is binary, answered with its URL."""
    world = World(ManualClock())
    script = RunScript(artifacts=(ArtifactSpec.of_file("artifacts/fake.png", b"PK\x03\x04" + b"\x00" * 60),))
    agent = world.add_agent("Screenshot", script=script, created_ago=3600)
    async with harness_factory(world) as h:
        result = await read_artifact(h, agent.id, "artifacts/fake.png")
    assert len(result.content) == 1
    assert reply_of(result).data["text_unavailable"].startswith("binary")


async def test_an_in_memory_client_sees_the_image_block_over_json_rpc(harness_factory: OpenHarness) -> None:
    """The image block survives the JSON-RPC round trip as `{"type": "image", "data", "mimeType"}`."""
    world, agent_id = images_world()
    async with harness_factory(world) as h:
        result = await read_artifact(h, agent_id, "artifacts/avatar.jpg")
    wire = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    assert wire["content"][1] == {"type": "image", "data": base64.b64encode(jpeg()).decode(), "mimeType": "image/jpeg"}


async def test_an_answer_with_an_image_carries_no_structured_content_so_every_client_shows_the_image(
    harness_factory: OpenHarness,
) -> None:
    """D-28 (issue 22): Codex hands its model only `structuredContent` when a result has one, dropping the image
    beside it; without it, Codex, Claude Code and OpenCode all pass the image on. The JSON stays whole in the text,
    and an answer without an image keeps both channels."""
    world, agent_id = images_world()
    async with harness_factory(world) as h:
        image = await read_artifact(h, agent_id, "artifacts/avatar.jpg")
        listed = await h.mcp.call_tool("cursor_list_artifacts", {"agent_id": agent_id})
    wire = image.model_dump(by_alias=True, exclude_none=True, mode="json")
    assert "structuredContent" not in wire and [block["type"] for block in wire["content"]] == ["text", "image"]
    assert json.loads(wire["content"][0]["text"])["mime_type"] == "image/jpeg"
    assert listed.structured_content is not None
