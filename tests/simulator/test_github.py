"""The simulator plays GitHub (docs/pr-loop.md §8): a simulated agent's PR, its checks failing on the first head
and passing once a follow-up pushed, a trusted and an untrusted comment, then the merge; read with the product's
own GitHub reader, over loopback."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.github import GitHubReader, PullRef
from cursor_cloud_agents.simulator import ManualClock, RunningSimulator, World, build_scenario
from cursor_cloud_agents.simulator.github import CHECK_SECONDS, COMMENT_SECONDS, MERGE_SECONDS

pytestmark = pytest.mark.anyio


async def test_a_simulated_pr_fails_then_passes_after_a_fix_and_merges(
    world: World, clock: ManualClock, sim: RunningSimulator
) -> None:
    agent = world.add_agent("Add a README", created_ago=35, auto_create_pr=True)  # its run ended 3 s ago
    ref = PullRef("your-org", "your-repo", agent.pr_number)
    github = GitHubReader(f"{sim.base_url}/github", Secret("any"), now=clock.now)
    try:
        first = await github.pull(ref)
        assert first.state == "open" and not first.merged and first.author.bot
        assert [check.state for check in await github.checks(ref, first.head_sha)] == ["pending"]
        clock.advance(CHECK_SECONDS + COMMENT_SECONDS)
        failed = await github.checks(ref, first.head_sha)
        assert [(check.name, check.state) for check in failed] == [("test", "failure")] and "AssertionError" in failed[
            0
        ].output
        logins = [comment.author.login for comment in await github.comments(ref)]
        assert logins == ["maintainer", "drive-by"]
        assert await github.can_write(ref, "maintainer") and not await github.can_write(ref, "drive-by")
        fix = world.follow_up(agent.id, {"prompt": {"text": "fix the test"}})
        clock.advance(fix.ended_at - clock.now() + 1)
        second = await github.pull(ref)
        assert second.head_sha != first.head_sha and [c.state for c in await github.checks(ref, second.head_sha)] == [
            "pending"
        ]
        clock.advance(CHECK_SECONDS)
        assert [c.state for c in await github.checks(ref, second.head_sha)] == ["success"]
        assert not (await github.pull(ref)).merged
        clock.advance(MERGE_SECONDS)
        merged = await github.pull(ref)
        assert merged.merged and merged.state == "closed"
    finally:
        await github.aclose()


def test_the_demo_scenarios_readme_agent_has_the_pr_make_demo_babysits() -> None:
    """`make demo` names `your-org/your-repo#530`: the demo scenario's seeded PR number."""
    world = build_scenario("demo", ManualClock())
    readme = next(agent for agent in world.agents.values() if agent.name.startswith("Add a README"))
    assert readme.auto_create_pr and readme.pr_number == 530
