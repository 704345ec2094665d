"""What agents produced and what they cost: usage, artifacts and the v0 conversation.

Artifact bytes come from a presigned URL the API hands out: the client checks it (https, allowed
host, no Cursor key sent) before fetching. Texts are paged under the result cap; a PNG, JPEG, GIF or
WebP image (by its bytes) up to `CURSOR_MCP_MAX_IMAGE_BYTES` is sent as MCP image content after the
JSON; other binary or very large files are answered with their URL instead. The API's quirk of
written files missing from the artifact list (404 on download) is explained in the answer with what
to do instead.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from cursor_cloud_agents.api import (
    ArtifactDownload,
    ConversationMessage,
    CursorClient,
    NotFoundError,
    PermissionDeniedError,
    ResponseTooLargeError,
    Usage,
)
from cursor_cloud_agents.core import Code, ToolFailure, failures, images
from cursor_cloud_agents.server.pipeline.answers import MIN_TEXT_BYTES, ROW_SEPARATOR_BYTES, Answers, fit_chars, size
from cursor_cloud_agents.server.pipeline.declaration import Catalogue
from cursor_cloud_agents.server.pipeline.pages import paged
from cursor_cloud_agents.server.pipeline.params import AgentId, ArtifactPath, RunId, SliceLimit
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.outputs import (
    CLIPPED_NOTE,
    RUNS_HINT,
    ArtifactImage,
    ArtifactLink,
    ArtifactPage,
    ArtifactRow,
    ArtifactsView,
    ConversationView,
    MessageRow,
    UsageRow,
    UsageView,
)

ARTIFACT_TEXT_MAX_BYTES = 5 * 1024 * 1024
UNLISTED_ARTIFACT = (
    "Cursor has no downloadable file at {path} (404 artifact_not_found). Files an agent writes are often missing "
    "from the artifact list and cannot be downloaded (a known API limit). Ask the agent (cursor_create_run) to put "
    "the content in its final reply (read it with cursor_get_run) or push it to a branch."
)
_ROLES = {"user_message": "user", "assistant_message": "assistant"}

catalogue = Catalogue()


# --- usage -------------------------------------------------------------------------------------


async def read_usage(api: CursorClient, agent_id: str, run_id: str | None) -> Usage:
    """The agent's usage; a 403 feature_unavailable is said plainly (usage is an early-access API)."""
    try:
        return await api.get_usage(agent_id, run_id=run_id)
    except PermissionDeniedError as exc:
        if exc.code != "feature_unavailable":
            raise
        raise ToolFailure(
            Code.PERMISSION_DENIED,
            "Cursor does not offer usage reporting to this account (feature_unavailable: "
            "an early-access API). Costs are shown in the Cursor dashboard.",
            upstream_code=exc.code,
            http_status=exc.status_code,
            request_id=exc.request_id,
        ) from None


def fit_usage(answers: Answers, agent_id: str, run_id: str | None, usage: Usage) -> UsageView:
    """The usage answer: totals, then as many per-run rows as the cap allows (a hint when some are left out)."""
    rows = [UsageRow.of_run(run) for run in usage.runs]
    fitted = answers.fit_rows(UsageView.of(agent_id, run_id, usage), "runs", rows, omitted_key="runs_omitted")
    return fitted.model_copy(update={"runs_hint": RUNS_HINT}) if fitted.runs_omitted else fitted


# --- artifacts ---------------------------------------------------------------------------------


async def download_link(api: CursorClient, agent_id: str, path: str) -> ArtifactDownload:
    """The presigned URL of an artifact; a 404 artifact_not_found is explained (the unlisted-file quirk)."""
    try:
        return await api.artifact_download(agent_id, path)
    except NotFoundError as exc:
        if exc.code != "artifact_not_found":
            raise
        raise ToolFailure(
            Code.NOT_FOUND,
            UNLISTED_ARTIFACT.format(path=path),
            upstream_code=exc.code,
            http_status=exc.status_code,
            request_id=exc.request_id,
            path=path,
        ) from None


async def fetch_artifact(
    state: ServerState, call: ToolCall, agent_id: str, path: str, link: ArtifactDownload
) -> str | ArtifactImage | ArtifactLink:
    """The artifact's prepared text, or the answer given instead: the image itself (up to the image limit,
    sent as image content after the JSON), or the URL (too large, binary)."""
    try:
        body = await state.api.download_artifact(link.url, max_bytes=ARTIFACT_TEXT_MAX_BYTES)
    except ResponseTooLargeError:
        return ArtifactLink.of(agent_id, path, link, "larger than 5 MiB")
    image, limit = images.recognise(body), state.settings.max_image_bytes
    if image is not None:
        if len(body) > limit:
            why = f"an image over CURSOR_MCP_MAX_IMAGE_BYTES ({limit:,} bytes): open the URL"
            return ArtifactLink.of(agent_id, path, link, why, size=len(body))
        call.attach_image(body, image.mime_type)
        return ArtifactImage.of(agent_id, path, link, len(body), image)
    text = decode_text(body)
    if text is None:
        return ArtifactLink.of(agent_id, path, link, "binary (not UTF-8 text)", size=len(body))
    return state.answers.text(text)


def decode_text(body: bytes) -> str | None:
    """The body as text when it is UTF-8 without NUL bytes; None for binary."""
    if b"\0" in body:
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


# --- conversation ------------------------------------------------------------------------------


