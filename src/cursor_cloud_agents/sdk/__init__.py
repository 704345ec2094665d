"""Cursor's agent programming model in pure Python, with this product's guarantees (docs/sdk.md).

    from cursor_cloud_agents.sdk import Agent, Cursor

    with Cursor(simulated=True) as cursor:          # or Cursor(): CURSOR_API_KEY, the real API
        agent = Agent.create(client=cursor, name="Tidy the README")
        run = agent.send("Fix the typos in README.md")
        print(run.wait().result)

`Agent`, `Run` and `Cursor` are synchronous; `AsyncAgent`, `AsyncRun` and `AsyncCursor` are their async twins.
Paid acts go through the core's one path, as the MCP server's and the terminal's do: the agent id is minted
before the POST, a lost answer is settled by it and never paid twice, and the creation and spend limits of
the machine's store of paid acts hold. Errors are the product's `ToolFailure` with its stable `code`, secrets
masked. Only cloud agents: local agents run in Cursor's own runtime, which Python cannot reach.

Code written for Cursor's Python SDK (`cursor-sdk` 1.1.0) runs with its import line changed: the options as one
mapping (`Agent.create({...})`), lowercase statuses (`result.status == "finished"`), `run.text()`, the static
`Cursor.models.list()`, the error classes (`AuthenticationError`, `AgentNotFoundError`...: each also a
`ToolFailure`). docs/sdk.md sets the two side by side.

Importing this package loads neither the MCP SDK nor Starlette, uvicorn or rich.
"""

from cursor_cloud_agents.api import (
    Agent as AgentInfo,
)
from cursor_cloud_agents.api import (
    AgentSummary,
    Artifact,
    ConversationMessage,
    GitBranch,
    ModelParam,
    ModelSelection,
    ModelVariant,
    Repository,
    RunGit,
    RunUsage,
    TokenUsage,
    Usage,
)
from cursor_cloud_agents.api import (
    Cost as UsageCost,
)
from cursor_cloud_agents.api import (
    Me as User,
)
from cursor_cloud_agents.api import (
    Model as ModelInfo,
)
from cursor_cloud_agents.api import (
    ModelParameter as ModelParameterDefinition,
)
from cursor_cloud_agents.api import (
    ModelParameterValue as ModelParameterDefinitionValue,
)
from cursor_cloud_agents.config import ConfigError
from cursor_cloud_agents.core import Code, ToolFailure
from cursor_cloud_agents.sdk._agent import AsyncAgent
from cursor_cloud_agents.sdk._attempts import AsyncAttempts
from cursor_cloud_agents.sdk._attempts_sync import Attempts
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._errors import (
    AgentBusyError,
    AgentNotFoundError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    CursorAgentError,
    CursorSDKError,
    IntegrationNotConnectedError,
    InternalServerError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    SettingsError,
    UnsupportedRunOperationError,
)
from cursor_cloud_agents.sdk._messages import (
    AssistantContent,
    AssistantMessage,
    Message,
    StatusMessage,
    SummaryMessage,
    TextBlock,
    ThinkingMessage,
    ToolCallMessage,
)
from cursor_cloud_agents.sdk._options import CloudAgentOptions, CloudEnvironment, CloudOptions, CloudRepository
from cursor_cloud_agents.sdk._results import AsyncListResult, ListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._shapes import (
    AgentOptions,
    AgentOptionsDict,
    CloudAgentOptionsDict,
    CloudRepositoryDict,
    CloudSendOptions,
    LocalAgentOptions,
    LocalSendOptions,
    ModelSelectionDict,
    SendOptions,
    SendOptionsDict,
    UserMessage,
    UserMessageDict,
)
from cursor_cloud_agents.sdk._status import Status
from cursor_cloud_agents.sdk._sync import Agent, Cursor, Run, close_default_client

ModelParameterValue = ModelParam
"""One parameter of a model selection (`{"id": "effort", "value": "high"}`), as Cursor's SDK names it."""
SDKAgentInfo = AgentInfo
SDKModel = ModelInfo
SDKRepository = Repository
SDKUser = User
SDKArtifact = SdkArtifact = Artifact
AgentUsage = Usage
RunGitInfo = RunGit
RunGitBranchInfo = GitBranch
"""Cursor's SDK's names of the account's and the runs' records (the fields are the API's: docs/sdk.md)."""
SDKMessage = Message
SDKAssistantMessage = AssistantMessage
SDKAssistantMessageContent = AssistantContent
SDKThinkingMessage = ThinkingMessage
SDKToolUseMessage = ToolCallMessage
SDKStatusMessage = StatusMessage
SDKUserMessage = UserMessage
"""Cursor's SDK's names of the stream's messages."""

__all__ = [
    "APITimeoutError",
    "Agent",
    "AgentBusyError",
    "AgentInfo",
    "AgentNotFoundError",
    "AgentOptions",
    "AgentOptionsDict",
    "AgentSummary",
    "AgentUsage",
    "Artifact",
    "AssistantContent",
    "AssistantMessage",
    "AsyncAgent",
    "AsyncAttempts",
    "AsyncCursor",
    "AsyncListResult",
    "AsyncRun",
    "Attempts",
    "AuthenticationError",
    "BadRequestError",
    "CloudAgentOptions",
    "CloudAgentOptionsDict",
    "CloudEnvironment",
    "CloudOptions",
    "CloudRepository",
    "CloudRepositoryDict",
    "CloudSendOptions",
    "Code",
    "ConfigError",
    "ConfigurationError",
    "ConversationMessage",
    "Cursor",
    "CursorAgentError",
    "CursorSDKError",
    "GitBranch",
    "IntegrationNotConnectedError",
    "InternalServerError",
    "ListResult",
    "LocalAgentOptions",
    "LocalSendOptions",
    "Message",
    "ModelInfo",
    "ModelParameterDefinition",
    "ModelParameterDefinitionValue",
    "ModelParameterValue",
    "ModelSelection",
    "ModelSelectionDict",
    "ModelVariant",
    "NetworkError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "Repository",
    "Run",
    "RunGitBranchInfo",
    "RunGitInfo",
    "RunResult",
    "RunUsage",
    "SDKAgentInfo",
    "SDKArtifact",
    "SDKAssistantMessage",
    "SDKAssistantMessageContent",
    "SDKMessage",
    "SDKModel",
    "SDKRepository",
    "SDKStatusMessage",
    "SDKThinkingMessage",
    "SDKToolUseMessage",
    "SDKUser",
    "SDKUserMessage",
    "SdkArtifact",
    "SendOptions",
    "SendOptionsDict",
    "SettingsError",
    "Status",
    "StatusMessage",
    "SummaryMessage",
    "TextBlock",
    "ThinkingMessage",
    "TokenUsage",
    "ToolCallMessage",
    "ToolFailure",
    "UnsupportedRunOperationError",
    "Usage",
    "UsageCost",
    "User",
    "UserMessage",
    "UserMessageDict",
    "close_default_client",
]
