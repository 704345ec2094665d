"""`cursor_get_changes` and `cursor_check_changes` (issue 30) through the MCP server, against the simulator's
stand-in remote and real git. The remote folder is shared by the module; each test's world pushes to it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_types import Implementation

from cursor_cloud_agents.core import reviewed
from cursor_cloud_agents.server.pipeline.pages import client_name
from cursor_cloud_agents.simulator import ArtifactSpec, ManualClock, RunScript, World, build_scenario
from tests.stand_in import Remote, agent_named, changes_world, git, make_remote
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> Remote:
    made = make_remote(tmp_path_factory.mktemp("tools"))
    changes_world(made)
    return made


def demo_world(remote: Remote) -> World:
    return remote.attach(build_scenario("demo", ManualClock()))


def agent_called(world: World, name: str) -> str:
    return next(agent.id for agent in world.agents.values() if agent.name == name)


async def test_a_finished_agent_of_the_demo_world_answers_its_files_and_a_diff(remote: Remote) -> None:
    """Issue 30 acceptance: files with additions and deletions, totals, and a diff holding `@@`."""
    world = demo_world(remote)
    async with open_harness(world, git_places=remote.places()) as h:
        reply = await h.call("cursor_get_changes", {"agent_id": agent_called(world, "Run the nightly benchmark")})
    assert not reply.is_error, reply.data
    files = reply.data["files"]
    assert len(files) == reply.data["files_changed"] == 42
    assert all("additions" in row and "deletions" in row for row in files)
    assert reply.data["additions"] == sum(row["additions"] for row in files)
    assert "@@" in reply.data["diff"] and "cursor_check_changes" in reply.data["next_steps"]


async def test_a_running_agent_that_has_not_pushed_names_the_run_to_wait_for(remote: Remote) -> None:
    """Issue 30 acceptance, F-53: an error naming the run to wait for."""
    world = demo_world(remote)
    async with open_harness(world, git_places=remote.places()) as h:
        agent_id = agent_called(world, "Fix the flaky login test")
        run_id = world.agent(agent_id).runs[-1].id
        reply = await h.call("cursor_get_changes", {"agent_id": agent_id})
    assert reply.code == "AGENT_BUSY" and reply.data["run_id"] == run_id
    assert f"run {run_id}" in reply.data["message"] and "cursor_wait" in reply.data["message"]


async def test_the_pages_concatenate_to_exactly_git_diff_each_under_the_cap(remote: Remote) -> None:
    """D-50, SL-51: at the smallest cap (4,000 bytes) a 9 KB diff comes in pages; joined, they are `git diff`."""
    world = changes_world(remote)
    agent = agent_named(world, "many-files")
    async with open_harness(world, git_places=remote.places(), max_result_bytes=4000) as h:
        pages = [await h.call("cursor_get_changes", {"agent_id": agent.id})]
        while (offset := pages[-1].data.get("next_offset")) is not None and len(pages) < 20:
            pages.append(await h.call("cursor_get_changes", {"agent_id": agent.id, "offset": offset}))
    assert len(pages) >= 3 and all(not page.is_error and page.size <= 4000 for page in pages)
    assert pages[0].data.get("files_omitted", 0) > 0 and all("files" not in page.data for page in pages[1:])
    first = pages[0].data
    expected = git(remote.root, "--git-dir", str(remote.folder / "github.com/your-org/your-repo.git"), "diff",
                   f"{first['base']}...{first['head']}", env=remote.env)  # fmt: skip
    assert "".join(page.data["diff"] for page in pages) == expected


async def test_a_diff_of_several_megabytes_never_answers_over_the_cap(remote: Remote) -> None:
    """SL-51: the first page, one from the middle and the last: each under 38,000 bytes, the offsets going on.

    Over 1 s (1 s idle, up to 4 s on a loaded machine): the 3.6 MB diff is cleaned and masked once, on the first page.
    """
    world = changes_world(remote)
    agent_id = agent_named(world, "large").id
    async with open_harness(world, git_places=remote.places()) as h:
        first = await h.call("cursor_get_changes", {"agent_id": agent_id})
        total = first.data["diff_chars"]
        middle = await h.call("cursor_get_changes", {"agent_id": agent_id, "offset": total // 2})
        last = await h.call("cursor_get_changes", {"agent_id": agent_id, "offset": total - 100})
    assert total > 3_000_000
    assert all(reply.size <= 38_000 and not reply.is_error for reply in (first, middle, last))
    assert first.data["next_offset"] > 30_000 and middle.data["next_offset"] > total // 2
    assert "next_offset" not in last.data


async def test_hidden_characters_of_the_diff_are_removed_and_counted_in_the_answer(remote: Remote) -> None:
    """P-52."""
    world = changes_world(remote)
    async with open_harness(world, git_places=remote.places()) as h:
        reply = await h.call("cursor_get_changes", {"agent_id": agent_named(world, "hidden-characters").id})
    assert reply.data["hidden_removed"] == 4 and "\u202e" not in reply.data["diff"]


async def test_the_path_filter_keeps_one_file_and_refuses_an_option(remote: Remote) -> None:
    world = changes_world(remote)
    agent_id = agent_named(world, "small").id
    async with open_harness(world, git_places=remote.places()) as h:
        reply = await h.call("cursor_get_changes", {"agent_id": agent_id, "path": "src/app.py"})
        refused = await h.call("cursor_get_changes", {"agent_id": agent_id, "path": "--output=/tmp/x"})
    assert "a/src/app.py" in reply.data["diff"] and "README" not in reply.data["diff"]
    assert refused.code == "VALIDATION"


async def test_the_check_tool_is_listed_and_says_honestly_that_no_command_is_configured(remote: Remote) -> None:
    world = changes_world(remote)
    async with open_harness(world, git_places=remote.places()) as h:
        listed = {tool.name: tool for tool in (await h.mcp.list_tools()).tools}
        reply = await h.call("cursor_check_changes", {"agent_id": agent_named(world, "small").id})
    annotations = listed["cursor_check_changes"].annotations
    assert annotations is not None and annotations.read_only_hint is False and annotations.destructive_hint is False
    assert reply.code == "CONFIGURATION" and "CURSOR_MCP_CHECK_COMMAND" in reply.data["message"]


async def test_the_configured_check_runs_on_the_agents_branch(remote: Remote, tmp_path: Path) -> None:
    """R-55 through the tool: the seed project's tests pass on the small change and fail on the failing one."""
    world = changes_world(remote)
    command = f"{sys.executable} -m unittest discover -s tests"
    async with open_harness(world, git_places=remote.places(cache=tmp_path.name), check_command=command) as h:
        passing = await h.call("cursor_check_changes", {"agent_id": agent_named(world, "small").id})
        failing = await h.call("cursor_check_changes", {"agent_id": agent_named(world, "failing").id})
    assert passing.data["passed"] is True and passing.data["exit_code"] == 0 and "OK" in passing.data["last_lines"]
    assert failing.data["passed"] is False and failing.data["exit_code"] == 1
    assert "cursor-cloud-agents apply" in passing.data["next_steps"]


