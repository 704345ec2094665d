"""Parameter types of the tools, each defined once: ids checked exactly, pages, filters, waits, model choice.

Ids are checked by the API client's own id functions (exact `bc-<uuid>` / `run-<uuid>`, any hex
case, answered lowercase) before anything is sent. The check is not a schema `pattern`: a short
description tells a model the shape for fewer catalogue bytes, and the guard refuses the rest with
a `VALIDATION` error. A filter has one limit wherever it appears. Free text read by a tool is judged by
its alphabet before anything is sent (`api.text`: a control or bidi character in a filter or a cursor would
reach a URL or a model unseen): a page cursor, a pull request URL and a model
id or value are visible ASCII; a name or URL filter is one line of any script, without control, invisible
or bidi characters; a lone surrogate is refused in both. Prompts and one-line texts follow the rule set of
`core.texts`, shared with the terminal (one rule for a prompt wherever it is typed): the bounds are
checked there, not in the schema. Waits are `Clamped`: above their maximum they are brought down to it, not refused.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from cursor_cloud_agents.api import ids, text
from cursor_cloud_agents.core import checked_group_id, texts
from cursor_cloud_agents.core.timing import MAX_WAIT_SECONDS
from cursor_cloud_agents.server.pipeline.arguments import Clamped

CURSOR_MAX_CHARS = 2048
"""A page cursor goes into a URL: the API's own are a few hundred characters."""


def prompt_text(value: str) -> str:
    """A prompt worth paying for (`core.texts.prompt`)."""
    return texts.prompt(value)


def visible_ascii(value: str | None) -> str | None:
    """A token that goes into a URL or is matched against the API's ids (cursor, URL, model id): visible ASCII."""
    return None if value is None else text.token(value, "the value")


def one_line(value: str | None) -> str | None:
    """Free text matched locally (a name, a URL filter): one line without control, invisible or bidi characters,
    at most `core.texts.QUERY_MAX_CHARS` (`core.texts.one_line`)."""
    return None if value is None else texts.one_line(value, "the text", texts.QUERY_MAX_CHARS)


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


# Ids carry no description: a model passes back the ids an answer gave it, and a wrong one is refused with
# its shape named (`bc-<uuid>`): 800 catalogue bytes for nothing a model needs.
AgentId = Annotated[str, AfterValidator(ids.agent_id)]
RunId = Annotated[str, AfterValidator(ids.run_id)]
PageLimit = Annotated[int, Field(ge=1, le=100, description="Items per page, 1-100.")]
PageCursor = Annotated[
    str | None,
    Field(max_length=CURSOR_MAX_CHARS, description="A page's next_cursor, unchanged."),
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
# Bounds a model should know before it sends are named in the description too: Codex strips minimum, maximum,
# default and length keywords from the schemas its model sees (docs/clients.md); the server enforces each.
RunWait = Annotated[
    int,
    Field(ge=0, le=MAX_WAIT_SECONDS, description=f"Seconds, 0-{MAX_WAIT_SECONDS} (more waits {MAX_WAIT_SECONDS})."),
    Clamped(),
]
SLICE_MAX_CHARS = 20_000
SliceLimit = Annotated[int, Field(ge=1, le=SLICE_MAX_CHARS, description=f"Chars, 1-{SLICE_MAX_CHARS}.")]
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


class AttemptInput(BaseModel):
    # No docstring: pydantic would publish it in the input schema, costing catalogue bytes.

    model_config = ConfigDict(extra="forbid", strict=True)

    # Described once, on cursor_create_agent's own model fields: the catalogue's bytes are counted.
    model_id: Annotated[str, AfterValidator(visible_ascii)]
    reasoning_level: Annotated[str | None, AfterValidator(visible_ascii)] = None
    model_params: Annotated[dict[str, str] | None, AfterValidator(model_parameters)] = None


GroupId = Annotated[str, AfterValidator(checked_group_id)]