def _role(message: ConversationMessage) -> str:
    return _ROLES.get(message.type, message.type[:40])


def _probe(index: int, role: str, text: str, start: int) -> MessageRow:
    # A row as large as its own fields can make it (both offsets at their widest), its text left out.
    return MessageRow(
        index=index, role=role, text="", text_offset=start or None, text_chars=len(text), next_text_offset=len(text)
    )


def fit_conversation(
    answers: Answers,
    answer: ConversationView,
    messages: list[ConversationMessage],
    offset: int,
    limit: int,
    text_offset: int,
) -> ConversationView:
    """`answer` with messages from `offset`, sharing the room fairly; long texts clipped and marked."""
    stop = min(len(messages), offset + limit)
    room = answers.room(
        answer.model_copy(update={"messages": [], "next_offset": len(messages), "clipped_note": CLIPPED_NOTE})
    )
    rows: list[MessageRow] = []
    for index in range(offset, stop):
        text = answers.text(messages[index].text or "")
        start = text_offset if index == offset else 0
        if start > len(text):
            raise ToolFailure(failures.VALIDATION, f"text_offset {start} is past the end ({len(text)} characters).")
        role = answers.text(_role(messages[index]))
        share = room // (stop - index) - size(_probe(index, role, text, start)) - ROW_SEPARATOR_BYTES
        end = start + fit_chars(text, start, len(text) - start, max(0, share))
        if rows and end < len(text) and share < MIN_TEXT_BYTES:
            break  # too little room left to show this one usefully: the next window starts with it
        if end == start < len(text):
            raise ToolFailure(failures.RESULT_TOO_LARGE, "No room for a message under the cap; use a smaller limit.")
        rows.append(MessageRow.of(index, role, text, start, end))
        room -= size(rows[-1]) + ROW_SEPARATOR_BYTES
    clipped = any(row.next_text_offset is not None for row in rows)
    return answer.model_copy(
        update={
            "messages": rows,
            "next_offset": offset + len(rows) if offset + len(rows) < len(messages) else None,
            "clipped_note": CLIPPED_NOTE if clipped else None,
        }
    )


@catalogue.tool(title="Get usage")
async def cursor_get_usage(
    state: ServerState, call: ToolCall, agent_id: AgentId, run_id: RunId | None = None
) -> UsageView:
    """Tokens and cost in cents of an agent, total and per run (or run_id only).

    Cost can lag after a run ends; missing is not zero.
    """
    call.note(agent_id=agent_id, run_id=run_id)
    return fit_usage(state.answers, agent_id, run_id, await read_usage(state.api, agent_id, run_id))


@catalogue.tool(title="List artifacts")
async def cursor_list_artifacts(state: ServerState, agent_id: AgentId) -> ArtifactsView:
    """List an agent's files under artifacts/; read one with cursor_read_artifact. Often incomplete."""
    items = await state.api.list_artifacts(agent_id)
    rows = [ArtifactRow.of(artifact) for artifact in items]
    return state.answers.fit_rows(ArtifactsView.of(agent_id, items), "artifacts", rows, omitted_key="omitted")


@catalogue.tool(title="Read artifact", shrink_hint="pass a smaller limit or url_only=true")
async def cursor_read_artifact(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    path: ArtifactPath,
    offset: Annotated[int, Field(ge=0)] = 0,
    limit: SliceLimit = 12_000,
    url_only: bool = False,
) -> ArtifactPage | ArtifactImage | ArtifactLink:
    """Read a text artifact in pages of chars (pass next_offset as offset), or see an image.

    Binary or over 5 MiB: text_unavailable and a 15-min download URL; url_only: just the URL.
    """
    call.note(agent_id=agent_id)
    prepared = None if url_only else state.artifact_texts.get((agent_id, path))
    if prepared is None:
        link = await download_link(state.api, agent_id, path)
        if url_only:
            await state.api.check_artifact_url(link.url)  # a URL handed on is one we would fetch ourselves
            return ArtifactLink.of(agent_id, path, link)
        fetched = await fetch_artifact(state, call, agent_id, path, link)  # the download vets the URL the same way
        if not isinstance(fetched, str):
            return fetched
        prepared = fetched
        state.artifact_texts.put((agent_id, path), prepared)
    page = ArtifactPage(agent_id=agent_id, path=path)
    answers = paged(state.answers, call.client)  # a slice Codex's model reads whole (K-68)
    return answers.slice_text(page, "text", prepared, offset=offset, limit=limit, next_key="next_offset")


@catalogue.tool(title="Read conversation", shrink_hint="pass a smaller limit")
async def cursor_read_conversation(
    state: ServerState,
    agent_id: AgentId,
    offset: Annotated[int, Field(ge=0)] = 0,
    limit: Annotated[int, Field(ge=1, le=50, description="Messages, 1-50.")] = 20,
    text_offset: Annotated[int, Field(ge=0)] = 0,
) -> ConversationView:
    """Read an agent's conversation (prompts, replies) by messages; pass next_offset as offset.

    A cut message has next_text_offset: pass it as text_offset, with offset at that message.
    """
    conversation = await state.api.get_conversation(agent_id)
    messages = conversation.messages
    if offset > len(messages):
        raise ToolFailure(failures.VALIDATION, f"offset {offset} is past the end ({len(messages)} messages).")
    answer = ConversationView(agent_id=agent_id, total_messages=len(messages))
    return fit_conversation(state.answers, answer, messages, offset, limit, text_offset)
