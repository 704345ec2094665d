"""What the paid runs of the 24-hour window count against `CURSOR_MCP_MAX_SPEND_CENTS`, reported or not yet.

Cursor reports a run's cost late (it is eventually consistent: minutes after the run ends). Counted only when
reported, a burst of creations would each find the spend at zero and all go out (three agents, about 70 cents,
passed a limit of 1 cent). So every paid run of this machine in the window counts:
- at the cost Cursor reported: an agent created in the window at its charged total, a follow-up of an agent
  created earlier at its run's own charge;
- else at its estimate, the price the preview shows (`run --models`, `cursor_create_attempts`): the average
  charged cost of this machine's agents of the window whose cost is known, or, when none is known yet,
  `UNREPORTED_RUN_CENTS`. A creation still being created (no agent id yet), an agent whose cost is not a
  charge (absent, negative, not a number) and a follow-up run not listed with a cost in its agent's usage are
  all not reported yet.
The estimate gives way to the real cost as it arrives (usage is read again each minute).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cursor_cloud_agents.api import Usage
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.spend import ledger
from cursor_cloud_agents.core.timing import CREATION_WINDOW_SECONDS

UNREPORTED_RUN_CENTS = 25.0
"""A run's estimate when no agent of the window has a known cost yet: about what one run cost in the
contract's usage example (21.8 and 23.4 cents, docs/api-contract.md §3.12), rounded up; a guess that errs on
the side of the limit, replaced by the average of real costs as soon as one is reported."""


@dataclass(frozen=True)
class PaidRuns:
    """This machine's paid acts of the window: creations (counted) and follow-ups that were sent."""

    creations: list[Act]
    follow_ups: list[Act]

    def agents(self) -> list[str]:
        """Every agent whose usage tells what these acts cost (once each, in order)."""
        ids = [act.agent_id for act in [*self.creations, *self.follow_ups] if act.agent_id is not None]
        return list(dict.fromkeys(ids))


def paid_runs(reading: Reading, now: float) -> PaidRuns:
    """The creations counted in the window and the follow-ups sent in it (not those that failed)."""
    follow_ups = [
        act
        for act in reading.of("followup")
        if act.state in ("sent", "done") and now - act.at < CREATION_WINDOW_SECONDS and act.agent_id is not None
    ]
    return PaidRuns(ledger.counted(reading, now), follow_ups)


def charged(cost_cents: float | None) -> float | None:
    """A charge, or None when it is not one (absent, not finite, negative: a credit would lower the total)."""
    return cost_cents if cost_cents is not None and math.isfinite(cost_cents) and cost_cents >= 0 else None


@dataclass(frozen=True)
class Spend:
    """What the window's paid runs were charged, and what is counted for those not reported yet."""

    cents: float
    """Charged, as Cursor reported it."""
    unknown: int
    """Agents created in the window whose cost is not known (not reported yet, or not a charge)."""
    unreported: int = 0
    """Paid runs counted at their estimate (a creation whose cost is not known, a follow-up run not reported)."""
    estimate_cents: float = 0.0
    """The estimate of one run: the preview's price."""

    @property
    def counted(self) -> float:
        """What the limit holds: the reported charges plus the estimate of each run not reported yet."""
        return self.cents + self.unreported * self.estimate_cents

    def with_more(self, runs: int) -> float:
        """What the limit would hold once `runs` more were sent (each at the estimate)."""
        return self.counted + runs * self.estimate_cents


def tally(paid: PaidRuns, usages: dict[str, Usage | None]) -> Spend:
    """The spend of `paid`, given each agent's usage as read now (None: not readable, counted as unknown)."""
    created = {act.agent_id for act in paid.creations if act.agent_id is not None}
    totals = {agent_id: _total(usages.get(agent_id)) for agent_id in created}
    known = [cents for cents in totals.values() if cents is not None]
    cents = sum(known)
    unknown = len(created) - len(known)
    unreported = unknown + sum(act.agent_id is None for act in paid.creations)  # still being created: no id yet
    for act in paid.follow_ups:
        run_cost = _run_cost(usages.get(act.agent_id or ""), act.run_id)
        if run_cost is None:
            unreported += 1
        elif act.agent_id not in created or totals.get(act.agent_id) is None:
            cents += run_cost  # an agent created earlier: only this run counts; an unknown total: its run does
    estimate = sum(known) / len(known) if known else UNREPORTED_RUN_CENTS
    return Spend(cents, unknown, unreported, estimate)


def _total(usage: Usage | None) -> float | None:
    return None if usage is None or usage.cost is None else charged(usage.cost.charged_cents)


def _run_cost(usage: Usage | None, run_id: str | None) -> float | None:
    """The charge of run `run_id` as its agent's usage lists it; None when it is not reported (yet)."""
    if usage is None or run_id is None:
        return None
    for run in usage.runs:
        if run.id == run_id:
            return None if run.cost is None else charged(run.cost.charged_cents)
    return None
