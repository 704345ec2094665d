"""What agents produced and what they cost: usage, artifacts and the v0 conversation.

Artifact bytes come from a presigned URL the API hands out: the client checks it (https, allowed
host, no Cursor key sent) before fetching. Texts are paged under the result cap; binary or very
large files are answered with their URL instead. The API's quirk of written files missing from the
artifact list (404 on download) is explained in the answer with what to do instead.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.api import (
    ArtifactDownload,
    ConversationMessage,
    Cost,
    CursorClient,
    NotFoundError,
    PermissionDeniedError,
    ResponseTooLargeError,
    RunUsage,
    TokenUsage,
    Usage,
)
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.answers import MIN_TEXT_BYTES, ROW_SEPARATOR_BYTES, Answers, fit_chars, size
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.params import AgentId, RunId
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit, current_call

ARTIFACT_TEXT_MAX_BYTES = 5 * 1024 * 1024
COST_NOTE = (
    "No cost reported yet for {count} run(s): Cursor reports cost late after a run ends, or not at all for some "
    "usage. Missing is not zero; ask again later."
)
EMPTY_ARTIFACTS_NOTE = (
    "An empty list does not prove no file was written: the API often leaves written files out. For results, ask "
    "the agent (cursor_create_run) to put them in its final reply (cursor_get_run) or push them to a branch."
)
UNLISTED_ARTIFACT = (
    "Cursor has no downloadable file at {path} (404 artifact_not_found). Files an agent writes are often missing "
    "from the artifact list and cannot be downloaded (a known API limit). Ask the agent (cursor_create_run) to put "
    "the content in its final reply (read it with cursor_get_run) or push it to a branch."
)
CLIPPED_NOTE = "A message with next_text_offset is cut: read on with offset=<its index>, limit=1, text_offset=<it>."
_ROLES = {"user_message": "user", "assistant_message": "assistant"}


# --- usage -------------------------------------------------------------------------------------


def tokens_view(usage: TokenUsage | None) -> dict[str, int] | None:
    """Token counts with short names; None when the API sent none."""
    if usage is None:
        return None
    return {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "cache_write": usage.cache_write_tokens,
        "cache_read": usage.cache_read_tokens,
        "total": usage.total_tokens,
    }


def cost_view(cost: Cost | None) -> dict[str, float | None]:
    """Cents as the API gave them; a missing cost stays missing (never a zero)."""
    if cost is None:
        return {}
    return {"raw_cents": cost.raw_cost_cents, "charged_cents": cost.charged_cents}


def run_usage_row(run: RunUsage) -> dict[str, Any]:
    """One run's tokens and cost."""
    return {"run_id": run.id, "tokens": tokens_view(run.usage)} | cost_view(run.cost)


def _costless(usage: Usage) -> int:
    return sum(1 for run in usage.runs if run.cost is None or run.cost.charged_cents is None)


async def read_usage(api: CursorClient, agent_id: str, run_id: str | None) -> Usage:
    """The agent's usage; a 403 feature_unavailable is said plainly (usage is an early-access API)."""
    try:
        return await api.get_usage(agent_id, run_id=run_id)
    except PermissionDeniedError as exc:
        if exc.code != "feature_unavailable":
            raise
        raise ToolFailure(
            "PERMISSION_DENIED", "Cursor does not offer usage reporting to this account (feature_unavailable: "
            "an early-access API). Costs are shown in the Cursor dashboard.",
            upstream_code=exc.code, http_status=exc.status_code, request_id=exc.request_id,
        ) from None  # fmt: skip


def usage_answer(answers: Answers, agent_id: str, run_id: str | None, usage: Usage) -> dict[str, Any]:
    """The usage answer: totals, then as many per-run rows as the cap allows."""
    missing = _costless(usage)
    answer = {
        "agent_id": agent_id,
        "run_id": run_id,
        "total": {"tokens": tokens_view(usage.total_usage)} | cost_view(usage.cost),
        "cost_note": COST_NOTE.format(count=missing) if missing else None,
    }
    rows = [run_usage_row(run) for run in usage.runs]
    fitted = answers.fit_rows(answer, "runs", rows, omitted_key="runs_omitted")
    if fitted.get("runs_omitted"):
        fitted["runs_hint"] = "pass run_id for one run"
    return fitted


# --- artifacts ---------------------------------------------------------------------------------


def check_artifact_path(path: str) -> str:
    """The path when it is a relative file path under `artifacts/`; VALIDATION otherwise (nothing sent)."""
    parts = path.split("/")
    if parts[0] != "artifacts" or len(parts) < 2 or not parts[-1] or ".." in parts or "\0" in path or len(path) > 1024:
        raise ToolFailure(
            failures.VALIDATION, "path must be a file path under artifacts/ (as cursor_list_artifacts shows it), "
            "without '..', at most 1024 characters; nothing was sent.",
        )  # fmt: skip
    return path


async def download_link(api: CursorClient, agent_id: str, path: str) -> ArtifactDownload:
    """The presigned URL of an artifact; a 404 artifact_not_found is explained (the unlisted-file quirk)."""
    try:
        return await api.artifact_download(agent_id, path)
    except NotFoundError as exc:
        if exc.code != "artifact_not_found":
            raise
        raise ToolFailure(
            "NOT_FOUND", UNLISTED_ARTIFACT.format(path=path), upstream_code=exc.code, http_status=exc.status_code,
            request_id=exc.request_id, path=path,
        ) from None  # fmt: skip


def decode_text(body: bytes) -> str | None:
    """The body as text when it is UTF-8 without NUL bytes; None for binary."""
    if b"\0" in body:
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def link_answer(head: dict[str, Any], link: ArtifactDownload, unavailable: str | None) -> dict[str, Any]:
    """The answer that hands out the presigned URL (with why no text, when text was wanted)."""
    return head | {"text_unavailable": unavailable, "url": link.url, "expires_at": link.expires_at}


