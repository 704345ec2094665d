"""Parameter types shared by the tools: ids checked exactly, pages, and their short descriptions.

Ids are checked by the API client's own id functions (exact `bc-<uuid>` / `run-<uuid>`, any hex
case, answered lowercase) before anything is sent. The check is not a schema `pattern`: a short
description tells a model the shape for fewer catalogue bytes, and the guard refuses the rest with
a `VALIDATION` error.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from cursor_cloud_agents.api import ids

AgentId = Annotated[str, AfterValidator(ids.agent_id), Field(description="Agent id, bc-<uuid>.")]
RunId = Annotated[str, AfterValidator(ids.run_id), Field(description="Run id, run-<uuid>.")]
PageLimit = Annotated[int, Field(ge=1, le=100, description="Items per page, 1-100.")]
PageCursor = Annotated[str | None, Field(description="next_cursor from the previous page, unchanged.")]
