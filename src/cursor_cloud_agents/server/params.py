"""Parameter types of the tools, each defined once: ids checked exactly, pages, filters, waits, model choice.

Ids are checked by the API client's own id functions (exact `bc-<uuid>` / `run-<uuid>`, any hex
case, answered lowercase) before anything is sent. The check is not a schema `pattern`: a short
description tells a model the shape for fewer catalogue bytes, and the guard refuses the rest with
a `VALIDATION` error. A filter has one limit wherever it appears. Free text read by a tool is judged by
its alphabet before anything is sent (`api.text`, issue 23): a page cursor, a pull request URL and a model
id or value are visible ASCII; a name or URL filter is one line of any script, without control, invisible
or bidi characters; a lone surrogate is refused in both. Waits are `Clamped`: above their maximum they are
brought down to it, not refused.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from cursor_cloud_agents.api import ids, text
from cursor_cloud_agents.core.timing import MAX_WAIT_SECONDS
from cursor_cloud_agents.server.arguments import Clamped

PROMPT_MAX_BYTES = 256 * 1024
"""The largest prompt sent (the API documents none): generous for instructions, far below a pasted dump."""
CURSOR_MAX_CHARS = 2048
"""A page cursor goes into a URL: the API's own are a few hundred characters."""


def prompt_text(text: str) -> str:
    """A prompt worth paying for: not blank, and at most PROMPT_MAX_BYTES of UTF-8."""
    if not text.strip():
        raise ValueError("the prompt is blank")
    if len(text.encode("utf-8", "surrogatepass")) > PROMPT_MAX_BYTES:
        raise ValueError(f"the prompt is over {PROMPT_MAX_BYTES} bytes; put long material in the repository instead")
    return text


def visible_ascii(value: str | None) -> str | None:
    """A token that goes into a URL or is matched against the API's ids (cursor, URL, model id): visible ASCII."""
    return None if value is None else text.token(value, "the value")


def one_line(value: str | None) -> str | None:
    """Free text matched locally (a name, a URL filter): one line without control, invisible or bidi characters."""
    return None if value is None else text.one_line(value, "the text")


def model_parameters(values: dict[str, str] | None) -> dict[str, str] | None:
    """Model parameter names and values: visible ASCII, like the ids and values the API lists."""
    for name, value in (values or {}).items():
        text.token(name, "a parameter name")
        text.token(value, f"the value of {name}")
    return values


def event_id(value: str) -> str:
    """A stream event id as the stream writes them (`<ms>-<seq>`): it goes into a header."""
    if ids.parse_event_id(value) is None:
        raise ValueError("not an event id (<milliseconds>-<sequence>, as last_event_id gives it)")
    return value


AgentId = Annotated[str, AfterValidator(ids.agent_id), Field(description="Agent id, bc-<uuid>.")]
RunId = Annotated[str, AfterValidator(ids.run_id), Field(description="Run id, run-<uuid>.")]
PageLimit = Annotated[int, Field(ge=1, le=100, description="Items per page, 1-100.")]
PageCursor = Annotated[
    str | None,
    Field(max_length=CURSOR_MAX_CHARS, description="next_cursor from the previous page, unchanged."),
    AfterValidator(visible_ascii),
]
NameFilter = Annotated[
    str | None,
    Field(max_length=200, description="Keep names containing this (case-insensitive)."),
    AfterValidator(one_line),
]
UrlFilter = Annotated[
    str | None, Field(description="Keep URLs containing this (case-insensitive)."), AfterValidator(one_line)
]
PrUrl = Annotated[
    str | None, Field(max_length=500, description="Only the agent of this pull request."), AfterValidator(visible_ascii)
]
RunWait = Annotated[int, Field(ge=0, le=MAX_WAIT_SECONDS), Clamped()]
Text = Annotated[str, Field(min_length=1), AfterValidator(prompt_text)]
EventId = Annotated[str, AfterValidator(event_id)]
# Model ids, aliases and values are matched against the model list before anything is sent: no length limit.
ModelId = Annotated[
    str | None,
    Field(description="Model id or alias naming one model; default: account's."),
    AfterValidator(visible_ascii),
]
ModelLookup = Annotated[
    str | None, Field(description="One model (id or alias): adds its variants."), AfterValidator(visible_ascii)
]
Reasoning = Annotated[
    str | None, Field(description="Value of the model's reasoning_param."), AfterValidator(visible_ascii)
]
ModelParams = Annotated[
    dict[str, str] | None,
    Field(description='Other params, e.g. {"fast":"false"}.'),
    AfterValidator(model_parameters),
]
ArtifactPath = Annotated[
    str,
    Field(max_length=text.ARTIFACT_PATH_MAX_CHARS, description="artifacts/... path."),
    AfterValidator(text.artifact_path),
]
# The rules (count, roots, types, size) are in the VALIDATION messages (domain/images.py), not in catalogue bytes.
Images = Annotated[list[str] | None, Field(description="Up to 5: file paths, data: or https URLs.")]
