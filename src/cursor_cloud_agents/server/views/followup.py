"""The follow-up answer: the new run, the run it replaced, and the model it chose."""

from __future__ import annotations

from cursor_cloud_agents.api import ModelSelection, Run
from cursor_cloud_agents.server.hints import FOLLOW_THE_RUN
from cursor_cloud_agents.server.views.choices import ModelChoice
from cursor_cloud_agents.server.views.view import View

MODEL_NOTE = "The model applies to this run and to the agent's later runs."


class FollowUpView(View):
    """The answer of `cursor_create_run`; `replaced_*` only when `replace_active` cancelled a run."""

    agent_id: str
    run_id: str
    run_status: str
    replaced_run_id: str | None
    replaced_run_status: str | None
    model: ModelChoice | None
    model_note: str | None
    resumed: bool | None
    """True when this is the run an earlier identical follow-up made, whose answer was lost."""
    next: str = FOLLOW_THE_RUN

    @classmethod
    def of(
        cls, agent_id: str, run: Run, replaced: Run | None, model: ModelSelection | None, *, resumed: bool
    ) -> FollowUpView:
        return cls(
            agent_id=agent_id,
            run_id=run.id,
            run_status=run.status,
            resumed=resumed or None,
            replaced_run_id=None if replaced is None else replaced.id,
            replaced_run_status=None if replaced is None else replaced.status,
            model=ModelChoice.of(model),
            model_note=MODEL_NOTE if model is not None else None,
        )
