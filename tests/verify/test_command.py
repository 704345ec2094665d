"""`verify` (issue 15) against the in-process simulator: all OK, switched quirks DIFFERS, exit statuses, --spend."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.api import CursorClient, Model, ModelVariant, VariantParam
from cursor_cloud_agents.api.record import Observer
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    Fault,
    ManualClock,
    Quirks,
    RunningSimulator,
    build_scenario,
    serve,
)
from cursor_cloud_agents.verify.command import Io, OpenClient, Options, run_verify
from cursor_cloud_agents.verify.facts import Context, repositories
from cursor_cloud_agents.verify.observed import Observed
from cursor_cloud_agents.verify.spend import cheapest

pytestmark = pytest.mark.anyio


def opener(sim: RunningSimulator, clock: ManualClock) -> OpenClient:
    """Clients of `sim` on the world's clock, as `cli.open_client` would open them."""

    def open_client(settings: Settings, observer: Observer | None) -> AbstractAsyncContextManager[CursorClient]:
        @asynccontextmanager
        async def opened() -> AsyncGenerator[CursorClient]:
            key = None if settings.api_key is None else settings.api_key.reveal()
            async with CursorClient(
                sim.base_url,
                key,
                allow_loopback_artifacts=True,
                clock=clock.now,
                wall_clock=clock.now,
                observer=observer,
                requests_per_second=1000.0,
            ) as client:
                yield client

        return opened()

    return open_client


WORLD_STEP_SECONDS = 0.05
"""How far `pump_world` moves the world's clock per 20 scheduler turns: slowly enough that the two-minute run
`--spend` makes is still busy when its follow-up is sent, however long the store's file work in a thread
lets this pump spin (at 0.5 s a step the run had ended: a flaky DIFFERS); fast enough that the first
heartbeat (30 s) comes within some 12,000 turns."""


async def pump_world(clock: ManualClock, done: anyio.Event) -> None:
    """Move the world's clock on until `done`: the lifecycle's stream waits for it to move."""
    while not done.is_set():
        for _ in range(20):
            await anyio.lowlevel.checkpoint()
        clock.advance(WORLD_STEP_SECONDS)


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

    env = {"CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_API_BASE_URL": sim.base_url, "CURSOR_MCP_STATE_DIR": "memory"}
    io = Io(write=printed.append, ask=lambda _: "yes", now=clock.now, sleep=advance, wall=clock.now)
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
        answers: list[tuple[int, str]] = []
        async with anyio.create_task_group() as group:
            group.start_soon(pump_world, clock, done)
            answers.append(await verify(sim, clock, Options(spend=True, record=tmp_path)))
            done.set()
    code, printed = answers[0]
    for step in ("POST /v1/agents", "follow-up while busy", "live stream heartbeat", "cancel", "archive", "delete"):
        assert f"OK      {step}" in printed, printed
    assert code == 0, printed
    assert list(tmp_path.glob("trace-*.jsonl"))


def test_cheapest_never_picks_a_model_without_variants_over_a_listed_variant() -> None:
    """Review: a model listing no variants scored 0 and beat every parameterised variant; it is unknown, not free."""
    costly = VariantParam(id="effort", value="xhigh")
    listed = [Model(id="no-variants"), Model(id="ranked", variants=[ModelVariant(params=[costly])])]
    selection = cheapest(listed)
    assert selection is not None and selection.id == "ranked"


def test_cheapest_is_none_when_no_model_lists_variants() -> None:
    """Review: with the id-only `/v1/models` the first model won; nothing can be ranked, so nothing is chosen."""
    assert cheapest([Model(id="first"), Model(id="second", variants=[])]) is None


async def test_spend_is_skipped_without_creating_when_no_model_lists_variants() -> None:
    """Review: an id-only model list means the cheapest is unknown: --spend says so and creates nothing."""
    async with simulator() as (sim, clock):
        sim.faults.inject("GET", "/v1/models", Fault.raw(200, '{"items":["first","second"]}'), times=None)
        _, printed = await verify(sim, clock, Options(spend=True))
        posted = sim.faults.count("POST", "/v1/agents")
    assert "SKIPPED --spend: no model lists its variants" in printed, printed
    assert posted == 0 and "Cursor bills it" not in printed


async def test_spend_deletes_the_agent_when_creations_answer_is_lost() -> None:
    """Review: create ran before the try/finally, so a lost answer left a billed agent behind; the id is minted
    first and the delete always runs."""
    async with simulator() as (sim, clock):
        before = set(sim.world.agents)
        sim.faults.inject("POST", "/v1/agents", Fault.cut_after_request())
        _, printed = await verify(sim, clock, Options(spend=True))
        left = set(sim.world.agents) - before
        deletes = sim.faults.count("DELETE", "/v1/agents/*")
    assert "DIFFERS --spend: expected the lifecycle to complete; got POST /v1/agents: outcome unknown" in printed
    assert "OK      delete" in printed, printed
    assert left == set() and deletes == 1


async def test_learnt_identities_mask_only_themselves_never_a_url_sharing_their_prefix() -> None:
    """Review: repository URLs were added as permanent secrets, whose 12-character runs masked the shared
    `https://github.com/` prefix of any other URL (`***other/thing`)."""
    async with simulator() as (sim, clock), opener(sim, clock)(settings_of(sim), None) as api:
        ctx = Context(
            api, Observed(), lambda: opener(sim, clock)(settings_of(sim), None), Redactor(), clock.now, anyio.sleep
        )
        await repositories(ctx)
    assert ctx.identities.mask("https://github.com/acme/web") == "***"
    assert ctx.identities.mask("see https://github.com/other/thing") == "see https://github.com/other/thing"


def settings_of(sim: RunningSimulator) -> Settings:
    return Settings.from_env({"CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_API_BASE_URL": sim.base_url})