# --- conversation ------------------------------------------------------------------------------


def _role(message: ConversationMessage) -> str:
    return _ROLES.get(message.type, message.type[:40])


def conversation_window(
    answers: Answers,
    answer: dict[str, Any],
    messages: list[ConversationMessage],
    offset: int,
    limit: int,
    text_offset: int,
) -> dict[str, Any]:
    """`answer` with messages from `offset`, sharing the room fairly; long texts clipped and marked."""
    stop = min(len(messages), offset + limit)
    room = answers.room(answer | {"messages": [], "next_offset": len(messages), "clipped_note": CLIPPED_NOTE})
    rows: list[dict[str, Any]] = []
    for index in range(offset, stop):
        text = answers.text(messages[index].text or "")
        start = text_offset if index == offset else 0
        if start > len(text):
            raise ToolFailure(failures.VALIDATION, f"text_offset {start} is past the end ({len(text)} characters).")
        row = {"index": index, "role": answers.text(_role(messages[index])), "text": "", "text_offset": start or None}
        share = room // (stop - index) - size(row | {"text_chars": len(text), "next_text_offset": len(text)})
        share -= ROW_SEPARATOR_BYTES
        end = start + fit_chars(text, start, len(text) - start, max(0, share))
        if rows and end < len(text) and share < MIN_TEXT_BYTES:
            break  # too little room left to show this one usefully: the next window starts with it
        if end == start < len(text):
            raise ToolFailure(failures.RESULT_TOO_LARGE, "No room for a message under the cap; use a smaller limit.")
        row["text"] = text[start:end]
        if start or end < len(text):
            row |= {"text_chars": len(text), "next_text_offset": end if end < len(text) else None}
        rows.append(row)
        room -= size(row) + ROW_SEPARATOR_BYTES
    answer["messages"] = rows
    if offset + len(rows) < len(messages):
        answer["next_offset"] = offset + len(rows)
    if any("next_text_offset" in row and row["next_text_offset"] is not None for row in rows):
        answer["clipped_note"] = CLIPPED_NOTE
    return answer


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare the usage, artifact and conversation tools on `kit`."""
    answers = state.answers

    @kit.tool(title="Get usage")
    async def cursor_get_usage(agent_id: AgentId, run_id: RunId | None = None) -> dict[str, Any]:
        """Tokens and cost in cents of an agent, total and per run (or run_id only).

        Cost can lag after a run ends; missing is not zero.
        """
        current_call().note(agent_id=agent_id, run_id=run_id)
        return usage_answer(answers, agent_id, run_id, await read_usage(state.api, agent_id, run_id))

    @kit.tool(title="List artifacts")
    async def cursor_list_artifacts(agent_id: AgentId) -> dict[str, Any]:
        """List an agent's files under artifacts/; read one with cursor_read_artifact. Often incomplete."""
        items = await state.api.list_artifacts(agent_id)
        rows = [{"path": a.path, "size_bytes": a.size_bytes, "updated_at": a.updated_at} for a in items]
        answer = {"agent_id": agent_id, "note": None if items else EMPTY_ARTIFACTS_NOTE}
        return answers.fit_rows(answer, "artifacts", rows, omitted_key="omitted")

    @kit.tool(title="Read artifact", shrink_hint="pass a smaller limit or url_only=true")
    async def cursor_read_artifact(
        agent_id: AgentId,
        path: Annotated[str, Field(description="artifacts/... path.")],
        offset: Annotated[int, Field(ge=0)] = 0,
        limit: Annotated[int, Field(ge=1, le=20_000)] = 12_000,
        url_only: bool = False,
    ) -> dict[str, Any]:
        """Read a text artifact in pages of chars (pass next_offset as offset).

        Binary or over 5 MiB: text_unavailable and a 15-min download URL; url_only: just the URL.
        """
        current_call().note(agent_id=agent_id)
        head = {"agent_id": agent_id, "path": path}
        prepared = None if url_only else state.artifact_texts.get((agent_id, path))
        if prepared is None:
            link = await download_link(state.api, agent_id, check_artifact_path(path))
            if url_only:
                return link_answer(head, link, None)
            try:
                body = await state.api.download_artifact(link.url, max_bytes=ARTIFACT_TEXT_MAX_BYTES)
            except ResponseTooLargeError:
                return link_answer(head, link, "larger than 5 MiB")
            text = decode_text(body)
            if text is None:
                return link_answer(head | {"size_bytes": len(body)}, link, "binary (not UTF-8 text)")
            prepared = answers.text(text)
            state.artifact_texts.put((agent_id, path), prepared)
        return answers.slice_text(head, "text", prepared, offset=offset, limit=limit, next_key="next_offset")

    @kit.tool(title="Read conversation", shrink_hint="pass a smaller limit")
    async def cursor_read_conversation(
        agent_id: AgentId,
        offset: Annotated[int, Field(ge=0)] = 0,
        limit: Annotated[int, Field(ge=1, le=50)] = 20,
        text_offset: Annotated[int, Field(ge=0)] = 0,
    ) -> dict[str, Any]:
        """Read an agent's conversation (prompts, replies) by messages; pass next_offset as offset.

        A cut message has next_text_offset: pass it as text_offset, with offset at that message.
        """
        conversation = await state.api.get_conversation(agent_id)
        messages = conversation.messages
        if offset > len(messages):
            raise ToolFailure(failures.VALIDATION, f"offset {offset} is past the end ({len(messages)} messages).")
        answer = {"agent_id": agent_id, "total_messages": len(messages)}
        return conversation_window(answers, answer, messages, offset, limit, text_offset)
