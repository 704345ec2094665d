"""The follow-up answer: the new run, the run it replaced, and the model it chose."""

from __future__ import annotations

from cursor_cloud_agents.api import ModelSelection, Run
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.server.pipeline.hints import FOLLOW_THE_RUN
from cursor_cloud_agents.server.views.choices import ModelChoice
from cursor_cloud_agents.server.views.view import View

QUEUED_NEXT = (
    "Queued: sent by this server (or the next of our processes started) right after the run ends; "
    "cursor_wait on after_run_id to be told; cursor_supervise lists or drops it."
)
MODEL_NOTE = "The model applies to this run and to the agent's later runs."


class FollowUpView(View):
    """The answer of `cursor_create_run`; `replaced_*` only when `replace_active` cancelled a run."""

    agent_id: str
    run_id: str | None
    run_status: str | None
    queued: bool | None = None
    """True when the agent was busy and the follow-up waits in the queue: sent once its run ends."""
    queue_id: str | None = None
    after_run_id: str | None = None
    expires_at: str | None = None
    replaced_run_id: str | None
    replaced_run_status: str | None
    model: ModelChoice | None
    model_note: str | None
    resumed: bool | None
    """True when this is the run an earlier identical follow-up made, whose answer was lost."""
    next: str = FOLLOW_THE_RUN

    @classmethod
    def queued_for(cls, agent_id: str, queue_id: str, after_run_id: str, expires_at: float) -> FollowUpView:
        """The answer when the follow-up was queued: nothing sent yet."""
        return cls(
            agent_id=agent_id,
            run_id=None,
            run_status=None,
            queued=True,
            queue_id=queue_id,
            after_run_id=after_run_id,
            expires_at=iso(expires_at),
            replaced_run_id=None,
            replaced_run_status=None,
            model=None,
            model_note=None,
            resumed=None,
            next=QUEUED_NEXT,
        )

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
