"""`run --max-minutes`: a run that outlives its ceiling is cancelled, said and notified; exit 124."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.terminal import paid
from cursor_cloud_agents.terminal.exits import OK, TIMED_OUT
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

REPO = "https://github.com/your-org/your-repo"


def order(minutes: float) -> paid.Order:
    return paid.Order("Fix the flaky login test", REPO, None, None, (), True, max_minutes=minutes)


async def test_run_max_minutes_cancels_a_run_that_outlives_it_g_19(rig_factory: RigFactory) -> None:
    async with rig_factory(interactive=False) as rig:
        code = await rig.drive(paid.run(rig.term, order=order(0.2), then=None), step=5.0)
        cancels = [record for record in rig.requests("POST") if record.path.endswith("/cancel")]
    assert code == TIMED_OUT and len(cancels) == 1
    assert "outlived --max-minutes 0.2 and was cancelled" in rig.errors()


async def test_a_run_that_ends_within_its_ceiling_is_left_alone_g_19(rig_factory: RigFactory) -> None:
    async with rig_factory(interactive=False) as rig:
        code = await rig.drive(paid.run(rig.term, order=order(600), then="wait"), step=10.0)
        cancels = [record for record in rig.requests("POST") if record.path.endswith("/cancel")]
    assert code == OK and cancels == []
