"""A typed async client of the Cursor Cloud Agents REST API v1. Knows nothing about MCP.

Start with `CursorClient`; every error it raises is a `CursorError` (tree in `errors`).

The names below load on first use (PEP 562), each from its module: importing one module of the package (its
ids, its times) does not load the client, httpx2 and every model, which the server's start-up does not need."""

import typing as _typing

from cursor_cloud_agents import Front as _Front

# The typed imports below are the front's exports, each name written once: pyright reads them, `Front` reads
# them at run time (`__all__` and where each name loads from), so they are used though nothing here uses them.
# ruff: noqa: F401
# pyright: reportUnusedImport=false
if _typing.TYPE_CHECKING:
    from cursor_cloud_agents.api._retry import parse_retry_after
    from cursor_cloud_agents.api._slots import LISTENING_STREAMS
    from cursor_cloud_agents.api.activity import ActivityFold, BackgroundTaskSeen, StreamMarks
    from cursor_cloud_agents.api.client import CursorClient
    from cursor_cloud_agents.api.deadline import Deadline, current_deadline, deadline_after, time_left
    from cursor_cloud_agents.api.ending import Heard, listen_for_end
    from cursor_cloud_agents.api.errors import (
        AccountSetupError,
        AgentArchivedError,
        AgentBusyError,
        AgentIdConflictError,
        APIConnectionError,
        APIStatusError,
        APITimeoutError,
        ArtifactURLRefusedError,
        AuthenticationError,
        BadRequestError,
        ConcurrencyLimitError,
        ConfigurationMissingError,
        ConflictError,
        CursorError,
        CursorExpiredError,
        DeadlineTooShortError,
        IncompatibleResponseError,
        InvalidLastEventIdError,
        MutationContext,
        MutationOutcomeUnknownError,
        NotFoundError,
        PermissionDeniedError,
        RateLimitError,
        ReadFailedError,
        ResponseTooLargeError,
        RunNotCancellableError,
        ServerError,
        StreamError,
        StreamExpiredError,
        StreamUnavailableError,
        UsageLimitExceededError,
        error_from_response,
    )
    from cursor_cloud_agents.api.events import (
        AssistantEvent,
        DoneEvent,
        ErrorEvent,
        GenericEvent,
        HeartbeatEvent,
        InteractionUpdateEvent,
        RawEvent,
        ResultEvent,
        StatusEvent,
        StreamEvent,
        ThinkingEvent,
        ToolCallEvent,
        ToolCallTruncated,
        parse_event,
    )
    from cursor_cloud_agents.api.ids import agent_id, environment_id, parse_event_id, run_id
    from cursor_cloud_agents.api.models.account import (
        Me,
        Model,
        ModelParameter,
        ModelParameterValue,
        ModelVariant,
        Repository,
        VariantParam,
    )
    from cursor_cloud_agents.api.models.agents import (
        AGENT_STATUSES,
        Agent,
        AgentEnv,
        AgentSummary,
        CreatedAgent,
        RepoRef,
    )
    from cursor_cloud_agents.api.models.artifacts import Artifact, ArtifactDownload
    from cursor_cloud_agents.api.models.common import Page
    from cursor_cloud_agents.api.models.conversation import Conversation, ConversationMessage
    from cursor_cloud_agents.api.models.environments import Environment, EnvironmentRepo
    from cursor_cloud_agents.api.models.requests import (
        CreateAgentRequest,
        CreateRunRequest,
        CustomSubagent,
        EnvSpec,
        ImageDimension,
        ImageType,
        McpServerSpec,
        ModelParam,
        ModelSelection,
        Prompt,
        PromptImage,
        RepoSpec,
    )
    from cursor_cloud_agents.api.models.runs import (
        ACTIVE_RUN_STATUSES,
        RUN_STATUSES,
        TERMINAL_RUN_STATUSES,
        GitBranch,
        Run,
        RunError,
        RunGit,
    )
    from cursor_cloud_agents.api.models.usage import Cost, RunUsage, TokenUsage, Usage
    from cursor_cloud_agents.api.stream import RunStream
    from cursor_cloud_agents.api.walk import BlockConsumer, Evidence, ReplayConsumer, ReplayOutcome, TailCollector

_front = _Front(__name__, __file__, globals())
"""The names above, each loaded from its module when first asked for; `__all__` is derived from them."""


def __getattr__(name: str) -> _typing.Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    return _front.load(name)
