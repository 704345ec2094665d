"""Each face in its own words (issue 46; docs/reliability.md §2.28, K-80 to K-85): the core's failures say what
happened in neutral terms and name the next step; the MCP face, the terminal and the SDK each say that step
their own way, and none says another face's words."""

from __future__ import annotations

import re

import pytest

from cursor_cloud_agents.api import Agent
from cursor_cloud_agents.api import errors as api
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import Advice, Code, Step, ToolFailure, consent, failures, from_api_error
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.request import models as model_check
from cursor_cloud_agents.core.spend import continuation, followups, paid
from cursor_cloud_agents.core.spend.ledger import LimitReached
from cursor_cloud_agents.sdk import AsyncCursor
from cursor_cloud_agents.sdk._words import for_program
from cursor_cloud_agents.server.pipeline.words import for_model
from cursor_cloud_agents.terminal.words import for_person, key_problem

AGENT = "bc-11111111-2222-4333-8444-555555555555"
RUN = "run-11111111-2222-4333-8444-555555555555"

# What only one face may say: the MCP tools and their arguments, the terminal's commands and options, the SDK's
# methods and arguments, and where each reads the key.
MCP_WORDS = re.compile(r"\bcursor_(?!cloud_agents)[a-z_]+|replace_active|wait_seconds|MCP server|restart the client")
TERMINAL_WORDS = re.compile(r"cursor-cloud-agents (?!login`)|(?<![\w-])--[a-z]|this shell")
"""A command, a flag, the shell. `cursor-cloud-agents login` is the one command the model may name: storing the key
is the person's act at a terminal whatever face needs it (issue 44), so the model says it to the person."""
SDK_WORDS = re.compile(r"run\.wait\(\)|Agent\.[a-z]+\(|api_key=|cursor\.models\(\)|program's environment")


def _status(kind: type[api.APIStatusError], status: int) -> ToolFailure:
    return from_api_error(kind("refused", status_code=status, code="some_code", request_id="req-1"))


def _from_the_core() -> list[ToolFailure]:
    """Failures as the core's own producers make them, at least one for every code the core answers with."""
    made = [
        _status(api.BadRequestError, 400),
        _status(api.CursorExpiredError, 400),
        _status(api.AccountSetupError, 403),
        _status(api.AuthenticationError, 401),
        _status(api.PermissionDeniedError, 403),
        _status(api.NotFoundError, 404),
        _status(api.ConflictError, 409),
        _status(api.AgentBusyError, 409),
        _status(api.StreamExpiredError, 410),
        _status(api.RateLimitError, 429),
        _status(api.ConcurrencyLimitError, 429),
        _status(api.ServerError, 500),
        from_api_error(api.ConfigurationMissingError("no Cursor API key is configured; nothing was sent")),
        from_api_error(api.DeadlineTooShortError("too little time left")),
        from_api_error(api.APIConnectionError("connection refused")),
        from_api_error(api.ArtifactURLRefusedError("host not allowed")),
        from_api_error(api.IncompatibleResponseError("not JSON")),
        from_api_error(
            api.MutationOutcomeUnknownError(
                "cut", context=api.MutationContext("POST", "/v1/agents", {"agent_id": AGENT})
            )
        ),
        followups.busy(RUN, "A run of this agent is still active."),
        followups.followup_in_flight(Act("a", "followup", 0.0, "sent", agent_id=AGENT, before_run_id=RUN), 10.0),
        paid.in_flight(Act("a", "create", 0.0, "sent", agent_id=AGENT), 10.0),
        paid.in_flight(Act("a", "create", 0.0, "sent", name="nightly"), 10.0),
        paid.limit_reached(LimitReached(25, 25, 100.0)),
        failures.store_unusable("the folder is not writable"),
        consent.cannot_ask("create", "no agent was created"),
        consent.cannot_ask("followup", "no follow-up was sent"),
        ToolFailure(Code.CONFIGURATION_MISSING, "CURSOR_API_KEY is not set", advice=Advice(Step.SET_KEY)),
    ]
    for refuse in (
        lambda: model_check.find_model([], "nope"),
        lambda: continuation.refuse_continuation(
            Agent.model_validate({"id": AGENT, "name": "x", "status": "ARCHIVED", "createdAt": "2026-12-03T08:00:00Z"})
        ),
    ):
        with pytest.raises(ToolFailure) as refused:
            refuse()
        made.append(refused.value)
    return made


def _every_step() -> list[ToolFailure]:
    """One failure per next step, with every fact a step may carry, under every code: each renderer says each."""
    facts = {"agent_id": AGENT, "run_id": RUN, "name": "nightly", "until": "2026-12-04T10:00:00Z", "act": "create"}
    facts |= {"unsent": "no agent was created", "idle": AGENT}
    return [ToolFailure(code, "It happened.", advice=Advice(step, facts)) for code in Code for step in Step]


def _all() -> list[ToolFailure]:
    return _from_the_core() + _every_step()