async def test_without_git_places_the_tools_say_git_is_missing(remote: Remote) -> None:
    world = changes_world(remote)
    async with open_harness(world) as h:
        reply = await h.call("cursor_get_changes", {"agent_id": agent_named(world, "small").id})
    assert reply.code == "CONFIGURATION" and "install git" in reply.data["message"]


async def test_get_run_and_wait_point_to_the_change_once_a_run_finished_with_a_branch(remote: Remote) -> None:
    """The next steps: cursor_get_run's `next` and cursor_wait's `changes` name cursor_get_changes and the check."""
    world = changes_world(remote)
    agent = agent_named(world, "small")
    async with open_harness(world, git_places=remote.places()) as h:
        run = await h.call("cursor_get_run", {"agent_id": agent.id, "run_id": agent.runs[-1].id})
        waited = await h.call("cursor_wait", {"runs": [{"agent_id": agent.id}]})
    assert "cursor_get_changes(agent_id, run_id)" in run.data["next"]
    assert "cursor_check_changes(agent_id, run_id)" in waited.data["changes"]


def as_client(name: str) -> dict[str, Any]:
    """The MCP client's options naming it as `name` in `initialize`'s clientInfo."""
    return {"client_info": Implementation(name=name, version="1")}


async def test_codex_gets_diff_pages_its_model_reads_whole_and_others_the_full_cap_k_67(remote: Remote) -> None:
    """K-67: Codex (clientInfo `codex-mcp-client`) kept about 12 KB of a 38 KB answer: its pages of the large diff
    are at most 10,000 bytes; Claude Code's are up to the 38,000-byte cap.

    Over 1 s (about 3 s): each server cleans and masks the 3.6 MB diff once, the only diff over the cap."""
    world = changes_world(remote)
    agent_id = agent_named(world, "large").id
    sizes: dict[str, int] = {}
    for client in ("codex-mcp-client", "claude-code"):
        async with open_harness(world, git_places=remote.places(), client_options=as_client(client)) as h:
            reply = await h.call("cursor_get_changes", {"agent_id": agent_id, "offset": 5000})
        assert not reply.is_error, reply.data
        sizes[client] = reply.size
    assert 8_000 < sizes["codex-mcp-client"] <= 10_000 < 30_000 < sizes["claude-code"] <= 38_000


