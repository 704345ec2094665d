"""A call's outcome as the `CallToolResult` the client reads: the tool's answer, or its failure, fitted.

The toolkit runs a call; this makes what it answers (points 4 to 8 of the tool contract in `toolkit.py`):
errors as stable `{code, message, ...}` objects with the message masked and clipped, compact JSON identical
in the text and in `structuredContent`, the byte cap (`RESULT_TOO_LARGE`, never a silent cut), and an
answer that cannot be made turned into INTERNAL with the call's ids.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from mcp_types import CallToolResult, ImageContent, TextContent

from cursor_cloud_agents.core import ToolFailure, failures
from cursor_cloud_agents.server.pipeline.answers import Answers
from cursor_cloud_agents.server.pipeline.answers import size as answer_size
from cursor_cloud_agents.server.pipeline.declaration import CHANGES_NOTHING_AT_CURSOR, ToolSpec
from cursor_cloud_agents.server.pipeline.words import for_model

logger = logging.getLogger("cursor_cloud_agents.tools")

MAX_MESSAGE_CHARS = 2_000


@dataclass(frozen=True)
class Success:
    """A tool's answer, with the arguments brought down to their maximum (said in the answer)."""

    answer: Any
    clamped: dict[str, int]


class Results:
    """Makes every result of one server's calls, with its answer builder (masking, cleaning, the cap)."""

    def __init__(self, answers: Answers) -> None:
        self.answers = answers

    def of_success(
        self, success: Success, spec: ToolSpec, ids: dict[str, str]
    ) -> tuple[CallToolResult, ToolFailure | None]:
        """The answer as `_fitted` makes it, or INTERNAL (with the call's ids) when it cannot be made: raised out
        of the handler, a value that is not JSON reached the client as a bare JSON-RPC error with its text."""
        try:
            return self._fitted(success, spec)
        except Exception:
            logger.exception("internal error in the answer of %s", spec.name)
        ran = (
            ""
            if spec.access in CHANGES_NOTHING_AT_CURSOR
            else " It ran and may have taken effect: do NOT send it again."
        )
        failure = ToolFailure(failures.INTERNAL, f"Internal error in {spec.name}'s answer.{ran} See the server log.")
        failure.with_ids(ids)
        return self.of_failure(failure), failure

    def of_failure(self, failure: ToolFailure) -> CallToolResult:
        """The error result: the failure's payload, its message masked whole, then clipped, then fitted."""
        payload = failure.payload() | {"message": for_model(failure)}  # the next step in the model's words
        message = self.answers.redactor.mask(payload["message"])  # whole: a cut secret would not be recognised
        if len(message) > MAX_MESSAGE_CHARS:
            payload["message"] = message[:MAX_MESSAGE_CHARS] + " [clipped]"
        data, text = self.answers.fit_failure(payload)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data, is_error=True)

    def _fitted(self, success: Success, spec: ToolSpec) -> tuple[CallToolResult, ToolFailure | None]:
        answers = self.answers
        data = answers.prepare(success.answer)
        if success.clamped and isinstance(data, dict):
            data = cast(dict[str, Any], data) | {"clamped": success.clamped}
        data, text = answers.render(data)
        size = answer_size(data)
        if size <= answers.max_bytes:
            return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data), None
        failure = ToolFailure(
            failures.RESULT_TOO_LARGE,
            f"The answer would be {size} bytes, over the "
            f"{answers.max_bytes}-byte cap (CURSOR_MCP_MAX_RESULT_BYTES). To get it, {spec.shrink_hint}.",
            size_bytes=size,
            max_bytes=answers.max_bytes,
        )
        return self.of_failure(failure), failure


def with_images(result: CallToolResult, images: list[ImageContent]) -> CallToolResult:
    """The answer with its images after the JSON text, and without `structuredContent`: Codex hands its model only
    the structured content when there is one, so the image beside it never reached the model; without it, Codex,
    Claude Code and OpenCode all pass the text and the image on (docs/clients.md, as measured with each client)."""
    return CallToolResult(content=[*result.content, *images])
