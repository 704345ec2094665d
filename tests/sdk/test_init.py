"""The SDK's front (`sdk/__init__.py`): light to import, one name per thing it offers."""

from __future__ import annotations

import subprocess
import sys

import cursor_cloud_agents.sdk as sdk

HEAVY = ("mcp", "starlette", "uvicorn", "rich")


def test_importing_the_sdk_loads_neither_mcp_nor_starlette_uvicorn_or_rich() -> None:
    """Acceptance: `python -c "import cursor_cloud_agents.sdk, sys; assert 'mcp' not in sys.modules"`, and the
    same for Starlette, uvicorn and rich, in a fresh interpreter (about 1 s: the interpreter's start and the
    package's import, which only a new process shows untouched by the other tests' imports)."""
    check = (
        "import cursor_cloud_agents.sdk, sys\n"
        f"loaded = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr


def test_the_front_offers_cursors_names_and_their_async_twins() -> None:
    for name in ("Agent", "Run", "Cursor", "AsyncAgent", "AsyncRun", "AsyncCursor", "RunResult", "ToolFailure"):
        assert name in sdk.__all__ and hasattr(sdk, name)
    assert len(set(sdk.__all__)) == len(sdk.__all__)


THEIR_NAMES = (  # `cursor_sdk.__all__` of cursor-sdk 1.1.0, its public names
    "APITimeoutError",
    "Agent",
    "AgentBusyError",
    "AgentConversationTurn",
    "AgentDefinition",
    "AgentDefinitionMcpServer",
    "AgentMessage",
    "AgentNotFoundError",
    "AgentOptions",
    "AgentOptionsDict",
    "AgentUsage",
    "AssistantConversationStep",
    "AssistantMessage",
    "AsyncAgent",
    "AsyncBridge",
    "AsyncClient",
    "AsyncConnectTransport",
    "AsyncCursor",
    "AsyncCursorClient",
    "AsyncListResult",
    "AsyncRun",
    "AuthenticationError",
    "BadRequestError",
    "Bridge",
    "BridgeEndpoint",
    "Client",
    "CloudAgentOptions",
    "CloudAgentOptionsDict",
    "CloudEnvironment",
    "CloudRepository",
    "CloudRepositoryDict",
    "CloudSendOptions",
    "CloudSendOptionsDict",
    "ConfigurationError",
    "ConversationStep",
    "ConversationTurn",
    "Cursor",
    "CursorAgentError",
    "CursorClient",
    "CursorSDKError",
    "CustomTool",
    "CustomToolContext",
    "DefaultAsyncHttpxClient",
    "DefaultHttpxClient",
    "HttpMcpServerConfig",
    "IntegrationNotConnectedError",
    "InteractionUpdate",
    "InternalServerError",
    "ListResult",
    "LocalAgentOptions",
    "LocalAgentOptionsDict",
    "LocalAgentStoreConfig",
    "LocalAgentStoreHandler",
    "LocalSendOptions",
    "LocalSendOptionsDict",
    "McpAuth",
    "ModelParameterDefinition",
    "ModelParameterDefinitionValue",
    "ModelParameterValue",
    "ModelSelection",
    "ModelSelectionDict",
    "ModelVariant",
    "NetworkError",
    "NotFoundError",
    "PartialToolCallUpdate",
    "PermissionDeniedError",
    "RateLimitError",
    "Run",
    "RunGitBranchInfo",
    "RunGitInfo",
    "RunResult",
    "RunSnapshot",
    "RunStreamEvent",
    "RunUsage",
    "SDKAgentInfo",
    "SDKArtifact",
    "SDKAssistantMessage",
    "SDKAssistantMessageContent",
    "SDKImage",
    "SDKImageDimension",
    "SDKMessage",
    "SDKModel",
    "SDKRepository",
    "SDKRequestMessage",
    "SDKStatusMessage",
    "SDKSystemMessage",
    "SDKTaskMessage",
    "SDKThinkingMessage",
    "SDKToolUseMessage",
    "SDKUsageMessage",
    "SDKUser",
    "SDKUserMessage",
    "SDKUserMessageContent",
    "SDKUserMessageEvent",
    "SandboxOptions",
    "SdkArtifact",
    "SendOptions",
    "SendOptionsDict",
    "ShellCommand",
    "ShellConversationTurn",
    "ShellOutput",
    "ShellOutputDeltaUpdate",
    "SseMcpServerConfig",
    "StdioMcpServerConfig",
    "StepCompletedUpdate",
    "StepStartedUpdate",
    "StoreAgentsHandler",
    "StoreCallbackServer",
    "StoreCheckpointsHandler",
    "StoreRunEventsHandler",
    "StoreRunsHandler",
    "SummaryCompletedUpdate",
    "SummaryStartedUpdate",
    "SummaryUpdate",
    "TextBlock",
    "TextDeltaUpdate",
    "ThinkingCompletedUpdate",
    "ThinkingConversationStep",
    "ThinkingDeltaUpdate",
    "ThinkingMessage",
    "TokenDeltaUpdate",
    "TokenUsage",
    "ToolCallCompletedUpdate",
    "ToolCallConversationStep",
    "ToolCallStartedUpdate",
    "ToolCallbackServer",
    "ToolUseBlock",
    "TurnEndedUpdate",
    "UnknownInteractionUpdate",
    "UnsupportedRunOperationError",
    "UsageCost",
    "UserMessage",
    "UserMessageAppendedUpdate",
    "UserMessageDict",
    "close_default_client",
    "parse_conversation_step",
    "parse_interaction_update",
    "sdk_message_from_json",
    "sum_token_usage",
    "to_token_usage",
)

ABSENT = {
    "Cursor's bridge process and its transports (this SDK speaks the REST API)": (
        "AsyncBridge AsyncClient AsyncConnectTransport AsyncCursorClient Bridge BridgeEndpoint Client CursorClient "
        "DefaultAsyncHttpxClient DefaultHttpxClient"
    ),
    "local agents, their store, tools, subagents and MCP servers; a run's environment variables": (
        "LocalAgentOptionsDict LocalAgentStoreConfig LocalAgentStoreHandler LocalSendOptionsDict SandboxOptions "
        "StoreAgentsHandler StoreCallbackServer StoreCheckpointsHandler StoreRunEventsHandler StoreRunsHandler "
        "ToolCallbackServer CustomTool CustomToolContext AgentDefinition AgentDefinitionMcpServer HttpMcpServerConfig "
        "McpAuth SseMcpServerConfig StdioMcpServerConfig CloudSendOptionsDict"
    ),
    "the bridge's step and delta callbacks, raw events and messages the REST stream does not carry": (
        "AgentConversationTurn AgentMessage AssistantConversationStep ConversationStep ConversationTurn "
        "InteractionUpdate PartialToolCallUpdate RunSnapshot RunStreamEvent SDKImage SDKImageDimension "
        "SDKRequestMessage SDKSystemMessage SDKTaskMessage SDKUsageMessage SDKUserMessageContent SDKUserMessageEvent "
        "ShellCommand ShellConversationTurn ShellOutput ShellOutputDeltaUpdate StepCompletedUpdate StepStartedUpdate "
        "SummaryCompletedUpdate SummaryStartedUpdate SummaryUpdate TextDeltaUpdate ThinkingCompletedUpdate "
        "ThinkingConversationStep ThinkingDeltaUpdate TokenDeltaUpdate ToolCallCompletedUpdate "
        "ToolCallConversationStep ToolCallStartedUpdate ToolUseBlock TurnEndedUpdate UnknownInteractionUpdate "
        "UserMessageAppendedUpdate parse_conversation_step parse_interaction_update sdk_message_from_json "
        "sum_token_usage to_token_usage"
    ),
}
"""What of Cursor's names is not here, and why (docs/sdk.md, "Names of Cursor's SDK not here")."""


def test_every_public_name_of_cursor_sdk_is_here_or_said_absent_k_40() -> None:
    """K-40: a program's import line names what it uses of Cursor's SDK: each of its public names is offered here
    under the same name, or is one the docs list as absent, with why (the bridge, local agents, the bridge's
    callbacks and raw events); none is both."""
    absent = {name for names in ABSENT.values() for name in names.split()}
    offered = set(sdk.__all__)
    assert sorted(name for name in THEIR_NAMES if name not in offered and name not in absent) == []
    assert sorted(absent & offered) == [] and absent <= set(THEIR_NAMES)
    assert all(hasattr(sdk, name) for name in offered)
