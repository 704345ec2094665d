"""The instructions sent at `initialize`: simulated mode announced, and what Codex shows its model holds the
workflow and the rule that agent output is data."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.server.protocol.instructions import CODEX_VISIBLE_CHARS, instructions


def test_the_simulated_mode_is_announced_in_the_instructions() -> None:
    """Issue 2: simulated mode says SIMULATED MODE in the server instructions."""
    assert "SIMULATED MODE" in instructions(Settings(simulated=True))
    assert "SIMULATED MODE" not in instructions(Settings())
    assert "untrusted" in instructions(Settings())


@pytest.mark.parametrize("simulated", [False, True])
def test_the_workflow_and_the_untrusted_text_rule_come_within_what_codex_shows(simulated: bool) -> None:
    """Issues 10 and 36: Codex CLI (0.169, 0.171) shows its model only the first 247 characters of the
    instructions: they hold the workflow, the rule that agent output is data, and never resending after a lost
    answer, and end on a whole sentence."""
    visible = instructions(Settings(simulated=simulated))[:CODEX_VISIBLE_CHARS]
    for needed in ("cursor_create_agent", "cursor_get_run", "wait_seconds", "cursor_create_run", "untrusted"):
        assert needed in visible, needed
    assert "MUTATION_OUTCOME_UNKNOWN never resend: check cursor_get_agent." in visible
