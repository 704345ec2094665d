"""Named worlds: `demo`, `fleet`, `long-run`, `huge`, `failing`, `images` (and `empty`), plus replay seeding.

`build(name, clock)` returns a fresh, seeded world; the same name and seed give the same ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .clock import WorldClock
from .images import jpeg, png
from .records import AgentRecord, RunRecord
from .script import ArtifactSpec, BackgroundTaskScript, RunScript, ScriptedToolCall
from .world import World

# Short phases so the demo moves visibly in real time.
DEMO_SCRIPT = RunScript(creating_seconds=2.0, running_seconds=20.0)
_HOUR = 3600.0


def seed_replay_run(
    world: World, size_bytes: int, *, name: str = "Replay of a long session"
) -> tuple[AgentRecord, RunRecord]:
    """Add an IDLE agent whose single FINISHED run has a replay of at least `size_bytes` bytes."""
    script = RunScript(running_seconds=max(60.0, size_bytes / 4000), replay_bytes=size_bytes)
    agent = world.add_agent(name, script=script, created_ago=script.running_seconds + _HOUR, name=name)
    return agent, agent.runs[-1]


def _demo(world: World) -> None:
    world.default_script = DEMO_SCRIPT
    world.add_agent("Add a README with setup instructions", created_ago=2 * _HOUR, auto_create_pr=True)
    world.add_agent("Fix the flaky login test", script=replace(DEMO_SCRIPT, running_seconds=600), created_ago=30)
    world.add_agent("Migrate the CI to the new runner", script=RunScript(outcome="ERROR"), created_ago=_HOUR)
    screenshot = ArtifactSpec.of_file("artifacts/screenshot.png", png(64, 64))
    artifacts = (screenshot, ArtifactSpec("artifacts/trace.zip", 4096, False))
    world.add_agent("Take screenshots of the settings page", script=RunScript(artifacts=artifacts), created_ago=_HOUR)
    world.add_agent("Old experiment", created_ago=30 * 86400, archived=True)
    background = RunScript(background=BackgroundTaskScript(), running_seconds=1800)
    world.add_agent("Run the nightly benchmark", script=background, created_ago=3 * _HOUR)


_FLEET_KINDS: list[tuple[str, RunScript]] = [
    ("idle", RunScript(interaction_updates=False)),
    ("running", RunScript(running_seconds=4 * _HOUR, interaction_updates=False)),
    ("error", RunScript(outcome="ERROR", interaction_updates=False)),
    ("cancelled", RunScript(outcome="CANCELLED", interaction_updates=False)),
    ("expired", RunScript(outcome="EXPIRED", interaction_updates=False)),
]


def _fleet(world: World) -> None:
    for index in range(500):
        kind, script = _FLEET_KINDS[0] if index % 10 < 6 else _FLEET_KINDS[1 + index % 4]
        created_ago = (500 - index) * 120.0 + (0 if kind == "running" else 300.0)
        if kind == "running":
            created_ago = 60.0 + index
        world.add_agent(f"Fleet task {index:03d} ({kind})", script=script, created_ago=created_ago)
        if index % 25 == 0:
            world.archive(next(reversed(world.agents)))


def _long_run(world: World) -> None:
    script = RunScript(running_seconds=7 * _HOUR, replay_bytes=839_000, background=BackgroundTaskScript(polls=20))
    world.add_agent("Seven-hour data migration", script=script, created_ago=7 * _HOUR + 600)


def _huge(world: World) -> None:
    text = "".join(f"Paragraph {n}: the agent explains what it changed and why, at length.\n" for n in range(3000))
    result = text[:200_000]
    big_output = ScriptedToolCall(
        "run_terminal_cmd", {"command": "python3 -c \"print('A' * 8000000)\""}, truncated_result=True
    )
    script = RunScript(result=result, replay_bytes=2 * 1024 * 1024, tool_calls=(big_output,), running_seconds=900)
    world.add_agent("Write an exhaustive audit report", script=script, created_ago=2 * _HOUR)


def _failing(world: World) -> None:
    world.add_agent("Upgrade every dependency", script=RunScript(outcome="ERROR"), created_ago=_HOUR)
    background = RunScript(background=BackgroundTaskScript(polls=1), summary="Started the job; it keeps running.")
    world.add_agent("Start the long export job", script=background, created_ago=_HOUR)


def _images(world: World) -> None:
    # A small PNG and JPEG a client can be shown inline, and a PNG over the default inline limit (1,000,000 bytes).
    artifacts = (
        ArtifactSpec.of_file("artifacts/settings-page.png", png(64, 48)),
        ArtifactSpec.of_file("artifacts/avatar.jpg", jpeg()),
        ArtifactSpec.of_file("artifacts/full-page.png", png(640, 640)),
    )
    world.add_agent("Screenshot the settings page", script=RunScript(artifacts=artifacts), created_ago=_HOUR)


BUILDERS: dict[str, Callable[[World], None]] = {
    "empty": lambda _world: None,
    "demo": _demo,
    "fleet": _fleet,
    "long-run": _long_run,
    "huge": _huge,
    "failing": _failing,
    "images": _images,
}
NAMES = tuple(BUILDERS)


def build(name: str, clock: WorldClock, *, seed: int = 0) -> World:
    """A new world seeded with the named scenario. Raises ValueError for an unknown name."""
    if name not in BUILDERS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(NAMES)}")
    world = World(clock, seed=seed)
    BUILDERS[name](world)
    return world
