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
    ModelSelection,
    Repository,
    Usage,
)
from cursor_cloud_agents.api import (
    Me as User,
)
from cursor_cloud_agents.api import (
    Model as ModelInfo,
)
from cursor_cloud_agents.config import ConfigError
from cursor_cloud_agents.core import Code, ToolFailure
from cursor_cloud_agents.sdk._agent import AsyncAgent
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._messages import (
    AssistantMessage,
    Message,
    StatusMessage,
    SummaryMessage,
    ThinkingMessage,
    ToolCallMessage,
)
from cursor_cloud_agents.sdk._options import CloudEnvironment, CloudOptions, CloudRepository
from cursor_cloud_agents.sdk._results import ListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._sync import Agent, Cursor, Run, close_default_client

__all__ = [
    "Agent",
    "AgentInfo",
    "AgentSummary",
    "Artifact",
    "AssistantMessage",
    "AsyncAgent",
    "AsyncCursor",
    "AsyncRun",
    "CloudEnvironment",
    "CloudOptions",
    "CloudRepository",
    "Code",
    "ConfigError",
    "ConversationMessage",
    "Cursor",
    "GitBranch",
    "ListResult",
    "Message",
    "ModelInfo",
    "ModelSelection",
    "Repository",
    "Run",
    "RunResult",
    "StatusMessage",
    "SummaryMessage",
    "ThinkingMessage",
    "ToolCallMessage",
    "ToolFailure",
    "Usage",
    "User",
    "close_default_client",
]
