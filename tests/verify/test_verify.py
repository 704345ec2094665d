"""`verify` (issue 15) against the in-process simulator: all OK, switched quirks DIFFERS, exit statuses, --spend."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.api.record import Observer
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    ManualClock,
    Quirks,
    RunningSimulator,
    build_scenario,
    serve,
)
from cursor_cloud_agents.verify.command import Io, OpenClient, Options, run_verify

pytestmark = pytest.mark.anyio


def opener(sim: RunningSimulator, clock: ManualClock) -> OpenClient:
    """Clients of `sim` on the world's clock, as `cli.open_client` would open them."""

    def open_client(settings: Settings, observer: Observer | None) -> AbstractAsyncContextManager[CursorClient]:
        @asynccontextmanager
        async def opened() -> AsyncGenerator[CursorClient]:
            key = None if settings.api_key is None else settings.api_key.reveal()
            async with CursorClient(
                sim.base_url, key, allow_loopback_artifacts=True, clock=clock.now, wall_clock=clock.now,
                observer=observer, requests_per_second=1000.0,
            ) as client:  # fmt: skip
                yield client

        return opened()

    return open_client


@asynccontextmanager
async def simulator(quirks: Quirks | None = None) -> AsyncGenerator[tuple[RunningSimulator, ManualClock]]:
    clock = ManualClock()
    world = build_scenario("demo", clock)
    if quirks is not None:
        world.quirks = quirks
    with anyio.fail_after(20):
        async with serve(world) as sim:
            yield sim, clock


async def verify(sim: RunningSimulator, clock: ManualClock, options: Options | None = None) -> tuple[int, str]:
    printed: list[str] = []

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    env = {"CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_API_BASE_URL": sim.base_url}
    io = Io(write=printed.append, ask=lambda _: "yes", now=clock.now, sleep=advance)
    code = await run_verify(env, options or Options(), opener(sim, clock), io)
    return code, "".join(printed)


async def test_verify_against_the_simulator_reports_every_fact_ok_and_exits_0() -> None:
    """Issue 15: the check is itself tested against the simulator; nothing DIFFERS there."""
    async with simulator() as (sim, clock):
        code, printed = await verify(sim, clock)
    assert code == 0, printed
    assert "\nDIFFERS " not in printed and printed.count("\nOK ") >= 12
    assert "stream replay framing" in printed and "401 with a wrong key" in printed


async def test_three_switched_quirks_are_each_reported_as_differs_and_exit_1() -> None:
    """Issue 15: with quirks 2 and 3 and the usage early access switched, verify names each difference."""
    quirks = Quirks(running_updated_at_frozen=False, error_runs_without_cause=False, usage_endpoint_available=False)
    async with simulator(quirks) as (sim, clock):
        code, printed = await verify(sim, clock)
    differing = [line for line in printed.splitlines() if line.startswith("DIFFERS")]
    assert code == 1
    assert [line.split(":")[0] for line in differing] == [
        "DIFFERS RUNNING run updatedAt frozen",
        "DIFFERS ERROR run without cause",
        "DIFFERS GET .../usage",
    ]


async def test_verify_without_a_key_could_not_run_and_exits_2() -> None:
    """Issue 15: exit status 2 when the check cannot run; the message names the variable."""
    printed: list[str] = []
    io = Io(write=printed.append, ask=lambda _: "")

    def never(settings: Settings, observer: Observer | None) -> AbstractAsyncContextManager[CursorClient]:
        raise AssertionError("no client is opened without a key")

    assert await run_verify({}, Options(), never, io) == 2
    assert "CURSOR_API_KEY" in "".join(printed)


async def test_verify_masks_the_account_identities_unless_asked() -> None:
    """Issue 15: the report is safe to paste: e-mail, names and repository URLs masked by default."""
    async with simulator() as (sim, clock):
        _, masked = await verify(sim, clock)
        _, shown = await verify(sim, clock, Options(show_identities=True))
    assert "developer@example.com" not in masked and "your-org/your-repo" not in masked
    assert SIMULATED_API_KEY not in masked + shown


async def test_spend_walks_create_busy_heartbeat_cancel_archive_and_delete(tmp_path: Path) -> None:
    """Issue 15 --spend: every step of the paid lifecycle is OK against the simulator, and recorded."""
    async with simulator() as (sim, clock):
        done = anyio.Event()

        async def pump() -> None:
            while not done.is_set():
                for _ in range(20):
                    await anyio.lowlevel.checkpoint()
                clock.advance(0.5)

        answers: list[tuple[int, str]] = []
        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            answers.append(await verify(sim, clock, Options(spend=True, record=tmp_path)))
            done.set()
    code, printed = answers[0]
    for step in ("POST /v1/agents", "follow-up while busy", "live stream heartbeat", "cancel", "archive", "delete"):
        assert f"OK      {step}" in printed, printed
    assert code == 0, printed
    assert list(tmp_path.glob("trace-*.jsonl"))