def test_every_failure_code_reaches_each_face_in_its_own_words_k_80() -> None:
    """K-80: every code, as the core makes it (and every next step under every code), said by each face: the
    terminal says no MCP tool or argument and no SDK method, the SDK neither, and the MCP face names no command,
    option or method."""
    made = _from_the_core()
    only_the_server_makes = {
        Code.READ_ONLY,
        Code.DELETE_DISABLED,
        Code.CONFIRMATION_REQUIRED,
        Code.RESULT_TOO_LARGE,
        Code.INTERNAL,
    }  # the toolkit's gates and answers (server/pipeline): no other face ever meets them
    assert {Code(failure.code) for failure in made} >= set(Code) - only_the_server_makes
    for failure in _all():
        said_at_terminal, said_to_program, said_to_model = for_person(failure), for_program(failure), for_model(failure)
        assert not MCP_WORDS.search(said_at_terminal) and not SDK_WORDS.search(said_at_terminal), said_at_terminal
        assert not MCP_WORDS.search(said_to_program) and not TERMINAL_WORDS.search(said_to_program), said_to_program
        assert not TERMINAL_WORDS.search(said_to_model) and not SDK_WORDS.search(said_to_model), said_to_model


def test_a_face_words_check_catches_a_planted_tool_name_k_80() -> None:
    """K-80: the check above can fail: a core message naming a tool is caught at the terminal and in the SDK."""
    planted = ToolFailure(Code.AGENT_BUSY, "Busy: wait with cursor_get_run.")
    assert MCP_WORDS.search(for_person(planted)) and MCP_WORDS.search(for_program(planted))


def test_agent_busy_tells_the_person_to_wait_or_cancel_and_the_model_its_tools_k_81() -> None:
    """K-81: a busy agent: `wait` and `cancel` at the terminal, `run.wait()` in the SDK, the tools for the model
    (byte for byte the MCP answer before the words moved out of the core)."""
    busy = followups.busy(RUN, "A run of this agent is still active.")
    assert "cursor-cloud-agents wait AGENT" in for_person(busy) and "cursor-cloud-agents cancel" in for_person(busy)
    assert "run.wait()" in for_program(busy)
    assert for_model(busy) == (
        "A run of this agent is still active. Nothing was sent. Wait for the run (cursor_get_run with wait_seconds), "
        "or follow up with replace_active=true to cancel it first."
    )


def test_an_unknown_model_names_no_tool_at_the_terminal_or_in_the_sdk_k_82() -> None:
    """K-82: an unknown model: the model reads cursor_list_models, the program `cursor.models()`, the person what to
    pass to --model."""
    with pytest.raises(ToolFailure) as unknown:
        model_check.find_model([], "nope")
    assert "cursor_list_models" in for_model(unknown.value)
    assert "cursor.models()" in for_program(unknown.value) and "--model" in for_person(unknown.value)


def test_a_missing_key_is_said_where_each_face_reads_it_k_83() -> None:
    """K-83: the key: `login` or the MCP server's environment for the model, `login` or the shell's at the
    terminal, the `api_key=` argument in the SDK; the settings say only what is missing."""
    missing = ToolFailure(
        Code.CONFIGURATION_MISSING, "CURSOR_API_KEY is not set and no key is stored", advice=Advice(Step.SET_KEY)
    )
    assert for_model(missing).startswith("CURSOR_API_KEY is not set and no key is stored: run `cursor-cloud-agents")
    assert "MCP server's environment" in for_model(missing)
    said = key_problem("CURSOR_API_KEY is not set and no key is stored")
    assert "MCP" not in said and "this shell" in said and "login" in said
    assert "api_key=" in for_program(missing) and "login" not in for_program(missing)
    assert Settings.from_env({}).key_problem == "CURSOR_API_KEY is not set and no key is stored"


def test_a_declined_paid_act_without_a_person_keeps_the_mcp_words_and_says_yes_at_the_terminal_k_84() -> None:
    """K-84: nobody to ask: the model reads the setting and how to allow it (the MCP answer as before), the person
    `--yes`."""
    declined = consent.cannot_ask("create", "no agent was created")
    assert for_model(declined) == (
        "CURSOR_MCP_ASK (or CURSOR_MCP_CONFIRM_CREATES=1) asks the user before this (create), and this client cannot "
        "ask (it declared no MCP elicitation): no agent was created. The user can take `create` out of CURSOR_MCP_ASK "
        "(and CURSOR_MCP_CONFIRM_CREATES unset), or use a client that can ask."
    )
    assert "--yes" in for_person(declined) and "CURSOR_MCP_ASK" not in for_person(declined)


def test_every_next_step_has_words_in_every_face_k_85() -> None:
    """K-85: no step is left for a face to fall back on another's words: each renders every step."""
    for step in Step:
        failure = ToolFailure(Code.UPSTREAM, "It happened.", advice=Advice(step))
        for said in (for_model(failure), for_person(failure), for_program(failure)):
            assert said.startswith("It happened.") or step is Step.ALLOW_UNASKED
            assert said != "It happened."


@pytest.mark.anyio
async def test_a_program_without_a_usable_key_is_told_the_problem_and_api_key_before_any_request_k_83() -> None:
    """K-83: the SDK opened with an unusable key (empty, a placeholder, a pasted `Bearer `) says that problem and
    `api_key=`, never the MCP server's environment; before: "no Cursor API key is configured"."""
    for key in ("", "key with space"):
        with pytest.raises(ToolFailure) as refused:
            async with AsyncCursor(api_key=key, base_url="http://127.0.0.1:9"):
                pass
        said = refused.value.message
        assert refused.value.code == "CONFIGURATION_MISSING" and "CURSOR_API_KEY" in said and "api_key=" in said
        assert "MCP" not in said and (not key or key not in said)
