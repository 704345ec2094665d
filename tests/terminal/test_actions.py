"""`run`, `followup`, `cancel`, `archive`, `usage`, `artifacts`, `agents`: confirmation, limits, JSON, exit codes."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.simulator import ArtifactSpec, Fault, Faults, ManualClock, RunScript, World, build_scenario
from cursor_cloud_agents.terminal import actions, paid
from cursor_cloud_agents.terminal.agents import agents
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, REFUSED, USAGE
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

REPO = "https://github.com/your-org/your-repo"
UNKNOWN_AGENT = "bc-00000000-0000-4000-8000-000000000000"


def order(*, confirmed: bool, prompt: str = "Fix the flaky login test", **changes: Any) -> paid.Order:
    fields: dict[str, Any] = {"repo": REPO, "ref": None, "model": None, "images": ()} | changes
    return paid.Order(prompt, fields["repo"], fields["ref"], fields["model"], fields["images"], confirmed)


def idle_agent(world: World) -> str:
    script = RunScript(artifacts=(ArtifactSpec("artifacts/report.md", 64),))
    return world.add_agent("Earlier work", script=script, created_ago=3600.0).id


async def test_run_without_yes_and_without_a_terminal_refuses_and_sends_nothing(rig_factory: RigFactory) -> None:
    """Issue 14: no TTY and no `--yes` refuses with exit 2; not one request reaches the API."""
    async with rig_factory(interactive=False) as rig:
        code = await execute(rig.term, partial(paid.run, order=order(confirmed=False), then=None))
        assert rig.requests() == []
    assert code == USAGE and "--yes" in rig.errors() and "no agent was created" in rig.errors()


async def test_run_asks_on_a_terminal_and_a_no_sends_nothing_paid(rig_factory: RigFactory) -> None:
    """Issue 14: the person sees what will be paid for (prompt, repos, model, the limit's use) and says no; the
    question and its limits line are the core's (N-01), the terminal only answers."""
    async with rig_factory(interactive=True, answers=["n"]) as rig:
        code = await execute(rig.term, partial(paid.run, order=order(confirmed=False), then=None))
        posts = rig.requests("POST")
    assert code == USAGE and posts == []
    shown = " ".join(rig.errors().split())  # the question wraps at the console's width
    assert "Start a paid Cursor Cloud Agent?" in shown and "Fix the flaky login test" in shown and REPO in shown
    assert "Model: your default" in shown and "0 of 25 new agents in 24 h" in shown
    assert rig.asked == ["Go ahead? [y/N] "]


async def test_run_confirmed_creates_once_with_a_minted_id_and_waits_for_the_end(rig_factory: RigFactory) -> None:
    """Issue 14: `--yes --wait` sends one creation with a client-minted id, then follows it to its result."""
    async with rig_factory(interactive=True, answers=["y"]) as rig:
        code = await rig.drive(paid.run(rig.term, order=order(confirmed=False), then="wait"), step=10.0)
        posts = rig.requests("POST")
    assert code == OK and len(posts) == 1
    assert posts[0].json()["agentId"].startswith("bc-") and posts[0].json()["repos"][0]["url"] == REPO
    assert "started bc-" in rig.text() and "FINISHED" in rig.text()


async def test_run_asked_again_after_a_lost_answer_says_it_found_the_earlier_agent_and_started_none(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """Regression: when the creation journal hands back the agent an identical earlier `run` made (its answer
    was lost), `run` says it found that agent again; it never claims that a new agent started."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request(), times=1)
    async with rig_factory(faults=faults, state_dir=tmp_path) as rig:
        lost = await execute(rig.term, partial(paid.run, order=order(confirmed=True), then=None))
        again = await execute(rig.term, partial(paid.run, order=order(confirmed=True), then=None))
        made = list(rig.world.agents)
    assert lost == REFUSED and again == OK and len(made) == 1, rig.errors()
    assert f"found again {made[0]}" in rig.text() and "started" not in rig.text()


async def test_run_honours_the_creation_limit_before_sending(rig_factory: RigFactory) -> None:
    """Issue 14: every limit of the server holds: at CURSOR_MCP_MAX_NEW_AGENTS nothing is created (exit 2)."""
    async with rig_factory(max_new_agents=0) as rig:
        code = await execute(rig.term, partial(paid.run, order=order(confirmed=True), then=None))
        posts = rig.requests("POST")
    assert code == USAGE and posts == [] and "CURSOR_MCP_MAX_NEW_AGENTS=0" in rig.errors()


@pytest.mark.parametrize(
    ("limit", "code", "named"),
    [
        ({"max_active_agents": 1}, REFUSED, "CURSOR_MCP_MAX_ACTIVE_AGENTS=1"),
        ({"max_spend_cents": 0}, USAGE, "CURSOR_MCP_MAX_SPEND_CENTS=0"),
    ],
)
async def test_run_honours_the_running_agents_and_spend_limits_before_sending(
    rig_factory: RigFactory, limit: dict[str, float], code: int, named: str
) -> None:
    """Issue 14: the server's own limits (issue 12) hold for the person too: CAPACITY exits 1, the spend
    limit exits 2 (the person's setting), and no second agent is created."""
    async with rig_factory(**limit) as rig:
        first = await execute(rig.term, partial(paid.run, order=order(confirmed=True), then=None))
        second = await execute(rig.term, partial(paid.run, order=order(confirmed=True), then=None))
        posts = [record for record in rig.requests("POST") if record.path == "/v1/agents"]
    assert (first, second) == ((OK, code) if "ACTIVE" in named else (code, code))
    assert named in rig.errors()
    assert len(posts) == (1 if "ACTIVE" in named else 0)


async def test_an_invalid_repository_is_refused_before_any_request(rig_factory: RigFactory) -> None:
    """Validate before any paid request: the server's repository check names what to change."""
    async with rig_factory() as rig:
        code = await execute(
            rig.term, partial(paid.run, order=order(confirmed=True, repo="ftp://github.com/o/r"), then=None)
        )
        assert rig.requests() == []
    assert code == USAGE and "https URL" in rig.errors()


async def test_an_unreadable_image_is_refused_before_any_request(rig_factory: RigFactory, tmp_path: Path) -> None:
    """`--image` goes through the server's image checks: a file that is not an image is refused, nothing sent."""
    text = tmp_path / "notes.png"
    text.write_text("not an image")
    async with rig_factory() as rig:
        run = partial(paid.run, order=order(confirmed=True, images=(str(text),)), then=None)
        code = await execute(rig.term, run)
        assert rig.requests() == []
    assert code == USAGE and "notes.png" in rig.errors()


async def test_a_refusal_by_the_api_exits_1_with_its_code(rig_factory: RigFactory) -> None:
    """Exit codes: 1 when the API refused (here: an unknown agent), with the failure's code on stderr."""
    async with rig_factory() as rig:
        code = await execute(rig.term, partial(actions.usage, agent_id=UNKNOWN_AGENT))
    assert code == REFUSED and "NOT_FOUND" in rig.errors()


async def test_followup_without_yes_and_without_a_terminal_refuses_and_sends_nothing(rig_factory: RigFactory) -> None:
    """Issue 14: a follow-up is paid: the same confirmation rule as `run`."""
    async with rig_factory() as rig:
        code = await execute(rig.term, partial(paid.followup, agent_id=UNKNOWN_AGENT, prompt="More", confirmed=False))
        assert rig.requests() == []
    assert code == USAGE


async def test_artifacts_get_writes_a_file_and_never_overwrites(rig_factory: RigFactory, tmp_path: Path) -> None:
    """Issue 14: `artifacts --get` downloads to a file (never to the terminal); an existing file is kept."""
    world = World(ManualClock())
    agent_id = idle_agent(world)
    target = tmp_path / "report.md"
    async with rig_factory(world) as rig:
        get = partial(actions.artifacts, agent_id=agent_id, path="artifacts/report.md", output=str(target))
        first = await execute(rig.term, get)
        second = await execute(rig.term, get)
    assert first == OK and target.stat().st_size == 64
    assert second == USAGE and "exists" in rig.errors()


def commands(agent_id: str, run_id: str) -> dict[str, Any]:
    return {
        "agents": partial(agents, limit=5, name=None, archived=False),
        "usage": partial(actions.usage, agent_id=agent_id),
        "artifacts": partial(actions.artifacts, agent_id=agent_id, path=None, output=None),
        "cancel": partial(actions.cancel, agent_id=agent_id, run_id=run_id),
        "archive": partial(actions.archive, agent_id=agent_id),
        "run": partial(paid.run, order=order(confirmed=True), then=None),
        "followup": partial(paid.followup, agent_id=agent_id, prompt="Also add tests", confirmed=True),
    }


@pytest.mark.parametrize("name", ["agents", "usage", "artifacts", "cancel", "archive", "run", "followup"])
async def test_json_output_of_every_command_is_one_parseable_document(rig_factory: RigFactory, name: str) -> None:
    """Issue 14: each command with `--json` writes one JSON document and nothing for the person."""
    world = build_scenario("demo", ManualClock())
    running = next(agent for agent in world.agents.values() if agent.name == "Fix the flaky login test")
    agent_id = running.id if name == "cancel" else idle_agent(world)
    async with rig_factory(world, json_output=True) as rig:
        code = await execute(rig.term, commands(agent_id, running.runs[-1].id)[name])
        documents = rig.documents()
    assert code == OK, rig.errors()
    assert len(documents) == 1 and isinstance(documents[0], dict) and rig.text() == ""


@pytest.mark.parametrize(
    ("typed", "heard"),
    [
        ("yes please\n", "'yes please'"),
        ("true\n", "'true'"),
        ("ok\n", "'ok'"),
        ("1\n", "'1'"),
        ("y\x1b[2J\n", "'y[2J'"),
        ("", "nothing"),
        ("no " * 20 + "\n", "'no no no no no no no no…'"),
    ],
    ids=["yes-please", "true", "ok", "one", "escape", "end-of-input", "long"],
)
async def test_only_y_or_yes_confirms_and_the_refusal_says_what_was_typed(
    rig_factory: RigFactory, typed: str, heard: str
) -> None:
    """D-27 (issue 21): the terminal's own question counts only the words it asked for; anything else sends
    nothing, and the refusal describes the answer in a few printable, clipped characters."""
    async with rig_factory(interactive=True, answers=[typed]) as rig:
        code = await execute(rig.term, partial(paid.run, order=order(confirmed=False), then=None))
        posts = rig.requests("POST")
    assert code == USAGE and posts == []
    assert f"not confirmed (the answer was {heard}; only y or yes confirms); no agent was created" in rig.errors()


@pytest.mark.parametrize("typed", ["y\n", " YES \n", "Y"])
async def test_y_or_yes_in_any_case_confirms(rig_factory: RigFactory, typed: str) -> None:
    """The other side of D-27: the words asked for, any case, spaces around them, are a yes."""
    async with rig_factory(interactive=True, answers=[typed]) as rig:
        code = await execute(rig.term, partial(paid.run, order=order(confirmed=False), then=None))
        posts = rig.requests("POST")
    assert code == OK and len(posts) == 1
