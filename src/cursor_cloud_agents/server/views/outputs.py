"""Output answers: usage (total and per-run rows), the artifact list, an artifact's text, image or link,
conversation rows."""

from __future__ import annotations

from pydantic import Field

from cursor_cloud_agents.api import Artifact, ArtifactDownload, Cost, RunUsage, TokenUsage, Usage
from cursor_cloud_agents.core import Recognised
from cursor_cloud_agents.server.views.view import View

COST_NOTE = (
    "No cost reported yet for {count} run(s): Cursor reports cost late after a run ends, or not at all for some "
    "usage. Missing is not zero; ask again later."
)
EMPTY_ARTIFACTS_NOTE = (
    "An empty list does not prove no file was written: the API often leaves written files out. For results, ask "
    "the agent (cursor_create_run) to put them in its final reply (cursor_get_run) or push them to a branch."
)
RUNS_HINT = "pass run_id for one run"
CLIPPED_NOTE = "A message with next_text_offset is cut: read on with offset=<its index>, limit=1, text_offset=<it>."


class TokensView(View):
    """Token counts with short names."""

    input: int
    output: int
    cache_write: int
    cache_read: int
    total: int

    @classmethod
    def of(cls, usage: TokenUsage) -> TokensView:
        return cls(
            input=usage.input_tokens,
            output=usage.output_tokens,
            cache_write=usage.cache_write_tokens,
            cache_read=usage.cache_read_tokens,
            total=usage.total_tokens,
        )


class UsageRow(View):
    """Tokens and cost in cents, of one run (`run_id`) or of the whole agent; a missing cost stays missing."""

    run_id: str | None
    tokens: TokensView | None
    raw_cents: float | None
    charged_cents: float | None

    @classmethod
    def of(cls, usage: TokenUsage | None, cost: Cost | None, run_id: str | None = None) -> UsageRow:
        # Cents as the API gave them: never a zero for a cost not reported yet.
        raw, charged = (None, None) if cost is None else (cost.raw_cost_cents, cost.charged_cents)
        return cls(
            run_id=run_id, tokens=None if usage is None else TokensView.of(usage), raw_cents=raw, charged_cents=charged
        )

    @classmethod
    def of_run(cls, run: RunUsage) -> UsageRow:
        return cls.of(run.usage, run.cost, run.id)


class UsageView(View):
    """An agent's usage: totals, then as many per-run rows as fit (the others counted, with a hint)."""

    agent_id: str
    run_id: str | None
    total: UsageRow
    cost_note: str | None
    runs: list[UsageRow] = Field(default_factory=list[UsageRow])
    runs_omitted: int | None = None
    runs_hint: str | None = None

    @classmethod
    def of(cls, agent_id: str, run_id: str | None, usage: Usage) -> UsageView:
        """The totals, without the per-run rows (`Answers.fit_rows` adds them)."""
        costless = sum(1 for run in usage.runs if run.cost is None or run.cost.charged_cents is None)
        return cls(
            agent_id=agent_id,
            run_id=run_id,
            total=UsageRow.of(usage.total_usage, usage.cost),
            cost_note=COST_NOTE.format(count=costless) if costless else None,
        )


class ArtifactRow(View):
    """A file under `artifacts/`."""

    path: str
    size_bytes: int | None
    updated_at: str | None

    @classmethod
    def of(cls, artifact: Artifact) -> ArtifactRow:
        return cls(path=artifact.path, size_bytes=artifact.size_bytes, updated_at=artifact.updated_at)


class ArtifactsView(View):
    """An agent's artifacts, as many as fit (the others counted); a note when the list is empty."""

    agent_id: str
    note: str | None
    artifacts: list[ArtifactRow] = Field(default_factory=list[ArtifactRow])
    omitted: int | None = None

    @classmethod
    def of(cls, agent_id: str, items: list[Artifact]) -> ArtifactsView:
        """Without the rows (`Answers.fit_rows` adds them)."""
        return cls(agent_id=agent_id, note=None if items else EMPTY_ARTIFACTS_NOTE)


class _ArtifactHead(View):
    # Which artifact an answer is about: a text page and a link both start with it.

    agent_id: str
    path: str


class ArtifactPage(_ArtifactHead):
    """A page of an artifact's text (`Answers.slice_text` fills the text and its offsets)."""

    text: str | None = None
    text_chars: int | None = None
    next_offset: int | None = None


class ArtifactLink(_ArtifactHead):
    """An artifact's presigned download URL, with why no text when text was wanted."""

    size_bytes: int | None
    text_unavailable: str | None
    url: str
    expires_at: str | None

    @classmethod
    def of(
        cls, agent_id: str, path: str, link: ArtifactDownload, unavailable: str | None = None, size: int | None = None
    ) -> ArtifactLink:
        return cls(
            agent_id=agent_id,
            path=path,
            size_bytes=size,
            text_unavailable=unavailable,
            url=link.url,
            expires_at=link.expires_at,
        )


class ArtifactImage(_ArtifactHead):
    """An image artifact: shown to the client as image content after this JSON, with its download URL."""

    image: str = "attached after this JSON as image content"
    mime_type: str
    size_bytes: int
    width: int
    height: int
    url: str
    expires_at: str | None

    @classmethod
    def of(cls, agent_id: str, path: str, link: ArtifactDownload, size: int, image: Recognised) -> ArtifactImage:
        box = image.dimension
        return cls(
            agent_id=agent_id,
            path=path,
            mime_type=image.mime_type,
            size_bytes=size,
            width=box.width,
            height=box.height,
            url=link.url,
            expires_at=link.expires_at,
        )


class MessageRow(View):
    """A conversation message; a cut one says where its text goes on (`next_text_offset`)."""

    index: int
    role: str
    text: str
    text_offset: int | None
    text_chars: int | None
    next_text_offset: int | None

    @classmethod
    def of(cls, index: int, role: str, text: str, start: int, end: int) -> MessageRow:
        """The message's prepared `text` from `start` to `end`; its length and the offset to go on, when cut."""
        cut = bool(start) or end < len(text)
        return cls(
            index=index,
            role=role,
            text=text[start:end],
            text_offset=start or None,
            text_chars=len(text) if cut else None,
            next_text_offset=end if end < len(text) else None,
        )


class ConversationView(View):
    """A window of an agent's conversation (`next_offset` while messages remain)."""

    agent_id: str
    total_messages: int
    messages: list[MessageRow] = Field(default_factory=list[MessageRow])
    next_offset: int | None = None
    clipped_note: str | None = None