async def test_a_model_asks_for_smaller_pages_with_max_bytes_and_they_join_to_the_whole_diff_k_67(
    remote: Remote,
) -> None:
    """K-67: max_bytes bounds each page's answer; the pages join to exactly `git diff`; a page larger than the
    server's cap is brought down to it; one under 4,000 bytes is refused naming the parameter.

    Over 1 s (about 2.5 s): the page over the cap needs the 3.6 MB diff, cleaned and masked once."""
    world = changes_world(remote)
    agent = agent_named(world, "many-files")
    async with open_harness(world, git_places=remote.places()) as h:
        asked = {"agent_id": agent.id, "max_bytes": 4500}
        pages = [await h.call("cursor_get_changes", asked)]
        while (offset := pages[-1].data.get("next_offset")) is not None and len(pages) < 20:
            pages.append(await h.call("cursor_get_changes", asked | {"offset": offset}))
        huge = await h.call("cursor_get_changes", {"agent_id": agent_named(world, "large").id, "max_bytes": 10**6})
        tiny = await h.call("cursor_get_changes", {"agent_id": agent.id, "max_bytes": 100})
    assert len(pages) >= 2 and all(not page.is_error and page.size <= 4500 for page in pages)
    first = pages[0].data
    expected = git(remote.root, "--git-dir", str(remote.folder / "github.com/your-org/your-repo.git"), "diff",
                   f"{first['base']}...{first['head']}", env=remote.env)  # fmt: skip
    assert "".join(page.data["diff"] for page in pages) == expected
    assert 30_000 < huge.size <= 38_000
    assert tiny.code == "VALIDATION" and "max_bytes" in tiny.data["message"]


async def test_a_run_result_and_an_artifact_come_in_slices_codex_reads_whole_k_68() -> None:
    """K-68: the other long texts (a run's result, an artifact) fit Codex's page too, resumable by offset."""
    world = World(ManualClock())
    long_text = "".join(f"Line {n}: what the agent did, at length.\n" for n in range(2000))
    notes = ArtifactSpec.of_file("artifacts/notes.txt", long_text.encode())
    agent = world.add_agent(script=RunScript(result=long_text, artifacts=(notes,)), created_ago=3600)
    async with open_harness(world, client_options=as_client("codex-mcp-client")) as h:
        result = await h.call("cursor_get_run", {"agent_id": agent.id, "run_id": agent.runs[-1].id})
        artifact = await h.call("cursor_read_artifact", {"agent_id": agent.id, "path": "artifacts/notes.txt"})
    assert not result.is_error and result.size <= 10_000 and result.data["result_next_offset"] > 5_000
    assert not artifact.is_error and artifact.size <= 10_000 and artifact.data["next_offset"] > 5_000


def test_the_client_name_comes_from_initialize_or_from_a_requests_meta_k_69() -> None:
    """K-69: 2025 clients name themselves at `initialize`, 2026-07-28 ones in each request's `_meta`."""
    info = Implementation(name="codex-mcp-client", version="0.171.0")
    meta = {"io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2.1.332"}}
    assert client_name(info, None) == "codex-mcp-client"
    assert client_name(None, meta) == "claude-code"
    assert client_name(None, {"io.modelcontextprotocol/clientInfo": "x"}) is None and client_name(None, None) is None


@pytest.mark.parametrize(
    "path", ["../../etc/passwd", "/etc/passwd", "src/../../x", "a\x1bb", "a\u202eb", "a\ud800b", ":(top)x", "-x"]
)
async def test_a_path_outside_the_repository_or_with_hidden_characters_is_validation_before_any_request_h_10(
    remote: Remote, path: str
) -> None:
    """H-10: such a path answered INTERNAL (git's failure); now VALIDATION, naming the rule, and nothing sent."""
    world = demo_world(remote)
    async with open_harness(world, git_places=remote.places()) as h:
        agent_id = agent_called(world, "Run the nightly benchmark")
        reply = await h.call("cursor_get_changes", {"agent_id": agent_id, "path": path})
        sent = h.requests()
    said = reply.data["message"]
    assert reply.code == "VALIDATION" and ("a path inside the repository" in said or "lone surrogate" in said), said
    assert sent == []


async def test_the_commit_a_model_was_shown_is_the_one_apply_will_land_h_17(remote: Remote, tmp_path: Path) -> None:
    """H-17: `cursor_get_changes` remembers the head it showed, per agent, in the state folder; the terminal's
    `apply` lands that commit and refuses any other (core/review/reviewed.py)."""
    world = demo_world(remote)
    agent_id = agent_called(world, "Run the nightly benchmark")
    async with open_harness(world, git_places=remote.places(), state_dir=tmp_path) as h:
        reply = await h.call("cursor_get_changes", {"agent_id": agent_id})
    assert not reply.is_error and reviewed.recall(tmp_path, agent_id) == reply.data["head"]
